package strips

import (
	"fmt"
	"math/rand/v2"
	"runtime"
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

// padded returns t with pad unused facts before its own and pad after,
// so that its states span several words and its facts cross a word
// boundary.
func padded(t *Task, pad int) *Task {
	p := &Task{Name: t.Name}
	for i := range pad {
		p.Facts = append(p.Facts, fmt.Sprintf("(pad-before%d)", i))
	}
	p.Facts = append(p.Facts, t.Facts...)
	for i := range pad {
		p.Facts = append(p.Facts, fmt.Sprintf("(pad-after%d)", i))
	}
	shift := func(l []Fact) []Fact {
		out := make([]Fact, len(l))
		for i, f := range l {
			out[i] = f + Fact(pad)
		}
		return out
	}
	p.Init, p.Goal, p.GoalNot = shift(t.Init), shift(t.Goal), shift(t.GoalNot)
	for _, o := range t.Ops {
		p.Ops = append(p.Ops, Op{Name: o.Name, Cost: o.Cost, Pre: shift(o.Pre), PreNot: shift(o.PreNot), Add: shift(o.Add), Del: shift(o.Del)})
	}
	return p
}

// TestWideStatesSearchAsNarrowOnes: facts no operator touches change
// nothing, so a task padded to states of three words is searched exactly
// as the one-word task is: the same plan, cost and counts, with every
// heuristic.
func TestWideStatesSearchAsNarrowOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 30 {
		task := randomTask(rng, 12, 30)
		wide := padded(task, 60)
		for _, h := range []Heuristic{Blind, HMax, LMCut} {
			a, errA := Search(task, Options{Heuristic: h})
			b, errB := Search(wide, Options{Heuristic: h})
			a.Bytes, b.Bytes = 0, 0
			a.Stats.PeakBytes, b.Stats.PeakBytes = 0, 0
			if fmt.Sprint(a) != fmt.Sprint(b) || (errA == nil) != (errB == nil) {
				t.Fatalf("task %d, %v: one word %+v %v; three words %+v %v", i, h, a, errA, b, errB)
			}
		}
	}
}

// TestOnExpandReportsWhatItSays: OnExpand's first expansion is the start
// (Op -1, G 0), and with the blind estimate H is 0 at a goal state and the
// cheapest operator's cost elsewhere, whatever the state's width.
func TestOnExpandReportsWhatItSays(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 20 {
		task := randomTask(rng, 12, 30)
		if i%2 == 1 {
			task = padded(task, 60)
		}
		cheapest := int64(-1)
		for _, o := range task.Ops {
			if cheapest < 0 || o.Cost < cheapest {
				cheapest = o.Cost
			}
		}
		n := 0
		_, err := Search(task, Options{Heuristic: Blind, OnExpand: func(e Expansion) {
			n++
			if n == 1 && (e.Op != -1 || e.G != 0 || e.N != 1) {
				t.Errorf("task %d: the first expansion is %+v, want the start: N 1, Op -1, G 0", i, e)
			}
			want := cheapest
			if task.IsGoal(e.State) {
				want = 0
			}
			if e.H != want {
				t.Errorf("task %d: expansion %d has H %d, want %d (blind)", i, e.N, e.H, want)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestExplorerBytesAreWhatItAllocates: what an exploration's scratch
// counts against the memory limit is what making it allocated, within the
// allocator's rounding.
func TestExplorerBytesAreWhatItAllocates(t *testing.T) {
	r := newRelaxed(randomTask(rand.New(rand.NewPCG(9, 10)), 3000, 6000))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	e := newExplorer(r)
	runtime.ReadMemStats(&after)
	allocated := int64(after.TotalAlloc - before.TotalAlloc)
	if got := e.bytes(); got < allocated*9/10 || got > allocated*11/10+4096 {
		t.Errorf("the explorer counts %d bytes; making it allocated %d", got, allocated)
	}
}

// TestExplorationCountsWhatItLooksAt: an h_max exploration counts, as
// work, every fact and operator it resets, and for every fact it reaches
// the fact itself and each operator it is a precondition of: at least that
// much, whatever the state.
func TestExplorationCountsWhatItLooksAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 20 {
		task := randomTask(rng, 40, 80)
		r := newRelaxed(task)
		e := newExplorer(r)
		s := task.InitialState()
		e.steps = 0
		e.explore(s, false)
		want := int64(int(r.nfacts) + len(e.ops))
		reached := 0
		for f := range r.nfacts {
			if e.facts[f].hmax != inf {
				reached++
				want += int64(r.preOfStart[f+1]-r.preOfStart[f]) + 1
			}
		}
		if reached == 0 || e.steps < want {
			t.Fatalf("task %d: %d facts reached, %d steps counted; they looked at %d", i, reached, e.steps, want)
		}
	}
}

// TestLMCutCountsMoreThanItsFirstExploration: an LM-cut estimate begins
// with the h_max exploration of its state and then works round by round,
// each round's steps counted on top: its count is never below that
// exploration's alone, and above it whenever a round ran (h > 0).
func TestLMCutCountsMoreThanItsFirstExploration(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	rounds := 0
	for i := range 40 {
		task := randomTask(rng, 30, 60)
		l := newLMCut(task)
		first := newExplorer(l.r)
		first.lists = true // as LM-cut explores
		s := task.InitialState()
		first.steps, l.steps = 0, 0
		first.explore(s, false)
		h, dead := l.estimate(s)
		if dead {
			continue
		}
		if h > 0 {
			rounds++
		}
		if l.steps < first.steps || h > 0 && l.steps == first.steps {
			t.Fatalf("task %d: h %d, LM-cut counted %d steps; its first exploration alone %d", i, h, l.steps, first.steps)
		}
	}
	if rounds < 10 {
		t.Fatalf("only %d of 40 estimates ran a round", rounds)
	}
}
