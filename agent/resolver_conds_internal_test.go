package agent

import (
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// TestResolverAgentConditionsAgreeWithTheResolver: the agent compiles
// its goals' and actions' conditions to judge them every tick without a
// snapshot check; on every operator, at and around its constant, the
// compiled condition must say what the resolver says.
func TestResolverAgentConditionsAgreeWithTheResolver(t *testing.T) {
	var goals []resolver.GoalSpec
	for _, c := range []resolver.Condition{
		resolver.Above("k", 5), resolver.AtLeastOf("k", 5), resolver.Below("k", 5), resolver.AtMostOf("k", 5),
		resolver.True("b"), resolver.False("b"),
	} {
		goals = append(goals, resolver.GoalSpec{Name: c.String(), Conditions: []resolver.Condition{c}})
	}
	d, err := resolver.NewDomain(resolver.Spec{
		Name:    "ops",
		Keys:    []resolver.KeySpec{{Name: "k", Kind: resolver.Int}, {Name: "b", Kind: resolver.Bool}},
		Actions: []resolver.ActionSpec{{Name: "Up", Effects: []resolver.Effect{resolver.Raises("k"), resolver.Sets("b", true)}, Cost: 1}},
		Goals:   goals,
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := ResolverConfig{Domain: d, Sensor: func(*ResolverAgent, *resolver.Snapshot) {}, Behaviours: map[string]ResolverBehaviour{"Up": ResolverFuncs{}}}
	for _, g := range d.Goals() {
		cfg.Goals = append(cfg.Goals, ResolverGoal{Goal: g})
	}
	a, err := NewResolverAgent(cfg)
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
				if got, want := allHold(a.resolverWorld().goals[i].conds, s.Values), g.Holds(s); got != want {
					t.Errorf("%s with k=%d, b=%d: the agent says %v, the resolver %v", g.Name(), v, bv, got, want)
				}
			}
		}
	}
}
