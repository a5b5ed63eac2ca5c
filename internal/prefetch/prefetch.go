// Package prefetch asks the processor to bring memory into its cache
// before the program touches it.
//
// A hint, never a fault: the processor may ignore it, and an address that
// is not mapped is skipped, not trapped. The program's results never
// depend on it, only how long it waits for memory that has gone cold.
// What it is for: a ring of records far larger than the cache (an
// agent.FlightRecorder of thousands of decisions) whose next slot is the
// oldest, and so the coldest, memory it holds; asked for while the game
// does other work, the slot is in the cache when the next record is
// written into it.
//
// On amd64 and arm64 it issues the processors' prefetch instructions;
// elsewhere (wasm, say) it does nothing.
package prefetch

import "unsafe"

// LineBytes is the cache line the hints are spaced by: 64 bytes on the
// processors this package issues hints for.
const LineBytes = 64

// MaxLines bounds the hints one call issues: more would evict what the
// program is using to make room for what it may not reach soon.
const MaxLines = 64

// Bytes asks for the n bytes from p to be brought into the cache, one
// hint per cache line, at most MaxLines of them. A nil p or an n of 0
// asks for nothing.
func Bytes(p unsafe.Pointer, n uintptr) {
	lines(p, lineCount(n)) // lines skips a nil p: small enough to inline
}

// lineCount is how many hints n bytes take: a line for each LineBytes or
// part of it, at most MaxLines.
func lineCount(n uintptr) uintptr { return min(n/LineBytes+min(n%LineBytes, 1), MaxLines) }

// Slice asks for the storage of s, all its capacity, to be brought into
// the cache: a reused slice is about to be refilled up to about as much
// as it held.
func Slice[T any](s []T) {
	var zero T
	Bytes(unsafe.Pointer(unsafe.SliceData(s)), uintptr(cap(s))*unsafe.Sizeof(zero))
}

// Value asks for *p to be brought into the cache.
func Value[T any](p *T) {
	Bytes(unsafe.Pointer(p), unsafe.Sizeof(*p))
}
