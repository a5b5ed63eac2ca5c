// Package randdomain generates random GOAP domains for property tests and
// benchmarks: negative preconditions and effects, state-dependent cost
// rules, and actions that set several goal facts at once.
package randdomain

import (
	"fmt"
	"math/rand/v2"

	"github.com/ploy-ai/ploy/goap"
)

// Config sizes a random domain.
type Config struct {
	Facts     int
	Actions   int
	MaxPre    int // most preconditions per action
	MaxEff    int // most effects per action (at least 1)
	MaxCost   int // costs are whole numbers in [1, MaxCost]
	RuleProb  float64
	Goals     int
	GoalFacts int // most facts per goal
}

// Small suits exhaustive oracles: 2^Facts states.
var Small = Config{Facts: 7, Actions: 10, MaxPre: 3, MaxEff: 3, MaxCost: 5, RuleProb: 0.4, Goals: 2, GoalFacts: 3}

// FactName returns the name of fact i.
func FactName(i int) string { return fmt.Sprintf("f%d", i) }

// Spec returns a random domain drawn from r.
func Spec(r *rand.Rand, c Config) goap.Spec {
	spec := goap.Spec{Name: "random", Initial: map[string]bool{}}
	for i := 0; i < c.Facts; i++ {
		spec.Facts = append(spec.Facts, FactName(i))
		if r.IntN(2) == 0 {
			spec.Initial[FactName(i)] = true
		}
	}
	cost := func() float64 { return float64(1 + r.IntN(c.MaxCost)) }
	for i := 0; i < c.Actions; i++ {
		a := goap.ActionSpec{
			Name:          fmt.Sprintf("a%d", i),
			Preconditions: literals(r, c.Facts, r.IntN(c.MaxPre+1)),
			Effects:       literals(r, c.Facts, 1+r.IntN(c.MaxEff)),
			Cost:          goap.Const(cost()),
		}
		if r.Float64() < c.RuleProb {
			var rules []goap.CostRule
			for n := 1 + r.IntN(2); n > 0; n-- {
				rules = append(rules, goap.CostRule{When: literals(r, c.Facts, 1+r.IntN(2)), Cost: cost()})
			}
			a.Cost = goap.Rules(cost(), rules...)
		}
		spec.Actions = append(spec.Actions, a)
	}
	for i := 0; i < c.Goals; i++ {
		spec.Goals = append(spec.Goals, goap.GoalSpec{
			Name:       fmt.Sprintf("g%d", i),
			Conditions: literals(r, c.Facts, 1+r.IntN(c.GoalFacts)),
		})
	}
	return spec
}

// literals returns n distinct facts with random values.
func literals(r *rand.Rand, facts, n int) map[string]bool {
	m := make(map[string]bool, n)
	for _, f := range r.Perm(facts)[:min(n, facts)] {
		m[FactName(f)] = r.IntN(2) == 0
	}
	return m
}
