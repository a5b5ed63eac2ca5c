package goap_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// mustPanic calls f and returns the message it panicked with, failing the
// test if it did not panic or panicked with anything but a goap message
// (an index out of range is a runtime.Error, not a string).
func mustPanic(t *testing.T, name string, f func()) (msg string) {
	t.Helper()
	defer func() {
		r := recover()
		s, ok := r.(string)
		if !ok || !strings.HasPrefix(s, "goap: ") {
			t.Errorf("%s: recovered %v (%T), want a goap panic message", name, r, r)
		}
		msg = s
	}()
	f()
	return ""
}

// TestMalformedInputPanicsClearly: states, goals and options that no
// correct caller passes are documented panics with a message saying what
// is wrong, never an index out of range, and never silently accepted.
func TestMalformedInputPanicsClearly(t *testing.T) {
	d := mustDomain(t, domains.BattleMage()) // 8 facts, one word
	other := mustDomain(t, domains.Soldier())
	if d.NumFacts() >= other.NumFacts() || d.NumFacts() >= 64 {
		t.Fatalf("the test needs a wider one-word domain than the battle mage")
	}
	foreign := other.NewState()
	foreign.Set(goap.Fact(other.NumFacts()-1), true) // past the mage's facts
	p := goap.NewPlanner(d)
	kill := d.Goal("Kill")
	for _, c := range []struct {
		name, want string
		start      goap.State
		opt        goap.Options
	}{
		{"state of another domain, same width", "past the 8 facts", foreign, goap.Options{}},
		{"state from words with high bits", "sets bit 63", goap.StateFromWords([]uint64{1 << 63}), goap.Options{}},
		{"state of two words", "has 2 words", goap.StateFromWords([]uint64{0, 0}), goap.Options{}},
		{"heuristic 99", "Heuristic is 99", d.Initial(), goap.Options{Heuristic: 99}},
		{"search 7", "Search is 7", d.Initial(), goap.Options{Search: 7}},
		{"negative depth", "MaxDepth -1", d.Initial(), goap.Options{MaxDepth: -1}},
		{"negative budget", "Budget -1", d.Initial(), goap.Options{Budget: -1}},
		{"negative bytes", "MaxBytes -1", d.Initial(), goap.Options{MaxBytes: -1}},
		{"negative work", "MaxWork -1", d.Initial(), goap.Options{MaxWork: -1}},
	} {
		for _, search := range searches {
			opt := c.opt
			if opt.Search == goap.Forward {
				opt.Search = search
			}
			msg := mustPanic(t, c.name, func() { p.Plan(nil, c.start, kill, opt) })
			if !strings.Contains(msg, c.want) {
				t.Errorf("%s: panic %q does not say %q", c.name, msg, c.want)
			}
		}
		if c.opt == (goap.Options{}) {
			if err := d.CheckState(c.start); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: CheckState gave %v", c.name, err)
			}
		}
	}
	if err := d.CheckState(d.Initial()); err != nil {
		t.Errorf("CheckState(initial): %v", err)
	}
	// A 64-fact domain uses every bit of its word.
	wide := mustDomain(t, goap.Spec{Name: "w", Facts: func() (f []string) {
		for i := 0; i < 64; i++ {
			f = append(f, randdomain.FactName(i))
		}
		return f
	}()})
	if err := wide.CheckState(goap.StateFromWords([]uint64{math.MaxUint64})); err != nil {
		t.Errorf("64 facts, all set: %v", err)
	}
}

// TestCostsBeyondMaxCostRefused: a cost that is not a number, infinite or
// above MaxCost is refused when the domain or profile is built, naming the
// action; MaxCost itself is accepted.
func TestCostsBeyondMaxCostRefused(t *testing.T) {
	for _, c := range []struct {
		cost goap.Cost
		want string
	}{
		{goap.Const(math.NaN()), `actions[0].cost: cost is not a number (action "Approach")`},
		{goap.Const(math.Inf(1)), `actions[0].cost: cost is infinite`},
		{goap.Const(2 * goap.MaxCost), `actions[0].cost: cost is 2e+290; costs must be at most 1e+290, so that a plan's total stays finite (action "Approach")`},
		{goap.Const(math.MaxFloat64), `costs must be at most 1e+290`},
		{goap.Rules(1, goap.CostRule{When: map[string]bool{"in_cover": true}, Cost: math.NaN()}), `actions[0].cost[0].cost: cost is not a number (action "Approach")`},
		{goap.Rules(math.Inf(1), goap.CostRule{When: map[string]bool{"in_cover": true}, Cost: 1}), `actions[0].cost[1].cost: default cost is infinite`},
		{goap.Func(math.NaN(), func(goap.State) float64 { return 1 }), `declared minimum cost is not a number (action "Approach")`},
	} {
		spec := domains.BattleMage()
		spec.Actions[0].Cost = c.cost
		_, err := goap.NewDomain(spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewDomain: got %v, want %q", err, c.want)
		}
	}
	spec := domains.BattleMage()
	spec.Actions[0].Cost = goap.Const(goap.MaxCost)
	d := mustDomain(t, spec)
	if _, err := d.NewProfile(goap.ProfileSpec{Costs: map[string]goap.Cost{"Recharge": goap.Const(math.Inf(1))}}); err == nil || !strings.Contains(err.Error(), "costs.Recharge: cost is infinite") {
		t.Errorf("NewProfile: got %v", err)
	}
}

