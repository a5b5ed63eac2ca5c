package domain_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/internal/testkit/race"
)

// attacks are hostile or careless inputs for the loader, lint and the
// error rendering, each run in a child process (see TestAttacks).
var attacks = map[string]func() string{
	// The old nesting scan took the apostrophe for a quote, or missed the
	// comment, and let the parser grow with depth squared.
	"apostrophe then brackets": func() string { return "name: don't\nfacts: " + strings.Repeat("[", 50000) + "\n" },
	"comment then brackets":    func() string { return "name: x\n# it's\nfacts: " + strings.Repeat("[", 50000) + "\n" },
	"dashes":                   func() string { return strings.Repeat("- ", 1<<20) + "x\n" },
	// The scanner returns a whole flat list in one call: 8 MiB of it.
	"flat list of 8 MiB": func() string { return "name: x\nfacts:\n" + strings.Repeat("- a\n", (domain.MaxFileSize-20)/4) },
	// Nesting just within the limit, as often as the token limit allows.
	"deep within the limit": func() string {
		row := "  - " + strings.Repeat("[", domain.MaxNesting-3) + strings.Repeat("]", domain.MaxNesting-3) + "\n"
		return "name: x\nfacts:\n" + strings.Repeat(row, domain.MaxTokens/(len(row)*2)-10)
	},
	// Did-you-mean over a long name, and over many names.
	"50 000-character misspelling": func() string {
		name := strings.Repeat("a", 25000) + "b" + strings.Repeat("a", 24999)
		return fmt.Sprintf("name: x\nfacts: [%s]\ninitial: {%s: true}\n", strings.Repeat("a", 50000), name)
	},
	"10 000 misspelled initial facts": func() string { return domain.MisspelledInitial(10000) },
	// Each of 100 errors on a 60 000-character line.
	"long lines": func() string {
		var sb strings.Builder
		sb.WriteString("name: x\nfacts: [a]\nactions:\n")
		for i := range 100 {
			fmt.Fprintf(&sb, "  - {name: A%d, cost: 0, effects: {a: true}, pad: %s}\n", i, strings.Repeat("z", 60000))
		}
		return sb.String()
	},
	// 100 000 warnings, each on a 700 KB line.
	"100 000 unused facts": func() string {
		var sb strings.Builder
		sb.WriteString("name: x\nfacts: [u0")
		for i := 1; i < 100000; i++ {
			fmt.Fprintf(&sb, ", u%d", i)
		}
		sb.WriteString("]\n")
		return sb.String()
	},
	// 100 goals only a search can settle, over 2^16 states.
	"100 goals for search": func() string { return togglesAndGoals(14, 100) },
	// The engine model: an action graph just within MaxEdges (1000
	// actions serving 1000 goals, each of which lint resolves), and
	// 10 000 misspelled keys, each a did-you-mean over 10 000 names.
	"engine graph at its limit": func() string {
		var sb strings.Builder
		sb.WriteString("name: x\nkeys: {k: int}\nactions:\n")
		for i := range 1000 {
			fmt.Fprintf(&sb, "  - {name: A%d, effects: {k: increase}, cost: %d}\n", i, i+1)
		}
		sb.WriteString("goals:\n")
		for i := range 1000 {
			fmt.Fprintf(&sb, "  - {name: G%d, conditions: {k: \"> %d\"}}\n", i, i)
		}
		return sb.String()
	},
	"engine 10 000 misspelled keys": func() string {
		var sb strings.Builder
		sb.WriteString("name: x\nkeys: {")
		for i := range 10000 {
			fmt.Fprintf(&sb, "key_number_%d: bool, ", i)
		}
		sb.WriteString("z: int}\ninitial: {")
		for i := range 10000 {
			fmt.Fprintf(&sb, "kye_number_%d: true, ", i)
		}
		sb.WriteString("z: 1}\n")
		return sb.String()
	},
}

// Bounds every attack must keep, far above what the fixed code needs
// (see the report in the test log), far below what the old code took.
const (
	attackTime   = 60 * time.Second
	attackMemory = 600 << 20 // peak resident bytes
	attackOutput = 256 << 10 // bytes of rendered errors and warnings
)

// TestAttacks runs each attack in a child process under a 2 GB address
// space limit (none under the race detector) and asserts that it ends within attackTime, peaks under
// attackMemory and prints under attackOutput.
func TestAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process per attack")
	}
	for _, name := range slices.Sorted(maps.Keys(attacks)) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), attackTime)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestAttackChild$")
			cmd.Env = append(os.Environ(), "PLOY_ATTACK="+name)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			took := time.Since(start)
			if ctx.Err() != nil {
				t.Fatalf("still running after %v", attackTime)
			}
			if err != nil {
				t.Fatalf("%v:\n%.2000s", err, out)
			}
			var rss, printed int
			for _, line := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(line, "attack: "); ok {
					fmt.Sscanf(v, "maxrss=%d printed=%d", &rss, &printed)
				}
			}
			if rss == 0 {
				t.Fatalf("the child reported nothing:\n%.2000s", out)
			}
			t.Logf("%v, peak %d MiB, printed %d bytes", took.Round(time.Millisecond), rss>>20, printed)
			bound := attackMemory
			if race.Enabled {
				bound *= 10
			}
			if rss > bound {
				t.Errorf("peak memory %d MiB, more than %d MiB", rss>>20, bound>>20)
			}
			if printed > attackOutput {
				t.Errorf("printed %d bytes, more than %d", printed, attackOutput)
			}
		})
	}
}

// TestAttackChild is the child of TestAttacks: it loads the attack named
// by PLOY_ATTACK, lints it if it loads, renders the result, and reports
// its peak memory and output size.
func TestAttackChild(t *testing.T) {
	name := os.Getenv("PLOY_ATTACK")
	if name == "" {
		t.Skip("run by TestAttacks")
	}
	if !race.Enabled {
		limit := syscall.Rlimit{Cur: 2_000_000_000, Max: 2_000_000_000}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &limit); err != nil {
			t.Fatal(err)
		}
	}
	src := []byte(attacks[name]())
	var printed int
	f, err := domain.Parse("attack.yaml", src)
	if err != nil {
		printed = len(domain.Format(err, src))
	} else {
		printed = len(domain.Format(domain.Lint(f), src))
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Println("attack: maxrss=" + strconv.FormatInt(int64(ru.Maxrss)*1024, 10) + " printed=" + strconv.Itoa(printed))
}
