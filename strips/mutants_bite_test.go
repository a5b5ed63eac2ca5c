package strips

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// Tests for mutants that lived in a sampled mutation run (docs/testing.md).

// TestValidateChecksEveryList: a valid start must not end the checks, so a
// bad goal or a bad operator after it is still reported.
func TestValidateChecksEveryList(t *testing.T) {
	good := func() *Task {
		return &Task{
			Facts: []string{"(a)", "(b)"},
			Init:  []Fact{0},
			Goal:  []Fact{1},
			Ops:   []Op{{Name: "(go)", Pre: []Fact{0}, Add: []Fact{1}, Del: []Fact{0}, Cost: 1}},
		}
	}
	if err := good().Validate(); err != nil {
		t.Fatalf("a valid task: %v", err)
	}
	for _, c := range []struct {
		name, want string
		spoil      func(*Task)
	}{
		{"goal out of range", "goal: fact 7 out of range", func(t *Task) { t.Goal = []Fact{7} }},
		{"negative goal unsorted", "negative goal: facts not sorted", func(t *Task) { t.GoalNot = []Fact{1, 0} }},
		{"operator adds and deletes", "both adds and deletes (b)", func(t *Task) { t.Ops[0].Del = []Fact{0, 1} }},
		{"operator's cost", "costs -1", func(t *Task) { t.Ops[0].Cost = -1 }},
	} {
		task := good()
		c.spoil(task)
		err := task.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate() = %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestEstimatesRefusesTheOperatorPastTheLast: an operator index equal to
// the number of operators is out of range, an error rather than a panic.
func TestEstimatesRefusesTheOperatorPastTheLast(t *testing.T) {
	task := &Task{
		Facts: []string{"(a)", "(b)"},
		Init:  []Fact{0},
		Goal:  []Fact{1},
		Ops:   []Op{{Name: "(go)", Pre: []Fact{0}, Add: []Fact{1}, Cost: 1}},
	}
	for _, plan := range [][]int32{{1}, {0, 1}, {-1}} {
		_, err := Estimates(task, Blind, plan)
		if err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("Estimates(plan %v) = %v, want an out-of-range error", plan, err)
		}
	}
	if est, err := Estimates(task, Blind, []int32{0}); err != nil || len(est) != 2 {
		t.Errorf("Estimates(plan [0]) = %v, %v; want two estimates", est, err)
	}
}

// TestSearcherBytesCountWhatItHolds checks that the memory a search counts
// against MaxBytes is what its slices hold, sized by their element types:
// the state pages, the table, the open list and its entries, the
// successor lists and the estimate's own. A size written by hand that
// drifts from its type, or a slice left out, lets the search pass its
// ceiling unnoticed.
func TestSearcherBytesCountWhatItHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	heuristics := []Heuristic{Blind, LMCut}
	for i := range 20 {
		task := randomTask(rng, 12, 30)
		s, err := NewSearcher(task)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Search(Options{Heuristic: heuristics[i%2]}); err != nil {
			t.Fatal(err)
		}
		if len(s.entries) == 0 && cap(s.entries) == 0 {
			continue
		}
		u64, i32 := int64(unsafe.Sizeof(uint64(0))), int64(unsafe.Sizeof(int32(0)))
		var pages int64
		for _, p := range s.pages {
			pages += int64(len(p)) * u64
		}
		want := pages + s.open.Bytes() + int64(cap(s.batch)+cap(s.hashes)+len(s.table))*u64 +
			int64(cap(s.entries)+cap(s.succs))*i32 + s.estBytes
		checked++
		if got := s.bytes(); got != want {
			t.Fatalf("the search counts %d bytes; its slices hold %d", got, want)
		}
	}
	t.Logf("%d searches checked", checked)
	if checked < 10 {
		t.Fatalf("only %d of 20 random searches used the open list", checked)
	}
}
