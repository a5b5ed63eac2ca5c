package search_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/ploy-ai/ploy/search"
)

// TestLimitsOr: each non-zero field of the new Limits wins, each zero one
// takes the old value, field by field (a rule that mixed two fields up
// or let the old win would fail here).
func TestLimitsOr(t *testing.T) {
	old := search.Limits{Budget: 1, MaxDepth: 2, MaxWork: 3, MaxBytes: 4, MaxSteps: 5}
	if got := (search.Limits{}).Or(old); got != old {
		t.Errorf("zero Limits Or old = %+v, want old %+v", got, old)
	}
	set := search.Limits{Budget: 10, MaxDepth: 20, MaxWork: 30, MaxBytes: 40, MaxSteps: 50}
	if got := set.Or(old); got != set {
		t.Errorf("full Limits Or old = %+v, want the new %+v", got, set)
	}
	mixed := search.Limits{MaxDepth: 20, MaxBytes: 40}
	want := search.Limits{Budget: 1, MaxDepth: 20, MaxWork: 3, MaxBytes: 40, MaxSteps: 5}
	if got := mixed.Or(old); got != want {
		t.Errorf("mixed Limits Or old = %+v, want %+v", got, want)
	}
}

// TestClampInt: a limit past int's range is clamped, never wrapped into a
// small or negative one.
func TestClampInt(t *testing.T) {
	maxInt := int(^uint(0) >> 1)
	cases := map[int64]int{0: 0, 7: 7, -7: -7, math.MaxInt64: maxInt, math.MinInt64: -maxInt - 1}
	if big := int64(1) << 40; strconv.IntSize == 32 {
		cases[big] = maxInt
	} else {
		cases[big] = int(big)
	}
	for in, want := range cases {
		if got := search.ClampInt(in); got != want {
			t.Errorf("ClampInt(%d) = %d, want %d", in, got, want)
		}
	}
}
