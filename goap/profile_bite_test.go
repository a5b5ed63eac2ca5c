package goap_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/goap"
)

// wideSpec has n actions: alt (index 0) reaches the goal at cost 5, best
// (index n-1) at cost 1, and the rest are never applicable. With shared,
// every action's effect is on one of a few facts (the one-word paths);
// without, each has a fact of its own (the wide ones).
func wideSpec(n int, shared bool) goap.Spec {
	s := goap.Spec{Name: "wide", Facts: []string{"goal", "locked"}}
	s.Actions = append(s.Actions, goap.ActionSpec{Name: "alt", Effects: map[string]bool{"goal": true}, Cost: goap.Const(5)})
	for i := 1; i < n-1; i++ {
		f := fmt.Sprintf("f%d", i%3)
		if !shared {
			f = fmt.Sprintf("f%d", i)
		}
		if !slices.Contains(s.Facts, f) {
			s.Facts = append(s.Facts, f)
		}
		s.Actions = append(s.Actions, goap.ActionSpec{Name: fmt.Sprintf("noise%d", i),
			Preconditions: map[string]bool{"locked": true}, Effects: map[string]bool{f: true}, Cost: goap.Const(1)})
	}
	s.Actions = append(s.Actions, goap.ActionSpec{Name: "best", Effects: map[string]bool{"goal": true}, Cost: goap.Const(1)})
	s.Goals = []goap.GoalSpec{{Name: "Goal", Conditions: map[string]bool{"goal": true}}}
	return s
}

// TestProfilesOverManyActions: a profile's capabilities are a bit per
// action in 64-bit words; across the word boundaries (63, 64, 65, 128,
// 129 actions) every action keeps its own bit, and every search path
// honours the mask and the cost overrides of the last action.
func TestProfilesOverManyActions(t *testing.T) {
	for _, n := range []int{63, 64, 65, 128, 129} {
		for _, shared := range []bool{true, false} {
			d := mustDomain(t, wideSpec(n, shared))
			where := fmt.Sprintf("%d actions (shared facts %v)", n, shared)
			incapable := map[goap.ActionID]bool{goap.ActionID(n - 1): true}
			var names []string
			for _, a := range []int{1, 62, 63, 64, 65, 127, 128} {
				if a < n-1 {
					incapable[goap.ActionID(a)] = true
				}
			}
			for a := range incapable {
				names = append(names, d.ActionName(a))
			}
			slices.Sort(names)
			noBest, err := d.NewProfile(goap.ProfileSpec{Incapable: names})
			if err != nil {
				t.Fatal(err)
			}
			for a := 0; a < n; a++ {
				if got := noBest.Capable(goap.ActionID(a)); got == incapable[goap.ActionID(a)] {
					t.Errorf("%s: Capable(%d) is %v", where, a, got)
				}
				if !d.DefaultProfile().Capable(goap.ActionID(a)) {
					t.Errorf("%s: the default profile is not capable of %d", where, a)
				}
			}
			dear, err := d.NewProfile(goap.ProfileSpec{Costs: map[string]goap.Cost{"best": goap.Const(9)}})
			if err != nil {
				t.Fatal(err)
			}
			p := goap.NewPlanner(d)
			for _, search := range searches {
				for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.HMax, goap.Blind} {
					for _, tc := range []struct {
						prof *goap.Profile
						want string
						cost float64
					}{{nil, "best", 1}, {noBest, "alt", 5}, {dear, "alt", 5}} {
						res, err := p.Plan(nil, d.Initial(), d.Goal("Goal"), goap.Options{Search: search, Heuristic: h, Profile: tc.prof})
						if err != nil || len(res.Plan) != 1 || d.ActionName(res.Plan[0]) != tc.want || res.Cost != tc.cost {
							t.Errorf("%s, %v %v: %+v, %v; want [%s] at %g", where, search, h, res, err, tc.want, tc.cost)
						}
					}
				}
			}
		}
	}
}
