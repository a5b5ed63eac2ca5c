package strips

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/search"
)

// schedules are the ways TestPortfolioIsTheLeastWork runs a portfolio:
// GOMAXPROCS, the chunk of work between two looks at the other search,
// and which search (if any) is slowed before each chunk, so that it ends
// last in time where it would otherwise end first.
var schedules = []struct {
	procs int
	chunk int64
	slow  int // 0 LM-cut, 1 blind, -1 neither
}{
	{1, 1 << 14, -1}, {2, 1 << 14, -1}, {1, 1, -1}, {2, 7, 0}, {2, 7, 1}, {1, 64, 0}, {2, 3, 1},
}

// bigSchedules are those for tasks of a million units of work, where a
// pause every few units would take minutes.
var bigSchedules = []struct {
	procs int
	chunk int64
	slow  int
}{
	{1, 1 << 14, -1}, {2, 1 << 14, -1}, {2, 4096, 0}, {2, 4096, 1}, {1, 4096, 1},
}

// withSchedule sets GOMAXPROCS, the chunk and the pace for the test.
func withSchedule(t *testing.T, procs int, chunk int64, slow int) {
	t.Helper()
	oldProcs, oldChunk, oldPace := runtime.GOMAXPROCS(procs), portfolioChunk, portfolioPace
	portfolioChunk = chunk
	portfolioPace = nil
	if slow >= 0 {
		portfolioPace = func(run int) {
			if run == slow {
				time.Sleep(20 * time.Microsecond)
			}
		}
	}
	t.Cleanup(func() { runtime.GOMAXPROCS(oldProcs); portfolioChunk, portfolioPace = oldChunk, oldPace })
}

// describe is a result as the tests compare it: everything, Bytes aside
// where a search's memory depends on an earlier search's (a reused
// searcher keeps its pages).
func describe(res Result, err error) string {
	res.Bytes, res.Stats.PeakBytes = 0, 0
	return fmt.Sprintf("%+v, %v", res, err)
}

// TestPortfolioIsTheLeastWork checks the portfolio's rule on random tasks
// under every schedule: its answer is, in every field, that of LM-cut or
// blind search run alone (each in half the memory), whichever counts less
// work, LM-cut on a tie. A rule that took the first to end in time, or
// stopped the other search too early, answers otherwise on some task when
// one search is slowed; one that paused a search anywhere but where it
// could go on exactly counts other work.
func TestPortfolioIsTheLeastWork(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	var tasks []*Task
	for range 150 {
		tasks = append(tasks, randomTask(rng, 6+rng.IntN(9), 5+rng.IntN(40)))
	}
	tasks = append(tasks, counterTask(9), oneStepTask(300), switchesTask(10))
	type answer struct {
		want string
		by   Heuristic
	}
	answers := make([]answer, len(tasks))
	byLMCut, byBlind := 0, 0
	for i, task := range tasks {
		opt := Options{MaxBytes: EffectiveMaxBytes(0) / 2}
		opt.Heuristic = LMCut
		lm, lmErr := Search(task, opt)
		opt.Heuristic = Blind
		bl, blErr := Search(task, opt)
		answers[i] = answer{describe(lm, lmErr), LMCut}
		if bl.Stats.Work < lm.Stats.Work {
			answers[i] = answer{describe(bl, blErr), Blind}
			byBlind++
		} else {
			byLMCut++
		}
	}
	// Both searches answer some of the tasks, or the test shows little.
	if byLMCut < 20 || byBlind < 20 {
		t.Fatalf("LM-cut has less work on %d tasks, blind search on %d: too few of one to test the rule", byLMCut, byBlind)
	}
	for _, sc := range schedules {
		if race.Enabled && sc.chunk == 1 {
			continue // minutes under the race detector; chunk 7 pauses as often in kind
		}
		t.Run(fmt.Sprintf("procs=%d/chunk=%d/slow=%d", sc.procs, sc.chunk, sc.slow), func(t *testing.T) {
			withSchedule(t, sc.procs, sc.chunk, sc.slow)
			for i, task := range tasks {
				got := describe(Search(task, Options{}))
				if got != answers[i].want {
					t.Fatalf("task %d: the portfolio answered\n%s\nwant %s's answer\n%s", i, got, answers[i].by, answers[i].want)
				}
			}
		})
	}
}

// switchesTask has n switches, each set by a free action, and a goal
// reached by one action of cost 1 once all are set. Blind search
// estimates 0 everywhere and LM-cut 1, so both store and expand nearly all
// 2^n states, LM-cut counting more work for each.
func switchesTask(n int) *Task {
	t := &Task{Name: "switches", Goal: []Fact{Fact(n)}}
	finish := Op{Name: "(finish)", Cost: 1, Add: []Fact{Fact(n)}}
	for i := range n {
		t.Facts = append(t.Facts, fmt.Sprintf("(on s%d)", i))
		t.Ops = append(t.Ops, Op{Name: fmt.Sprintf("(switch s%d)", i), Add: []Fact{Fact(i)}})
		finish.Pre = append(finish.Pre, Fact(i))
	}
	t.Facts = append(t.Facts, "(finished)")
	t.Ops = append(t.Ops, finish)
	return t
}

