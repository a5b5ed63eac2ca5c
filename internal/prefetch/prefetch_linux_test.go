package prefetch

import (
	"syscall"
	"testing"
	"unsafe"
)

// unmappedPage returns the address of a page that was mapped and is no
// longer, and the page's size.
func unmappedPage(t *testing.T) (unsafe.Pointer, uintptr) {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	gone := unsafe.Pointer(unsafe.SliceData(mem))
	if err := syscall.Munmap(mem); err != nil {
		t.Fatal(err)
	}
	return gone, uintptr(page)
}

// TestHintsForUnmappedMemoryDoNotFault: a hint for memory that is no
// longer mapped is skipped by the processor, not trapped.
func TestHintsForUnmappedMemoryDoNotFault(t *testing.T) {
	Bytes(unmappedPage(t))
}

// TestAskForUnmappedMemoryDoesNotFault: the same for a span among others.
func TestAskForUnmappedMemoryDoesNotFault(t *testing.T) {
	var here int64
	Ask(ValueSpan(&here), BytesSpan(unmappedPage(t)), ValueSpan(&here))
}
