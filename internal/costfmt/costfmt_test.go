package costfmt

import (
	"math"
	"testing"
)

// TestCostIsTheFiguresRule checks Cost against what the web app's number()
// (viewer/pages/common.js) prints for the same values, as node printed
// them: x.toFixed(2) with trailing zeros dropped, whole numbers bare.
func TestCostIsTheFiguresRule(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{29.027416997969524, "29.03"},
		{0.125, "0.13"}, // an exact tie: away from zero
		{1.005, "1"},    // stored below the tie
		{2.675, "2.67"}, // likewise
		{9.549509756796393, "9.55"},
		{1e21, "1e+21"},
		{1.5e21, "1.5e+21"},
		{1e300, "1e+300"},
		{7, "7"},
		{0, "0"},
		{1e20, "100000000000000000000"},
		{0.30000000000000004, "0.3"},
		{1.999, "2"},
		{9.999, "10"},
		{99.995, "100"}, // stored as 99.99500000000000454…
		{12.527692569068709, "12.53"},
		{0.001, "0"},
		{-0.125, "-0.13"},
		{1234567.891, "1234567.89"},
		{0.375, "0.38"},
		{2.9781828122723155, "2.98"},
		{123456789012.345, "123456789012.35"},
		{2.5, "2.5"},
		{math.Inf(1), "+Inf"},
		{math.NaN(), "NaN"},
		{math.Copysign(0, -1), "0"}, // as String(-0) is in JavaScript
		{-0.001, "0"},               // rounds to zero: no sign on it
		{-0.004, "0"},
		{-0.005, "-0.01"}, // stored as -0.005000000000000000104…
		{-2.675, "-2.67"},
		{-999.995, "-1000"},
		{math.Inf(-1), "-Inf"},
	} {
		if got := Cost(c.in); got != c.want {
			t.Errorf("Cost(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
