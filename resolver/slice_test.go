package resolver_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// sliced resolves goal a slice of expansions at a time with r, and
// returns the result and how many calls of Continue it took.
func sliced(r *resolver.Resolver, snap *resolver.Snapshot, goal *resolver.Goal, opt resolver.Options, slice int) (resolver.Result, error, int) {
	r.Begin(nil, snap, goal, opt)
	calls := 1
	for !r.Continue(slice) {
		calls++
	}
	res, err := r.Result()
	return res, err, calls
}

// sameOutcome says how two resolves' outcomes differ, or "" if they do
// not: status, bound, chain, cost, every count and the error.
func sameOutcome(got resolver.Result, gotErr error, want resolver.Result, wantErr error) string {
	switch {
	case got.Status != want.Status || got.Bound != want.Bound:
		return fmt.Sprintf("status %s/%s, want %s/%s", got.Status, got.Bound, want.Status, want.Bound)
	case !slices.Equal(got.Chain, want.Chain) || got.Cost != want.Cost:
		return fmt.Sprintf("chain %v at %g, want %v at %g", got.Chain, got.Cost, want.Chain, want.Cost)
	case got.Expanded != want.Expanded || got.Generated != want.Generated || got.Stats != want.Stats:
		return fmt.Sprintf("counts %d/%d %+v, want %d/%d %+v", got.Expanded, got.Generated, got.Stats, want.Expanded, want.Generated, want.Stats)
	case (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error():
		return fmt.Sprintf("error %v, want %v", gotErr, wantErr)
	}
	return ""
}

// TestSlicedResolveMatchesWhole: on random action graphs, snapshots,
// profiles, distance models and limits, a resolve carried out in slices
// of 1 (most often), 2, 3, 7, 16 or a random number of expansions returns exactly what
// the same resolve run whole returns (chain, cost, status, error, every
// statistic, and the trace), and takes ⌈expanded / slice⌉ calls: every
// call but the last expands a whole slice. The sliced resolver is reused
// from round to round, and begins each resolve while the last one is
// still suspended half the time, as a game dropping a search would.
func TestSlicedResolveMatchesWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	rounds := 3000
	if testing.Short() {
		rounds = 1000
	}
	var wholeTrace, slicedTrace resolver.Trace
	suspendedOutcomes := map[string]int{}
	for round := range rounds {
		spec, w, profSpec := randomCase(rng)
		d, err := resolver.NewDomain(spec)
		if err != nil {
			t.Fatal(err)
		}
		snap := caseSnapshot(t, d, w)
		opt := resolver.Options{MaxDepth: 1 + rng.IntN(6)}
		if profSpec.Capabilities != nil {
			if opt.Profile, err = d.NewProfile(profSpec); err != nil {
				t.Fatal(err)
			}
		}
		if rng.IntN(3) == 0 {
			opt.Distance, _ = randomGrid(rng)
		}
		if rng.IntN(3) == 0 {
			opt.Budget = 1 + rng.IntN(12)
		}
		if rng.IntN(4) == 0 {
			opt.MaxWork = 1 + rng.IntN(60)
		}
		traced := rng.IntN(2) == 0
		r := resolver.NewResolver(d)
		for _, goal := range d.Goals() {
			slice := []int{1, 1, 2, 3, 7, 16, 1 + rng.IntN(40)}[rng.IntN(7)]
			wopt, sopt := opt, opt
			if traced {
				wopt.Trace, sopt.Trace = &wholeTrace, &slicedTrace
			}
			want, wantErr := resolver.NewResolver(d).Resolve(nil, snap, goal, wopt)
			if rng.IntN(2) == 0 {
				// A resolve left suspended on this resolver: Begin drops it.
				r.Begin(nil, snap, d.Goals()[0], resolver.Options{})
				r.Continue(1)
			}
			got, gotErr, calls := sliced(r, snap, goal, sopt, slice)
			where := fmt.Sprintf("round %d, goal %s, slice %d, options %+v", round, goal.Name(), slice, opt)
			if msg := sameOutcome(got, gotErr, want, wantErr); msg != "" {
				t.Fatalf("%s: sliced %s", where, msg)
			}
			if wantErr != nil && !errors.Is(gotErr, search.ErrLimit) {
				t.Fatalf("%s: error %v is not a limit's", where, gotErr)
			}
			if traced && !reflect.DeepEqual(slicedTrace, wholeTrace) {
				t.Fatalf("%s: the sliced resolve's trace differs:\n%+v\nwant\n%+v", where, slicedTrace, wholeTrace)
			}
			if wantCalls := max(1, (want.Expanded+slice-1)/slice); calls != wantCalls {
				t.Fatalf("%s: %d calls for %d expansions, want %d", where, calls, want.Expanded, wantCalls)
			}
			if calls > 1 {
				suspendedOutcomes[resolver.StatusName(want.Status, want.Bound)]++
			}
		}
	}
	// The suspensions this test is about happened, ending every way a
	// resolve ends (depth_exceeded and a no_plan after it: the second run
	// was suspended too).
	t.Logf("suspended resolves by outcome: %v", suspendedOutcomes)
	// At least 20 of each in the full run's 3 000 rounds; as many in
	// proportion in -short's (it gives 10 budget_exhausted and 18
	// depth_exceeded, which a floor of 20 failed).
	least := 20 * rounds / 3000
	for _, outcome := range []string{"found", "no_plan", "budget_exhausted", "depth_exceeded"} {
		if suspendedOutcomes[outcome] < least {
			t.Errorf("only %d suspended resolves ended %s in %d rounds: too few to test it", suspendedOutcomes[outcome], outcome, rounds)
		}
	}
}

