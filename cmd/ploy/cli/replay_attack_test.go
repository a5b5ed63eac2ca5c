package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/camp"
)

// TestAttackReplayAgainstADomainOfTheWrongKind: a recording of resolver
// agents decided against a state-space file is not a what-if whose every
// decision changed (exit 4, as it was): it is the wrong file, exit 1 with
// one line saying so. A PDDL file is refused by the loader, positioned.
// ploy why still reads the record to the user, noting that it could not
// search again.
func TestAttackReplayAgainstADomainOfTheWrongKind(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "camp.jsonl")
	if err := os.WriteFile(rec, camp.Record(t, camp.Options{Agents: 3, Ticks: 30, Workers: 0}), 0o644); err != nil {
		t.Fatal(err)
	}
	pddl := filepath.Join(dir, "d.pddl")
	if err := os.WriteFile(pddl, []byte("(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (p) :effect (not (p))))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args      []string
		status    int
		want      string
		errsLines int // 0: any
	}{
		{[]string{"replay", rec, "--domain", "../../../domains/battlemage.yaml"}, exitInvalid, "is a state-space domain (facts:), and the recording's decisions are resolver agents'", 1},
		{[]string{"replay", rec, "--domain", pddl}, exitInvalid, "d.pddl:1:1: a domain file must be a mapping", 0},
		{[]string{"why", rec, "--agent", "s00", "--tick", "5", "--domain", pddl}, exitInvalid, "d.pddl:1:1: a domain file must be a mapping", 0},
	} {
		st, out, errs := runPloy(t, tc.args...)
		if st != tc.status || out != "" || !strings.Contains(errs, tc.want) || (tc.errsLines > 0 && strings.Count(errs, "\n") != tc.errsLines) {
			t.Errorf("%v: status %d, want %d and %q\nstdout: %.300s\nstderr: %.300s", tc.args, st, tc.status, tc.want, out, errs)
		}
	}
	st, out, errs := runPloy(t, "why", rec, "--agent", "s00", "--tick", "5", "--domain", "../../../domains/battlemage.yaml")
	if st != exitOK || !strings.Contains(out, "the search could not be run again: the domain is not an engine-model one") {
		t.Errorf("why against a state-space file: status %d\n%s%s", st, out, errs)
	}
}
