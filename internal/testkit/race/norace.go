//go:build !race

// Package race says whether the race detector is on, for tests whose
// bounds it changes: it reserves terabytes of address space (so a test
// cannot limit a child's address space) and takes several times the
// memory and time, so memory and time bounds scale with it.
package race

// Enabled is false: the binary was built without -race.
const Enabled = false
