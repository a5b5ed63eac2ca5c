package goap

import (
	"fmt"
	"testing"
)

// TestChainBuildSharesAchievers: an action that sets several goal
// facts is one achiever of each; its precondition groups depend on the
// action alone and must be made once per build, not once per goal fact it
// sets. On 100 000 facts, an achiever's groups cost a scan of its
// precondition masks (1 563 words), and a goal of 64 facts set by 1 000
// actions rebuilt on each change of goal cost 150 ms where the search
// cost 3.
func TestChainBuildSharesAchievers(t *testing.T) {
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

// TestEstimateEpochWrap: denseSearch.forward's kept estimates across the wrap of
// the estimate epoch and of the search epoch, alternating goals.
func TestEstimateEpochWrap(t *testing.T) {
	spec := Spec{Name: "wrap", Initial: map[string]bool{}}
	for i := 0; i < 6; i++ {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	for i := 0; i < 6; i++ {
		spec.Actions = append(spec.Actions, ActionSpec{
			Name:          fmt.Sprintf("a%d", i),
			Preconditions: map[string]bool{fmt.Sprintf("f%d", (i+5)%6): i%2 == 0},
			Effects:       map[string]bool{fmt.Sprintf("f%d", i): true, fmt.Sprintf("f%d", (i+1)%6): false},
			Cost:          Const(float64(1 + 3*(i%3))),
		})
	}
	spec.Goals = []GoalSpec{
		{Name: "a", Conditions: map[string]bool{"f0": true, "f3": true}},
		{Name: "b", Conditions: map[string]bool{"f1": false, "f4": true, "f5": true}},
	}
	d, err := NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	ref := NewPlanner(d)
	ForceGeneral(ref, true)
	for _, g := range d.Goals() {
		res, _ := ref.Plan(nil, d.NewState(), g, Options{})
		want[g.name] = fmt.Sprint(res.Status, res.Cost)
	}
	for _, start := range []uint32{math32 - 3, 0} {
		p := NewPlanner(d)
		p.estEpoch, p.estimates.issued, p.dense.epoch = start, start, start
		for i := 0; i < 12; i++ {
			g := d.Goals()[i%2]
			if i%4 >= 2 {
				g = d.Goals()[(i/4)%2] // twice the same goal: kept estimates
			}
			res, _ := p.Plan(nil, d.NewState(), g, Options{})
			if got := fmt.Sprint(res.Status, res.Cost); got != want[g.name] {
				t.Fatalf("epochs from %d, plan %d, goal %s: %s, want %s", start, i, g.name, got, want[g.name])
			}
		}
	}
}

const math32 = 1<<32 - 1
