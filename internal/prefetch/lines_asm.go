//go:build amd64 || arm64

package prefetch

import "unsafe"

// lines issues a prefetch hint for each of the n cache lines from p
// (none for a nil p).
//
//go:noescape
func lines(p unsafe.Pointer, n uintptr)
