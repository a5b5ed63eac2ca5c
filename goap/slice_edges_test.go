package goap_test

import (
	"context"
	"errors"
	"fmt"
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
