package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPDDLReplayPastItsLimit: a check that passes pddl.MaxReplayWork is
// no verdict: --json still answers, "undecided", and the exit status is
// 3, as a search stopped by a limit (the adversarial review found no JSON
// and exit 1, the status of a file with errors).
func TestPDDLReplayPastItsLimit(t *testing.T) {
	dir := t.TempDir()
	objs := make([]string, 40)
	for i := range objs {
		objs[i] = "o" + string(rune('a'+i/26)) + string(rune('a'+i%26))
	}
	files := map[string]string{
		"d.pddl":   `(define (domain r) (:requirements :adl) (:predicates (p ?x)) (:action a :parameters (?x) :precondition (not (p ?x)) :effect (p ?x)))`,
		"p.pddl":   `(define (problem x) (:domain r) (:objects ` + strings.Join(objs, " ") + `) (:init) (:goal (forall (?a ?b ?c ?d ?e) (or (p ?a) (not (p ?e))))))`,
		"plan.txt": "",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	st := Main([]string{"replay", filepath.Join(dir, "d.pddl"), filepath.Join(dir, "p.pddl"), filepath.Join(dir, "plan.txt"), "--json"}, nil, &stdout, &stderr)
	t.Logf("exit %d\nstdout %q\nstderr %q", st, stdout.String(), stderr.String())
	var out map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("--json printed no JSON object (exit %d): %v", st, err)
	}
	if st != exitNoPlan || out["undecided"] != true || out["valid"] != false {
		t.Fatalf("exit %d, %v: want exit 3, undecided and not valid", st, out)
	}
}
