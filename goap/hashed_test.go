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
// emptied by the slots it used). TestWordSearchMatchesGeneral covers many
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
