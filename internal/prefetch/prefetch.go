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

// Span is memory to ask for: where it starts and how many cache lines it
// takes (at most MaxLines). Made by BytesSpan, SliceSpan or ValueSpan and
// asked for with Ask, several at once: the call into the assembly that
// issues the hints costs more than the hints themselves, so a caller
// with several places to ask for pays for one call.
type Span struct {
	p     unsafe.Pointer
	lines uintptr
}

// BytesSpan is the n bytes from p.
func BytesSpan(p unsafe.Pointer, n uintptr) Span { return Span{p, lineCount(n)} }

// SliceSpan is the storage of s, all its capacity: a reused slice is
// about to be refilled up to about as much as it held.
func SliceSpan[T any](s []T) Span {
	var zero T
	return BytesSpan(unsafe.Pointer(unsafe.SliceData(s)), uintptr(cap(s))*unsafe.Sizeof(zero))
}

// ValueSpan is *p.
func ValueSpan[T any](p *T) Span { return BytesSpan(unsafe.Pointer(p), unsafe.Sizeof(*p)) }

// Ask asks for the spans to be brought into the cache, one hint per
// cache line. A span from a nil pointer or of no bytes asks for nothing.
func Ask(spans ...Span) {
	if len(spans) > 0 {
		ask(spans)
	}
}

// Bytes asks for the n bytes from p to be brought into the cache, one
// hint per cache line, at most MaxLines of them. A nil p or an n of 0
// asks for nothing.
func Bytes(p unsafe.Pointer, n uintptr) { Ask(BytesSpan(p, n)) }

// lineCount is how many hints n bytes take: a line for each LineBytes or
// part of it, at most MaxLines.
func lineCount(n uintptr) uintptr { return min(n/LineBytes+min(n%LineBytes, 1), MaxLines) }

// Slice asks for the storage of s, all its capacity, to be brought into
// the cache (SliceSpan).
func Slice[T any](s []T) { Ask(SliceSpan(s)) }

// Value asks for *p to be brought into the cache.
func Value[T any](p *T) { Ask(ValueSpan(p)) }
