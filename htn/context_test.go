package htn_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/search"
)

// TestContextStopsADecomposition: a decomposition given a context already
// done stops before its first step, saying why; one whose context is
// canceled while it runs (2^40 combinations to backtrack through, under
// a step cap it would take seconds to reach) stops soon after, with Status Canceled
// and the context's error.
func TestContextStopsADecomposition(t *testing.T) {
	// Root is 40 choices of two methods, then a task that never applies:
	// 2^40 combinations to backtrack through, in constant memory.
	d := chooser(t, 40)
	g := d.GOAP()
	p := htn.NewPlanner(d)
	var res htn.Result
	// A step cap some 7 s of work away (at about 80 million steps a
	// second), hundreds of times what the run canceled after 20 ms does:
	// a planner that ignores its context ends at the cap, and this test
	// fails in seconds instead of hanging for the 2^40 combinations.
	opt := htn.Options{MaxSteps: 1 << 29, MaxMemory: min(1<<40, math.MaxInt)}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt.Context = ctx
	err := p.Plan(&res, g.Initial(), opt)
	var ce *htn.CanceledError
	if !errors.As(err, &ce) || !errors.Is(err, context.Canceled) || res.Status != htn.LimitReached || res.Bound != search.Canceled || !errors.Is(err, search.ErrLimit) || res.Steps != 0 || htn.StatusName(res.Status, res.Bound) != "canceled" {
		t.Fatalf("a canceled context: %v after %d steps, %v; want Canceled before the first step", res.Status, res.Steps, err)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), -time.Second)
	defer dcancel()
	opt.Context = dctx
	if err := p.Plan(&res, g.Initial(), opt); !errors.Is(err, context.DeadlineExceeded) || res.Status != htn.LimitReached || res.Bound != search.Deadline {
		t.Fatalf("a passed deadline: %v, %v; want Canceled with the deadline's error", res.Status, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	opt.Context = ctx
	timer := time.AfterFunc(20*time.Millisecond, cancel)
	defer timer.Stop()
	err = p.Plan(&res, g.Initial(), opt)
	if !errors.Is(err, context.Canceled) || res.Status != htn.LimitReached || res.Bound != search.Canceled || res.Steps == 0 {
		t.Fatalf("canceled midway: %v after %d steps, %v; want Canceled", res.Status, res.Steps, err)
	}
	if msg := err.Error(); msg != `htn: decomposing "Root" stopped: context canceled` {
		t.Errorf("message %q", msg)
	}
}
