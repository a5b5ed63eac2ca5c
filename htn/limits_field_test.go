package htn_test

import (
	"errors"
	"testing"

	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/search"
)

// TestLimitsWinOverOldFields: Options.Limits, where set, is the cap in
// force; the deprecated MaxSteps and MaxMemory still work where Limits
// leaves them zero.
func TestLimitsWinOverOldFields(t *testing.T) {
	bm := battleMage(t)
	p := htn.NewPlanner(bm)
	var res htn.Result
	stepCases := []struct {
		name  string
		opt   htn.Options
		limit int
	}{
		{"Limits.MaxSteps", htn.Options{Limits: search.Limits{MaxSteps: 2}}, 2},
		{"Limits.MaxSteps over MaxSteps", htn.Options{MaxSteps: 100_000, Limits: search.Limits{MaxSteps: 3}}, 3},
		{"old MaxSteps", htn.Options{MaxSteps: 2}, 2},
	}
	for _, c := range stepCases {
		err := p.Plan(&res, bm.GOAP().Initial(), c.opt)
		var sl *htn.StepLimitError
		if !errors.As(err, &sl) || sl.Limit != c.limit || res.Bound != search.Steps || res.Steps != c.limit {
			t.Errorf("%s: %v on %v after %d steps, %v; want the step cap of %d", c.name, res.Status, res.Bound, res.Steps, err, c.limit)
		}
	}
	memCases := []struct {
		name  string
		opt   htn.Options
		limit int
	}{
		{"Limits.MaxBytes", htn.Options{Limits: search.Limits{MaxBytes: 64}}, 64},
		{"Limits.MaxBytes over MaxMemory", htn.Options{MaxMemory: 1 << 20, Limits: search.Limits{MaxBytes: 64}}, 64},
		{"old MaxMemory", htn.Options{MaxMemory: 64}, 64},
	}
	for _, c := range memCases {
		err := p.Plan(&res, bm.GOAP().Initial(), c.opt)
		var ml *htn.MemoryLimitError
		if !errors.As(err, &ml) || ml.Limit != c.limit || res.Bound != search.Bytes {
			t.Errorf("%s: %v on %v, %v; want the memory cap of %d", c.name, res.Status, res.Bound, err, c.limit)
		}
	}
	// The old field set, Limits set to more: Limits wins, and the plan is
	// found.
	if err := p.Plan(&res, bm.GOAP().Initial(), htn.Options{MaxSteps: 2, MaxMemory: 64, Limits: search.Limits{MaxSteps: 1000, MaxBytes: 1 << 20}}); err != nil || res.Status != htn.Found {
		t.Errorf("Limits above the old fields: %v, %v; want the plan", res.Status, err)
	}
}

// TestStatsMatchTheTrace: Stats.Expanded and Generated are the tasks taken
// and the method conditions tested, counted again here from the trace;
// they add up to Steps; Depth is the plan's length; PeakBytes is within
// the cap.
func TestStatsMatchTheTrace(t *testing.T) {
	bm := battleMage(t)
	p := htn.NewPlanner(bm)
	for _, opt := range []htn.Options{{}, {Limits: search.Limits{MaxSteps: 5}}, {Limits: search.Limits{MaxBytes: 200}}} {
		var tr htn.Trace
		var res htn.Result
		opt.Trace = &tr
		err := p.Plan(&res, bm.GOAP().Initial(), opt)
		taken, tested := 0, 0
		for _, s := range tr.Steps {
			switch s.Kind {
			case htn.TakeTask:
				taken++
			case htn.TestMethod:
				tested++
			}
		}
		st := res.Stats
		if res.Bound != search.Bytes && (st.Expanded != int64(taken) || st.Generated != int64(tested)) {
			t.Errorf("%+v: Stats %+v; the trace took %d tasks, tested %d methods", opt.Limits, st, taken, tested)
		}
		if st.Expanded+st.Generated != int64(res.Steps) || st.Work != 0 {
			t.Errorf("%+v: Stats %+v, %d steps", opt.Limits, st, res.Steps)
		}
		wantDepth := int64(0)
		if res.Status == htn.Found {
			wantDepth = int64(len(res.Plan))
		}
		if st.Depth != wantDepth || st.PeakBytes <= 0 {
			t.Errorf("%+v: %v, %v: Stats %+v; want depth %d and a peak", opt.Limits, res.Status, err, st, wantDepth)
		}
		if limit := opt.Limits.MaxBytes; limit > 0 && st.PeakBytes > limit {
			t.Errorf("peak %d bytes past the cap of %d", st.PeakBytes, limit)
		}
	}
}
