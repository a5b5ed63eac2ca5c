package main

import (
	"io"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/internal/testkit/replaycheck"
	"github.com/ploy-ai/ploy/replay"
	"github.com/ploy-ai/ploy/resolver"
)

// TestRecordingReplays: the camp's decisions, recorded, are every one
// decided again alike from the recording, with no queue, on a queue of
// one worker and of two. Then, against a domain where hunting is dear,
// the hunter's decisions change: the replay sees an edit.
func TestRecordingReplays(t *testing.T) {
	for _, setup := range []struct {
		name  string
		setup func(rec agent.DecisionSink) Setup
	}{
		{"no queue", func(rec agent.DecisionSink) Setup { return Setup{NoQueue: true, Decisions: rec} }},
		{"1 worker", func(rec agent.DecisionSink) Setup { return Setup{Queue: agent.NewQueue(1, 2), Decisions: rec} }},
		{"2 workers", func(rec agent.DecisionSink) Setup { return Setup{Queue: agent.NewQueue(2, 2), Decisions: rec} }},
	} {
		t.Run(setup.name, func(t *testing.T) {
			fr := agent.NewFlightRecorder(100_000, 64<<20)
			c, err := NewCampWith(3, io.Discard, setup.setup(fr))
			if err != nil {
				t.Fatal(err)
			}
			for range 200 {
				c.Step()
			}
			rep := replaycheck.Reproduces(t, fr, replay.Domain{Resolver: c.Domain}, 20)
			t.Logf("%d decisions reproduced", rep.Decisions)

			spec := domains.Survivor()
			for i := range spec.Actions {
				if spec.Actions[i].Name == "Hunt" {
					spec.Actions[i].Cost = 50
				}
			}
			edited, err := resolver.NewDomain(spec)
			if err != nil {
				t.Fatal(err)
			}
			rec := replaycheck.Reread(t, fr, agent.RecordHeader{})
			what := replay.New(replay.Domain{Resolver: edited}).Run(rec.Decisions, -1)
			if what.Changed == 0 {
				t.Fatal("a domain where hunting costs 50 changes no decision")
			}
			for _, ch := range what.Changes {
				if ch.Agent != "ada" {
					t.Errorf("decision %d of %s changed; only ada hunts", ch.Index, ch.Agent)
				}
			}
		})
	}
}
