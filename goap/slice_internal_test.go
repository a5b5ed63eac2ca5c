package goap

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/ploy-ai/ploy/internal/pq"
)

// TestSlicedMeterOverBoundaries checks meter.over where a sliced search
// pauses, or a search with a context looks at it: the slow path, which
// must test the limits exactly as the fast one does. A search whose
// nodes are exactly nodeCap, or whose work is exactly workCap, goes on
// (pausing if its slice is spent); one node or one unit more ends it with
// BoundBytes or BoundWork, and work past workCap with nodes at nodeCap is
// BoundWork, not BoundBytes.
func TestSlicedMeterOverBoundaries(t *testing.T) {
	const (
		budget, nodeCap, workCap = 100, 50, 1000
		perExpansion, expanded   = 10, 5
	)
	est := 0
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, mode := range []string{"paused", "context"} {
		yields := 0
		s := &slicer{left: 3, perNode: 100, fixed: 7}
		newMeter := func() *meter {
			m := &meter{budget: budget, nodeCap: nodeCap, perExpansion: perExpansion, perSuccessor: 1, workCap: workCap, stop: workCap, est: &est, expandCap: budget}
			if mode == "paused" {
				m.slicer, s.pauseAt, m.expandCap = s, expanded, expanded
			} else {
				// The first look at the context is due: the slow path.
				m.ctx, m.nextCheck, m.stop = ctx, 0, 0
			}
			return m
		}
		// generated makes the work (perExpansion per expansion, 1 per
		// successor) come to w after expanded expansions.
		generated := func(w int) int { return w - expanded*perExpansion }
		for _, c := range []struct {
			nodes, work int
			over        bool
			bound       Bound
		}{
			{nodeCap, workCap, false, NoBound},
			{nodeCap + 1, workCap, true, BoundBytes},
			{nodeCap, workCap + 1, true, BoundWork},
			{nodeCap - 1, workCap + 1, true, BoundWork},
		} {
			m := newMeter()
			yields = 0
			res := Result{Expanded: expanded, Generated: generated(c.work)}
			// over runs in the slicer's coroutine, as in a sliced search:
			// each Resume that does not end it counts a pause.
			var got bool
			s.run.Start(func() { got = m.over(&res, c.nodes) })
			for !s.run.Resume() {
				yields++
			}
			if got != c.over || res.Bound != c.bound {
				t.Errorf("%s, %d nodes (cap %d), work %d (cap %d): over %v bound %v; want %v %v", mode, c.nodes, nodeCap, c.work, workCap, got, res.Bound, c.over, c.bound)
			}
			if !c.over && mode == "paused" {
				if yields != 1 {
					t.Errorf("%s, within the limits at the end of the slice: paused %d times, want once", mode, yields)
				}
				if want := int64(c.nodes)*int64(s.perNode) + int64(s.fixed); s.held != want {
					t.Errorf("paused with %d nodes of %d bytes and %d fixed: held %d, want %d", c.nodes, s.perNode, s.fixed, s.held, want)
				}
				if s.pauseAt != expanded+s.left || m.expandCap != expanded+s.left {
					t.Errorf("after a pause at %d with slices of %d: next pause at %d, expandCap %d; want %d", expanded, s.left, s.pauseAt, m.expandCap, expanded+s.left)
				}
			}
		}
	}
}

