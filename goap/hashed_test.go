package goap_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// TestHashSearchMatchesGeneralOnLargeSearches: on one-word domains of 13 to
// 64 facts with whole costs, searches of tens of thousands of expansions
// (past the table size from which hashSearch reads slots ahead, and
// through several of its table's growths) make exactly the search the
// general one makes, and a warm planner repeats it exactly (its table
// emptied by raising the base its marks are read against). TestWordSearchMatchesGeneral covers many
// small domains; this covers the large tables a budget of 5000 never
// reaches.
func TestHashSearchMatchesGeneralOnLargeSearches(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 64))
	largest := 0
	for i, facts := range []int{20, 32, 33, 64} {
		cfg := randdomain.Config{Facts: facts, Actions: 64, MaxPre: 3, MaxEff: 3, MaxCost: 5, RuleProb: 0.3, Goals: 1, GoalFacts: 6}
		d := mustDomain(t, randdomain.Spec(r, cfg))
		fast, general := goap.NewPlanner(d), goap.NewPlanner(d)
		goap.ForceGeneral(general, true)
		for _, h := range []goap.Heuristic{goap.GoalCount, goap.Blind} {
			opt := goap.Options{Heuristic: h, Budget: 40_000}
			goal := d.Goals()[0]
			want, errWant := general.Plan(nil, d.Initial(), goal, opt)
			for run := range 2 {
				got, err := fast.Plan(nil, d.Initial(), goal, opt)
				if fmt.Sprint(samePath(got), err) != fmt.Sprint(samePath(want), errWant) {
					t.Fatalf("domain %d (%d facts) %v, run %d: fast path %+v %v, general %+v %v", i, facts, h, run, got, err, want, errWant)
				}
			}
			largest = max(largest, want.Generated)
		}
	}
	// hashSearch reads slots ahead from 2^15 slots, a quarter to a half
	// full: some search must have reached that many states.
	if largest < 1<<15 {
		t.Fatalf("the largest search generated %d successors: too few to test the large tables", largest)
	}
}

// TestHashSearchForgetsEarlierSearches: one planner, reused over searches
// from random starts to random goals, makes each search exactly as a new
// planner does. A hashed search empties its table by raising the base its
// slots' marks are read against (hashSearch), so a slot filled by an
// earlier search, at any cost, must read as empty, and no mark may pass the
// greatest one the search reports (the next base); once the marks reach
// 2^31 the table is cleared whole and the marks start again from zero. The
// test brings the marks there, twice, and checks both happened.
func TestHashSearchForgetsEarlierSearches(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 31))
	for _, facts := range []int{24, 48} { // the 32-bit and the 64-bit table
		cfg := randdomain.Config{Facts: facts, Actions: 48, MaxPre: 3, MaxEff: 3, MaxCost: 9, RuleProb: 0.3, Goals: 4, GoalFacts: 4}
		d := mustDomain(t, randdomain.Spec(r, cfg))
		warm := goap.NewPlanner(d)
		marks := func() (base, top uint32) {
			b32, t32, b64, t64 := goap.HashMarks(warm)
			if facts <= 32 {
				return b32, t32
			}
			return b64, t64
		}
		passed, restarted := false, false
		for i := range 60 {
			switch i {
			case 20: // the next search's marks pass 2^31: the one after clears
				goap.SetHashTop(warm, 1<<31-50)
			case 40: // this very search clears the table first
				goap.SetHashTop(warm, 1<<31)
			}
			start := d.Initial()
			for f := range facts {
				start.Set(goap.Fact(f), r.IntN(2) == 0)
			}
			goal := d.Goals()[r.IntN(len(d.Goals()))]
			opt := goap.Options{Heuristic: []goap.Heuristic{goap.GoalCount, goap.Blind, goap.GoalCost}[i%3], Budget: 3000}
			want, errWant := goap.NewPlanner(d).Plan(nil, start, goal, opt)
			got, err := warm.Plan(nil, start, goal, opt)
			if fmt.Sprint(samePath(got), err) != fmt.Sprint(samePath(want), errWant) {
				t.Fatalf("%d facts, search %d (%v): warm planner %+v %v, new planner %+v %v", facts, i, opt.Heuristic, got, err, want, errWant)
			}
			if path := goap.SearchPath(warm); path != "hash32" && path != "hash64" {
				t.Fatalf("%d facts, search %d: took %q, not a hashed search", facts, i, path)
			}
			base, top := marks()
			if above := goap.HashMarksAbove(warm, top); above > 0 {
				t.Fatalf("%d facts, search %d: %d slots have marks past the greatest reported, %d: the next search reads them as filled", facts, i, above, top)
			}
			passed = passed || base >= 1<<31-50 && top >= 1<<31
			restarted = restarted || i >= 40 && base == 0
		}
		if !passed || !restarted {
			t.Fatalf("%d facts: marks passed 2^31 %v, started again from zero %v: the test did not reach the clearing", facts, passed, restarted)
		}
	}
}
