package goap

import (
	"testing"

	"github.com/ploy-ai/ploy/search"
)

// TestDefaultLimits: with nothing set, a search holds search.DefaultMaxBytes,
// the one ceiling every planner shares, and the package's other defaults;
// Limits and the deprecated fields each set them.
func TestDefaultLimits(t *testing.T) {
	for _, c := range []struct {
		opt                       Options
		budget, maxBytes, maxWork int
	}{
		{Options{}, DefaultBudget, search.DefaultMaxBytes, DefaultMaxWork},
		{Options{Limits: search.Limits{Budget: 5, MaxBytes: 6, MaxWork: 7}}, 5, 6, 7},
		{Options{Budget: 5, MaxBytes: 6, MaxWork: 7}, 5, 6, 7},
		{Options{Budget: 1, MaxBytes: 2, MaxWork: 3, Limits: search.Limits{Budget: 5, MaxBytes: 6, MaxWork: 7}}, 5, 6, 7},
	} {
		opt := c.opt
		opt.applyLimits()
		b, m, w := opt.validate()
		if b != c.budget || m != c.maxBytes || w != c.maxWork {
			t.Errorf("%+v: budget %d, bytes %d, work %d; want %d, %d, %d", c.opt, b, m, w, c.budget, c.maxBytes, c.maxWork)
		}
	}
}
