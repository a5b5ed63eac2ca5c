package resolver_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// TestLimitsWinOverOldFields: Options.Limits, where set, is the limit in
// force; the deprecated Budget, MaxDepth and MaxWork still work where
// Limits leaves them zero.
func TestLimitsWinOverOldFields(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20}, resolver.Point{}, camp())
	trap := mustDomain(t, depthTrap())
	cases := []struct {
		name  string
		d     *resolver.Domain
		s     *resolver.Snapshot
		goal  string
		opt   resolver.Options
		bound search.Bound
		limit int
	}{
		{"Limits.Budget", d, s, "Warm", resolver.Options{Limits: search.Limits{Budget: 2}}, search.Budget, 2},
		{"Limits.Budget over Budget", d, s, "Warm", resolver.Options{Budget: 1000, Limits: search.Limits{Budget: 2}}, search.Budget, 2},
		{"old Budget", d, s, "Warm", resolver.Options{Budget: 2}, search.Budget, 2},
		{"Limits.MaxWork over MaxWork", d, s, "Warm", resolver.Options{MaxWork: 1 << 20, Limits: search.Limits{MaxWork: 3}}, search.Work, 3},
		{"old MaxWork", d, s, "Warm", resolver.Options{MaxWork: 3}, search.Work, 3},
		{"Limits.MaxDepth over MaxDepth", trap, trap.NewSnapshot(), "Done", resolver.Options{MaxDepth: 8, Limits: search.Limits{MaxDepth: 2}}, search.Depth, 2},
		{"old MaxDepth", trap, trap.NewSnapshot(), "Done", resolver.Options{MaxDepth: 2}, search.Depth, 2},
	}
	for _, c := range cases {
		res, err := resolve(t, c.d, c.s, c.goal, c.opt)
		var se *resolver.SearchError
		if res.Status != resolver.LimitReached || res.Bound != c.bound || !errors.As(err, &se) || se.Limit != c.limit {
			t.Errorf("%s: %v on %v, %v; want %v reached at %d", c.name, res.Status, res.Bound, err, c.bound, c.limit)
		}
	}
	// The old field tight, Limits roomier: Limits wins and the chain is
	// found.
	res, err := resolve(t, trap, trap.NewSnapshot(), "Done", resolver.Options{MaxDepth: 2, Limits: search.Limits{MaxDepth: 4}})
	if err != nil || res.Status != resolver.Found || len(res.Chain) != 4 {
		t.Errorf("Limits.MaxDepth 4 over MaxDepth 2: %v %v, %v; want the four-action chain", res.Status, names(trap, res.Chain), err)
	}
}

// TestStatsCountTheWork: on a graph whose work can be counted by hand,
// Stats repeats the counters and counts every condition and server.
func TestStatsCountTheWork(t *testing.T) {
	d := mustDomain(t, wide(200))
	// The goal's condition (1 unit) and its 200 servers (200), each
	// server's condition tested once when it is first considered (200),
	// and each chain's condition again when the chain is expanded (200):
	// 601 units, 201 expansions, 200 chains.
	res, err := resolve(t, d, d.NewSnapshot(), "Done", resolver.Options{})
	st := res.Stats
	if res.Status != resolver.NoPlan || err != nil || st.Work != 601 || st.Expanded != 201 || st.Generated != 200 || st.Depth != 0 {
		t.Errorf("wide graph: %v, %v, Stats %+v; want no plan after 601 units of work, 201 expansions, 200 chains", res.Status, err, st)
	}
	if st.PeakBytes < 201*32 {
		t.Errorf("wide graph: peak %d bytes for 201 chains", st.PeakBytes)
	}
	// A work limit of 10: the goal's condition, then two units per server
	// (the server, its condition): the fifth server brings the work to
	// 11, the sixth to 12, past the limit, and the search stops there.
	res, _ = resolve(t, d, d.NewSnapshot(), "Done", resolver.Options{Limits: search.Limits{MaxWork: 10}})
	if res.Bound != search.Work || res.Stats.Work != 12 || res.Generated != 5 {
		t.Errorf("work limit 10: %v, Stats %+v; want 12 units counted, 5 chains", res.Bound, res.Stats)
	}
	// A chain found: Depth is its length, past what dst held.
	trap := mustDomain(t, depthTrap())
	r := resolver.NewResolver(trap)
	res, err = r.Resolve([]resolver.ActionID{0}, trap.NewSnapshot(), trap.Goal("Done"), resolver.Options{})
	if err != nil || res.Status != resolver.Found || res.Stats.Depth != 4 || !slices.Equal(names(trap, res.Chain[1:]), []string{"Begin", "Prepare", "Step1", "Step2"}) {
		t.Errorf("trap: %v %v, Stats %+v; want the four-action chain, depth 4", res.Status, names(trap, res.Chain), res.Stats)
	}
	if res.Stats.Expanded != int64(res.Expanded) || res.Stats.Generated != int64(res.Generated) || res.Stats.Work <= 0 {
		t.Errorf("trap: Stats %+v, counters %d, %d", res.Stats, res.Expanded, res.Generated)
	}
	// The depth limit makes a second search, without it, to tell "only
	// longer chains" from "none": the Stats hold both searches' work and
	// counts. The first (depth 2) expands 5 chains for 21 units; the
	// second expands 4, as the unlimited search does, for 15 units: the 4
	// the unlimited search spends testing its actions' conditions are
	// spent once per resolve, in the first.
	res, _ = r.Resolve(nil, trap.NewSnapshot(), trap.Goal("Done"), resolver.Options{Limits: search.Limits{MaxDepth: 2}})
	unlimited, _ := r.Resolve(nil, trap.NewSnapshot(), trap.Goal("Done"), resolver.Options{})
	if res.Bound != search.Depth || res.Stats.Expanded != 9 || res.Expanded != 9 || unlimited.Stats.Expanded != 4 || unlimited.Stats.Work != 19 || res.Stats.Work != 21+15 {
		t.Errorf("depth 2: %v, Stats %+v; want 9 expanded and 36 units; unlimited %+v, want 4 and 19", res.Bound, res.Stats, unlimited.Stats)
	}
}