// TestSlicedResolveStopsAtItsContext: a context done between two slices
// stops the resolve at the next, before it expands anything more.
func TestSlicedResolveStopsAtItsContext(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20, "hunger": 10}, resolver.Point{}, camp())
	ctx, cancel := context.WithCancel(context.Background())
	r := resolver.NewResolver(d)
	r.Begin(nil, s, d.Goal("Warm"), resolver.Options{Context: ctx})
	if r.Continue(1) || !r.Suspended() {
		t.Fatal("the survivor's Warm took one expansion: too short to test")
	}
	cancel()
	if !r.Continue(1) || r.Suspended() {
		t.Fatal("the resolve went on after its context was canceled")
	}
	res, err := r.Result()
	if res.Status != resolver.LimitReached || res.Bound != search.Canceled || !errors.Is(err, context.Canceled) || res.Expanded != 1 {
		t.Fatalf("%+v, %v: want canceled after the first slice's one expansion", res, err)
	}
}

// TestWarmSlicedResolveAllocatesNothing: slicing costs no allocation.
func TestWarmSlicedResolveAllocatesNothing(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20, "hunger": 70}, resolver.Point{}, camp())
	r := resolver.NewResolver(d)
	buf := make([]resolver.ActionID, 0, 8)
	calls := 0
	run := func() {
		for _, g := range []*resolver.Goal{d.Goal("Warm"), d.Goal("Fed")} {
			r.Begin(buf[:0], s, g, resolver.Options{})
			for calls++; !r.Continue(1); calls++ {
			}
			r.Result()
		}
	}
	run()
	if calls < 4 {
		t.Fatalf("%d calls for two resolves: nothing was suspended", calls)
	}
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Fatalf("%v allocations per warm sliced resolve pair", n)
	}
}

// TestSliceMisusePanics: Continue without a resolve, a slice of no
// expansions and a Result before the end are the caller's bugs.
func TestSliceMisusePanics(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20, "hunger": 10}, resolver.Point{}, camp())
	for name, f := range map[string]func(){
		"continue before begin": func() { resolver.NewResolver(d).Continue(1) },
		"an empty slice": func() {
			r := resolver.NewResolver(d)
			r.Begin(nil, s, d.Goal("Warm"), resolver.Options{})
			r.Continue(0)
		},
		"result before the end": func() {
			r := resolver.NewResolver(d)
			r.Begin(nil, s, d.Goal("Warm"), resolver.Options{})
			r.Continue(1)
			r.Result()
		},
		"continue after abandon": func() {
			r := resolver.NewResolver(d)
			r.Begin(nil, s, d.Goal("Warm"), resolver.Options{})
			r.Abandon()
			r.Continue(1)
		},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "resolver: ") {
					t.Errorf("%s: recovered %v; want a resolver panic", name, r)
				}
			}()
			f()
		}()
	}
}

// TestBytesCoverWhatAResolveHeld: what a resolver reports holding covers
// the chains and open-list entries its resolves held (Stats.PeakBytes)
// and its tables of one entry per action, on graphs of 10 to 3 000
// actions; a suspended resolve's share is what the queue reports.
func TestBytesCoverWhatAResolveHeld(t *testing.T) {
	for _, n := range []int{10, 300, 3000} {
		d := mustDomain(t, wide(n))
		snap := d.NewSnapshot()
		r := resolver.NewResolver(d)
		res, _ := r.Resolve(nil, snap, d.Goals()[0], resolver.Options{})
		tables := int64(n) * (4*4 + 8 + 1)
		if got := r.Bytes(); got < res.Stats.PeakBytes+tables || res.Stats.PeakBytes == 0 {
			t.Fatalf("%d actions: Bytes %d, under the %d bytes of chains and %d of tables a resolve held", n, got, res.Stats.PeakBytes, tables)
		}
	}
}
