package agent_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// TestPlanHTNLeaf: a tree whose combat leaf decomposes the battle mage
// HTN's Fight task runs the decomposed plan, decomposes again when a step
// fails, and succeeds when the plan is done; a leaf naming no compound
// task, or a tree without the agent's HTN, is refused at New.
func TestPlanHTNLeaf(t *testing.T) {
	g, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	h, err := htn.NewDomain(g, domains.BattleMageHTN())
	if err != nil {
		t.Fatal(err)
	}
	world := g.Initial()
	failOnce := true
	behaviours := map[string]agent.Behaviour{}
	for a := goap.ActionID(0); int(a) < g.NumActions(); a++ {
		id := a
		behaviours[g.ActionName(a)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
			if g.ActionName(id) == "CastBolt" && failOnce {
				failOnce = false
				return agent.Failure
			}
			g.Apply(id, world)
			return agent.Success
		}}
	}
	var rec agent.Recorder
	var results []string
	leaf := agent.PlanHTN("Fight")
	watch := agent.Sequence(agent.FactIs(g, "enemy_dead", false), leaf)
	tree := agent.Selector(watch, agent.Condition(func(*agent.Agent) bool { results = append(results, "done"); return true }))
	a, err := agent.New(agent.Config{
		Name: "mage", Domain: g, HTN: h, Tree: tree, Behaviours: behaviours,
		Sensor:  func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
		OnEvent: rec.Record,
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 9 {
		a.Tick()
	}
	var plans []string
	for _, e := range rec.Events {
		if e.Kind == agent.PlanMade {
			plans = append(plans, strings.Join(e.Plan, " ")+" "+htn.MTR(e.MTR).String())
		}
	}
	// CastBolt fails once: the leaf decomposes again from where the mage
	// stands (in range, in cover, the staff charged): BoltNow.
	want := []string{"Approach TakeCover Recharge CastBolt 2, 2", "CastBolt 1, 1"}
	if strings.Join(plans, " | ") != strings.Join(want, " | ") {
		t.Errorf("plans %q, want %q", plans, want)
	}
	if enemy, _ := g.Fact("enemy_dead"); !world.Has(enemy) || len(results) == 0 {
		t.Errorf("the enemy is not dead, or the tree never got past the leaf (%v)", results)
	}
	if s := a.Stats(); s.Steps == 0 || s.Expanded != 0 {
		t.Errorf("stats %+v: want decomposition steps and no GOAP search", s)
	}

	for _, c := range []struct {
		cfg  agent.Config
		want string
	}{
		{agent.Config{Domain: g, Tree: agent.PlanHTN("Fight"), Behaviours: behaviours}, `PlanHTN("Fight") needs the agent's HTN`},
		{agent.Config{Domain: g, HTN: h, Tree: agent.Sequence(agent.PlanHTN("CastBolt")), Behaviours: behaviours}, `PlanHTN("CastBolt") names no compound task`},
	} {
		if _, err := agent.New(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New: %v, want %q", err, c.want)
		}
	}
}
