package agent_test

// Tests from an adversarial review of decision records: each failed on
// the first version.

import (
	"bytes"
	"math"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

func recordOf(t *testing.T, cfg agent.Config, ticks func(*agent.Agent)) []agent.Decision {
	fr := agent.NewFlightRecorder(100, 1<<20)
	cfg.Decisions = fr
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ticks(a)
	_, ds := decisions(t, fr, agent.RecordHeader{})
	return ds
}

func TestHTNRecordCostIsItsStepsSum(t *testing.T) {
	w, d, h := newToy(t)
	ds := recordOf(t, agent.Config{Domain: d, HTN: h, Behaviours: w.behaviours(), Sensor: w.sensor}, func(a *agent.Agent) { a.Tick() })
	sum := 0.0
	for _, s := range ds[0].Plan {
		sum += s.Cost
	}
	if sum != ds[0].Cost {
		t.Errorf("HTN record: cost %g, steps %+v sum to %g", ds[0].Cost, ds[0].Plan, sum)
	}
}

func TestTiedOptionIsNotALowerScore(t *testing.T) {
	w, d, _ := newToy(t)
	w.set("healthy", false)
	flag := false
	cfg := goapConfig(w, d, nil)
	cfg.Goals = []agent.GoalOption{
		{Goal: d.Goal("GetHealthy"), Priority: 5, When: func(*agent.Agent) bool { return flag }},
		{Goal: d.Goal("Kill"), Priority: 5},
	}
	ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick(); flag = true; a.RequestReplan(); a.Tick() })
	last := ds[len(ds)-1] // Kill kept at 5; GetHealthy applies at 5
	for _, o := range last.Options {
		if o.Why == "lower score" && o.Score >= 5 {
			t.Errorf("goal %q kept; option %+v is called lower score", last.Goal, o)
		}
	}
}

func TestTreePlanLeafRecordsItsGoalWithAnHTN(t *testing.T) {
	w, d, h := newToy(t)
	ds := recordOf(t, agent.Config{Domain: d, HTN: h, Tree: agent.Plan(d.Goal("Kill")), Behaviours: w.behaviours(), Sensor: w.sensor},
		func(a *agent.Agent) { a.Tick() })
	if ds[0].Kind != "tree" || ds[0].Goal != "Kill" {
		t.Errorf("tree Plan(Kill) leaf recorded as kind %q goal %q", ds[0].Kind, ds[0].Goal)
	}
}

// TestTreePlanLeafRecordsItsGoal: without an HTN, a tree's Plan leaf is
// a GOAP search for the leaf's goal, which the agent does not pursue as
// goal choice's (it has none): the record names the leaf's goal.
func TestTreePlanLeafRecordsItsGoal(t *testing.T) {
	w, d, _ := newToy(t)
	ds := recordOf(t, agent.Config{Domain: d, Tree: agent.Plan(d.Goal("Kill")), Behaviours: w.behaviours(), Sensor: w.sensor},
		func(a *agent.Agent) { a.Tick() })
	if len(ds) == 0 || ds[0].Kind != "tree" || ds[0].Decided != "plan" || ds[0].Goal != "Kill" || ds[0].Current != "" {
		t.Fatalf("tree Plan(Kill) leaf recorded as %+v; want a plan for Kill", ds)
	}
}

func TestInfiniteUtilityStillWrites(t *testing.T) {
	w, d, _ := newToy(t)
	w.set("healthy", false)
	cfg := goapConfig(w, d, nil)
	cfg.Goals[0].Utility = func(*agent.Agent) float64 { return math.Inf(1) }
	fr := agent.NewFlightRecorder(100, 1<<20)
	cfg.Decisions = fr
	a, _ := agent.New(cfg)
	a.Tick()
	var b bytes.Buffer
	if err := fr.WriteJSONL(&b, agent.RecordHeader{}); err != nil {
		t.Errorf("WriteJSONL after a +Inf utility: %v (wrote %d bytes)", err, b.Len())
	}
}

func TestEmptyPlanWrittenOneWay(t *testing.T) {
	line := func(fr *agent.FlightRecorder) string {
		var b bytes.Buffer
		fr.WriteJSONL(&b, agent.RecordHeader{})
		return b.String()[bytes.IndexByte(b.Bytes(), '\n')+1:]
	}
	fr := agent.NewFlightRecorder(1, 1<<20)
	fr.RecordDecision(&agent.Decision{Tick: 1, Status: "no_plan"})
	first := line(fr)
	fr.RecordDecision(&agent.Decision{Plan: []agent.DecisionStep{{Action: "x", Cost: 1}}})
	fr.RecordDecision(&agent.Decision{Tick: 1, Status: "no_plan"})
	if again := line(fr); again != first {
		t.Errorf("one decision written two ways:\n%s%s", first, again)
	}
}

// TestTieWithTheFirstOptionIsNamed: when the first option wins a tie (ties
// go to the earlier option), the later one is "equal score", not "lower".
func TestTieWithTheFirstOptionIsNamed(t *testing.T) {
	w, d, _ := newToy(t)
	w.set("healthy", false)
	cfg := goapConfig(w, d, nil)
	cfg.Goals = []agent.GoalOption{{Goal: d.Goal("GetHealthy"), Priority: 5}, {Goal: d.Goal("Kill"), Priority: 5}}
	ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick() })
	if len(ds) == 0 || len(ds[0].Options) != 2 {
		t.Fatalf("decisions %+v", ds)
	}
	if o := ds[0].Options; !o[0].Chosen || o[1].Why != "equal score: an earlier option first" {
		t.Errorf("options %+v", o)
	}
}
