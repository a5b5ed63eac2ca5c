package strips

import (
	"errors"
	"fmt"
	"github.com/ploy-ai/ploy/search"
	"math/rand/v2"
	"slices"
	"testing"
)

// stateIndex is the explicit-space index of a one-word state.
func stateIndex(t *Task) int { return int(t.InitialState()[0]) }

// TestSearchIsOptimal checks every heuristic's A* against brute force on
// thousands of random tasks: the plan replays, reaches the goal and costs
// the optimum, and a task without a plan is proved unsolvable.
func TestSearchIsOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 14))
	solved := 0
	for i := range 3000 {
		task := randomTask(rng, 4+rng.IntN(7), 3+rng.IntN(18))
		want := optimalCosts(task)[stateIndex(task)]
		s, err := NewSearcher(task)
		if err != nil {
			t.Fatalf("task %d: %v", i, err)
		}
		for _, h := range []Heuristic{Portfolio, LMCut, HMax, Blind} {
			res, err := s.Search(Options{Heuristic: h})
			if err != nil {
				t.Fatalf("task %d, %s: %v", i, h, err)
			}
			if want < 0 {
				if res.Status != NoPlan {
					t.Fatalf("task %d, %s: %s with cost %d, want unsolvable", i, h, res.Status, res.Cost)
				}
				continue
			}
			if res.Status != Found || res.Cost != want {
				t.Fatalf("task %d, %s: %s with cost %d, want found with %d", i, h, res.Status, res.Cost, want)
			}
			cost, err := task.Replay(res.Plan)
			if err != nil || cost != want {
				t.Fatalf("task %d, %s: plan %v replays to %d, %v; want %d", i, h, res.Plan, cost, err, want)
			}
			solved++
		}
	}
	if solved < 4000 {
		t.Fatalf("only %d searches found plans: the random tasks are too hard to test optimality", solved)
	}
}

// TestSearchLimits checks that a search that runs out of expansions or
// memory says so, and stops.
func TestSearchLimits(t *testing.T) {
	task := counterTask(20)
	res, err := Search(task, Options{Heuristic: Blind, MaxExpansions: 100})
	if !errors.Is(err, ErrOutOfExpansions) || res.Status != LimitReached || res.Bound != search.Budget || res.Expanded != 100 {
		t.Fatalf("expansion limit: %s, %v, %d expanded", res.Status, err, res.Expanded)
	}
	res, err = Search(task, Options{Heuristic: Blind, MaxBytes: 4 << 20})
	if !errors.Is(err, ErrOutOfMemory) || res.Status != LimitReached || res.Bound != search.Bytes || res.Bytes > 4<<20 {
		t.Fatalf("memory limit: %s, %v, %d bytes", res.Status, err, res.Bytes)
	}
	res, err = Search(task, Options{Heuristic: Blind})
	if err != nil || res.Status != Found || res.Cost != 1<<20-1 {
		t.Fatalf("full search: %s, %v, cost %d", res.Status, err, res.Cost)
	}
}

// counterTask is a binary counter of n bits: incrementing costs 1 and the
// goal is every bit set, 2^n - 1 steps from the start, through every one of
// the 2^n states.
func counterTask(n int) *Task {
	t := &Task{Name: "counter"}
	for i := range n {
		t.Facts = append(t.Facts, "(bit "+string(rune('a'+i))+")")
		t.Goal = append(t.Goal, Fact(i))
	}
	for i := range n {
		// Set bit i when bits 0..i-1 are set and bit i is clear, clearing
		// the lower ones.
		o := Op{Name: "(inc " + string(rune('a'+i)) + ")", Cost: 1, PreNot: []Fact{Fact(i)}, Add: []Fact{Fact(i)}}
		for j := range i {
			o.Pre = append(o.Pre, Fact(j))
			o.Del = append(o.Del, Fact(j))
		}
		t.Ops = append(t.Ops, o)
	}
	return t
}

// TestStatesStoredOnce checks that growing the state table keeps every
// state findable: blind search on 13 switches, each set and cleared
// freely, with a goal nothing reaches, stores each of the 2^13 states
// once (each is reached from 13 others), through several doublings of the
// table.
func TestStatesStoredOnce(t *testing.T) {
	const n = 13
	task := &Task{Name: "switches", Goal: []Fact{n}}
	for i := range n {
		task.Facts = append(task.Facts, fmt.Sprintf("(on s%d)", i))
		task.Ops = append(task.Ops,
			Op{Name: fmt.Sprintf("(set s%d)", i), PreNot: []Fact{Fact(i)}, Add: []Fact{Fact(i)}, Cost: 1},
			Op{Name: fmt.Sprintf("(clear s%d)", i), Pre: []Fact{Fact(i)}, Del: []Fact{Fact(i)}, Cost: 1})
	}
	task.Facts = append(task.Facts, "(never)")
	res, err := Search(task, Options{Heuristic: Blind})
	if err != nil || res.Status != NoPlan || res.States != 1<<n || res.Expanded != 1<<n {
		t.Fatalf("%s, %v: %d states stored, %d expanded; want %d of each", res.Status, err, res.States, res.Expanded, 1<<n)
	}
}

