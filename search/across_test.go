package search_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// outcome is how one planner's search ended, in the shared vocabulary.
type outcome struct {
	status search.Status
	bound  search.Bound
	err    error
}

// chainGOAP is a GOAP domain of facts a, b, c where SetA makes a, SetB
// (needing a) makes b, and nothing makes c: goal B takes two steps, goal C
// has no plan.
func chainGOAP(t *testing.T) *goap.Domain {
	t.Helper()
	d, err := goap.NewDomain(goap.Spec{
		Name:  "chain",
		Facts: []string{"a", "b", "c"},
		Actions: []goap.ActionSpec{
			{Name: "SetA", Preconditions: map[string]bool{"a": false}, Effects: map[string]bool{"a": true}, Cost: goap.Const(1)},
			{Name: "SetB", Preconditions: map[string]bool{"a": true, "b": false}, Effects: map[string]bool{"b": true}, Cost: goap.Const(1)},
		},
		Goals: []goap.GoalSpec{{Name: "B", Conditions: map[string]bool{"b": true}}, {Name: "C", Conditions: map[string]bool{"c": true}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// chainHTN decomposes MakeB into SetA then SetB over chainGOAP, and
// MakeC by a method whose condition, c, never holds.
func chainHTN(t *testing.T) *htn.Domain {
	t.Helper()
	d, err := htn.NewDomain(chainGOAP(t), htn.Spec{Root: "MakeB", Tasks: []htn.TaskSpec{
		{Name: "MakeB", Methods: []htn.MethodSpec{{Name: "inOrder", Subtasks: []string{"SetA", "SetB"}}}},
		{Name: "MakeC", Methods: []htn.MethodSpec{{Name: "never", Conditions: map[string]bool{"c": true}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// chainStrips is the same as a STRIPS task: facts a, b, c; goal b, or c
// when unsolvable.
func chainStrips(unsolvable bool) *strips.Task {
	goal := strips.Fact(1)
	if unsolvable {
		goal = 2
	}
	return &strips.Task{Name: "chain", Facts: []string{"(a)", "(b)", "(c)"}, Goal: []strips.Fact{goal},
		Ops: []strips.Op{{Name: "(seta)", PreNot: []strips.Fact{0}, Add: []strips.Fact{0}, Cost: 1}, {Name: "(setb)", Pre: []strips.Fact{0}, PreNot: []strips.Fact{1}, Add: []strips.Fact{1}, Cost: 1}}}
}

// TestErrorsAcrossPlanners provokes, in each of the four planners, every
// limit it has and a proven absence of plans, and checks the one
// vocabulary: a limit is Status LimitReached with its Bound, and an error
// that matches search.ErrLimit (never ErrNoPlan) and holds a
// *search.LimitError naming the planner, goal and bound; no plan is Status
// NoPlan with a nil error, in every planner: none returns ErrNoPlan
// itself, and Status.Err turns the status into it for a caller that wants
// one error for every outcome but a plan.
func TestErrorsAcrossPlanners(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	past, cancelPast := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancelPast()
	g := chainGOAP(t)
	h := chainHTN(t)
	r := twoStepResolver(t)
	goapRun := func(goal string, opt goap.Options) func() outcome {
		return func() outcome {
			res, err := goap.NewPlanner(g).Plan(nil, g.Initial(), g.Goal(goal), opt)
			return outcome{res.Status, res.Bound, err}
		}
	}
	htnRun := func(root string, opt htn.Options) func() outcome {
		return func() outcome {
			var res htn.Result
			task, ok := h.TaskByName(root)
			if !ok {
				t.Fatalf("no HTN task %s", root)
			}
			opt.Root, opt.HasRoot = task, true
			err := htn.NewPlanner(h).Plan(&res, g.Initial(), opt)
			return outcome{res.Status, res.Bound, err}
		}
	}
	resolverRun := func(opt resolver.Options, without string) func() outcome {
		return func() outcome {
			d := r
			if without != "" {
				d = twoStepResolverWithout(t, without)
			}
			res, err := resolver.NewResolver(d).Resolve(nil, d.NewSnapshot(), d.Goal("Done"), opt)
			return outcome{res.Status, res.Bound, err}
		}
	}
	stripsRun := func(unsolvable bool, opt strips.Options) func() outcome {
		return func() outcome {
			opt.Heuristic = strips.Blind
			res, err := strips.Search(chainStrips(unsolvable), opt)
			return outcome{res.Status, res.Bound, err}
		}
	}
	cases := []struct {
		planner, name, goal string
		run                 func() outcome
		status              search.Status
		bound               search.Bound
	}{
		{"goap", "budget", "B", goapRun("B", goap.Options{Limits: search.Limits{Budget: 1}}), search.LimitReached, search.Budget},
		{"goap", "depth", "B", goapRun("B", goap.Options{Limits: search.Limits{MaxDepth: 1}}), search.LimitReached, search.Depth},
		{"goap", "bytes", "B", goapRun("B", goap.Options{Limits: search.Limits{MaxBytes: 64}}), search.LimitReached, search.Bytes},
		{"goap", "work", "B", goapRun("B", goap.Options{Limits: search.Limits{MaxWork: 1}}), search.LimitReached, search.Work},
		{"goap", "canceled", "B", goapRun("B", goap.Options{Context: canceled}), search.LimitReached, search.Canceled},
		{"goap", "deadline", "B", goapRun("B", goap.Options{Context: past}), search.LimitReached, search.Deadline},
		{"goap", "no plan", "C", goapRun("C", goap.Options{}), search.NoPlan, search.NoBound},
		{"htn", "steps", "MakeB", htnRun("MakeB", htn.Options{Limits: search.Limits{MaxSteps: 2}}), search.LimitReached, search.Steps},
		{"htn", "bytes", "MakeB", htnRun("MakeB", htn.Options{Limits: search.Limits{MaxBytes: 8}}), search.LimitReached, search.Bytes},
		{"htn", "canceled", "MakeB", htnRun("MakeB", htn.Options{Context: canceled}), search.LimitReached, search.Canceled},
		{"htn", "deadline", "MakeB", htnRun("MakeB", htn.Options{Context: past}), search.LimitReached, search.Deadline},
		{"htn", "no plan", "MakeC", htnRun("MakeC", htn.Options{}), search.NoPlan, search.NoBound},
		{"resolver", "budget", "Done", resolverRun(resolver.Options{Limits: search.Limits{Budget: 1}}, ""), search.LimitReached, search.Budget},
		{"resolver", "depth", "Done", resolverRun(resolver.Options{Limits: search.Limits{MaxDepth: 1}}, ""), search.LimitReached, search.Depth},
		{"resolver", "work", "Done", resolverRun(resolver.Options{Limits: search.Limits{MaxWork: 1}}, ""), search.LimitReached, search.Work},
		{"resolver", "canceled", "Done", resolverRun(resolver.Options{Context: canceled}, ""), search.LimitReached, search.Canceled},
		{"resolver", "deadline", "Done", resolverRun(resolver.Options{Context: past}, ""), search.LimitReached, search.Deadline},
		{"resolver", "no plan", "Done", resolverRun(resolver.Options{}, "Prepare"), search.NoPlan, search.NoBound},
		{"strips", "budget", "chain", stripsRun(false, strips.Options{Limits: search.Limits{Budget: 1}}), search.LimitReached, search.Budget},
		{"strips", "work", "chain", stripsRun(false, strips.Options{Limits: search.Limits{MaxWork: 1}}), search.LimitReached, search.Work},
		{"strips", "bytes", "chain", stripsRun(false, strips.Options{Limits: search.Limits{MaxBytes: 1}}), search.LimitReached, search.Bytes},
		{"strips", "no plan", "chain", stripsRun(true, strips.Options{}), search.NoPlan, search.NoBound},
	}
	for _, c := range cases {
		o := c.run()
		what := c.planner + " " + c.name
		if o.status != c.status || o.bound != c.bound {
			t.Errorf("%s: %v on %q, %v; want %v on %q", what, o.status, o.bound, o.err, c.status, c.bound)
			continue
		}
		if c.status == search.NoPlan {
			if o.err != nil || !errors.Is(o.status.Err(), search.ErrNoPlan) || errors.Is(o.status.Err(), search.ErrLimit) {
				t.Errorf("%s: error %v, status error %v; want nil, and ErrNoPlan from Status.Err", what, o.err, o.status.Err())
			}
			continue
		}
		var le *search.LimitError
		if !errors.Is(o.err, search.ErrLimit) || errors.Is(o.err, search.ErrNoPlan) || !errors.As(o.err, &le) {
			t.Errorf("%s: %v; want an error matching search.ErrLimit, not ErrNoPlan, holding a *search.LimitError", what, o.err)
			continue
		}
		if le.Planner != c.planner || le.Goal != c.goal || le.Bound != c.bound {
			t.Errorf("%s: LimitError %+v; want planner %q, goal %q, bound %v", what, le, c.planner, c.goal, c.bound)
		}
		// Every planner's error for a context's end matches the
		// context's error (strips takes no context).
		if c.bound == search.Canceled && !errors.Is(o.err, context.Canceled) {
			t.Errorf("%s: %v: errors.Is context.Canceled is false", what, o.err)
		}
		if c.bound == search.Deadline && !errors.Is(o.err, context.DeadlineExceeded) {
			t.Errorf("%s: %v: errors.Is context.DeadlineExceeded is false", what, o.err)
		}
		if !errors.Is(o.status.Err(), search.ErrLimit) {
			t.Errorf("%s: Status.Err %v", what, o.status.Err())
		}
	}
}

// twoStepResolverWithout is twoStepResolver's domain less one action.
func twoStepResolverWithout(t *testing.T, action string) *resolver.Domain {
	spec := resolver.Spec{
		Name:  "two",
		Keys:  []resolver.KeySpec{{Name: "ready", Kind: resolver.Bool}, {Name: "done", Kind: resolver.Bool}},
		Goals: []resolver.GoalSpec{{Name: "Done", Conditions: []resolver.Condition{resolver.True("done")}}},
	}
	for _, a := range []resolver.ActionSpec{
		{Name: "Prepare", Effects: []resolver.Effect{resolver.Sets("ready", true)}, Cost: 1},
		{Name: "Finish", Conditions: []resolver.Condition{resolver.True("ready")}, Effects: []resolver.Effect{resolver.Sets("done", true)}, Cost: 1},
	} {
		if a.Name != action {
			spec.Actions = append(spec.Actions, a)
		}
	}
	d, err := resolver.NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
