package strips

import (
	"errors"
	"fmt"
	"github.com/ploy-ai/ploy/search"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// oneStepTask is n operators, each deleting a fact of its own and adding
// the goal fact: the start has n successors, each a goal state, and an
// estimate of any of them costs a pass over all n operators.
func oneStepTask(n int) *Task {
	t := &Task{Name: "one step", Goal: []Fact{Fact(n)}}
	for i := range n {
		t.Facts = append(t.Facts, fmt.Sprintf("(ready o%d)", i))
		t.Init = append(t.Init, Fact(i))
		t.Ops = append(t.Ops, Op{Name: fmt.Sprintf("(finish o%d)", i), Pre: []Fact{Fact(i)}, Del: []Fact{Fact(i)}, Add: []Fact{Fact(n)}, Cost: 1})
	}
	t.Facts = append(t.Facts, "(finished)")
	return t
}

// TestPausedSearchMatchesWhole advances searches one unit of work at a
// time, so that they stop at every point they can (within the start's
// estimate, between successors, between LM-cut's rounds), and checks that
// each ends exactly as the same search run in one go.
func TestPausedSearchMatchesWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 8))
	var tasks []*Task
	for range 300 {
		tasks = append(tasks, randomTask(rng, 6+rng.IntN(9), 5+rng.IntN(40)))
	}
	tasks = append(tasks, counterTask(9), oneStepTask(200))
	pausedInEstimate, pausedInExpansion := 0, 0
	for i, task := range tasks {
		for _, h := range []Heuristic{LMCut, HMax, Blind} {
			opt := Options{Heuristic: h}
			whole, err := NewSearcher(task)
			if err != nil {
				t.Fatal(err)
			}
			if err := whole.begin(opt); err != nil {
				t.Fatal(err)
			}
			whole.advance(math.MaxInt64)
			want, wantErr := whole.result()

			paused, _ := NewSearcher(task)
			if err := paused.begin(opt); err != nil {
				t.Fatal(err)
			}
			for calls := 0; !paused.advance(paused.work + 1); calls++ {
				if paused.estimating {
					pausedInEstimate++
				} else if paused.phase == phaseExpand {
					pausedInExpansion++
				}
				if calls > 10_000_000 {
					t.Fatalf("task %d, %s: no end", i, h)
				}
			}
			got, gotErr := paused.result()
			if !errors.Is(gotErr, wantErr) || got.Status != want.Status || got.Cost != want.Cost || !slices.Equal(got.Plan, want.Plan) ||
				got.Expanded != want.Expanded || got.Generated != want.Generated || got.Evaluated != want.Evaluated ||
				got.Reopened != want.Reopened || got.DeadEnds != want.DeadEnds || got.States != want.States || got.InitialH != want.InitialH {
				t.Fatalf("task %d, %s: paused %+v, %v; whole %+v, %v", i, h, got, gotErr, want, wantErr)
			}
			if paused.work != whole.work {
				t.Fatalf("task %d, %s: paused counted %d units, whole %d", i, h, paused.work, whole.work)
			}
		}
	}
	// The pauses this test is about happened.
	if pausedInEstimate < 100 || pausedInExpansion < 1000 {
		t.Fatalf("paused %d times within an estimate and %d within an expansion: too few to test them", pausedInEstimate, pausedInExpansion)
	}
}

// TestMaxWork checks the work limit exactly: blind search counts one unit
// a state expanded and one a successor, and checks before each, so it ends
// with its work at the limit; a limit one more than a whole search's work
// lets it find its plan.
func TestMaxWork(t *testing.T) {
	task := counterTask(10)
	s, _ := NewSearcher(task)
	whole, err := s.Search(Options{Heuristic: Blind})
	if err != nil || whole.Status != Found {
		t.Fatalf("whole: %s, %v", whole.Status, err)
	}
	total := s.work
	for _, limit := range []int64{1, 2, 7, total / 2, total - 1, total} {
		res, err := s.Search(Options{Heuristic: Blind, MaxWork: limit})
		if !errors.Is(err, ErrOutOfWork) || res.Status != LimitReached || res.Bound != search.Work || s.work != limit {
			t.Fatalf("MaxWork %d (whole search %d): %s, %v, %d units counted", limit, total, res.Status, err, s.work)
		}
	}
	res, err := s.Search(Options{Heuristic: Blind, MaxWork: total + 1})
	if err != nil || res.Status != Found || res.Cost != whole.Cost || res.Expanded != whole.Expanded {
		t.Fatalf("MaxWork %d: %s, %v", total+1, res.Status, err)
	}
	// LM-cut stops within an estimate's rounds too: on the one-step task
	// each successor's estimate is a few thousand steps, so a limit of
	// 1 000 units is passed by one round's work at most, far less than
	// the start's expansion.
	task = oneStepTask(2000)
	s, _ = NewSearcher(task)
	res, err = s.Search(Options{Heuristic: LMCut, MaxWork: 1000})
	round := int64(len(task.Facts)+3*len(task.Ops))/workScale + 1
	if !errors.Is(err, ErrOutOfWork) || s.work < 1000 || s.work > 1000+round || res.Evaluated >= 2000 {
		t.Fatalf("LM-cut, MaxWork 1000: %s, %v, %d units, %d evaluated", res.Status, err, s.work, res.Evaluated)
	}
}

