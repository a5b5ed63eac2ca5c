package goap

import (
	"fmt"
	"testing"
)

// TestReviewChainBuildSharesAchievers: an action that sets several goal
// facts is one achiever of each; its precondition groups depend on the
// action alone and must be made once per build, not once per goal fact it
// sets. On 100 000 facts, an achiever's groups cost a scan of its
// precondition masks (1 563 words), and a goal of 64 facts set by 1 000
// actions rebuilt on each change of goal cost 150 ms where the search
// cost 3.
func TestReviewChainBuildSharesAchievers(t *testing.T) {
	spec := Spec{Name: "shared", Initial: map[string]bool{}}
	for i := 0; i < 20; i++ {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	goal := map[string]bool{}
	for g := 0; g < 8; g++ {
		goal[fmt.Sprintf("f%d", g)] = true
	}
	for q := 0; q < 3; q++ {
		spec.Actions = append(spec.Actions, ActionSpec{
			Name:    fmt.Sprintf("set%d", q),
			Effects: map[string]bool{fmt.Sprintf("f%d", 10+q): true},
			Cost:    Const(float64(2 + q)),
		})
	}
	for a := 0; a < 4; a++ {
		spec.Actions = append(spec.Actions, ActionSpec{
			Name:          fmt.Sprintf("win%d", a),
			Preconditions: map[string]bool{"f10": true, "f11": true, "f12": true},
			Effects:       goal,
			Cost:          Const(float64(1 + a)),
		})
	}
	spec.Goals = []GoalSpec{{Name: "all", Conditions: goal}}
	d, err := NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	var b chainBound
	b.build(d, d.Goal("all"), d.base)
	if len(b.achs) != 8*4 {
		t.Fatalf("%d achievers, want 32", len(b.achs))
	}
	if len(b.grpCost) != 4*3 {
		t.Errorf("%d precondition groups made, want 12: 4 achievers of 3 groups each", len(b.grpCost))
	}
}
