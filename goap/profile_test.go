package goap

import "testing"

func TestBucketScale(t *testing.T) {
	for _, c := range []struct {
		costs []float64
		want  float64
	}{
		{[]float64{1, 2, 3}, 1},
		{[]float64{1.5, 2}, 2},
		{[]float64{0.25, 3}, 4},
		{[]float64{1.0 / 64}, 64},
		{[]float64{1.0 / 128}, 0}, // finer than maxCostScale
		{[]float64{0.1}, 0},       // not a binary fraction
		{[]float64{1024}, 1},
		{[]float64{1025}, 0},  // dearer than maxBucketCost
		{[]float64{600.5}, 0}, // 1201 once scaled
		{[]float64{}, 1},      // no capable action
	} {
		if got := bucketScale(c.costs); got != c.want {
			t.Errorf("bucketScale(%v) = %g, want %g", c.costs, got, c.want)
		}
	}
}
