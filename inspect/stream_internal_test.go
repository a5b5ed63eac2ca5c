package inspect

import (
	"testing"
	"time"
)

// TestStalledStreamNeverBlocksFrame: a stream that takes nothing keeps
// Options.StreamBuffer events and counts the rest as lost; the sender
// queues and goes on.
func TestStalledStreamNeverBlocksFrame(t *testing.T) {
	in := New(Options{StreamBuffer: 4})
	s := &stream{events: make(chan []byte, 4), done: make(chan struct{})}
	in.streams[s] = struct{}{}
	if e := in.touch("tab", 1); e != nil {
		t.Fatal(e)
	}
	for tick := 1; tick <= 100; tick++ {
		in.mu.Lock()
		in.publishFrame(tick, []string{"someone"}, time.Now()) // as a frame that changed an agent
		in.mu.Unlock()
	}
	if len(s.events) != 4 || s.lost.Load() != 96 {
		t.Errorf("%d events queued and %d lost, want 4 and 96", len(s.events), s.lost.Load())
	}
}

// TestQuietFramesSendFewEvents: frames that change no agent send a frame
// event at most once per quietFrameEvery (the first at once), not one
// each: a game at 60 frames a second with nothing moving must not flood
// every open page.
func TestQuietFramesSendFewEvents(t *testing.T) {
	in := New(Options{StreamBuffer: 1024})
	s := &stream{events: make(chan []byte, 1024), done: make(chan struct{})}
	in.streams[s] = struct{}{}
	if e := in.touch("tab", 1); e != nil {
		t.Fatal(e)
	}
	start := time.Now()
	for tick := 1; tick <= 200; tick++ {
		in.Frame(tick) // no agent: nothing changes
	}
	most := 1 + int(time.Since(start)/quietFrameEvery)
	if n := len(s.events); n < 1 || n > most {
		t.Errorf("200 quiet frames sent %d frame events in %v, want 1 to %d", n, time.Since(start), most)
	}
}
