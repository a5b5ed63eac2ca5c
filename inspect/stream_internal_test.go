package inspect

import (
	"testing"
)

// TestStalledStreamNeverBlocksFrame: a stream that takes nothing keeps
// Options.StreamBuffer events and counts the rest as lost; Frame queues
// and goes on.
func TestStalledStreamNeverBlocksFrame(t *testing.T) {
	in := New(Options{StreamBuffer: 4})
	s := &stream{events: make(chan []byte, 4), done: make(chan struct{})}
	in.streams[s] = struct{}{}
	if e := in.touch("tab", 1); e != nil {
		t.Fatal(e)
	}
	for tick := 1; tick <= 100; tick++ {
		in.Frame(tick) // a frame event each, no agent changed
	}
	if len(s.events) != 4 || s.lost.Load() != 96 {
		t.Errorf("%d events queued and %d lost, want 4 and 96", len(s.events), s.lost.Load())
	}
}
