package svgchart

import (
	"math"
	"strconv"
)

// Every marks every step from lo up to hi with a plain label ("30", not
// "30.00") and minor ticks between, minor intervals per step.
func Every(lo, hi, step float64, minor int) []Tick {
	if !(step > 0) || !(hi >= lo) {
		return nil
	}
	var ticks []Tick
	for i := math.Ceil(lo/step - 1e-9); i*step <= hi+1e-9; i++ {
		v := i * step
		if v == 0 {
			v = 0 // not -0
		}
		ticks = append(ticks, Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		for m := 1; m < minor; m++ {
			if mv := v + float64(m)*step/float64(minor); mv <= hi {
				ticks = append(ticks, Tick{Value: mv})
			}
		}
	}
	return ticks
}

// Round marks the range lo to hi every 1, 2 or 5 times a power of ten,
// four to six marks in all, each labelled with no more decimals than its
// step needs ("20", not "25.00"). A count (whole) never gets a step below
// 1: fights are not counted in halves.
func Round(lo, hi float64, whole bool) []Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	rough := (hi - lo) / 5
	power := math.Pow(10, math.Floor(math.Log10(rough)))
	step := 10 * power
	for _, m := range []float64{1, 2, 5} {
		if m*power >= rough {
			step = m * power
			break
		}
	}
	if whole {
		step = max(step, 1)
	}
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []Tick
	for i := math.Ceil(lo/step - 1e-9); i*step <= hi+1e-9; i++ {
		v := i * step
		if v == 0 {
			v = 0 // not -0, which formats as "-0"
		}
		ticks = append(ticks, Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return ticks
}
