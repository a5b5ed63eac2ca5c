package main

import (
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/internal/testkit/replaycheck"
	"github.com/ploy-ai/ploy/replay"
)

// TestRecordingReplays: the woodcutters' decisions (GOAP plans under
// profiles that price each walk, remade every trip), recorded, are every
// one decided again alike from the recording, with no queue, on a queue
// of one worker and of two.
func TestRecordingReplays(t *testing.T) {
	for _, setup := range []struct {
		name  string
		queue func() *agent.Queue
	}{
		{"no queue", func() *agent.Queue { return nil }},
		{"1 worker", func() *agent.Queue { return agent.NewQueue(1, 2) }},
		{"2 workers", func() *agent.Queue { return agent.NewQueue(2, 2) }},
	} {
		t.Run(setup.name, func(t *testing.T) {
			fr := agent.NewFlightRecorder(100_000, 64<<20)
			f, err := NewForestWith([]float64{10, 14, 30}, 2, 4, Setup{Queue: setup.queue(), Decisions: fr})
			if err != nil {
				t.Fatal(err)
			}
			for f.Left() > 0 || anyCarrying(f) {
				f.Step()
				if f.tick > 2000 {
					break
				}
			}
			rep := replaycheck.Reproduces(t, fr, replay.Domain{GOAP: f.d}, 10)
			t.Logf("%d decisions reproduced", rep.Decisions)
		})
	}
}
