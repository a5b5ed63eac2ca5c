package search_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// TestNames pins the names the JSON writes: they are a contract.
func TestNames(t *testing.T) {
	for s, want := range map[search.Status]string{
		search.NotSearched: "not_searched", search.Found: "found", search.NoPlan: "no_plan",
		search.LimitReached: "limit_reached", search.Unsupported: "unsupported", 9: "status(9)",
	} {
		if got := s.String(); got != want {
			t.Errorf("Status %d is %q, want %q", s, got, want)
		}
	}
	for b, want := range map[search.Bound]string{
		search.NoBound: "", search.Budget: "budget", search.Depth: "depth", search.Work: "work",
		search.Bytes: "bytes", search.Steps: "steps", search.Canceled: "canceled", search.Deadline: "deadline", 12: "bound(12)",
	} {
		if got := b.String(); got != want {
			t.Errorf("Bound %d is %q, want %q", b, got, want)
		}
	}
	var zero struct {
		s search.Status
		b search.Bound
	}
	if zero.s != search.NotSearched || zero.b != search.NoBound {
		t.Errorf("zero values %v, %v: want NotSearched and NoBound, so that an empty result never reads as found", zero.s, zero.b)
	}
}

func TestStatusErr(t *testing.T) {
	for s, want := range map[search.Status]error{
		search.NotSearched: nil, search.Found: nil, search.NoPlan: search.ErrNoPlan,
		search.LimitReached: search.ErrLimit, search.Unsupported: search.ErrUnsupported,
	} {
		if got := s.Err(); got != want {
			t.Errorf("%v.Err() = %v, want %v", s, got, want)
		}
	}
}

