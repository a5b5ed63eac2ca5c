package goap_test

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// TestReservedPlannerAllocatesLikeAWarmOne: after Reserve(n), a new
// planner's first search of up to n successors allocates no more than the
// same search on a warm planner (nothing, or the budget's error), on each
// of the default options' search paths.
func TestReservedPlannerAllocatesLikeAWarmOne(t *testing.T) {
	cases := []struct {
		name string
		spec goap.Spec
		goal string
	}{
		{"dense (the battle mage)", domains.BattleMage(), "Kill"},
		{"one word, whole costs", toggles(40, 0, 1), "Never"},
		{"one word, fractional costs", toggles(40, 0, 1.3), "Never"},
		{"several words, whole costs", toggles(40, 30, 1), "Never"},
		{"several words, fractional costs", toggles(40, 30, 1.3), "Never"},
	}
	for _, c := range cases {
		d := mustDomain(t, c.spec)
		opt := goap.Options{Budget: 3000}
		start, goal := d.Initial(), d.Goal(c.goal)
		warm := goap.NewPlanner(d)
		buf := make([]goap.ActionID, 0, 64)
		want, wantErr := warm.Plan(buf[:0], start, goal, opt)
		warmAllocs := testing.AllocsPerRun(3, func() { warm.Plan(buf[:0], start, goal, opt) })

		// Mallocs counts the whole program's allocations, the runtime's
		// own among them: the least of three new planners' is the search's.
		allocs := ^uint64(0)
		for range 3 {
			p := goap.NewPlanner(d)
			p.Reserve(want.Generated)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, gotErr := p.Plan(buf[:0], start, goal, opt)
			runtime.ReadMemStats(&after)
			if fmt.Sprint(samePath(got), gotErr) != fmt.Sprint(samePath(want), wantErr) {
				t.Errorf("%s: reserved planner %+v %v, warm one %+v %v", c.name, got, gotErr, want, wantErr)
			}
			allocs = min(allocs, after.Mallocs-before.Mallocs)
		}
		if float64(allocs) > warmAllocs {
			t.Errorf("%s: the reserved planner's first search (%d generated) allocated %d times, a warm one %v", c.name, want.Generated, allocs, warmAllocs)
		}
	}
}

// TestReserveIsBounded: Reserve of any n holds no more than the default
// memory ceiling allows the search it sizes, on a domain of 100 000 facts
// (states of 1 563 words) as on a small one.
func TestReserveIsBounded(t *testing.T) {
	for _, spec := range []goap.Spec{toggles(40, 0, 1), toggles(20, 100_000, 1), toggles(20, 100_000, 1.3)} {
		d := mustDomain(t, spec)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		p := goap.NewPlanner(d)
		p.Reserve(min(1<<40, math.MaxInt))
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 2*goap.DefaultMaxBytes {
			t.Errorf("%d facts: Reserve(2^40) allocated %d bytes, above twice the default ceiling", d.NumFacts(), grew)
		}
		runtime.KeepAlive(p)
	}
}
