package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPlanShowsProgressOnATerminal: `ploy plan` on a PDDL problem prints a
// line per f layer on standard error when it is a terminal, from the
// start's estimate up to the plan's cost, and nothing when it is not a
// terminal or when the output is JSON.
func TestPlanShowsProgressOnATerminal(t *testing.T) {
	domain, problem := corridorPDDL(t)
	terminal := false
	old := stderrIsTerminal
	stderrIsTerminal = func(any) bool { return terminal }
	defer func() { stderrIsTerminal = old }()

	terminal = true
	st, out, errs := runPloy(t, "plan", domain, problem, "--heuristic", "blind")
	if st != 0 || !strings.Contains(out, "cost 7;") {
		t.Fatalf("status %d, output %q", st, out)
	}
	line := regexp.MustCompile(`^f = (\d+) \[blind\] \d+ expanded, \d+ evaluated, \d+/s, [\d.]+ (B|KiB|MiB|GiB) held$`)
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	var layers []string
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("standard error line %q is not a progress line", l)
		}
		layers = append(layers, m[1])
	}
	// Blind search: h is 1 away from the goal, so the layers run from 1
	// to the cost, 7, each once.
	if got := strings.Join(layers, " "); got != "1 2 3 4 5 6 7" {
		t.Fatalf("layers %q, want 1 to 7 once each", got)
	}

	for _, args := range [][]string{{"--json"}, nil} {
		terminal = args != nil // --json on a terminal, then no terminal
		st, _, errs := runPloy(t, append([]string{"plan", domain, problem}, args...)...)
		if st != 0 || errs != "" {
			t.Fatalf("terminal %v, %v: status %d, standard error %q; want nothing", terminal, args, st, errs)
		}
	}
}

// corridorPDDL writes a robot that walks a corridor of eight rooms, r0 to
// r7, with a branch at every room that leads nowhere, so blind search has
// states to expand in each f layer: the cheapest plan is 7 steps, costing
// its length as there is no metric. The test writes its own problem so it
// runs in any checkout, not only one beside ../shared/pddl.
func corridorPDDL(t *testing.T) (domain, problem string) {
	t.Helper()
	dir := t.TempDir()
	domain, problem = filepath.Join(dir, "domain.pddl"), filepath.Join(dir, "walk.pddl")
	const domainText = `(define (domain corridor)
  (:requirements :strips :typing)
  (:types room)
  (:predicates (at ?r - room) (door ?from ?to - room))
  (:action walk
    :parameters (?from ?to - room)
    :precondition (and (at ?from) (door ?from ?to))
    :effect (and (at ?to) (not (at ?from)))))
`
	var rooms, doors strings.Builder
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&rooms, " r%d s%d", i, i)
		fmt.Fprintf(&doors, " (door r%d s%d) (door s%d r%d)", i, i, i, i)
		if i < 7 {
			fmt.Fprintf(&doors, " (door r%d r%d) (door r%d r%d)", i, i+1, i+1, i)
		}
	}
	problemText := fmt.Sprintf("(define (problem walk) (:domain corridor)\n  (:objects%s - room)\n  (:init (at r0)%s)\n  (:goal (at r7)))\n", rooms.String(), doors.String())
	for path, text := range map[string]string{domain: domainText, problem: problemText} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return domain, problem
}

func TestBytesText(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 3 << 20: "3.0 MiB", 5 << 30: "5.0 GiB"} {
		if got := bytesText(n); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", n, got, want)
		}
	}
}
