package strips

import (
	"errors"
	"testing"

	"github.com/ploy-ai/ploy/search"
)

// TestLimitsWinOverOldFields: Options.Limits, where set, is the limit in
// force; the deprecated MaxExpansions, MaxWork and MaxBytes still work
// where Limits leaves them zero. Each limit's error keeps the sentinel's
// text (ploy's pddl command prints it) and wraps a *search.LimitError
// naming the task, the bound and its value.
func TestLimitsWinOverOldFields(t *testing.T) {
	task := counterTask(16) // 2^16 states, the goal the last: blind search expands them all
	const mem = 2 << 20
	if a, _ := AvailableBytes(); a > 0 && a < 1<<30 {
		t.Skipf("only %d bytes available", a) // the old fields below ask for 1 GiB
	}
	cases := []struct {
		name     string
		opt      Options
		bound    search.Bound
		limit    int64
		sentinel error
	}{
		{"Limits.Budget", Options{Limits: search.Limits{Budget: 5}}, search.Budget, 5, ErrOutOfExpansions},
		{"Limits.Budget over MaxExpansions", Options{MaxExpansions: 1000, Limits: search.Limits{Budget: 5}}, search.Budget, 5, ErrOutOfExpansions},
		{"old MaxExpansions", Options{MaxExpansions: 5}, search.Budget, 5, ErrOutOfExpansions},
		{"Limits.MaxWork over MaxWork", Options{MaxWork: 1 << 40, Limits: search.Limits{MaxWork: 100}}, search.Work, 100, ErrOutOfWork},
		{"old MaxWork", Options{MaxWork: 100}, search.Work, 100, ErrOutOfWork},
		{"Limits.MaxBytes over MaxBytes", Options{MaxBytes: 1 << 30, Limits: search.Limits{MaxBytes: mem}}, search.Bytes, mem, ErrOutOfMemory},
		{"old MaxBytes", Options{MaxBytes: mem}, search.Bytes, mem, ErrOutOfMemory},
	}
	for _, c := range cases {
		c.opt.Heuristic = Blind
		res, err := Search(task, c.opt)
		var le *search.LimitError
		if res.Status != LimitReached || res.Bound != c.bound || !errors.As(err, &le) {
			t.Errorf("%s: %v on %v, %v; want %v reached", c.name, res.Status, res.Bound, err, c.bound)
			continue
		}
		if le.Planner != "strips" || le.Goal != "counter" || le.Bound != c.bound || le.Limit != c.limit {
			t.Errorf("%s: LimitError %+v; want strips, counter, %v, %d", c.name, le, c.bound, c.limit)
		}
		if !errors.Is(err, c.sentinel) || !errors.Is(err, search.ErrLimit) || errors.Is(err, search.ErrNoPlan) || err.Error() != c.sentinel.Error() {
			t.Errorf("%s: %q: want the text of, and a match for, %q and search.ErrLimit", c.name, err, c.sentinel)
		}
	}
	// The old fields tight, Limits roomier: Limits wins, the plan is found.
	res, err := Search(task, Options{Heuristic: Blind, MaxExpansions: 5, MaxWork: 100, Limits: search.Limits{Budget: 1 << 20, MaxWork: 1 << 40}})
	if err != nil || res.Status != Found {
		t.Errorf("Limits roomier than the old fields: %v, %v; want the plan", res.Status, err)
	}
}

// TestDefaultMaxBytesIsTheSharedOne: a search given no memory limit holds
// search.DefaultMaxBytes, the one ceiling every planner shares, or what
// the process may use if less.
func TestDefaultMaxBytesIsTheSharedOne(t *testing.T) {
	want := int64(search.DefaultMaxBytes)
	if a, _ := AvailableBytes(); a > 0 {
		want = min(want, a)
	}
	if got := EffectiveMaxBytes(0); got != want || want > 256<<20 {
		t.Errorf("EffectiveMaxBytes(0) = %d, want %d", got, want)
	}
	s, err := NewSearcher(counterTask(4))
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Options{{Heuristic: Blind}, {Heuristic: Portfolio}} {
		if _, err := s.Search(opt); err != nil || s.maxBytes > want {
			t.Errorf("%v: searched within %d bytes, %v; want at most %d", opt.Heuristic, s.maxBytes, err, want)
		}
	}
}

// TestStatsMatchTheCounters: Result.Stats repeats the search's counters,
// its work and its memory, for every heuristic and outcome.
func TestStatsMatchTheCounters(t *testing.T) {
	task := counterTask(8)
	unsolvable := counterTask(3)
	unsolvable.Ops = unsolvable.Ops[:2] // the top bit can never be set
	for _, c := range []struct {
		task *Task
		opt  Options
	}{
		{task, Options{Heuristic: Blind}}, {task, Options{Heuristic: LMCut}}, {task, Options{Heuristic: HMax}},
		{task, Options{Heuristic: Portfolio}}, {task, Options{Heuristic: Blind, Limits: search.Limits{Budget: 7}}},
		{unsolvable, Options{Heuristic: Blind}},
	} {
		s, err := NewSearcher(c.task)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := s.Search(c.opt)
		st := res.Stats
		if st.Expanded != res.Expanded || st.Generated != res.Generated || st.PeakBytes != res.Bytes || st.PeakBytes <= 0 || st.Work <= 0 {
			t.Errorf("%v %+v: Stats %+v, counters %d, %d, %d bytes", c.opt.Heuristic, c.opt.Limits, st, res.Expanded, res.Generated, res.Bytes)
		}
		if c.opt.Heuristic != Portfolio && st.Work != s.work {
			t.Errorf("%v: Stats.Work %d, the search counted %d", c.opt.Heuristic, st.Work, s.work)
		}
		wantDepth := int64(0)
		if res.Status == Found {
			wantDepth = int64(len(res.Plan))
		}
		if st.Depth != wantDepth {
			t.Errorf("%v %+v: %v, Depth %d, want %d", c.opt.Heuristic, c.opt.Limits, res.Status, st.Depth, wantDepth)
		}
	}
}