// TestCostSumsStayFinite: a long plan of actions at MaxCost has a finite
// total on every search path, where costs near the float range once made
// Plan report cost +Inf with Found.
func TestCostSumsStayFinite(t *testing.T) {
	const n = 300
	spec := goap.Spec{Name: "dear chain"}
	for i := 0; i < n; i++ {
		spec.Facts = append(spec.Facts, randdomain.FactName(i))
	}
	for i := 0; i < n; i++ {
		a := goap.ActionSpec{Name: fmt.Sprintf("step%d", i), Effects: map[string]bool{randdomain.FactName(i): true}, Cost: goap.Const(goap.MaxCost)}
		if i > 0 {
			a.Preconditions = map[string]bool{randdomain.FactName(i - 1): true}
		}
		spec.Actions = append(spec.Actions, a)
	}
	spec.Goals = []goap.GoalSpec{{Name: "Last", Conditions: map[string]bool{randdomain.FactName(n - 1): true}}}
	d := mustDomain(t, spec)
	p := goap.NewPlanner(d)
	for _, search := range searches {
		for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.HMax, goap.Blind} {
			for _, depth := range []int{0, n} {
				res, err := p.Plan(nil, d.Initial(), d.Goal("Last"), goap.Options{Search: search, Heuristic: h, MaxDepth: depth, Trace: &goap.Trace{}})
				if err != nil || res.Status != goap.Found || len(res.Plan) != n || math.IsInf(res.Cost, 0) || res.Cost < n*1e290*(1-1e-9) {
					t.Errorf("%v %v depth %d: %v steps, cost %g, %v", search, h, depth, len(res.Plan), res.Cost, err)
				}
			}
		}
	}
}

// TestFuncCostOutOfRangePanics: a Go cost function's result is checked
// where it is used: NaN, infinite or above MaxCost panics, naming the
// action.
func TestFuncCostOutOfRangePanics(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), 2 * goap.MaxCost} {
		spec := domains.BattleMage()
		spec.Actions[0].Cost = goap.Func(1, func(goap.State) float64 { return v })
		d := mustDomain(t, spec)
		msg := mustPanic(t, fmt.Sprint(v), func() { goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{}) })
		if !strings.Contains(msg, `action "Approach"`) || !strings.Contains(msg, fmt.Sprint(v)) {
			t.Errorf("%g: panic %q does not name the action and the value", v, msg)
		}
	}
}

// ruleHeavy is a domain of n actions whose cost rule lists each split into
// 2^11 - 1 exclusive cases (ten rules of two facts: each rule either holds,
// or fails at its first or its second fact, and the next rule splits each
// failing branch again), over facts facts.
func ruleHeavy(n, facts int) goap.Spec {
	spec := goap.Spec{Name: "rules"}
	for i := 0; i < facts; i++ {
		spec.Facts = append(spec.Facts, randdomain.FactName(i))
	}
	for i := 0; i < n; i++ {
		var rules []goap.CostRule
		for k := 0; k < 10; k++ {
			rules = append(rules, goap.CostRule{When: map[string]bool{randdomain.FactName(2 * k): true, randdomain.FactName(2*k + 1): false}, Cost: float64(k + 1)})
		}
		spec.Actions = append(spec.Actions, goap.ActionSpec{Name: fmt.Sprintf("a%d", i), Effects: map[string]bool{randdomain.FactName(20 + i%10): true}, Cost: goap.Rules(20, rules...)})
	}
	return spec
}

// TestRuleCasesCappedInAll: every action's rule list is under the
// per-action cap, but together they pass the total: the domain is refused
// at the action where the total is passed, on a narrow domain (the count
// decides) and a wide one (the cases' masks do).
func TestRuleCasesCappedInAll(t *testing.T) {
	const perAction = 1<<11 - 1
	for _, c := range []struct {
		facts, limit int
	}{
		{64, 1 << 18},                     // one word
		{100_000, (1 << 23) / (2 * 1563)}, // 1 563 words
	} {
		first := c.limit / perAction // actions 0 .. first-1 fit
		if _, err := goap.NewDomain(ruleHeavy(first, c.facts)); err != nil {
			t.Fatalf("%d facts, %d actions: %v", c.facts, first, err)
		}
		_, err := goap.NewDomain(ruleHeavy(first+50, c.facts))
		want := fmt.Sprintf(`goap: actions[%d].cost: the rule lists of all actions split into more than %d exclusive cases in all, passed at action "a%d"`, first, c.limit, first)
		var se *goap.SpecError
		if err == nil || err.Error() != want || !errors.As(err, &se) {
			t.Errorf("%d facts: got %v, want %s", c.facts, err, want)
		}
	}
}