// TestLimitSentinels: a planner's sentinel matches ErrLimit, and not the
// other way round; LimitError matches both its sentinel and ErrLimit.
func TestLimitSentinels(t *testing.T) {
	own := search.LimitSentinel("my limit")
	if !errors.Is(own, search.ErrLimit) || errors.Is(search.ErrLimit, own) || own.Error() != "my limit" {
		t.Errorf("a sentinel: Is ErrLimit %v, ErrLimit Is it %v, text %q", errors.Is(own, search.ErrLimit), errors.Is(search.ErrLimit, own), own)
	}
	if errors.Is(own, search.ErrBudgetExhausted) || errors.Is(search.ErrBudgetExhausted, own) {
		t.Error("two sentinels match each other")
	}
	err := fmt.Errorf("wrapped: %w", &search.LimitError{Planner: "x", Goal: "g", Bound: search.Work, Limit: 7, Err: own})
	var le *search.LimitError
	if !errors.Is(err, own) || !errors.Is(err, search.ErrLimit) || !errors.As(err, &le) || le.Limit != 7 {
		t.Errorf("a wrapped LimitError: %v", err)
	}
	if errors.Is(err, search.ErrNoPlan) || errors.Is(err, search.ErrBudgetExhausted) {
		t.Error("a work limit matches another sentinel")
	}
	for _, c := range []struct {
		e    search.LimitError
		want string
	}{
		{search.LimitError{Planner: "goap", Goal: "Kill", Bound: search.Budget, Limit: 5}, `goap: "Kill": node budget of 5 exhausted`},
		{search.LimitError{Planner: "resolver", Goal: "Warm", Bound: search.Depth, Limit: 2}, `resolver: "Warm": no plan of at most 2 steps`},
		{search.LimitError{Planner: "htn", Goal: "Root", Bound: search.Steps, Limit: 9}, `htn: "Root": steps limit of 9 reached`},
		{search.LimitError{Planner: "htn", Goal: "Root", Bound: search.Canceled}, `htn: "Root": search stopped: its context was canceled`},
		{search.LimitError{Planner: "strips", Goal: "p1", Bound: search.Deadline}, `strips: "p1": search stopped: its context's deadline passed`},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// TestEveryPlannersLimitIsALimit stops a real search of each planner with
// a limit and checks that one errors.Is serves them all, that errors.As
// finds the LimitError naming the planner and goal, and that each
// Result's Bound says which limit it was.
func TestEveryPlannersLimitIsALimit(t *testing.T) {
	type outcome struct {
		status search.Status
		bound  search.Bound
		err    error
	}
	runs := map[string]func(t *testing.T) (outcome, string){
		"goap": func(t *testing.T) (outcome, string) {
			d, err := goap.NewDomain(domains.BattleMage())
			if err != nil {
				t.Fatal(err)
			}
			res, err := goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Budget: 1, Heuristic: goap.Blind})
			return outcome{res.Status, res.Bound, err}, "Kill"
		},
		"htn": func(t *testing.T) (outcome, string) {
			g, err := goap.NewDomain(domains.BattleMage())
			if err != nil {
				t.Fatal(err)
			}
			d, err := htn.NewDomain(g, domains.BattleMageHTN())
			if err != nil {
				t.Fatal(err)
			}
			var res htn.Result
			err = htn.NewPlanner(d).Plan(&res, g.Initial(), htn.Options{MaxSteps: 2})
			return outcome{res.Status, res.Bound, err}, "BeABattleMage"
		},
		"resolver": func(t *testing.T) (outcome, string) {
			d := twoStepResolver(t)
			res, err := resolver.NewResolver(d).Resolve(nil, d.NewSnapshot(), d.Goal("Done"), resolver.Options{Budget: 1})
			return outcome{res.Status, res.Bound, err}, "Done"
		},
	}
	want := map[string]search.Bound{"goap": search.Budget, "htn": search.Steps, "resolver": search.Budget}
	for name, run := range runs {
		o, goal := run(t)
		var le *search.LimitError
		if o.status != search.LimitReached || o.bound != want[name] || !errors.Is(o.err, search.ErrLimit) || !errors.As(o.err, &le) {
			t.Errorf("%s: %v on %v, %v; want the limit reached on %v, an error matching search.ErrLimit", name, o.status, o.bound, o.err, want[name])
			continue
		}
		if le.Planner != name || le.Goal != goal || le.Bound != o.bound {
			t.Errorf("%s: LimitError %+v, want planner %q, goal %q, bound %v", name, le, name, goal, o.bound)
		}
		if errors.Is(o.err, search.ErrNoPlan) {
			t.Errorf("%s: a limit matches ErrNoPlan", name)
		}
	}

	// goap's and the resolver's budget sentinels are one value now, so
	// errors.Is against either matches the other planner's error.
	if goap.ErrBudgetExhausted != resolver.ErrBudgetExhausted || goap.ErrDepthExceeded != resolver.ErrDepthExceeded {
		t.Error("goap's and the resolver's sentinels differ")
	}

	// strips: an expansion limit, and the sentinel matches ErrLimit.
	task := &strips.Task{Facts: []string{"(a)", "(b)", "(c)"}, Init: []strips.Fact{0}, Goal: []strips.Fact{2},
		Ops: []strips.Op{{Name: "(ab)", Pre: []strips.Fact{0}, Add: []strips.Fact{1}, Cost: 1}, {Name: "(bc)", Pre: []strips.Fact{1}, Add: []strips.Fact{2}, Cost: 1}}}
	res, err := strips.Search(task, strips.Options{Heuristic: strips.Blind, MaxExpansions: 1})
	if res.Status != search.LimitReached || res.Bound != search.Budget || !errors.Is(err, strips.ErrOutOfExpansions) || !errors.Is(err, search.ErrLimit) {
		t.Errorf("strips: %v on %v, %v; want the expansion limit", res.Status, res.Bound, err)
	}
	if res, err := strips.Search(task, strips.Options{Heuristic: strips.Blind}); res.Status != search.Found || err != nil {
		t.Errorf("strips unlimited: %v, %v", res.Status, err)
	}

	// A context's end is a limit too, and still matches the context's
	// error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := twoStepResolver(t)
	rres, err := resolver.NewResolver(d).Resolve(nil, d.NewSnapshot(), d.Goal("Done"), resolver.Options{Context: ctx})
	if rres.Status != search.LimitReached || rres.Bound != search.Canceled || !errors.Is(err, context.Canceled) || !errors.Is(err, search.ErrLimit) {
		t.Errorf("resolver, canceled: %v on %v, %v", rres.Status, rres.Bound, err)
	}
}

// twoStepResolver is a resolver domain whose goal takes a chain of two
// actions, Prepare then Finish.
func twoStepResolver(t *testing.T) *resolver.Domain {
	d, err := resolver.NewDomain(resolver.Spec{
		Name: "two",
		Keys: []resolver.KeySpec{{Name: "ready", Kind: resolver.Bool}, {Name: "done", Kind: resolver.Bool}},
		Actions: []resolver.ActionSpec{
			{Name: "Prepare", Effects: []resolver.Effect{resolver.Sets("ready", true)}, Cost: 1},
			{Name: "Finish", Conditions: []resolver.Condition{resolver.True("ready")}, Effects: []resolver.Effect{resolver.Sets("done", true)}, Cost: 1},
		},
		Goals: []resolver.GoalSpec{{Name: "Done", Conditions: []resolver.Condition{resolver.True("done")}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := resolver.NewResolver(d).Resolve(nil, d.NewSnapshot(), d.Goal("Done"), resolver.Options{}); res.Status != search.Found || len(res.Chain) != 2 || err != nil {
		t.Fatalf("unlimited: %v %v %v, want the two-step chain", res.Status, res.Chain, err)
	}
	return d
}