// TestPortfolioTurnsWithinAnExpansion is the portfolio's turn-taking attack
// in small: the start's successors are all goals, so blind search ends
// after one expansion, while LM-cut estimates each successor over the whole
// task. The LM-cut half must stop within that expansion, once its work
// passes the blind half's: with turns that could not end there, it
// estimated all 3 000 successors before the blind half had a turn.
func TestPortfolioTurnsWithinAnExpansion(t *testing.T) {
	const n = 3000
	s, _ := NewSearcher(oneStepTask(n))
	res, err := s.Search(Options{})
	if err != nil || res.Status != Found || res.Cost != 1 || res.Heuristic != Blind {
		t.Fatalf("%s by %s, cost %d, %v", res.Status, res.Heuristic, res.Cost, err)
	}
	if lm := s.twin.res.Evaluated; lm > n/10 {
		t.Fatalf("the LM-cut half estimated %d of the %d successors in its turn", lm, n)
	}
}

// TestEstimatorMemoryCounted checks that an estimator's memory counts
// against the limit: LM-cut's relaxation and scratch on a task of 50 000
// operators is megabytes, and a limit of just that stops the search at its
// start.
func TestEstimatorMemoryCounted(t *testing.T) {
	task := oneStepTask(50_000)
	est := newLMCut(task).bytes()
	if est < 1<<20 {
		t.Fatalf("LM-cut holds %d bytes: too few to tell", est)
	}
	res, err := Search(task, Options{Heuristic: LMCut, MaxBytes: est})
	if !errors.Is(err, ErrOutOfMemory) || res.Expanded != 0 {
		t.Fatalf("MaxBytes %d, the estimator's own: %s, %v", est, res.Status, err)
	}
	res, err = Search(task, Options{Heuristic: LMCut, MaxBytes: est + 64<<20, MaxExpansions: 1, MaxWork: 1 << 16})
	if res.Bytes < est {
		t.Fatalf("the search holds %d bytes, less than its estimator's %d (%s, %v)", res.Bytes, est, res.Status, err)
	}
}

// TestEffectiveMaxBytes checks the default and the clamp.
func TestEffectiveMaxBytes(t *testing.T) {
	avail, _ := AvailableBytes()
	want := int64(DefaultMaxBytes)
	if avail > 0 {
		want = min(want, avail)
	}
	if got := EffectiveMaxBytes(0); got != want {
		t.Errorf("EffectiveMaxBytes(0) = %d, want %d", got, want)
	}
	if got := EffectiveMaxBytes(1 << 20); got != min(1<<20, max(avail, 1<<20)) {
		t.Errorf("EffectiveMaxBytes(1 MiB) = %d", got)
	}
	if avail > 0 {
		if got := EffectiveMaxBytes(math.MaxInt64); got != avail {
			t.Errorf("EffectiveMaxBytes(huge) = %d, want the available %d", got, avail)
		}
	}
}

// TestResetIsWork checks that an exploration counts the facts and
// operators it resets, not only those it reaches: from a state that
// reaches nothing, h_max looks at one fact, but resets all 20 001 facts
// and 20 000 operators.
func TestResetIsWork(t *testing.T) {
	const n = 20_000
	task := oneStepTask(n)
	h := newHMax(task)
	h.takeWork()
	nothing := make([]uint64, task.Words())
	if _, dead := h.estimate(nothing); !dead {
		t.Fatal("the empty state reaches the goal")
	}
	if w, least := h.takeWork(), int64(2*n/workScale); w < least {
		t.Fatalf("an exploration from a state that reaches nothing counted %d units, want at least %d for its reset", w, least)
	}
}
