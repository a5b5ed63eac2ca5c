package strips

import (
	"errors"
	"math/rand/v2"
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
				if res.Status != Unsolvable {
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
	if !errors.Is(err, ErrOutOfExpansions) || res.Status != OutOfExpansions || res.Expanded != 100 {
		t.Fatalf("expansion limit: %s, %v, %d expanded", res.Status, err, res.Expanded)
	}
	res, err = Search(task, Options{Heuristic: Blind, MaxBytes: 4 << 20})
	if !errors.Is(err, ErrOutOfMemory) || res.Status != OutOfMemory || res.Bytes > 4<<20 {
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
