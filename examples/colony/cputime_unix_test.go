//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, every thread's,
// and whether it could tell.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
