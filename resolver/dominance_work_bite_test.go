package resolver_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// TestDominanceWalkCountsAsWork: the walk over the labels that might beat
// a new one counts a unit per label, as docs/resolver.md says, and the
// work limit sees it. A1, A2 and A3 all set a and need b; X, dear, sets b
// and needs c; C sets c. Counted by hand (the units of
// TestWorkLimitIsExact): the goal's a (1); A1 (2) and its b (3), A2 (4,
// 5), A3 (6, 7). Expanding A1: b (8), X (9), the walk over A1 (10), X's c
// (11); X→A1 is the first label with X in front. Expanding A2: b (12), X
// (13), the walk over A2 (14), the walk over X→A1's label, which
// dominates the new one (15). Expanding A3 the same way (16 to 19).
// Expanding X→A1: c (20), C (21, the last check), the walk over X and A1;
// C→X→A1 is then taken: found. So a limit of 21 finds it and 20 stops at
// C, which it would not if the two dominance walks went uncounted.
func TestDominanceWalkCountsAsWork(t *testing.T) {
	setA := []resolver.Effect{resolver.Sets("a", true)}
	needB := []resolver.Condition{resolver.True("b")}
	d := mustDomain(t, resolver.Spec{
		Keys: []resolver.KeySpec{{Name: "a", Kind: resolver.Bool}, {Name: "b", Kind: resolver.Bool}, {Name: "c", Kind: resolver.Bool}},
		Actions: []resolver.ActionSpec{
			{Name: "A1", Conditions: needB, Effects: setA, Cost: 1},
			{Name: "A2", Conditions: needB, Effects: setA, Cost: 2},
			{Name: "A3", Conditions: needB, Effects: setA, Cost: 3},
			{Name: "X", Conditions: []resolver.Condition{resolver.True("c")}, Effects: []resolver.Effect{resolver.Sets("b", true)}, Cost: 10},
			{Name: "C", Effects: []resolver.Effect{resolver.Sets("c", true)}, Cost: 10},
		},
		Goals: []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("a")}}},
	})
	snap := mustSnapshot(t, d, nil, resolver.Point{}, nil)
	r := resolver.NewResolver(d)
	res, err := r.Resolve(nil, snap, d.Goal("G"), resolver.Options{MaxWork: 21})
	if err != nil || res.Status != resolver.Found || !slices.Equal(names(d, res.Chain), []string{"C", "X", "A1"}) || res.Expanded != 5 || res.Generated != 5 {
		t.Errorf("MaxWork 21: %v, %d expanded, %d made, %v; want [C X A1] after expanding the goal, A1, A2, A3 and X→A1, making 5 (X→A2 and X→A3 dominated)",
			names(d, res.Chain), res.Expanded, res.Generated, err)
	}
	res, err = r.Resolve(nil, snap, d.Goal("G"), resolver.Options{MaxWork: 20})
	var se *resolver.SearchError
	if !errors.As(err, &se) || !se.Work || res.Status != resolver.LimitReached || res.Bound != search.Work || res.Expanded != 5 {
		t.Errorf("MaxWork 20: %+v, %v; want the work limit reached in X→A1's expansion", res, err)
	}
}
