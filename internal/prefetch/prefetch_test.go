package prefetch

import (
	"testing"
	"unsafe"
)

func TestLineCount(t *testing.T) {
	for _, c := range []struct{ n, want uintptr }{
		{0, 0}, {1, 1}, {63, 1}, {64, 1}, {65, 2}, {128, 2}, {129, 3},
		{MaxLines*LineBytes - 1, MaxLines}, {MaxLines * LineBytes, MaxLines},
		{MaxLines*LineBytes + 1, MaxLines}, {^uintptr(0), MaxLines},
	} {
		if got := lineCount(c.n); got != c.want {
			t.Errorf("lineCount(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestHintsNeverFault: hints for memory in use, for nothing and for more
// than MaxLines all return, and leave what they point at as it was.
func TestHintsNeverFault(t *testing.T) {
	hintsLeaveMemoryAsItWas(t, func(buf []int64) {
		Slice(buf)
		Slice(buf[:0])
		Slice([]int64(nil))
		Value(&buf[3])
		Bytes(nil, 100)
		Bytes(unsafe.Pointer(&buf[0]), 0)
		Bytes(unsafe.Pointer(&buf[0]), ^uintptr(0)) // at most MaxLines, inside buf's 8000 bytes
	})
}

// hintsLeaveMemoryAsItWas runs hint on a buffer of 1 000 numbers and
// checks that they are as they were.
func hintsLeaveMemoryAsItWas(t *testing.T, hint func(buf []int64)) {
	t.Helper()
	buf := make([]int64, 1000)
	for i := range buf {
		buf[i] = int64(i)
	}
	hint(buf)
	for i, v := range buf {
		if v != int64(i) {
			t.Fatalf("buf[%d] = %d after the hints, want %d", i, v, i)
		}
	}
}

// BenchmarkBytes is what asking for a 1 KiB record's lines costs the
// caller: the hints do not wait for memory.
func BenchmarkBytes(b *testing.B) {
	buf := make([]byte, 1<<20)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Bytes(unsafe.Pointer(&buf[i]), 1024)
		i = (i + 1024) % len(buf)
	}
}

// TestSliceOfZeroSizedElements: Slice takes a slice of any element type,
// also one whose elements take no memory (nothing is asked for): it
// returns, and does not divide by the size.
func TestSliceOfZeroSizedElements(t *testing.T) {
	Slice(make([]struct{}, 100))
	Slice([]struct{}(nil))
	Slice(make([][0]int64, 3, 10))
}

// TestSpansCountTheirLines: a span is its memory's lines, all of a
// slice's capacity, none for a nil pointer's slice, at most MaxLines.
func TestSpansCountTheirLines(t *testing.T) {
	buf := make([]int64, 10, 100) // 800 bytes of capacity: 13 lines
	var big [MaxLines*LineBytes + 1]byte
	for _, c := range []struct {
		name  string
		got   Span
		lines uintptr
	}{
		{"a slice", SliceSpan(buf), 13},
		{"an empty slice of that storage", SliceSpan(buf[:0]), 13},
		{"a nil slice", SliceSpan([]int64(nil)), 0},
		{"an int64", ValueSpan(&buf[0]), 1},
		{"a value over MaxLines", ValueSpan(&big), MaxLines},
		{"65 bytes", BytesSpan(unsafe.Pointer(&big[0]), 65), 2},
	} {
		if c.got.lines != c.lines {
			t.Errorf("%s: %d lines, want %d", c.name, c.got.lines, c.lines)
		}
	}
	if p := SliceSpan(buf).p; p != unsafe.Pointer(&buf[0]) {
		t.Errorf("a slice's span starts at %p, want %p", p, &buf[0])
	}
}

// TestAskManySpansNeverFaults: one call with spans of every kind (nil,
// none, one line, MaxLines, past the end of their memory) returns and
// leaves the memory as it was; so does a call with none.
func TestAskManySpansNeverFaults(t *testing.T) {
	Ask()
	hintsLeaveMemoryAsItWas(t, func(buf []int64) {
		Ask(
			SliceSpan([]int64(nil)),
			SliceSpan(buf),
			BytesSpan(unsafe.Pointer(&buf[0]), 0),
			ValueSpan(&buf[999]),
			BytesSpan(unsafe.Pointer(&buf[500]), ^uintptr(0)), // MaxLines, past buf's end
			BytesSpan(nil, 4096),
			SliceSpan(make([]struct{}, 7)),
		)
	})
}

// BenchmarkAskSix is a recorder's six spans asked for in one call.
func BenchmarkAskSix(b *testing.B) {
	buf := make([]byte, 1<<20)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := unsafe.Pointer(&buf[i])
		Ask(BytesSpan(p, 96), BytesSpan(unsafe.Add(p, 4096), 64), BytesSpan(unsafe.Add(p, 8192), 128),
			BytesSpan(unsafe.Add(p, 12288), 192), BytesSpan(nil, 0), BytesSpan(unsafe.Add(p, 16384), 720))
		i = (i + 1024) % (len(buf) - 20000)
	}
}
