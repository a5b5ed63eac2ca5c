package htn_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// traceStop is where a decomposition stopped, found another way than the
// planner's: by replaying its trace with every task on the list tagged by
// the method choice that put it there, and each choice by the one it was
// made under. The choices open are then the ancestors of the task being
// worked on (taken, no method chosen yet) or else of the list's first.
func traceStop(d *htn.Domain, tr *htn.Trace) (task string, repeats, depth int, most string, decompositions int) {
	type entry struct {
		task  htn.Task
		owner int // index in choices, -1 for the root
	}
	type choice struct {
		task   htn.Task
		parent int
		rest   []entry // the list once task was taken, before its subtasks
	}
	list := []entry{{d.Root(), -1}}
	var choices []choice
	var current *entry
	for _, s := range tr.Steps {
		switch s.Kind {
		case htn.TakeTask:
			e := list[0]
			list = list[1:]
			current = nil
			if !s.Task.IsPrimitive() {
				current = &e
			}
		case htn.TestMethod:
			if !s.Holds {
				continue
			}
			choices = append(choices, choice{current.task, current.owner, slices.Clone(list)})
			var pushed []entry
			for _, sub := range d.Subtasks(s.Task, int(s.Method)) {
				pushed = append(pushed, entry{sub, len(choices) - 1})
			}
			list = append(pushed, list...)
			current = nil
		case htn.Backtrack:
			for {
				c := choices[len(choices)-1]
				choices = choices[:len(choices)-1]
				if c.task == s.Task {
					list = slices.Clone(c.rest)
					current = &entry{c.task, c.parent}
					break
				}
			}
		}
	}
	front := current
	if front == nil && len(list) > 0 {
		front = &list[0]
	}
	var chain []htn.Task // innermost first
	if front != nil {
		for c := front.owner; c >= 0; c = choices[c].parent {
			chain = append(chain, choices[c].task)
		}
	}
	depth = len(chain)
	count := map[htn.Task]int{}
	for _, t := range chain {
		count[t]++
	}
	best := htn.Task(-1)
	for i := len(chain) - 1; i >= 0; i-- { // outermost first: ties to it
		if count[chain[i]] > repeats {
			best, repeats = chain[i], count[chain[i]]
		}
	}
	if current != nil {
		depth++
		if repeats < 2 {
			best, repeats = current.task, 1
		}
	}
	if repeats < 2 && current == nil && len(chain) > 0 {
		best = chain[0]
	}
	if best >= 0 {
		task = d.TaskName(best)
	}
	all := map[htn.Task]int{}
	for _, c := range choices {
		all[c.task]++
	}
	for _, c := range choices {
		if all[c.task] > decompositions {
			most, decompositions = d.TaskName(c.task), all[c.task]
		}
	}
	return task, repeats, depth, most, decompositions
}

// The planner's account of where it stopped (found from the stack lengths
// when each choice was made, in one pass) agrees with a replay of its
// trace, on random domains with recursion, backtracking and wide methods,
// at every step limit up to a few hundred.
func TestStopPointAgreesWithTheTrace(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 7))
	cfg := randdomain.Config{Facts: 6, Actions: 8, MaxPre: 2, MaxEff: 2, MaxCost: 3, Goals: 1, GoalFacts: 1}
	domains, stops, recursions, working := 300, 0, 0, 0
	if testing.Short() {
		domains = 100
	}
	for i := 0; i < domains; i++ {
		d := randomHTNDomain(t, r, cfg)
		if d == nil {
			continue
		}
		g := d.GOAP()
		p := htn.NewPlanner(d)
		s := g.NewState()
		s.Words()[0] = uint64(r.IntN(1 << cfg.Facts))
		for _, limit := range []int{1, 2, 3 + r.IntN(10), 10 + r.IntN(50), 50 + r.IntN(300)} {
			var tr htn.Trace
			var res htn.Result
			err := p.Plan(&res, s, htn.Options{MaxSteps: limit, Trace: &tr})
			var sl *htn.StepLimitError
			if !errors.As(err, &sl) {
				continue
			}
			stops++
			task, repeats, depth, most, decompositions := traceStop(d, &tr)
			got := fmt.Sprintf("%q open %d, depth %d, most %q %d", sl.Task, sl.Repeats, sl.Depth, sl.MostDecomposed, sl.Decompositions)
			want := fmt.Sprintf("%q open %d, depth %d, most %q %d", task, repeats, depth, most, decompositions)
			if got != want {
				t.Fatalf("domain %d, limit %d: planner says %s, the trace %s", i, limit, got, want)
			}
			if sl.Recursion() {
				recursions++
			}
			if sl.Repeats == 1 {
				working++
			}
		}
	}
	// The generator must reach both kinds of stop.
	if stops < 50 || recursions < 5 || working < 5 {
		t.Errorf("%d stops, %d recursions, %d without recursion: too few to compare", stops, recursions, working)
	}
	t.Logf("%d stops compared, %d recursions", stops, recursions)
}
