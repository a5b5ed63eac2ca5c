package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/camp"
)

var campFile = flag.String("camp", "", "TestWriteCampRecording writes a camp recording to this file")

// runPloy runs ploy in process and returns its exit status and output.
func runPloy(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	st := Main(args, strings.NewReader(""), &out, &errs)
	return st, out.String(), errs.String()
}

// TestReplayReproducesAndWhatIf: a camp's recording replays with no
// change against its own domain, with no queue and on 1 and 2 workers;
// against survivor.yaml with foraging made dear the changes are listed,
// in JSON too, with exit status 4.
func TestReplayReproducesAndWhatIf(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../../domains/survivor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, "edited.yaml")
	dear := strings.Replace(string(src), "    cost: 3\n    target: berries", "    cost: 30\n    target: berries", 1)
	if dear == string(src) {
		t.Fatal("the edit did not apply: survivor.yaml's Forage has changed")
	}
	if err := os.WriteFile(edited, []byte(dear), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{0, 1, 2} {
		rec := filepath.Join(dir, "camp.jsonl")
		if err := os.WriteFile(rec, camp.Record(t, camp.Options{Agents: 12, Ticks: 150, Workers: workers}), 0o644); err != nil {
			t.Fatal(err)
		}
		st, out, errs := runPloy(t, "replay", rec)
		if st != exitOK || !strings.Contains(out, ": 0 changed") {
			t.Fatalf("workers %d: replay: status %d, want 0\n%s%s", workers, st, out, errs)
		}
		st, out, errs = runPloy(t, "replay", rec, "--domain", edited, "--json")
		if st != exitChanged {
			t.Fatalf("workers %d: replay --domain edited: status %d, want 4\n%s%s", workers, st, out, errs)
		}
		var rep struct {
			Decisions, Changed int
			Changes            []struct {
				Tick   int
				Agent  string
				What   []string
				Before struct{ Plan []string }
				After  struct{ Plan []string }
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Decisions < 50 || rep.Changed == 0 || rep.Changed != len(rep.Changes) {
			t.Fatalf("workers %d: %d decisions, %d changed, %d listed", workers, rep.Decisions, rep.Changed, len(rep.Changes))
		}
		for _, c := range rep.Changes {
			foraged := strings.Contains(strings.Join(c.Before.Plan, ","), "Forage")
			if !foraged {
				t.Errorf("tick %d %s changed (%v) and the recorded plan did not forage: %v → %v", c.Tick, c.Agent, c.What, c.Before.Plan, c.After.Plan)
			}
		}
	}
}

// TestWriteCampRecording writes a camp recording for a person to try
// ploy replay and ploy why on: go test -run TestWriteCampRecording
// -camp FILE.
func TestWriteCampRecording(t *testing.T) {
	if *campFile == "" {
		t.Skip("no -camp FILE")
	}
	if err := os.WriteFile(*campFile, camp.Record(t, camp.Options{Agents: 12, Ticks: 150, Workers: 2}), 0o644); err != nil {
		t.Fatal(err)
	}
}
