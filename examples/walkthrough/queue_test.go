package walkthrough_test

import (
	"bytes"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// TestQueueDecidesAsOneWorker holds step 4's claim: the same world gives
// the same decisions on any number of workers. Each run records every
// decision of the step's four survivors over 30 frames; the recordings
// must be the same, byte for byte.
func TestQueueDecidesAsOneWorker(t *testing.T) {
	record := func(workers int) []byte {
		recorder := agent.NewFlightRecorder(10_000, 16<<20)
		q := agent.NewQueue(workers, 8)
		c, err := newCamp(4, func(cfg *agent.ResolverConfig) { cfg.Queue, cfg.Decisions = q, recorder })
		if err != nil {
			t.Fatal(err)
		}
		for range 30 {
			c.drift()
			for _, a := range c.agents {
				a.Tick()
			}
			q.Frame()
		}
		var file bytes.Buffer
		if err := recorder.WriteJSONL(&file, agent.RecordHeader{Domain: "survivor.yaml"}); err != nil {
			t.Fatal(err)
		}
		if held, _ := recorder.Len(); held < 10 {
			t.Fatalf("%d workers: %d decisions recorded, want a game's worth", workers, held)
		}
		return file.Bytes()
	}
	one := record(1)
	for _, workers := range []int{2, 4} {
		got := record(workers)
		if bytes.Equal(got, one) {
			continue
		}
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(one, []byte("\n"))
		for i := range max(len(gl), len(wl)) {
			if i >= len(gl) || i >= len(wl) || !bytes.Equal(gl[i], wl[i]) {
				t.Errorf("%d workers: the recording differs from one worker's at line %d", workers, i+1)
				break
			}
		}
	}
}
