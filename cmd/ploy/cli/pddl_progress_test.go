package cli

import (
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
	dir := filepath.Join("..", "..", "..", "..", "shared", "pddl", "gripper")
	domain, problem := filepath.Join(dir, "domain.pddl"), filepath.Join(dir, "prob01.pddl")
	terminal := false
	old := stderrIsTerminal
	stderrIsTerminal = func(any) bool { return terminal }
	defer func() { stderrIsTerminal = old }()

	terminal = true
	st, out, errs := runPloy(t, "plan", domain, problem, "--heuristic", "blind")
	if st != 0 || !strings.Contains(out, "cost 11;") {
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
	// to the cost, 11, each once.
	if got := strings.Join(layers, " "); got != "1 2 3 4 5 6 7 8 9 10 11" {
		t.Fatalf("layers %q, want 1 to 11 once each", got)
	}

	for _, args := range [][]string{{"--json"}, nil} {
		terminal = args != nil // --json on a terminal, then no terminal
		st, _, errs := runPloy(t, append([]string{"plan", domain, problem}, args...)...)
		if st != 0 || errs != "" {
			t.Fatalf("terminal %v, %v: status %d, standard error %q; want nothing", terminal, args, st, errs)
		}
	}
}

func TestBytesText(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 3 << 20: "3.0 MiB", 5 << 30: "5.0 GiB"} {
		if got := bytesText(n); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", n, got, want)
		}
	}
}
