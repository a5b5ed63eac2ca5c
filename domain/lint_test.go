package domain_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
)

// TestLint checks every file in testdata/lint: exactly the annotated
// warnings (`WARN "regexp"`), each on its line.
func TestLint(t *testing.T) {
	files, _ := filepath.Glob("testdata/lint/*.yaml")
	if len(files) == 0 {
		t.Fatal("no lint files")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := domain.Parse(filepath.Base(path), src)
			if err != nil {
				t.Fatal(domain.Format(err, src))
			}
			exps := expectations(t, []byte(strings.ReplaceAll(string(src), "WARN ", "ERROR ")))
			for _, w := range domain.Lint(f) {
				found := false
				for _, x := range exps {
					if !x.met && x.line == w.Pos.Line && x.re.MatchString(w.Msg) {
						x.met, found = true, true
						break
					}
				}
				if !found {
					t.Errorf("unexpected warning %v", w)
				}
			}
			for _, x := range exps {
				if !x.met {
					t.Errorf("line %d: no warning matching %q", x.line, x.re)
				}
			}
		})
	}
}

// TestShippedDomainsLintClean keeps the domains ploy ships free of
// warnings: they are what a designer copies.
func TestShippedDomainsLintClean(t *testing.T) {
	for _, name := range []string{"battlemage.yaml", "soldier.yaml"} {
		f := loadShipped(t, name)
		for _, w := range domain.Lint(f) {
			t.Errorf("%v", w)
		}
	}
}

// TestShippedEngineFilesLint pins the one warning the shipped engine-model
// files draw: the survivor's LightFire wants the fire not lit, which no
// action serves (nothing puts a fire out), so only the world can.
func TestShippedEngineFilesLint(t *testing.T) {
	for name, want := range map[string][]string{
		"survivor.yaml":   {`survivor.yaml:34:34: warning: condition !fire_lit of action "LightFire": no action's effect serves it`},
		"shopkeeper.yaml": nil,
		"colony.yaml":     nil,
	} {
		ws := domain.Lint(loadShipped(t, name))
		if len(ws) != len(want) {
			t.Errorf("%s: %d warnings %v, want %d", name, len(ws), ws, len(want))
			continue
		}
		for i, w := range ws {
			if !strings.HasPrefix(w.Error(), want[i]) {
				t.Errorf("%s: %v, want %s…", name, w, want[i])
			}
		}
	}
}

// togglesAndGoals is a domain of n free toggles (2^n reachable states)
// and goals goals that relaxed reachability cannot settle: each wants a
// and b together, which exclude each other, so only a search can tell.
func togglesAndGoals(n, goals int) string {
	var sb strings.Builder
	sb.WriteString("name: x\nfacts: [a, b")
	for i := range n {
		fmt.Fprintf(&sb, ", t%d", i)
	}
	sb.WriteString("]\nactions:\n")
	sb.WriteString("  - {name: A, preconditions: {b: false}, effects: {a: true}, cost: 1}\n")
	sb.WriteString("  - {name: B, preconditions: {a: false}, effects: {b: true}, cost: 1}\n")
	for i := range n {
		fmt.Fprintf(&sb, "  - {name: On%d, preconditions: {t%d: false}, effects: {t%d: true}, cost: 1}\n", i, i, i)
		fmt.Fprintf(&sb, "  - {name: Off%d, preconditions: {t%d: true, a: true}, effects: {t%d: false}, cost: 1}\n", i, i, i)
	}
	sb.WriteString("goals:\n")
	for i := range goals {
		fmt.Fprintf(&sb, "  - {name: G%d, conditions: {a: true, b: true}}\n", i)
	}
	return sb.String()
}

var budgetSaid = regexp.MustCompile(`within lint's budget of (\d+) states|\((\d+) reachable states searched\)`)

// TestLintSearchesAreBounded checks that lint's searches, together, stay
// within LintSearchBudget states whatever the number of goals, and that a
// search cut short is reported as inconclusive, not as unreachable.
func TestLintSearchesAreBounded(t *testing.T) {
	for _, tc := range []struct {
		toggles, goals int
		want           string
	}{
		{2, 3, "is unreachable from the initial state: each of its facts can be reached, but not all together"},
		{14, 100, "inconclusive"},
		{14, 1000, ""},
	} {
		src := togglesAndGoals(tc.toggles, tc.goals)
		f, err := domain.Parse("x.yaml", []byte(src))
		if err != nil {
			t.Fatal(domain.Format(err, []byte(src)))
		}
		spent, goalWarnings, notSearched := 0, 0, 0
		for _, w := range domain.Lint(f) {
			if !strings.Contains(w.Msg, `goal "G`) {
				continue
			}
			goalWarnings++
			if strings.Contains(w.Msg, "not searched") {
				notSearched++
				continue
			}
			if tc.want != "" && !strings.Contains(w.Msg, tc.want) {
				t.Errorf("%d goals over %d toggles: %s", tc.goals, tc.toggles, w.Msg)
			}
			m := budgetSaid.FindStringSubmatch(w.Msg)
			if m == nil {
				t.Fatalf("warning names no state count: %s", w.Msg)
			}
			n, _ := strconv.Atoi(m[1] + m[2])
			spent += n
		}
		if goalWarnings != tc.goals {
			t.Errorf("%d goals over %d toggles: %d goal warnings", tc.goals, tc.toggles, goalWarnings)
		}
		if spent > domain.LintSearchBudget {
			t.Errorf("%d goals over %d toggles: searches spent %d states, more than LintSearchBudget %d", tc.goals, tc.toggles, spent, domain.LintSearchBudget)
		}
		t.Logf("%d goals over %d toggles: %d states, %d goals not searched", tc.goals, tc.toggles, spent, notSearched)
	}
}

// TestEngineLintResolvesAtMostLintResolves: an engine-model file of more
// goals than LintResolves, none with a chain, draws a warning for each
// goal lint resolved and one for the rest, at the first goal left out.
func TestEngineLintResolvesAtMostLintResolves(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("name: many\nkeys: {a: bool, b: bool}\nactions:\n  - {name: A, conditions: {b: true}, effects: {a: true}, cost: 1}\n  - {name: B, effects: {b: true}, cost: 1, target: far}\ntargets: {}\ngoals:\n")
	n := domain.LintResolves + 2
	for i := range n {
		fmt.Fprintf(&sb, "  - {name: G%d, conditions: {a: true}}\n", i)
	}
	f, err := domain.Parse("many.yaml", []byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	resolved, rest := 0, 0
	for _, w := range domain.Lint(f) {
		switch {
		case strings.Contains(w.Msg, "no chain from the file's world"):
			resolved++
		case strings.Contains(w.Msg, "not resolved"):
			rest++
			want := fmt.Sprintf(`goal "G%d" and the 1 after it: not resolved; lint resolves the first %d goals`, domain.LintResolves, domain.LintResolves)
			if !strings.Contains(w.Msg, want) {
				t.Errorf("%s, want %s", w.Msg, want)
			}
		}
	}
	if resolved != domain.LintResolves || rest != 1 {
		t.Errorf("%d goals: %d resolved, %d warnings for the rest; want %d and 1", n, resolved, rest, domain.LintResolves)
	}
}
