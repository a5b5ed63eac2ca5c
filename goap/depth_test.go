package goap_test

import (
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
)

// TestDepthLimitKeepsDearShortPath: under a depth limit a state keeps
// every path not beaten on both cost and depth. Here {x} is reached first
// cheaply in three steps (ToA, AToC, CToX: cost 3), then dearly in two
// (ToB, BToX: cost 5); with a limit of three steps only the dear path
// leaves room for Finish. A planner that let the cheap path dominate
// regardless of depth would find no plan within the limit.
func TestDepthLimitKeepsDearShortPath(t *testing.T) {
	spec := goap.Spec{
		Name:  "depth",
		Facts: []string{"a", "b", "c", "x", "g"},
		Actions: []goap.ActionSpec{
			{Name: "ToA", Preconditions: map[string]bool{"a": false, "b": false, "c": false, "x": false}, Effects: map[string]bool{"a": true}, Cost: goap.Const(1)},
			{Name: "AToC", Preconditions: map[string]bool{"a": true}, Effects: map[string]bool{"a": false, "c": true}, Cost: goap.Const(1)},
			{Name: "CToX", Preconditions: map[string]bool{"c": true}, Effects: map[string]bool{"c": false, "x": true}, Cost: goap.Const(1)},
			{Name: "ToB", Preconditions: map[string]bool{"a": false, "b": false, "c": false, "x": false}, Effects: map[string]bool{"b": true}, Cost: goap.Const(4)},
			{Name: "BToX", Preconditions: map[string]bool{"b": true}, Effects: map[string]bool{"b": false, "x": true}, Cost: goap.Const(1)},
			{Name: "Finish", Preconditions: map[string]bool{"x": true}, Effects: map[string]bool{"g": true}, Cost: goap.Const(1)},
		},
		Goals: []goap.GoalSpec{{Name: "G", Conditions: map[string]bool{"g": true}}},
	}
	d := mustDomain(t, spec)
	p := goap.NewPlanner(d)
	for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.HMax, goap.Blind} {
		res, err := p.Plan(nil, d.Initial(), d.Goal("G"), goap.Options{Heuristic: h, MaxDepth: 3})
		got := fixture.Names(d, res.Plan)
		if err != nil || res.Status != goap.Found || res.Cost != 6 || len(got) != 3 || got[0] != "ToB" {
			t.Errorf("%v, depth 3: %v %v cost %g, %v; want ToB, BToX, Finish at cost 6", h, res.Status, got, res.Cost, err)
		}
		// Unbounded, the cheap long path wins.
		res, err = p.Plan(nil, d.Initial(), d.Goal("G"), goap.Options{Heuristic: h})
		if err != nil || res.Cost != 4 || len(res.Plan) != 4 {
			t.Errorf("%v, no limit: %v cost %g, %v; want 4 steps at cost 4", h, fixture.Names(d, res.Plan), res.Cost, err)
		}
	}
}
