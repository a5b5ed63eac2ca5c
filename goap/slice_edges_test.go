package goap_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// TestSlicedSearchEdges checks a sliced search's counts and state at its
// edges: Expanded is 0 on a new planner and as a search begins, whatever
// the last one expanded; Bytes does not count a search just begun, which
// holds no nodes yet, nor keeps what a dropped one held; Continue on a
// planner that never began a search panics saying what to call, and
// after the search ended it returns true at once until Result; and a
// search begun with a context already done ends in its first slice
// before any expansion.
func TestSlicedSearchEdges(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	goal := d.Goal("Kill")
	opt := goap.Options{Heuristic: goap.Blind, Search: goap.Backward}

	p := goap.NewPlanner(d)
	if n := p.Expanded(); n != 0 {
		t.Fatalf("a new planner's Expanded is %d", n)
	}
	if r := panicOf(func() { p.Continue(1) }); r == nil || !strings.Contains(fmt.Sprint(r), "call Begin first") {
		t.Fatalf("Continue on a new planner: recovered %v", r)
	}

	p.Begin(nil, d.Initial(), goal, opt)
	if p.Continue(3) {
		t.Fatal("the search ended within 3 expansions")
	}
	if p.Expanded() != 3 {
		t.Fatalf("after a slice of 3: Expanded %d", p.Expanded())
	}
	p.Abandon()
	idle := p.Bytes()
	p.Begin(nil, d.Initial(), goal, opt)
	if n := p.Expanded(); n != 0 {
		t.Fatalf("a search just begun has expanded %d states (the last one 3)", n)
	}
	if b := p.Bytes(); b != idle {
		t.Fatalf("a search just begun: Bytes %d; the idle planner's %d", b, idle)
	}
	for !p.Continue(2) {
	}
	for i := 0; i < 2; i++ {
		if !p.Continue(1) {
			t.Fatal("Continue after the search ended did not report it ended")
		}
	}
	if res, err := p.Result(); err != nil || res.Status != goap.Found {
		t.Fatalf("after Continue past the end: %+v %v", res, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := opt
	done.Context = ctx
	p.Begin(nil, d.Initial(), goal, done)
	if !p.Continue(5) {
		t.Fatal("a search whose context was done went on past its first slice")
	}
	expanded := p.Expanded()
	res, err := p.Result()
	if res.Expanded != 0 || res.Bound != goap.BoundCanceled || expanded != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("begun with a context done: %+v %v (Expanded() %d); want BoundCanceled before any expansion", res, err, expanded)
	}
}

// TestSlicedSearchKeepsItsLimits sweeps the memory and work limits of
// searches that never find their goal, on the paths whose meters count a
// fixed part (forward's and hash32's successor buffers) and with an
// estimate that counts work (GoalCost): a search the memory limit ends
// peaks at no more than MaxBytes, one the work limit ends has done no
// more than MaxWork, and the same search run a state a slice ends
// exactly where the whole one does. On setters, whose every action makes
// a new state early on, an expansion adds nearly the most successors the
// meter allows for: a ceiling that left out the fixed part would show.
func TestSlicedSearchKeepsItsLimits(t *testing.T) {
	cases := []struct {
		name string
		spec goap.Spec
		goal string
		opt  goap.Options
	}{
		{"forward", toggles(40, 0, 1), "Never", goap.Options{MaxDepth: 1000}},
		{"hash32", toggles(20, 0, 1), "Never", goap.Options{}},
		{"forward GoalCost", toggles(40, 0, 1), "Never", goap.Options{MaxDepth: 1000, Heuristic: goap.GoalCost}},
		{"word GoalCost", toggles(40, 0, 1.3), "Never", goap.Options{Heuristic: goap.GoalCost}},
		{"forward setters", setters(40), "All", goap.Options{MaxDepth: 1000, Heuristic: goap.Blind}},
		{"hash32 setters", setters(30), "All", goap.Options{Heuristic: goap.Blind}},
		{"forward traced setters", setters(40), "All", goap.Options{Heuristic: goap.Blind, Trace: &goap.Trace{}}},
	}
	for _, c := range cases {
		d := mustDomain(t, c.spec)
		goal := d.Goal(c.goal)
		whole, slicedP := goap.NewPlanner(d), goap.NewPlanner(d)
		bounds := map[goap.Bound]int{}
		for i := 0; i < 240; i++ {
			opt := c.opt
			opt.Budget = 1 << 30
			if i%2 == 0 {
				opt.MaxBytes = 16384 + i*383
			} else {
				opt.MaxWork = 1000 + i*997
			}
			want, _ := whole.Plan(nil, d.NewState(), goal, opt)
			bounds[want.Bound]++
			if want.Bound == goap.BoundBytes && want.Stats.PeakBytes > int64(opt.MaxBytes) {
				t.Errorf("%s, MaxBytes %d: peaked at %d bytes", c.name, opt.MaxBytes, want.Stats.PeakBytes)
			}
			if want.Bound == goap.BoundWork && want.Stats.Work > int64(opt.MaxWork) {
				t.Errorf("%s, MaxWork %d: did %d units of work", c.name, opt.MaxWork, want.Stats.Work)
			}
			if i%10 == 0 {
				got, _, _ := sliced(t, slicedP, nil, d.NewState(), goal, opt, 1)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s, MaxBytes %d, MaxWork %d: sliced %+v\nwhole  %+v", c.name, opt.MaxBytes, opt.MaxWork, got, want)
				}
			}
		}
		if bounds[goap.BoundBytes] < 40 || bounds[goap.BoundWork] < 40 {
			t.Errorf("%s: searches ended by %v: too few by memory or work to test", c.name, bounds)
		}
	}
}

// setters is n facts, each set by an action of its own, and a goal that
// wants them all: blind, a search of 2^n states.
func setters(n int) goap.Spec {
	s := goap.Spec{Name: "setters", Goals: []goap.GoalSpec{{Name: "All", Conditions: map[string]bool{}}}}
	for i := range n {
		f := fmt.Sprintf("f%d", i)
		s.Facts = append(s.Facts, f)
		s.Actions = append(s.Actions, goap.ActionSpec{Name: "set_" + f, Effects: map[string]bool{f: true}, Cost: goap.Const(1)})
		s.Goals[0].Conditions[f] = true
	}
	return s
}
