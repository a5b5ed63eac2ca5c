//go:build !amd64 && !arm64

package prefetch

// ask does nothing where this package has no prefetch instruction to
// issue.
func ask([]Span) {}
