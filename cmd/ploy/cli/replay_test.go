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

// TestWhyAnswers: ploy why --json has the fields for every
// decision of a camp (options with goal, score, chosen; plan steps with
// action and cost; rejected with action and reason); its text names the
// goal and the plan; an unknown agent and a tick before the first
// decision are errors that say what there is.
func TestWhyAnswers(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "camp.jsonl")
	if err := os.WriteFile(rec, camp.Record(t, camp.Options{Agents: 6, Ticks: 120, Workers: 2}), 0o644); err != nil {
		t.Fatal(err)
	}
	withRejected := 0
	for _, tick := range []string{"10", "40", "80", "120"} {
		for _, name := range []string{"s00", "s01", "s03"} {
			st, out, errs := runPloy(t, "why", rec, "--agent", name, "--tick", tick, "--json")
			if st != exitOK {
				t.Fatalf("why %s %s: status %d\n%s", name, tick, st, errs)
			}
			var a map[string]any
			if err := json.Unmarshal([]byte(out), &a); err != nil {
				t.Fatal(err)
			}
			for _, field := range []string{"tick", "agent", "kind", "reason", "options", "plan", "cost", "status", "snapshot", "rejected"} {
				if _, ok := a[field]; !ok {
					t.Errorf("why %s %s: no %q in %s", name, tick, field, out)
				}
			}
			if a["agent"] != name {
				t.Errorf("why %s: agent %v", name, a["agent"])
			}
			for _, o := range a["options"].([]any) {
				o := o.(map[string]any)
				if _, ok := o["goal"].(string); !ok || o["chosen"] == nil || o["score"] == nil {
					t.Errorf("an option without goal, score or chosen: %v", o)
				}
			}
			for _, s := range a["plan"].([]any) {
				s := s.(map[string]any)
				if _, ok := s["action"].(string); !ok || s["cost"] == nil {
					t.Errorf("a step without action or cost: %v", s)
				}
			}
			for _, r := range a["rejected"].([]any) {
				r := r.(map[string]any)
				if r["action"] == "" || r["reason"] == "" {
					t.Errorf("a rejected alternative without action or reason: %v", r)
				}
				withRejected++
			}
			st, text, _ := runPloy(t, "why", rec, "--agent", name, "--tick", tick)
			if st != exitOK || !strings.Contains(text, name+" (resolver, kind ") || !strings.Contains(text, "what it read: warmth ") {
				t.Errorf("why %s %s as text:\n%s", name, tick, text)
			}
		}
	}
	if withRejected == 0 {
		t.Error("no decision asked about turned anything down: the test covers less than it says")
	}
	if st, _, errs := runPloy(t, "why", rec, "--agent", "s0", "--tick", "5"); st != exitInvalid || !strings.Contains(errs, `did you mean "s00"?`) {
		t.Errorf("an unknown agent: status %d, %s", st, errs)
	}
	if st, _, errs := runPloy(t, "why", rec, "--agent", "s00", "--tick", "0"); st != exitInvalid || !strings.Contains(errs, "its first in the recording is at tick") {
		t.Errorf("a tick before the first decision: status %d, %s", st, errs)
	}
	if st, _, errs := runPloy(t, "why", rec, "--tick", "5"); st != exitUsage || !strings.Contains(errs, "--agent is required") {
		t.Errorf("no --agent: status %d, %s", st, errs)
	}
	if st, _, errs := runPloy(t, "replay", filepath.Join(dir, "none.jsonl")); st != exitInvalid || !strings.Contains(errs, "none.jsonl: ") {
		t.Errorf("a missing recording: status %d, %s", st, errs)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"format":"ploy-decisions","version":9,"decisions":0,"dropped":0}`+"\n"), 0o644)
	if st, _, errs := runPloy(t, "replay", bad); st != exitInvalid || !strings.Contains(errs, "bad.jsonl:1: version 9") {
		t.Errorf("a later version: status %d, %s", st, errs)
	}
}
