package resolver_test

import (
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// TestHoldsInAgainstTheOperators judges Goal.Holds, Goal.HoldsIn and
// Domain.ConditionsHoldIn against each operator's definition written out
// here (k > 5, k >= 5, ...), not against one another: Holds delegates to
// HoldsIn, so TestHoldsInAgreesWithHolds alone passes even with every
// judgement inverted (a mutant that dropped the `!` in the shared loop
// lived through the package's tests). A goal or action of two conditions
// holds only when both do; an action with none always.
func TestHoldsInAgainstTheOperators(t *testing.T) {
	type opCase struct {
		cond resolver.Condition
		want func(k, b int64) bool
	}
	ops := []opCase{
		{resolver.Above("k", 5), func(k, _ int64) bool { return k > 5 }},
		{resolver.AtLeastOf("k", 5), func(k, _ int64) bool { return k >= 5 }},
		{resolver.Below("k", 5), func(k, _ int64) bool { return k < 5 }},
		{resolver.AtMostOf("k", 5), func(k, _ int64) bool { return k <= 5 }},
		{resolver.True("b"), func(_, b int64) bool { return b == 1 }},
		{resolver.False("b"), func(_, b int64) bool { return b == 0 }},
	}
	both := opCase{want: func(k, b int64) bool { return k > 5 && b == 1 }}
	var goals []resolver.GoalSpec
	var actions []resolver.ActionSpec
	add := func(name string, conds ...resolver.Condition) {
		goals = append(goals, resolver.GoalSpec{Name: name, Conditions: conds})
		actions = append(actions, resolver.ActionSpec{Name: "if " + name, Conditions: conds, Effects: []resolver.Effect{resolver.Raises("k")}, Cost: 1})
	}
	for _, o := range ops {
		add(o.cond.String(), o.cond)
	}
	add("k > 5 and b", resolver.Above("k", 5), resolver.True("b"))
	actions = append(actions, resolver.ActionSpec{Name: "free", Effects: []resolver.Effect{resolver.Raises("k")}, Cost: 1})
	cases := append(ops, both)
	d := mustDomain(t, resolver.Spec{
		Keys:    []resolver.KeySpec{{Name: "k", Kind: resolver.Int}, {Name: "b", Kind: resolver.Bool}},
		Actions: actions,
		Goals:   goals,
	})
	s := d.NewSnapshot()
	k, _ := d.Key("k")
	b, _ := d.Key("b")
	free, _ := d.ActionByName("free")
	for _, kv := range []int64{-1 << 63, 4, 5, 6, 1<<63 - 1} {
		for _, bv := range []int64{0, 1} {
			s.Values[k], s.Values[b] = kv, bv
			for i, g := range d.Goals() {
				want := cases[i].want(kv, bv)
				if got := g.Holds(s); got != want {
					t.Errorf("goal %s with k=%d, b=%d: Holds says %v, want %v", g.Name(), kv, bv, got, want)
				}
				if got := g.HoldsIn(s.Values); got != want {
					t.Errorf("goal %s with k=%d, b=%d: HoldsIn says %v, want %v", g.Name(), kv, bv, got, want)
				}
				if got := d.ConditionsHoldIn(resolver.ActionID(i), s.Values); got != want {
					t.Errorf("action %s with k=%d, b=%d: ConditionsHoldIn says %v, want %v", d.ActionName(resolver.ActionID(i)), kv, bv, got, want)
				}
			}
			if !d.ConditionsHoldIn(free, s.Values) {
				t.Errorf("an action with no conditions, k=%d, b=%d: ConditionsHoldIn says false", kv, bv)
			}
		}
	}
}
