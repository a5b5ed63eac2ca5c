package strips

import (
	"fmt"
	"testing"
)

// taskFromBytes decodes a small task from fuzz input: up to 8 facts, and
// per operator five bytes (preconditions, negative preconditions, adds,
// deletes as fact masks, and a cost of 0 to 7). The first bytes give the
// initial state and the goal. Adds win over deletes, as in PDDL.
func taskFromBytes(data []byte) *Task {
	if len(data) < 4 {
		return nil
	}
	n := 1 + int(data[0]%8)
	t := &Task{Name: "fuzz"}
	for i := range n {
		t.Facts = append(t.Facts, fmt.Sprintf("f%d", i))
	}
	list := func(mask byte) []Fact {
		var l []Fact
		for i := range n {
			if mask>>i&1 != 0 {
				l = append(l, Fact(i))
			}
		}
		return l
	}
	t.Init = list(data[1])
	t.Goal = list(data[2])
	t.GoalNot = list(data[3] &^ data[2])
	for i, rest := 0, data[4:]; len(rest) >= 5 && i < 24; i, rest = i+1, rest[5:] {
		o := Op{Name: fmt.Sprintf("(op%d)", i), Cost: int64(rest[4] % 8)}
		o.Pre, o.PreNot = list(rest[0]), list(rest[1]&^rest[0])
		o.Add, o.Del = list(rest[2]), list(rest[3]&^rest[2])
		t.Ops = append(t.Ops, o)
	}
	return t
}

// FuzzSearch checks every configuration against brute force on tasks
// made from the fuzzer's bytes: the same optimal cost, a plan that
// replays, and Unsolvable exactly when no plan exists.
func FuzzSearch(f *testing.F) {
	f.Add([]byte{3, 0, 4, 0, 0, 0, 1, 0, 1, 1, 0, 2, 0, 0, 2, 0, 4, 1, 0})
	f.Add([]byte{7, 0xff, 0, 0xff, 1, 0, 0, 1, 0, 0, 0, 0, 2, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		task := taskFromBytes(data)
		if task == nil {
			return
		}
		if err := task.Validate(); err != nil {
			t.Fatalf("the decoder made an invalid task: %v", err)
		}
		want := optimalCosts(task)[stateIndex(task)]
		for _, h := range []Heuristic{Portfolio, LMCut, HMax, Blind} {
			res, err := Search(task, Options{Heuristic: h})
			if err != nil {
				t.Fatalf("%s: %v", h, err)
			}
			if want < 0 {
				if res.Status != NoPlan {
					t.Fatalf("%s: %s, want unsolvable", h, res.Status)
				}
				continue
			}
			if res.Status != Found || res.Cost != want {
				t.Fatalf("%s: %s cost %d, want %d", h, res.Status, res.Cost, want)
			}
			if cost, err := task.Replay(res.Plan); err != nil || cost != want {
				t.Fatalf("%s: plan %v replays to %d, %v", h, res.Plan, cost, err)
			}
		}
	})
}

// TestSearchIsDeterministic runs every configuration many times on fresh
// searchers and compares plans and statistics.
func TestSearchIsDeterministic(t *testing.T) {
	task := counterTask(12)
	task.Ops = append(task.Ops, Op{Name: "(skip)", Cost: 0, Pre: []Fact{0}, Add: []Fact{1}})
	for _, h := range []Heuristic{Portfolio, LMCut, HMax, Blind} {
		first, err := Search(task, Options{Heuristic: h})
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			res, err := Search(task, Options{Heuristic: h})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(res) != fmt.Sprint(first) {
				t.Fatalf("%s: %v, then %v", h, first, res)
			}
		}
	}
}
