//go:build !unix

package cputime

import "time"

// Process cannot tell the process's CPU time here.
func Process() (time.Duration, bool) { return 0, false }
