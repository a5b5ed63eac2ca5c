package agent_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// TestUtilityChoiceRecord: a utility selector's choice of a new action is
// a decision of its own: every option with its score, or why it did not
// count (preconditions unmet, a score that is not a number), the chosen
// action with its cost in the agent's state, the margin, and, when it
// replaces a running action, which one and why. Keeping the running
// action is no new decision.
func TestUtilityChoiceRecord(t *testing.T) {
	w, d, _ := newToy(t)
	w.duration["Recharge"] = 100
	cover := 1.0
	score := func(v *float64) func(*agent.Agent) float64 { return func(*agent.Agent) float64 { return *v } }
	ten, five, nan := 10.0, 5.0, math.NaN()
	tree := agent.Utility(d, 0.5,
		agent.UtilityOption{Action: "CastBolt", Score: score(&ten)}, // not in range, staff not charged
		agent.UtilityOption{Action: "Recharge", Score: score(&five)},
		agent.UtilityOption{Action: "Approach", Score: score(&nan)},
		agent.UtilityOption{Action: "TakeCover", Score: score(&cover)},
	)
	ds := recordOf(t, agent.Config{Name: "u", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor}, func(a *agent.Agent) {
		a.Tick() // chooses Recharge
		cover = 5.5
		a.Tick() // TakeCover within the margin: Recharge kept
		cover = 5.75
		a.Tick() // TakeCover past the margin
	})
	if len(ds) != 2 {
		t.Fatalf("%d decisions, want 2 (a kept action is no decision): %+v", len(ds), ds)
	}
	first, second := ds[0], ds[1]
	if first.Kind != "tree" || first.Decided != "choice" || first.Reason != "utility" || first.Status != "found" || first.Margin != 0.5 || first.Current != "" {
		t.Errorf("first decision %+v", first)
	}
	wantFirst := []agent.GoalScore{
		{Goal: "CastBolt", Utility: true, Why: "preconditions unmet"},
		{Goal: "Recharge", Score: 5, Utility: true, Chosen: true, Why: "highest score"},
		{Goal: "Approach", Utility: true, Why: "score is not a number"},
		{Goal: "TakeCover", Score: 1, Utility: true, Why: "lower score"},
	}
	if !reflect.DeepEqual(first.Options, wantFirst) {
		t.Errorf("first options %+v, want %+v", first.Options, wantFirst)
	}
	if want := []agent.DecisionStep{{Action: "Recharge", Cost: 4}}; !reflect.DeepEqual(first.Plan, want) || first.Cost != 4 {
		t.Errorf("first plan %+v cost %g, want Recharge at 4 (in the open)", first.Plan, first.Cost)
	}
	if second.Current != "Recharge" || len(second.Plan) != 1 || second.Plan[0].Action != "TakeCover" || second.Cost != 2 {
		t.Errorf("second decision %+v, want TakeCover at 2 replacing Recharge", second)
	}
	if len(second.Options) != 4 || second.Options[1] != (agent.GoalScore{Goal: "Recharge", Score: 5, Utility: true, Current: true, Why: "the running action, outscored by more than the margin"}) ||
		second.Options[3] != (agent.GoalScore{Goal: "TakeCover", Score: 5.75, Utility: true, Chosen: true, Why: "highest score"}) {
		t.Errorf("second options %+v", second.Options)
	}
}

// TestUtilityChoiceRecordNamesTheFirstOptionRunning: the action replaced
// is named whichever option it is, the first included.
func TestUtilityChoiceRecordNamesTheFirstOptionRunning(t *testing.T) {
	w, d, _ := newToy(t)
	w.duration["Recharge"] = 100
	five, cover := 5.0, 1.0
	score := func(v *float64) func(*agent.Agent) float64 { return func(*agent.Agent) float64 { return *v } }
	tree := agent.Utility(d, 0.5, agent.UtilityOption{Action: "Recharge", Score: score(&five)}, agent.UtilityOption{Action: "TakeCover", Score: score(&cover)})
	ds := recordOf(t, agent.Config{Name: "u", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor}, func(a *agent.Agent) {
		a.Tick()
		cover = 6
		a.Tick()
	})
	if len(ds) != 2 || ds[1].Current != "Recharge" || ds[1].Options[0].Why != "the running action, outscored by more than the margin" {
		t.Fatalf("decisions %+v; want the second to name Recharge, replaced", ds)
	}
}
