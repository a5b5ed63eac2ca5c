package goap_test

import (
	"errors"
	"math"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/search"
)

// TestLimitsWinOverOldFields: Options.Limits, where set, is the limit in
// force; the deprecated field still works where Limits leaves it zero.
func TestLimitsWinOverOldFields(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	kill := d.Goal("Kill")
	free, err := p.Plan(nil, d.Initial(), kill, goap.Options{})
	if err != nil || free.Status != goap.Found || len(free.Plan) < 2 || free.Expanded < 2 {
		t.Fatalf("unlimited: %+v %v; want a plan of two steps or more", free, err)
	}
	cases := []struct {
		name  string
		opt   goap.Options
		bound goap.Bound
		limit int
	}{
		{"Limits.Budget", goap.Options{Limits: search.Limits{Budget: 1}}, goap.BoundStates, 1},
		{"Limits.Budget over Budget", goap.Options{Budget: 1000, Limits: search.Limits{Budget: 1}}, goap.BoundStates, 1},
		{"old Budget", goap.Options{Budget: 1}, goap.BoundStates, 1},
		{"Limits.MaxDepth over MaxDepth", goap.Options{MaxDepth: 100, Limits: search.Limits{MaxDepth: 1}}, goap.BoundDepth, 1},
		{"old MaxDepth", goap.Options{MaxDepth: 1}, goap.BoundDepth, 1},
		{"Limits.MaxBytes over MaxBytes", goap.Options{MaxBytes: 1 << 30, Limits: search.Limits{MaxBytes: 64}}, goap.BoundBytes, 64},
		{"old MaxBytes", goap.Options{MaxBytes: 64}, goap.BoundBytes, 64},
		{"Limits.MaxWork over MaxWork", goap.Options{MaxWork: 1 << 30, Limits: search.Limits{MaxWork: 1}}, goap.BoundWork, 1},
		{"old MaxWork", goap.Options{MaxWork: 1}, goap.BoundWork, 1},
		// A limit past int's range is clamped (here, on 64 bits, it fits):
		// never wrapped into a small or negative one.
		{"Limits.Budget huge", goap.Options{Budget: 1, Limits: search.Limits{Budget: math.MaxInt64}}, goap.NoBound, 0},
	}
	for _, c := range cases {
		res, err := p.Plan(nil, d.Initial(), kill, c.opt)
		if c.bound == goap.NoBound {
			if err != nil || res.Status != goap.Found {
				t.Errorf("%s: %+v %v, want the plan", c.name, res, err)
			}
			continue
		}
		var se *goap.SearchError
		if res.Status != goap.LimitReached || res.Bound != c.bound || !errors.As(err, &se) || se.Limit != c.limit {
			t.Errorf("%s: %+v %v; want %v reached at %d", c.name, res, err, c.bound, c.limit)
		}
	}
}

// TestStatsMatchTheCounters: Result.Stats repeats the planner's own
// counters, on every search path and outcome, and says the plan's length
// and the work and memory the search took.
func TestStatsMatchTheCounters(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	for _, goal := range d.Goals() {
		for _, opt := range []goap.Options{
			{}, {Search: goap.Backward}, {Heuristic: goap.HMax}, {Trace: &goap.Trace{}}, {MaxDepth: 3},
			{Limits: search.Limits{Budget: 2}}, {Search: goap.Backward, Limits: search.Limits{MaxWork: 50}},
		} {
			res, _ := p.Plan(nil, d.Initial(), goal, opt)
			st := res.Stats
			if st.Expanded != int64(res.Expanded) || st.Generated != int64(res.Generated) || st.Work != int64(p.Work()) {
				t.Errorf("%s %+v: Stats %+v, counters %d expanded, %d generated, work %d", goal.Name(), opt, st, res.Expanded, res.Generated, p.Work())
			}
			wantDepth := int64(0)
			if res.Status == goap.Found {
				wantDepth = int64(len(res.Plan))
			}
			if st.Depth != wantDepth {
				t.Errorf("%s %+v: Stats.Depth %d, want %d (%v)", goal.Name(), opt, st.Depth, wantDepth, res.Status)
			}
			if res.Expanded > 0 && st.PeakBytes <= 0 {
				t.Errorf("%s %+v: %d states expanded in %d bytes", goal.Name(), opt, res.Expanded, st.PeakBytes)
			}
		}
	}
	// A plan appended to a slice that holds some already: Depth counts
	// the plan's own steps.
	res, _ := p.Plan([]goap.ActionID{0, 0, 0}, d.Initial(), d.Goal("Kill"), goap.Options{})
	if res.Stats.Depth != int64(len(res.Plan)-3) {
		t.Errorf("Depth %d for a plan of %d steps after 3", res.Stats.Depth, len(res.Plan)-3)
	}
}

// TestPeakBytesUnderTheCeiling: on every search path, a search stopped by
// its memory ceiling reports a peak as the ceiling counts it: at most the
// ceiling, and most of it.
func TestPeakBytesUnderTheCeiling(t *testing.T) {
	const ceiling = 1 << 20
	cases := []struct {
		name string
		spec goap.Spec
		goal string
		opt  goap.Options
	}{
		{"wordSearch.forward", toggles(40, 0, 1.3), "Never", goap.Options{}},
		{"delayedSearch.forward", toggles(40, 0, 1), "Never", goap.Options{}},
		{"delayedSearch.forwardWide", toggles(40, 30, 1), "Never", goap.Options{}},
		{"forward", toggles(40, 0, 1), "Never", goap.Options{MaxDepth: 1000}},
		{"forward traced", toggles(40, 0, 1), "Never", goap.Options{Trace: &goap.Trace{}}},
		{"delayedSearch.backward", toggles(40, 0, 1), "All", goap.Options{Search: goap.Backward, Heuristic: goap.Blind}},
		{"backward", toggles(40, 0, 1), "All", goap.Options{Search: goap.Backward, Heuristic: goap.Blind, MaxDepth: 1000}},
	}
	for _, c := range cases {
		d := mustDomain(t, c.spec)
		c.opt.Limits = search.Limits{Budget: math.MaxInt64, MaxBytes: ceiling, MaxWork: 1 << 23}
		res, _ := goap.NewPlanner(d).Plan(nil, d.NewState(), d.Goal(c.goal), c.opt)
		if res.Bound != goap.BoundBytes || res.Stats.PeakBytes > ceiling || res.Stats.PeakBytes < ceiling/2 {
			t.Errorf("%s: %v on %v, peak %d bytes; want the ceiling of %d reached, the peak under it and past half", c.name, res.Status, res.Bound, res.Stats.PeakBytes, ceiling)
		}
	}
}