// TestSlicedSearchHoldsWhatItsPeakCounts checks that what a paused fast
// search counts in Bytes for the nodes its loop holds is what the same
// search stopped there by its budget reports as PeakBytes: the meter's
// own count of nodes times bytes per node, plus the fixed part; and that
// a paused general search counts nothing there, its nodes being in the
// planner's fields, which Bytes counts (before, they were counted twice:
// 1.6 times the memory ceiling where the heap held 0.7 of it). The
// delayed paths test their nodes against their own limit, not in the
// meter, and tell the pause how many they hold (slicer.delayedNodes):
// before they did, a paused delayed search counted none, 0.7 MB where it
// held 21 MB.
func TestSlicedSearchHoldsWhatItsPeakCounts(t *testing.T) {
	for _, c := range []struct {
		cost    float64
		search  Search
		general bool
		path    string
	}{
		{1, Forward, false, "dense"},
		{1, Forward, true, "forward"},
		{1.3, Backward, false, "backward"},
		{1, Forward, false, "delayed.forwardWide"},
		{1, Backward, false, "delayed.backward"},
	} {
		d := ladder(t, c.cost)
		if strings.HasPrefix(c.path, "delayed.") {
			d = wideLadder(t)
		}
		goal := d.Goal("Top")
		opt := Options{Heuristic: Blind, Search: c.search}
		for k := 1; k <= 4; k++ {
			stopped := opt
			stopped.Budget = k
			whole := NewPlanner(d)
			whole.forceGeneral = c.general
			want, _ := whole.Plan(nil, d.Initial(), goal, stopped)
			if want.Status != LimitReached || want.Bound != BoundStates || SearchPath(whole) != c.path {
				t.Fatalf("%s, budget %d: %+v on %s; want a search its budget ends", c.path, k, want, SearchPath(whole))
			}
			general := c.path == "forward" || c.path == "backward"
			p := NewPlanner(d)
			if !general {
				// A sliced general search first, on the same planner:
				// what it told its pauses (inPlanner) must not outlive it.
				p.forceGeneral = true
				p.Begin(nil, d.Initial(), goal, opt)
				for !p.Continue(1) {
				}
				p.Result()
			}
			p.forceGeneral = c.general
			p.Begin(nil, d.Initial(), goal, opt)
			if p.Continue(k) {
				t.Fatalf("%s: the search ended within %d expansions", c.path, k)
			}
			switch {
			case general && p.slicer.held != 0:
				t.Errorf("%s paused after %d expansions: held %d; want 0, its nodes being in the planner's fields", c.path, k, p.slicer.held)
			case !general && p.slicer.held != want.Stats.PeakBytes:
				t.Errorf("%s paused after %d expansions: holds %d bytes for its nodes; stopped there it peaks at %d", c.path, k, p.slicer.held, want.Stats.PeakBytes)
			}
			// Paused, Bytes is what the same search holds stopped there:
			// exactly for the general searches, whose storage is the
			// planner's fields as they grew; at least that for the fast
			// ones, whose loops may still share the arrays Bytes counts.
			if got, whole := p.Bytes(), whole.Bytes(); general && got != whole || got < whole {
				t.Errorf("%s paused after %d expansions: Bytes %d; stopped there the planner holds %d", c.path, k, got, whole)
			}
			p.Abandon()
		}
	}
}

// grown grows s's backing array by at least n elements and returns the
// bytes that added, at capacity.
func grown[E any](s *[]E, n int) int64 {
	var e E
	before := int64(cap(*s)) * int64(unsafe.Sizeof(e))
	*s = slices.Grow(*s, cap(*s)+n)
	return int64(cap(*s))*int64(unsafe.Sizeof(e)) - before
}

