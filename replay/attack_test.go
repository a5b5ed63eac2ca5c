package replay_test

import (
	"io/fs"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/replaycheck"
	"github.com/ploy-ai/ploy/replay"
)

// stillMage is a battle mage whose actions run for ever (so that only
// the test's RequestReplan and goal choice make decisions), sensing
// world.
func stillMage(t *testing.T, d *goap.Domain, world goap.State, fr *agent.FlightRecorder, goals []agent.GoalOption) agent.Config {
	t.Helper()
	beh := map[string]agent.Behaviour{}
	for id := range d.NumActions() {
		beh[d.ActionName(goap.ActionID(id))] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { return agent.Running }}
	}
	return agent.Config{Name: "mage", Domain: d, Goals: goals, Behaviours: beh,
		Sensor: func(_ *agent.Agent, f goap.State) { f.CopyFrom(world) }, Decisions: fr}
}

// TestAttackDuplicateGoalNamesKeepTheCurrentOption: two goal options of
// one goal (Kill at 5 once the fight is on, Kill at 8 always). The agent
// pursues the second; when GetHealthy, between them, ties it at 8, the
// agent keeps its goal, as goal choice keeps the current option at an
// equal score. The replay must too, whichever of the two same-named
// options was the current one.
func TestAttackDuplicateGoalNamesKeepTheCurrentOption(t *testing.T) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	world := d.Initial()
	healthy, _ := d.Fact(domains.Healthy)
	world.Set(healthy, false)
	fight := false
	on := func(*agent.Agent) bool { return fight }
	fr := agent.NewFlightRecorder(100, 1<<20)
	a, err := agent.New(stillMage(t, d, world, fr, []agent.GoalOption{
		{Goal: d.Goal("Kill"), Priority: 5, When: on},
		{Goal: d.Goal("GetHealthy"), Priority: 8, When: on},
		{Goal: d.Goal("Kill"), Priority: 8},
	}))
	if err != nil {
		t.Fatal(err)
	}
	a.Tick() // Kill, the third option: the only one that applies
	fight = true
	a.RequestReplan()
	a.Tick() // GetHealthy ties the current option: Kill kept
	if got := a.Goal().Name(); got != "Kill" {
		t.Fatalf("the agent pursues %s, want Kill kept", got)
	}
	rep := replaycheck.Reproduces(t, fr, replay.Domain{GOAP: d}, 2)
	if rep.Decisions != 2 {
		t.Errorf("%d decisions, want 2", rep.Decisions)
	}
}

// TestAttackSetProfileOnAFileKind: an agent configured from a file's
// agent kind, whose profile the game changes at run time (SetProfile: a
// wounded mage whose spells cost more), is replayed against that same
// file: its decisions after the change must be decided with the profile it
// searched with, not the kind's.
func TestAttackSetProfileOnAFileKind(t *testing.T) {
	src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := domain.Parse("battlemage.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	var kind *domain.Agent
	for _, k := range f.Agents {
		if k.Name == "goap" {
			kind = k
		}
	}
	if kind == nil {
		t.Fatal("battlemage.yaml has no goap kind")
	}
	d := f.GOAP
	world := d.Initial()
	fr := agent.NewFlightRecorder(100, 1<<20)
	cfg := stillMage(t, d, world, fr, nil)
	if err := agentfile.Configure(&cfg, kind, func(*agent.Agent) []float64 { return []float64{100} }); err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.Tick()
	costs := map[string]goap.Cost{}
	for id := range d.NumActions() {
		costs[d.ActionName(goap.ActionID(id))] = goap.Const(50)
	}
	wounded, err := d.NewProfile(goap.ProfileSpec{Costs: costs})
	if err != nil {
		t.Fatal(err)
	}
	a.SetProfile(wounded)
	a.RequestReplan()
	a.Tick()
	replaycheck.Reproduces(t, fr, replay.FromFile(f), 2)
}
