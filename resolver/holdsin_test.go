package resolver_test

import (
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// TestHoldsInAgreesWithHolds: the unchecked judgements the agent runtime
// makes every tick (Goal.HoldsIn, Domain.ConditionsHoldIn,
// Domain.BoolEffectsHoldIn) say what the checked ones say, on every
// operator, at and around its constant, with booleans both ways.
func TestHoldsInAgreesWithHolds(t *testing.T) {
	conds := []resolver.Condition{
		resolver.Above("k", 5), resolver.AtLeastOf("k", 5), resolver.Below("k", 5), resolver.AtMostOf("k", 5),
		resolver.True("b"), resolver.False("b"),
	}
	var goals []resolver.GoalSpec
	var actions []resolver.ActionSpec
	for _, c := range conds {
		goals = append(goals, resolver.GoalSpec{Name: c.String(), Conditions: []resolver.Condition{c}})
		actions = append(actions, resolver.ActionSpec{Name: "if " + c.String(), Conditions: []resolver.Condition{c}, Effects: []resolver.Effect{resolver.Raises("k")}, Cost: 1})
	}
	actions = append(actions,
		resolver.ActionSpec{Name: "set b", Effects: []resolver.Effect{resolver.Raises("k"), resolver.Sets("b", true)}, Cost: 1},
		resolver.ActionSpec{Name: "clear b", Effects: []resolver.Effect{resolver.Sets("b", false)}, Cost: 1},
		resolver.ActionSpec{Name: "raise k", Effects: []resolver.Effect{resolver.Raises("k")}, Cost: 1})
	d, err := resolver.NewDomain(resolver.Spec{
		Name:    "ops",
		Keys:    []resolver.KeySpec{{Name: "k", Kind: resolver.Int}, {Name: "b", Kind: resolver.Bool}},
		Actions: actions,
		Goals:   goals,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := d.NewSnapshot()
	k, _ := d.Key("k")
	b, _ := d.Key("b")
	for _, v := range []int64{-1 << 63, 3, 4, 5, 6, 7, 1<<63 - 1} {
		for _, bv := range []int64{0, 1} {
			s.Values[k], s.Values[b] = v, bv
			for i, g := range d.Goals() {
				want := g.Holds(s)
				if got := g.HoldsIn(s.Values); got != want {
					t.Errorf("goal %s with k=%d, b=%d: HoldsIn says %v, Holds %v", g.Name(), v, bv, got, want)
				}
				if got := d.ConditionsHoldIn(resolver.ActionID(i), s.Values); got != want {
					t.Errorf("action %s with k=%d, b=%d: ConditionsHoldIn says %v, Holds %v", d.ActionName(resolver.ActionID(i)), v, bv, got, want)
				}
			}
			// Boolean effects: "set b" holds where b is 1 whatever k is
			// (its Raises cannot be judged), "clear b" where b is 0, and
			// an action with no boolean effect always.
			for _, c := range []struct {
				action string
				want   bool
			}{{"set b", bv == 1}, {"clear b", bv == 0}, {"raise k", true}} {
				a, _ := d.ActionByName(c.action)
				if got := d.BoolEffectsHoldIn(a, s.Values); got != c.want {
					t.Errorf("%s's boolean effects with k=%d, b=%d: %v, want %v", c.action, v, bv, got, c.want)
				}
			}
		}
	}
}