// TestSlicedPlannerBytesCountEveryPart checks that Bytes, what a planner
// kept across frames holds, counts each part of its search storage at its
// capacity: growing any one part, on any search path, makes Bytes grow
// by exactly what that part grew by.
func TestSlicedPlannerBytesCountEveryPart(t *testing.T) {
	p := NewPlanner(ladder(t, 1))
	table := func(tab interface {
		Reserve(width, n int)
		Bytes() int64
	}, width int) func() int64 {
		return func() int64 {
			before := tab.Bytes()
			tab.Reserve(width, 4*int(before/8+64))
			return tab.Bytes() - before
		}
	}
	parts := []struct {
		name string
		grow func() int64
	}{
		{"state table", table(&p.tab, 1)},
		{"delayed closed set", table(&p.delayed.closedWide, 2)},
		{"buckets", func() int64 { b := p.buckets.Bytes(); p.buckets.Reserve(1000); return p.buckets.Bytes() - b }},
		{"open list", func() int64 {
			c := p.open.Cap()
			p.open.Reserve(c + 1000)
			return int64(p.open.Cap()-c) * int64(unsafe.Sizeof(pq.Entry{}))
		}},
		{"nodes", func() int64 { return grown(&p.nodes, 1000) }},
		{"successors", func() int64 { return grown(&p.succ, 1000) }},
		{"successor words", func() int64 { return grown(&p.succWords, 1000) }},
		{"word dense", func() int64 { return grown(&p.word.dense, 1000) }},
		{"word nodes", func() int64 { return grown(&p.word.nodes, 1000) }},
		{"word slots", func() int64 { return grown(&p.word.table.slots, 1000) }},
		{"word used", func() int64 { return grown(&p.word.table.used, 1000) }},
		{"dense table", func() int64 { return grown(&p.dense.table, 1000) }},
		{"dense nodes", func() int64 { return grown(&p.dense.nodes, 1000) }},
		{"dense heap", func() int64 {
			c := p.dense.open.Bytes()
			p.dense.open.Reserve(int(c/8) + 1000)
			return p.dense.open.Bytes() - c
		}},
		{"hash32 slots", func() int64 { return grown(&p.hash32.slots, 1000) }},
		{"hash32 nodes", func() int64 { return grown(&p.hash32.nodes, 1000) }},
		{"hash32 successors", func() int64 { return grown(&p.hash32.succ, 1000) }},
		{"hash64 slots", func() int64 { return grown(&p.hash64.slots, 1000) }},
		{"hash64 nodes", func() int64 { return grown(&p.hash64.nodes, 1000) }},
		{"hash64 successors", func() int64 { return grown(&p.hash64.succ, 1000) }},
		{"wide nodes", func() int64 { return grown(&p.delayed.wideNodes, 1000) }},
		{"wide words", func() int64 { return grown(&p.delayed.wideWords, 1000) }},
	}
	for _, part := range parts {
		before := p.Bytes()
		added := part.grow()
		if added <= 0 {
			t.Fatalf("%s: growing it added %d bytes", part.name, added)
		}
		if got := p.Bytes() - before; got != added {
			t.Errorf("%s grew by %d bytes; Bytes by %d", part.name, added, got)
		}
	}
}

// TestHandedOverSearchHoldsOnlyItsOwnNodes: once a delayed search has
// handed over (its queue past its limit), the search that takes over
// counts its own nodes in a pause, not the delayed one's too.
func TestHandedOverSearchHoldsOnlyItsOwnNodes(t *testing.T) {
	d := wideLadder(t)
	for _, search := range []Search{Forward, Backward} {
		p := NewPlanner(d)
		p.delayed.limit = 3 // room for two entries: it hands over at once
		p.Begin(nil, d.Initial(), d.Goal("Top"), Options{Heuristic: Blind, Search: search})
		after := 0
		for !p.Continue(1) {
			if s := p.slicer; s.handed > 0 {
				after++
				if s.delayedNodes != 0 {
					t.Fatalf("%v: paused after the hand-over still counting %d of the delayed search's nodes", search, s.delayedNodes)
				}
			}
		}
		if after == 0 {
			t.Fatalf("%v: no pause after a hand-over (path %s)", search, SearchPath(p))
		}
		p.Abandon()
	}
}

// wideLadder is ladder at cost 1 with 60 facts more that no action
// touches: two words of facts, which the delayed searches take.
func wideLadder(t *testing.T) *Domain { return idleLadder(t, 60) }

// ladder is a domain, every action costing cost, whose goal takes six steps up a ladder, with four
// switches beside it that any search may flip on the way: a search of a
// few dozen expansions.
func ladder(t *testing.T, cost float64) *Domain {
	d, err := NewDomain(ladderSpec(cost))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// ladderSpec is ladder's spec.
func ladderSpec(cost float64) Spec {
	spec := Spec{Name: "ladder", Goals: []GoalSpec{{Name: "Top", Conditions: map[string]bool{"a5": true}}}}
	for i := range 6 {
		f := fmt.Sprintf("a%d", i)
		spec.Facts = append(spec.Facts, f)
		a := ActionSpec{Name: "climb" + f, Effects: map[string]bool{f: true}, Cost: Const(cost)}
		if i > 0 {
			a.Preconditions = map[string]bool{fmt.Sprintf("a%d", i-1): true}
		}
		spec.Actions = append(spec.Actions, a)
	}
	for i := range 4 {
		f := fmt.Sprintf("x%d", i)
		spec.Facts = append(spec.Facts, f)
		spec.Actions = append(spec.Actions, ActionSpec{Name: "flip" + f, Effects: map[string]bool{f: true}, Cost: Const(cost)})
	}
	return spec
}
