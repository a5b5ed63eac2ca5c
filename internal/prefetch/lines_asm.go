//go:build amd64 || arm64

package prefetch

// ask issues a prefetch hint for each cache line of each span (none for
// a span with a nil pointer).
//
//go:noescape
func ask(spans []Span)
