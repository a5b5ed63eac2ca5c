//go:build !amd64 && !arm64

package prefetch

import "unsafe"

// lines does nothing where this package has no prefetch instruction to
// issue.
func lines(unsafe.Pointer, uintptr) {}
