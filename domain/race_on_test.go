//go:build race

package domain_test

// raceEnabled: the race detector reserves terabytes of address space and
// takes several times the memory, so the attack suite cannot limit the
// address space and scales its memory bound.
const raceEnabled = true
