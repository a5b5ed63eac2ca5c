//go:build race

package htn_test

// raceEnabled: the race detector reserves terabytes of shadow address
// space and multiplies memory use, so the attacks' limits and peak figures
// mean nothing under it.
const raceEnabled = true
