// Package replaycheck is the examples' test of decision records: a
// recording written, read back and decided again must reproduce every
// decision (replay.Replayer.Run reports no change).
package replaycheck

import (
	"bytes"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/replay"
)

// Reread writes fr's recording as a file would hold it and reads it
// back, so that a replay reads what a file gives, not the recorder's
// memory.
func Reread(t testing.TB, fr *agent.FlightRecorder, h agent.RecordHeader) *agent.Recording {
	t.Helper()
	var buf bytes.Buffer
	if err := fr.WriteJSONL(&buf, h); err != nil {
		t.Fatal(err)
	}
	rec, err := agent.ReadRecording(&buf, "recording.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// Reproduces replays fr's decisions against dom and fails the test for
// each that comes out otherwise, or when there are fewer than least.
func Reproduces(t testing.TB, fr *agent.FlightRecorder, dom replay.Domain, least int) replay.Report {
	t.Helper()
	rec := Reread(t, fr, agent.RecordHeader{})
	if len(rec.Decisions) < least {
		t.Fatalf("%d decisions recorded, want at least %d", len(rec.Decisions), least)
	}
	rep := replay.New(dom).Run(rec.Decisions, 10)
	for _, c := range rep.Changes {
		t.Errorf("decision %d (tick %d, %s, %s) came out otherwise (%v): recorded %+v, now %+v", c.Index, c.Tick, c.Agent, c.Decided, c.What, c.Before, c.After)
	}
	if rep.Changed > len(rep.Changes) {
		t.Errorf("and %d more", rep.Changed-len(rep.Changes))
	}
	return rep
}
