package replay_test

import (
	"bytes"
	"io/fs"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/arena"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/replay"
)

// battlemageFile is battlemage.yaml, parsed: a state-space domain with
// goals, an htn: section, and agents: kinds of every runtime (GOAP, HTN
// in both modes, a behaviour tree, a utility selector).
func battlemageFile(t *testing.T) *domain.File {
	t.Helper()
	src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := domain.Parse("battlemage.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// arenaRecording runs a few arena fights of f's agent kinds and returns
// their decisions as a recording file gives them back.
func arenaRecording(t *testing.T, f *domain.File) []agent.Decision {
	t.Helper()
	kinds, err := arena.KindsFrom(f)
	if err != nil {
		t.Fatal(err)
	}
	fr := agent.NewFlightRecorder(1_000_000, 256<<20)
	if _, err := arena.Run(arena.Config{GOAP: f.GOAP, HTN: f.HTN, Fights: 2, Seed: 7, Kinds: kinds, Decisions: fr}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := fr.WriteJSONL(&buf, agent.RecordHeader{Domain: "battlemage.yaml"}); err != nil {
		t.Fatal(err)
	}
	rec, err := agent.ReadRecording(&buf, "battlemage.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Decisions
}

// TestStateSpaceRecordingReplays: the decisions of a state-space game
// (GOAP plans, goal choices, HTN decompositions and interruption checks,
// a tree's plans, a utility selector's choices) are each decided again
// alike against their own file, as `ploy replay` promises for any
// recording, not only an engine-model one.
func TestStateSpaceRecordingReplays(t *testing.T) {
	f := battlemageFile(t)
	ds := arenaRecording(t, f)
	seen := map[string]int{}
	for i := range ds {
		seen[ds[i].Kind+"/"+ds[i].Decided]++
	}
	for _, k := range []string{"goap/plan", "htn/plan", "htn/interruption", "tree/choice"} {
		if seen[k] == 0 {
			t.Fatalf("no %s decision recorded (%v): the test covers less than it says", k, seen)
		}
	}
	rep := replay.New(replay.FromFile(f)).Run(ds, -1)
	if rep.Decisions != len(ds) {
		t.Fatalf("%d decisions decided, %d recorded", rep.Decisions, len(ds))
	}
	for _, c := range rep.Changes {
		t.Errorf("decision %d (%s/%s, tick %d) changed %v: %+v → %+v", c.Index, c.Kind, c.Decided, c.Tick, c.What, c.Before, c.After)
	}
	t.Logf("%d decisions reproduced: %v", rep.Decisions, seen)
}
