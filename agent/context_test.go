package agent_test

import (
	"context"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// TestContextStopsAnAgentsSearches: an agent whose Config.Context is done
// expands nothing when it plans and reports no plan; the same agent with
// a live context plans as it does without one.
func TestContextStopsAnAgentsSearches(t *testing.T) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context) (agent.Stats, []agent.EventKind) {
		world := d.Initial()
		behaviours := map[string]agent.Behaviour{}
		for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
			behaviours[d.ActionName(a)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { return agent.Success }}
		}
		var kinds []agent.EventKind
		mage, err := agent.New(agent.Config{
			Domain:     d,
			Goals:      []agent.GoalOption{{Goal: d.Goal("Kill"), Priority: 1}},
			Behaviours: behaviours,
			Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
			Context:    ctx,
			OnEvent:    func(e agent.Event) { kinds = append(kinds, e.Kind) },
		})
		if err != nil {
			t.Fatal(err)
		}
		mage.Tick()
		return mage.Stats(), kinds
	}
	live, liveKinds := run(context.Background())
	if live.Expanded == 0 || len(liveKinds) < 2 || liveKinds[1] != agent.PlanMade {
		t.Fatalf("with a live context: %+v, events %v; want a plan", live, liveKinds)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, kinds := run(ctx)
	if st.Expanded != 0 || len(kinds) < 2 || kinds[1] != agent.NoPlanFound {
		t.Fatalf("with a canceled context: %+v, events %v; want no plan and nothing expanded", st, kinds)
	}
}
