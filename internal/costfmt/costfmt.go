// Package costfmt writes a cost (or a distance, a score) for a person to
// read, the one way every text output of ploy does: the commands' text,
// the planners' written traces and the web app's figures. JSON answers
// keep the full float64.
package costfmt

import (
	"math"
	"strconv"
	"strings"
)

// Cost writes c as the web app's figures always have (common.js, number):
// a whole number bare (7, not 7.00), any other rounded to two decimals,
// a tie away from zero, with trailing zeros dropped (29.027416997969524 is
// 29.03, 2.5 is 2.5). Rounding is of c's exact binary value, as
// JavaScript's toFixed(2) does, so that a figure and a command print the
// same text: 1.005, which is stored as 1.00499…, is 1. Zero is 0, never
// -0 (-0, or -0.001 rounded), in both. Whole numbers from
// 1e21 up, and NaN and infinities, are written as Go's shortest form
// (1e+21, +Inf).
func Cost(c float64) string {
	switch {
	case math.IsNaN(c) || math.IsInf(c, 0) || math.Abs(c) >= 1e21:
		return strconv.FormatFloat(c, 'g', -1, 64)
	case c == 0:
		return "0" // -0 too, as JavaScript's String(-0) is "0"
	case c == math.Trunc(c):
		return strconv.FormatFloat(c, 'f', -1, 64)
	}
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	// 30 decimals of the exact value: a float64 below 1e21 is never
	// nearer a tie (x.xx5) than 1e-21 without being one, so the third
	// decimal and those after it say which way to round.
	exact := strconv.FormatFloat(c, 'f', 30, 64)
	dot := strings.IndexByte(exact, '.')
	digits := []byte(exact[:dot] + exact[dot+1:dot+3]) // cents
	if exact[dot+3] >= '5' {
		i := len(digits) - 1
		for ; i >= 0 && digits[i] == '9'; i-- {
			digits[i] = '0'
		}
		if i < 0 {
			digits = append([]byte{'1'}, digits...)
		} else {
			digits[i]++
		}
	}
	whole, cents := string(digits[:len(digits)-2]), strings.TrimRight(string(digits[len(digits)-2:]), "0")
	if cents == "" {
		if whole == "0" {
			return whole // -0.001 rounds to 0, which has no sign
		}
		return sign + whole
	}
	return sign + whole + "." + cents
}