// TestPortfolioTieGoesToLMCut: a task whose start is a goal costs both
// searches no counted work, and LM-cut answers, even when blind search
// ends first in time (LM-cut slowed).
func TestPortfolioTieGoesToLMCut(t *testing.T) {
	task := &Task{Name: "done", Facts: []string{"(done)"}, Init: []Fact{0}, Goal: []Fact{0},
		Ops: []Op{{Name: "(redo)", Cost: 1, Pre: []Fact{0}, Add: []Fact{0}}}}
	for _, sc := range schedules {
		withSchedule(t, sc.procs, sc.chunk, 0)
		res, err := Search(task, Options{})
		if err != nil || res.Status != Found || res.Heuristic != LMCut || res.Stats.Work != 0 {
			t.Fatalf("%+v: %s by %s with %d units, %v; want found by lmcut with none", sc, res.Status, res.Heuristic, res.Stats.Work, err)
		}
	}
}

// TestPortfolioSharesTheMemory gives the portfolio room for one search of
// the switches task and not two: each needs more than half. Blind search
// gets there first in counted work, so LM-cut, which has done more when it
// runs out too, gives up its half, and blind search answers in the whole,
// exactly as it does alone, whatever the schedule.
func TestPortfolioSharesTheMemory(t *testing.T) {
	task := switchesTask(15)
	// A search's memory only grows, so what it holds at its end is what
	// it needs.
	need := func(h Heuristic) int64 {
		res, err := Search(task, Options{Heuristic: h})
		if err != nil || res.Status != Found {
			t.Fatalf("%s alone: %s, %v", h, res.Status, err)
		}
		return res.Bytes
	}
	blindNeeds, lmNeeds := need(Blind), need(LMCut)
	whole := max(blindNeeds, lmNeeds) * 5 / 4
	if blindNeeds <= whole/2 || lmNeeds <= whole/2 {
		t.Fatalf("blind search needs %d bytes and LM-cut %d: one fits in half of %d", blindNeeds, lmNeeds, whole)
	}
	want := describe(Search(task, Options{Heuristic: Blind, MaxBytes: whole}))
	for _, sc := range bigSchedules {
		withSchedule(t, sc.procs, sc.chunk, sc.slow)
		res, err := Search(task, Options{MaxBytes: whole})
		if got := describe(res, err); got != want || res.Bytes > whole {
			t.Fatalf("%+v: the portfolio in %d bytes answered\n%s (%d bytes)\nwant blind search's\n%s", sc, whole, got, res.Bytes, want)
		}
	}
}

// TestPortfolioBothGiveUp: when a limit stops both searches, the answer
// is the one that got further, whatever the schedule, and says so.
func TestPortfolioBothGiveUp(t *testing.T) {
	task := counterTask(17) // 2^17 states, 4 MiB and a table of 2 MiB
	for _, lim := range []search.Limits{{Budget: 500}, {MaxWork: 3000}, {MaxBytes: 4 << 20}} {
		var want string
		for _, sc := range bigSchedules {
			withSchedule(t, sc.procs, sc.chunk, sc.slow)
			res, err := Search(task, Options{Limits: lim})
			if res.Status != LimitReached || !errors.Is(err, search.ErrLimit) {
				t.Fatalf("%+v, limits %+v: %s, %v", sc, lim, res.Status, err)
			}
			if got := describe(res, err); want == "" {
				want = got
			} else if got != want {
				t.Fatalf("%+v, limits %+v: %s; before %s", sc, lim, got, want)
			}
		}
	}
}

// TestPortfolioPanicReachesTheCaller: a panic in one of the portfolio's
// searches is raised again on the caller's goroutine, once the other has
// stopped, rather than ending the process.
func TestPortfolioPanicReachesTheCaller(t *testing.T) {
	old := portfolioPace
	t.Cleanup(func() { portfolioPace = old })
	portfolioPace = func(run int) {
		if run == 1 {
			panic("planted")
		}
	}
	defer func() {
		if p := recover(); p != "planted" {
			t.Fatalf("recovered %v, want the search's panic", p)
		}
	}()
	Search(counterTask(12), Options{})
	t.Fatal("no panic")
}

// TestPortfolioLoserStaysNear: the search that loses runs at most
// portfolioLead (and a chunk, and an estimate's last round) past the
// answer's work, even when the winner is slowed, so that on one core the
// portfolio costs little more than the two searches up to the answer. On
// the switches task blind search answers; LM-cut, left to run, would
// count far more work while the slowed blind search finishes.
func TestPortfolioLoserStaysNear(t *testing.T) {
	task := switchesTask(12)
	for _, procs := range []int{1, 2} {
		withSchedule(t, procs, 64, 1)
		s, _ := NewSearcher(task)
		res, err := s.Search(Options{})
		if err != nil || res.Heuristic != Blind {
			t.Fatalf("procs %d: %s by %s, %v; want blind search's answer", procs, res.Status, res.Heuristic, err)
		}
		round := int64(len(task.Facts)+3*len(task.Ops))/workScale + 1
		if most := res.Stats.Work + portfolioLead() + portfolioChunk + round; s.twin.work > most {
			t.Fatalf("procs %d: the LM-cut half counted %d units, past the answer's %d by more than the lead allows (%d)", procs, s.twin.work, res.Stats.Work, most)
		}
	}
}
