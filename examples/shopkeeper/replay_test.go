package main

import (
	"io"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/internal/testkit/replaycheck"
	"github.com/ploy-ai/ploy/replay"
)

// TestRecordingReplays: the keeper's decisions (chains through the
// ladder to high shelves), recorded, are every one decided again alike
// from the recording, with no queue, on a queue of one worker and of two.
func TestRecordingReplays(t *testing.T) {
	for _, setup := range []struct {
		name  string
		queue func() *agent.Queue
	}{
		{"no queue", func() *agent.Queue { return nil }},
		{"1 worker", func() *agent.Queue { return agent.NewQueue(1, 1) }},
		{"2 workers", func() *agent.Queue { return agent.NewQueue(2, 1) }},
	} {
		t.Run(setup.name, func(t *testing.T) {
			fr := agent.NewFlightRecorder(100_000, 64<<20)
			s, err := NewShopWith([]string{"tea", "lamp", "soap", "vase", "rope"}, io.Discard, Setup{Queue: setup.queue(), Decisions: fr})
			if err != nil {
				t.Fatal(err)
			}
			for (s.Wanted != "" || len(s.Asks) > 0) && s.Tick < 500 {
				s.Step()
			}
			if s.Served != 5 {
				t.Fatalf("%d customers served, want 5", s.Served)
			}
			rep := replaycheck.Reproduces(t, fr, replay.Domain{Resolver: s.Domain}, 5)
			t.Logf("%d decisions reproduced", rep.Decisions)
		})
	}
}
