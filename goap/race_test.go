//go:build race

package goap_test

// raceEnabled: the race detector reserves terabytes of address space for
// its shadow memory, so a child process cannot be capped by address space.
const raceEnabled = true
