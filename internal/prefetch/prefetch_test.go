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
	buf := make([]int64, 1000)
	for i := range buf {
		buf[i] = int64(i)
	}
	Slice(buf)
	Slice(buf[:0])
	Slice([]int64(nil))
	Value(&buf[3])
	Bytes(nil, 100)
	Bytes(unsafe.Pointer(&buf[0]), 0)
	Bytes(unsafe.Pointer(&buf[0]), ^uintptr(0)) // at most MaxLines, inside buf's 8000 bytes
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
