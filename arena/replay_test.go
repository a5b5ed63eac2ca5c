package arena_test

import (
	"io/fs"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/arena"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/replaycheck"
	"github.com/ploy-ai/ploy/replay"
)

// TestRecordingsReplay: every decision the arena's agents make (GOAP
// plans, HTN decompositions and interruption checks in both modes, the
// utility agent's choices), recorded over a few fights, is decided again alike from the recording: the built-in kinds
// (configured in Go, over the Go domains) and the kinds of
// battlemage.yaml's agents: section (configured from the file, and
// replayed with the file's kinds).
func TestRecordingsReplay(t *testing.T) {
	t.Run("built-in kinds", func(t *testing.T) {
		g, h := domainsForArena(t)
		fr := agent.NewFlightRecorder(1_000_000, 256<<20)
		if _, err := arena.Run(arena.Config{GOAP: g, HTN: h, Fights: 4, Seed: 7, Decisions: fr}); err != nil {
			t.Fatal(err)
		}
		var extra []*goap.Goal
		for name, facts := range map[string]string{"Restock": "carrying_potion", "ChargeStaff": "staff_charged"} {
			goal, err := g.NewGoal(name, map[string]bool{facts: true})
			if err != nil {
				t.Fatal(err)
			}
			extra = append(extra, goal)
		}
		rep := replaycheck.Reproduces(t, fr, replay.Domain{GOAP: g, HTN: h, Goals: extra}, 100)
		kinds := kindsRecorded(t, fr)
		for _, k := range []string{"goap", "htn", "interruption", "tree", "choice"} {
			if kinds[k] == 0 {
				t.Errorf("no decision of a %s agent recorded", k)
			}
		}
		t.Logf("%d decisions reproduced: %v", rep.Decisions, kinds)
	})
	t.Run("file kinds", func(t *testing.T) {
		src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
		if err != nil {
			t.Fatal(err)
		}
		f, err := domain.Parse("battlemage.yaml", src)
		if err != nil {
			t.Fatal(err)
		}
		kinds, err := arena.KindsFrom(f)
		if err != nil {
			t.Fatal(err)
		}
		fr := agent.NewFlightRecorder(1_000_000, 256<<20)
		if _, err := arena.Run(arena.Config{GOAP: f.GOAP, HTN: f.HTN, Fights: 4, Seed: 7, Kinds: kinds, Decisions: fr}); err != nil {
			t.Fatal(err)
		}
		rep := replaycheck.Reproduces(t, fr, replay.FromFile(f), 100)
		t.Logf("%d decisions reproduced: %v", rep.Decisions, kindsRecorded(t, fr))
	})
}

func kindsRecorded(t *testing.T, fr *agent.FlightRecorder) map[string]int {
	rec := replaycheck.Reread(t, fr, agent.RecordHeader{})
	n := map[string]int{}
	for _, d := range rec.Decisions {
		n[d.Kind]++
		if d.Decided != "plan" {
			n[d.Decided]++
		}
	}
	return n
}
