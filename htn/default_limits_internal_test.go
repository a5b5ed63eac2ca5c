package htn

import (
	"testing"

	"github.com/ploy-ai/ploy/search"
)

// TestDefaultLimits: with nothing set, a decomposition holds
// search.DefaultMaxBytes, the one ceiling every planner shares.
func TestDefaultLimits(t *testing.T) {
	for _, c := range []struct {
		opt          Options
		steps, bytes int
	}{
		{Options{}, DefaultMaxSteps, search.DefaultMaxBytes},
		{Options{MaxSteps: -1, MaxMemory: -1}, DefaultMaxSteps, search.DefaultMaxBytes},
		{Options{MaxSteps: 5, MaxMemory: 6}, 5, 6},
		{Options{MaxSteps: 1, MaxMemory: 2, Limits: search.Limits{MaxSteps: 5, MaxBytes: 6}}, 5, 6},
	} {
		if s, m := c.opt.limits(); s != c.steps || m != c.bytes {
			t.Errorf("%+v: %d steps, %d bytes; want %d, %d", c.opt, s, m, c.steps, c.bytes)
		}
	}
}
