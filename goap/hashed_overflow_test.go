package goap_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/ploy-ai/ploy/goap"
)

// counterSpec is a binary counter of n bits: inc_i sets bit i and clears
// the bits below it, when they are all set and bit i is clear. The only
// plan to bit n-1 has 2^(n-1) steps.
func counterSpec(n int, cost float64) goap.Spec {
	s := goap.Spec{Name: "counter"}
	for i := range n {
		s.Facts = append(s.Facts, fmt.Sprintf("b%d", i))
	}
	for i := range n {
		pre, eff := map[string]bool{s.Facts[i]: false}, map[string]bool{s.Facts[i]: true}
		for j := range i {
			pre[s.Facts[j]], eff[s.Facts[j]] = true, false
		}
		s.Actions = append(s.Actions, goap.ActionSpec{Name: fmt.Sprintf("inc%d", i), Preconditions: pre, Effects: eff, Cost: goap.Const(cost)})
	}
	s.Goals = []goap.GoalSpec{{Name: "top", Conditions: map[string]bool{s.Facts[n-1]: true}}}
	return s
}

// TestWholeCostsPastInt32: a plan whose whole cost passes 2^31 (2^21
// steps of cost 1024, on 22 facts: the hashed search's one-word path) is
// found at its cost, as the general search finds it, rather than lost to
// a cost that wrapped negative and read as a superseded node.
func TestWholeCostsPastInt32(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of 2 million states: -short skips it")
	}
	d, err := goap.NewDomain(counterSpec(22, 1024))
	if err != nil {
		t.Fatal(err)
	}
	opt := goap.Options{Heuristic: goap.Blind, Budget: 1 << 23, MaxBytes: min(2<<30, math.MaxInt), MaxWork: min(1<<40, math.MaxInt)}
	res, err := goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goals()[0], opt)
	if err != nil || res.Status != goap.Found || res.Cost != 1024*(1<<21) || len(res.Plan) != 1<<21 {
		t.Fatalf("status %v, cost %v, %d steps, %v; want found at %d in %d steps", res.Status, res.Cost, len(res.Plan), err, int64(1024*(1<<21)), 1<<21)
	}
}
