package arena

import (
	"slices"
	"testing"
)

// TestBarTicks checks the bar charts' value axis: marks every 1, 2 or 5
// times a power of ten, labels without needless decimals, and a count of
// fights in whole numbers only (issue 24 saw 0.00, 2.50, 5.00).
func TestBarTicks(t *testing.T) {
	for _, c := range []struct {
		whole  bool
		lo, hi float64
		want   []string
	}{
		{true, 0, 5 * 1.15, []string{"0", "2", "4"}},
		{true, 0, 3 * 1.15, []string{"0", "1", "2", "3"}},
		{true, 0, 1, []string{"0", "1"}},
		{false, 0, 51.5 * 1.15, []string{"0", "20", "40"}},
		{false, 0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{false, 0, 81.8 * 1.15, []string{"0", "20", "40", "60", "80"}},
		{false, 0, 9 * 1.15, []string{"0", "5", "10"}},
		{false, 0, 0, nil},
	} {
		var got []string
		for _, tk := range (barTicks{whole: c.whole}).Ticks(c.lo, c.hi) {
			got = append(got, tk.Label)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("whole %v, %g to %g: %q, want %q", c.whole, c.lo, c.hi, got, c.want)
		}
	}
}