// TestReusedSearcherMatchesNewOnes runs one searcher over many tasks'
// searches in turn against new searchers: the same results, the memory
// aside (a reused searcher keeps its pages). Each heuristic runs twice in
// a row, so that what one search leaves in its estimator (a part of a
// unit of work, say) would show in the next.
func TestReusedSearcherMatchesNewOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		task := randomTask(rng, 10+rng.IntN(4), 20+rng.IntN(30))
		s, err := NewSearcher(task)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []Heuristic{Blind, LMCut, LMCut, Portfolio, Portfolio, HMax, HMax, Blind} {
			got, _ := s.Search(Options{Heuristic: h})
			want, _ := Search(task, Options{Heuristic: h})
			got.Bytes, want.Bytes = 0, 0
			got.Stats.PeakBytes, want.Stats.PeakBytes = 0, 0
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("task %d, %s: reused %v, new %v", i, h, got, want)
			}
		}
	}
}

// TestHugeCostsStayInMemory: f values a billion apart would make the
// open list's ring gigabytes wide; the list moves to a heap instead, and
// the search stays within a small memory limit.
func TestHugeCostsStayInMemory(t *testing.T) {
	task := &Task{Name: "huge", Facts: []string{"(a)", "(b)"}, Goal: []Fact{0, 1},
		Ops: []Op{{Name: "(cheap)", Add: []Fact{0}, Cost: 1}, {Name: "(dear)", Add: []Fact{1}, Cost: MaxCost}}}
	for _, h := range []Heuristic{Blind, LMCut, Portfolio} {
		res, err := Search(task, Options{Heuristic: h, MaxBytes: 16 << 20})
		if err != nil || res.Status != Found || res.Cost != MaxCost+1 || res.Bytes > 16<<20 {
			t.Fatalf("%s: %s, %v, cost %d, %d bytes", h, res.Status, err, res.Cost, res.Bytes)
		}
	}
}

// TestSmallerLimitOnReuse: a searcher that held more in an earlier search
// lets go of it when the next search may hold less.
func TestSmallerLimitOnReuse(t *testing.T) {
	s, err := NewSearcher(counterTask(18))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := s.Search(Options{Heuristic: Blind}); err != nil || res.Status != Found {
		t.Fatal(res.Status, err)
	}
	res, err := s.Search(Options{Heuristic: Blind, MaxBytes: 4 << 20})
	if res.Status != LimitReached || res.Bound != search.Bytes || res.Bytes > 4<<20 {
		t.Fatalf("%s, %v, %d bytes held under a 4 MiB limit", res.Status, err, res.Bytes)
	}
}

// TestHeapOrderIsTheRingOrder scales random tasks' costs by 2^23, which
// spreads their f values past the ring's span and moves the open list to
// its heap: every search must expand the same states in the same order
// and find the same plan, at the scaled cost. (Blind and h_max only: their
// estimates scale exactly, where LM-cut's queue breaks ties among equal
// h_max values differently for small and large costs, and may cut
// differently.)
func TestHeapOrderIsTheRingOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	moved := 0
	for i := range 300 {
		task := randomTask(rng, 8+rng.IntN(5), 15+rng.IntN(20))
		scaled := *task
		scaled.Ops = slices.Clone(task.Ops)
		for j := range scaled.Ops {
			scaled.Ops[j].Cost <<= 23
		}
		for _, h := range []Heuristic{Blind, HMax} {
			var want, got []int64
			rec := func(into *[]int64) func(Expansion) {
				return func(x Expansion) { *into = append(*into, x.G, int64(x.Op)) }
			}
			a, _ := Search(task, Options{Heuristic: h, OnExpand: rec(&want)})
			b, _ := Search(&scaled, Options{Heuristic: h, OnExpand: rec(&got)})
			for k := 0; k < len(want); k += 2 {
				want[k] <<= 23
			}
			if a.Status != b.Status || a.Cost<<23 != b.Cost || !slices.Equal(a.Plan, b.Plan) || !slices.Equal(want, got) {
				t.Fatalf("task %d, %s: %s cost %d plan %v; scaled %s cost %d plan %v", i, h, a.Status, a.Cost, a.Plan, b.Status, b.Cost, b.Plan)
			}
			if b.Cost >= ringSpan {
				moved++
			}
		}
	}
	if moved < 50 {
		t.Fatalf("only %d scaled searches had costs past the ring's span", moved)
	}
}

// TestPortfolioStartsInAllTheMemory: when half the memory is too little
// for either of a portfolio's searches to start, LM-cut runs alone with
// all of it.
func TestPortfolioStartsInAllTheMemory(t *testing.T) {
	task := counterTask(4)
	limit := int64(3 << 19) // 1.5 MiB: a page and a table, not two
	if res, err := Search(task, Options{Heuristic: LMCut, MaxBytes: limit}); err != nil || res.Status != Found {
		t.Fatalf("LM-cut alone: %s, %v", res.Status, err)
	}
	if res, err := Search(task, Options{Heuristic: LMCut, MaxBytes: limit / 2}); res.Status != LimitReached || res.Bound != search.Bytes {
		t.Fatalf("LM-cut in half: %s, %v; the test needs it to run out", res.Status, err)
	}
	res, err := Search(task, Options{MaxBytes: limit})
	if err != nil || res.Status != Found || res.Heuristic != LMCut || res.Bytes > limit {
		t.Fatalf("portfolio: %s by %s, %v, %d bytes", res.Status, res.Heuristic, err, res.Bytes)
	}
}
