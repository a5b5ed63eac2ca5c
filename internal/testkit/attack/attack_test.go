package attack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The attacks on the command through its input files, one test each,
// named by what it attacks. The attacks the command cannot reach (on the
// plan queue, on states and goals of another domain, on a Queue used from
// several goroutines, on agent.New's goal) are library-level and tested
// in-process by their packages.
//
// Every attack asserts, besides its own expectations: no panic or runtime
// crash, an exit status from its set, the peak RSS under its bound (512 MiB
// unless said), the wall time under the hang guard (30 s), the output under
// 1 MiB unless said, and a message on stderr for exit 1 or 2 and an answer
// on stdout for exit 0.

var (
	// positioned is a FILE:LINE:COL error at the start of a line.
	positioned = regexp.MustCompile(`(?m)^[^:\n]+:\d+:\d+: `)
	// sizeLimit is a message about the input's size.
	sizeLimit = regexp.MustCompile(`(?i)at most|too (big|large|long)|limit|[0-9] ?(bytes|MiB)`)
	// notFound means "-" or a device was not read at all.
	notFound = regexp.MustCompile(`no such file`)
)

func TestNesting(t *testing.T) {
	deep := strings.Repeat("[", 50_000)
	t.Run("apostrophe in a plain scalar", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"lint", "deep.yaml"},
			files:  map[string][]byte{"deep.yaml": []byte("name: don't\nfacts: " + deep + "\n")},
			exits:  []int{1},
			stderr: positioned,
		})
	})
	t.Run("comment at column 1", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"plan", "deep.yaml", "--goal", "G"},
			files:  map[string][]byte{"deep.yaml": []byte("name: t\n# it's deep\nfacts: " + deep + "\n")},
			exits:  []int{1},
			stderr: positioned,
		})
	})
	t.Run("valid file with brackets in a comment", func(t *testing.T) {
		src := "name: t\n# " + strings.Repeat("[", 70) + "\nfacts: [a]\nactions:\n  - {name: A, effects: {a: true}, cost: 1}\ngoals:\n  - {name: G, conditions: {a: true}}\n"
		runAttack(t, attack{
			args:  []string{"plan", "ok.yaml", "--goal", "G"},
			files: map[string][]byte{"ok.yaml": []byte(src)},
			exits: []int{0},
		})
	})
}

func TestEndlessInput(t *testing.T) {
	for _, a := range []attack{
		{name: "/dev/zero", args: []string{"lint", "/dev/zero"}},
		{name: "/dev/urandom", args: []string{"plan", "/dev/urandom", "--goal", "G"}, terminalSafe: true},
		{name: "endless pipe as -", args: []string{"lint", "-"}, stdin: endless("name: t\n")},
		{name: "endless pipe as /dev/stdin", args: []string{"lint", "/dev/stdin"}, stdin: endless("name: t\n")},
		{name: "/dev/zero as -", args: []string{"htn", "-"}, stdin: devZero},
	} {
		t.Run(a.name, func(t *testing.T) {
			a.exits = []int{1}
			a.stderr = sizeLimit
			a.notStderr = notFound
			runAttack(t, a)
		})
	}
}

func TestSelfRecursiveMethod(t *testing.T) {
	src := tiny("selfish") + "htn:\n  root: T\n  tasks:\n    - name: T\n      methods:\n" +
		"        - {name: Again, subtasks: [" + repeatList("T", 10_000) + "]}\n" +
		"        - {name: Base, subtasks: [A]}\n"
	for _, args := range [][]string{
		{"htn", "selfish.yaml"},
		{"trace", "--htn", "--format", "json", "selfish.yaml"},
	} {
		t.Run(args[0], func(t *testing.T) {
			runAttack(t, attack{
				args:  args,
				files: map[string][]byte{"selfish.yaml": []byte(src)},
				exits: []int{1, 3},
				// The step limit's message names the task that repeats.
				check: func(t *testing.T, r *result) {
					if r.exit == 3 && args[0] == "htn" && !strings.Contains(r.stdout.buf.String(), `"T"`) {
						t.Errorf("the step limit's message does not name the task T:\n%s", r.stdout.buf.String())
					}
				},
			})
		})
	}
}

func TestCostRules(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("name: rules\nfacts: [g, " + numbered("r", 11) + "]\nactions:\n")
	for i := range 16_000 {
		fmt.Fprintf(&sb, "  - {name: A%d, effects: {g: true}, cost: [", i)
		for r := range 11 {
			fmt.Fprintf(&sb, "{when: {r%d: true}, cost: %d}, ", r, r+2)
		}
		sb.WriteString("{cost: 1}]}\n")
	}
	sb.WriteString("goals:\n  - {name: G, conditions: {g: true}}\n")
	runAttack(t, attack{
		args:  []string{"plan", "rules.yaml", "--goal", "G"},
		files: map[string][]byte{"rules.yaml": fileUnderLimit(t, sb.String())},
		exits: []int{0, 1},
	})
}

func TestSearchBudget(t *testing.T) {
	t.Run("20 toggles and 100 000 unused facts", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "wide.yaml", "--goal", "Done"},
			files: map[string][]byte{"wide.yaml": fileUnderLimit(t, toggles(20, 100_000, 0))},
			exits: []int{3},
		})
	})
	wide40 := fileUnderLimit(t, toggles(40, 100_000, 0))
	t.Run("--budget 10000 on 40 toggles and 100 000 unused facts", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "toggles.yaml", "--goal", "Done", "--budget", "10000"},
			files: map[string][]byte{"toggles.yaml": wide40},
			exits: []int{3},
		})
	})
	t.Run("--budget 1000000000000", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "toggles.yaml", "--goal", "Done", "--budget", "1000000000000"},
			files: map[string][]byte{"toggles.yaml": wide40},
			// refused as a usage error, or a budget_exhausted within memory
			exits: []int{2, 3},
		})
	})
	// 100 000 actions no longer pass the loader's token limit
	// (they are refused at once); 11 000 is about the most a file holds,
	// at the default budget that took 12.5 s before the search counted its work.
	t.Run("100 000 actions", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"plan", "many.yaml", "--goal", "Done"},
			files:  map[string][]byte{"many.yaml": fileUnderLimit(t, toggles(20, 0, 100_000))},
			exits:  []int{1},
			stderr: regexp.MustCompile(`too many YAML tokens`),
		})
	})
	t.Run("11 000 actions", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "many.yaml", "--goal", "Done"},
			files: map[string][]byte{"many.yaml": fileUnderLimit(t, toggles(20, 0, 11_000))},
			exits: []int{3},
		})
	})
}

func TestTraceJSON(t *testing.T) {
	runAttack(t, attack{
		args:      []string{"trace", "toggles.yaml", "--goal", "Done", "--format", "json"},
		files:     map[string][]byte{"toggles.yaml": []byte(toggles(20, 0, 0))},
		exits:     []int{3},
		maxOutput: -1, // the trace is as large as the search; memory is the bound
	})
}

func TestOutputSize(t *testing.T) {
	t.Run("errors on a 6 MB line", func(t *testing.T) {
		src := "name: long\nfacts: [" + strings.Repeat("x", 6<<20) + strings.Repeat(", d", 300) + "]\n"
		runAttack(t, attack{
			args:   []string{"lint", "long.yaml"},
			files:  map[string][]byte{"long.yaml": fileUnderLimit(t, src)},
			exits:  []int{1},
			stderr: positioned,
		})
	})
	t.Run("lint warnings for 100 000 unused facts", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"lint", "unused.yaml"},
			files: map[string][]byte{"unused.yaml": fileUnderLimit(t, toggles(2, 100_000, 0))},
			exits: []int{0},
		})
	})
}

func TestSuggestions(t *testing.T) {
	t.Run("50 000-character names misspelled", func(t *testing.T) {
		a, b := strings.Repeat("a", 50_000), strings.Repeat("b", 50_000)
		var sb strings.Builder
		fmt.Fprintf(&sb, "name: long\nfacts: [%s, %s]\nactions:\n", a, b)
		for i := range 4 {
			// one letter changed in the middle: the closest match is a
			fmt.Fprintf(&sb, "  - {name: A%d, effects: {%s%c%s: true}, cost: 1}\n", i, a[:25_000], 'c'+i, a[25_001:])
		}
		runAttack(t, attack{
			args:   []string{"lint", "long.yaml"},
			files:  map[string][]byte{"long.yaml": fileUnderLimit(t, sb.String())},
			exits:  []int{1},
			stderr: positioned,
		})
	})
	t.Run("10 000 misspelled initial keys, 10 000 facts", func(t *testing.T) {
		var sb strings.Builder
		sb.WriteString("name: typos\nfacts: [" + numbered("fact_", 10_000) + "]\ninitial: {")
		for i := range 10_000 {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "fcat_%d: true", i)
		}
		sb.WriteString("}\n")
		runAttack(t, attack{
			args:   []string{"lint", "typos.yaml"},
			files:  map[string][]byte{"typos.yaml": fileUnderLimit(t, sb.String())},
			exits:  []int{1},
			stderr: positioned,
		})
	})
}

// TestAgentSuggestions: an agents: section's many unknown names against
// many declared ones, each needing a did-you-mean over all of them, must
// stay linear, as the facts' do.
func TestAgentSuggestions(t *testing.T) {
	const n = 25_000 // about 470 000 tokens, within domain.MaxTokens
	var sb strings.Builder
	sb.WriteString("name: agents\nfacts: [a]\nactions:\n  - {name: A, effects: {a: true}, cost: 1}\ngoals:\n  - {name: G, conditions: {a: true}}\ninputs: {")
	for i := range n {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "input_%d: 0", i)
	}
	sb.WriteString("}\nagents:\n  - name: k\n    goals:\n      - goal: G\n        priority: 1\n        when: {")
	for i := range n {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "inptu_%d: \"< 1\"", i)
	}
	sb.WriteString("}\n")
	runAttack(t, attack{
		args:   []string{"lint", "agents.yaml"},
		files:  map[string][]byte{"agents.yaml": fileUnderLimit(t, sb.String())},
		exits:  []int{1},
		stderr: regexp.MustCompile(`agents.yaml:\d+:\d+: unknown input "inptu_0"; did you mean "input_0"\?`),
	})
}

func TestHTNCycle(t *testing.T) {
	for _, n := range []int{30_000, 100_000} {
		src := fileUnderLimit(t, cycle(n))
		t.Run(fmt.Sprintf("htn, %d tasks", n), func(t *testing.T) {
			runAttack(t, attack{
				args:   []string{"htn", "cycle.yaml"},
				files:  map[string][]byte{"cycle.yaml": src},
				exits:  []int{1},
				stderr: positioned,
			})
		})
		t.Run(fmt.Sprintf("plan, %d tasks", n), func(t *testing.T) {
			runAttack(t, attack{
				args:  []string{"plan", "cycle.yaml", "--goal", "G"},
				files: map[string][]byte{"cycle.yaml": src},
				// plan may refuse the file's HTN section or ignore it
				exits: []int{0, 1},
			})
		})
	}
}

func TestLintUnreachableGoals(t *testing.T) {
	// 500 goals that relaxed reachability passes (each of x and y can be
	// made true, never both) over a domain whose search space outlasts the
	// default budget: a full search per goal takes about 0.1 s (100 goals
	// once took 10 s).
	var sb strings.Builder
	sb.WriteString("name: exclusive\nfacts: [x, y, " + numbered("t", 20) + "]\nactions:\n")
	for i := range 20 {
		fmt.Fprintf(&sb, "  - {name: On%d, preconditions: {t%d: false}, effects: {t%d: true}, cost: 1}\n", i, i, i)
		fmt.Fprintf(&sb, "  - {name: Off%d, preconditions: {t%d: true}, effects: {t%d: false}, cost: 1}\n", i, i, i)
	}
	sb.WriteString("  - {name: SetX, effects: {x: true, y: false}, cost: 1}\n  - {name: SetY, effects: {y: true, x: false}, cost: 1}\ngoals:\n")
	for i := range 500 {
		fmt.Fprintf(&sb, "  - {name: Both%d, conditions: {x: true, y: true, t%d: true}}\n", i, i%20)
	}
	runAttack(t, attack{
		args:  []string{"lint", "goals.yaml"},
		files: map[string][]byte{"goals.yaml": []byte(sb.String())},
		exits: []int{0},
	})
}

func TestExplainAlternatives(t *testing.T) {
	runAttack(t, attack{
		args:   []string{"explain", "--goal", "Kill", "--alternatives", "-1"},
		exits:  []int{2},
		stderr: regexp.MustCompile(`--alternatives`),
	})
}

func TestCostOverflow(t *testing.T) {
	// 1e308 is what a designer writes; 1.0e+308 is what today's loader
	// accepts: the command must end well on both.
	for _, literal := range []string{"1e308", "1.0e+308"} {
		src := "name: big\nfacts: [a, b]\nactions:\n" +
			"  - {name: A, effects: {a: true}, cost: " + literal + "}\n" +
			"  - {name: B, preconditions: {a: true}, effects: {b: true}, cost: " + literal + "}\n" +
			"goals:\n  - {name: G, conditions: {b: true}}\n"
		costOverflow(t, literal, src)
	}
}

func costOverflow(t *testing.T, literal, src string) {
	for _, args := range [][]string{
		{"plan", "big.yaml", "--goal", "G"},
		{"plan", "big.yaml", "--goal", "G", "--json"},
		{"trace", "big.yaml", "--goal", "G", "--format", "json"},
		{"explain", "big.yaml", "--goal", "G"},
	} {
		t.Run(literal+"/"+args[0]+strings.Join(args[2:], " "), func(t *testing.T) {
			runAttack(t, attack{
				args:  args,
				files: map[string][]byte{"big.yaml": []byte(src)},
				// refused at load, or a finite answer
				exits: []int{0, 1},
				check: func(t *testing.T, r *result) {
					out := r.stdout.buf.String()
					if r.exit != 0 {
						return
					}
					if strings.Contains(out, "Inf") || strings.Contains(out, "NaN") {
						t.Errorf("exit 0 with a cost past the float range:\n%s", trim(out))
					}
					if strings.Contains(strings.Join(args, " "), "json") && !json.Valid(r.stdout.buf.Bytes()) {
						t.Errorf("exit 0 with invalid JSON:\n%s", trim(out))
					}
				},
			})
		})
	}
}

func TestCarelessInput(t *testing.T) {
	small := "name: t\nfacts: [a, b]\nactions:\n  - {name: A, effects: {a: true}, cost: 2}\n  - {name: B, preconditions: {a: true}, effects: {b: true}, cost: 1e290}\ngoals:\n  - {name: G, conditions: {a: true}}\n  - {name: H, conditions: {b: true}}\n"
	t.Run("UTF-8 BOM", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "bom.yaml", "--goal", "G"},
			files: map[string][]byte{"bom.yaml": []byte("\ufeff" + small)},
			exits: []int{0},
		})
	})
	t.Run("1e290 is a number", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "t.yaml", "--goal", "H", "--json"},
			files: map[string][]byte{"t.yaml": []byte(small)},
			exits: []int{0},
			check: func(t *testing.T, r *result) {
				if !strings.Contains(r.stdout.buf.String(), `"cost":1e+290`) {
					t.Errorf("want cost 1e+290:\n%s", r.stdout.buf.String())
				}
			},
		})
	})
	t.Run("1e308 is a number, past the largest cost", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "t.yaml", "--goal", "H"},
			files: map[string][]byte{"t.yaml": []byte(strings.Replace(small, "1e290", "1e308", 1))},
			exits: []int{1},
			check: func(t *testing.T, r *result) {
				if !strings.Contains(r.stderr.buf.String(), "t.yaml:5:67: cost is 1e+308; costs must be at most 1e+290") {
					t.Errorf("want the cost refused for its size, positioned:\n%s", r.stderr.buf.String())
				}
			},
		})
	})
	t.Run("!!str true is not a boolean", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"lint", "str.yaml"},
			files:  map[string][]byte{"str.yaml": []byte("name: t\nfacts: [a]\ninitial: {a: !!str true}\nactions:\n  - {name: A, effects: {a: true}, cost: 1}\n")},
			exits:  []int{1},
			stderr: positioned,
		})
	})
	t.Run("- is standard input", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "-", "--goal", "G", "--json"},
			stdin: func(*testing.T) io.Reader { return strings.NewReader(small) },
			exits: []int{0},
		})
	})
	t.Run("30 independent goal facts", func(t *testing.T) {
		var sb strings.Builder
		sb.WriteString("name: wide\nfacts: [" + numbered("f", 30) + "]\nactions:\n")
		for i := range 30 {
			fmt.Fprintf(&sb, "  - {name: Set%d, effects: {f%d: true}, cost: 1}\n", i, i)
		}
		sb.WriteString("goals:\n  - name: All\n    conditions: {")
		for i := range 30 {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "f%d: true", i)
		}
		sb.WriteString("}\n")
		runAttack(t, attack{
			args:  []string{"plan", "wide.yaml", "--goal", "All", "--json"},
			files: map[string][]byte{"wide.yaml": []byte(sb.String())},
			exits: []int{0},
		})
	})
	// Names holding terminal escapes, NUL and invalid UTF-8: refused or
	// printed escaped, never raw.
	evil := map[string]string{
		"escape in a quoted name": `"a\e[2J\e]0;pwned\a"`,
		"NUL in a quoted name":    `"a\0b"`,
		"raw escape":              "a\x1b[31mred",
		"raw NUL":                 "a\x00b",
		"invalid UTF-8":           "a\xff\xfeb",
	}
	for what, name := range evil {
		src := "name: evil\nfacts: [" + name + ", b]\nactions:\n  - {name: " + name + ", effects: {" + name + ": true}, cost: 1}\n  - name: B\n    effects: {b: true}\n    cost: 1\ngoals:\n  - {name: " + name + ", conditions: {" + name + ": true}}\n  - {name: G, conditions: {b: true, " + name + ": true}}\n"
		for _, args := range [][]string{
			{"lint", "evil.yaml"},
			{"plan", "evil.yaml", "--goal", "G"},
			{"trace", "evil.yaml", "--goal", "G"},
			{"trace", "evil.yaml", "--goal", "G", "--format", "dot"},
		} {
			t.Run(what+"/"+strings.Join(args[:1], " ")+strings.Join(args[2:], " "), func(t *testing.T) {
				runAttack(t, attack{
					args:         args,
					files:        map[string][]byte{"evil.yaml": []byte(src)},
					exits:        []int{0, 1, 3},
					terminalSafe: true,
				})
			})
		}
	}
	t.Run("escape in --goal", func(t *testing.T) {
		runAttack(t, attack{
			args:         []string{"plan", "--goal", "\x1b[2J\x07"}, // argv cannot hold NUL
			exits:        []int{2},
			terminalSafe: true,
		})
	})
}

// tiny is a one-action domain, the start of a file an attack extends.
func tiny(name string) string {
	return "name: " + name + "\nfacts: [a]\nactions:\n  - {name: A, effects: {a: true}, cost: 1}\ngoals:\n  - {name: G, conditions: {a: true}}\n"
}

// toggles is a domain of n facts, each turned on and off by its own two
// actions, plus Finish, which needs them all on and brings about done: the
// goal Done is reachable, but a search sees most of the 2^n states first.
// unused adds facts nothing mentions; extra adds actions that turn a
// toggle on again.
func toggles(n, unused, extra int) string {
	var sb strings.Builder
	sb.WriteString("name: toggles\nfacts: [done")
	for i := range n {
		fmt.Fprintf(&sb, ", t%d", i)
	}
	for i := range unused {
		fmt.Fprintf(&sb, ", u%d", i)
	}
	sb.WriteString("]\nactions:\n")
	for i := range n {
		fmt.Fprintf(&sb, "  - {name: On%d, preconditions: {t%d: false}, effects: {t%d: true}, cost: 1}\n", i, i, i)
		fmt.Fprintf(&sb, "  - {name: Off%d, preconditions: {t%d: true}, effects: {t%d: false}, cost: 1}\n", i, i, i)
	}
	for i := range extra {
		fmt.Fprintf(&sb, "  - {name: x%d, preconditions: {t%d: false}, effects: {t%d: true}, cost: 1}\n", i, i%n, i%n)
	}
	sb.WriteString("  - {name: Finish, preconditions: {")
	for i := range n {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "t%d: true", i)
	}
	sb.WriteString("}, effects: {done: true}, cost: 1}\n")
	sb.WriteString("goals:\n  - {name: Done, conditions: {done: true}}\n")
	return sb.String()
}

// cycle is a domain whose HTN is a cycle of n tasks with no base case.
func cycle(n int) string {
	var sb strings.Builder
	sb.WriteString(tiny("cycle") + "htn:\n  root: T0\n  tasks:\n")
	for i := range n {
		fmt.Fprintf(&sb, "    - {name: T%d, methods: [{name: m, subtasks: [T%d]}]}\n", i, (i+1)%n)
	}
	return sb.String()
}

func numbered(prefix string, n int) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s%d", prefix, i)
	}
	return sb.String()
}

func repeatList(item string, n int) string {
	return strings.TrimSuffix(strings.Repeat(item+", ", n), ", ")
}

// fileUnderLimit returns src, failing the test if it is past the loader's
// 8 MiB file limit: the attack would then test the limit, not its class.
func fileUnderLimit(t *testing.T, src string) []byte {
	t.Helper()
	if len(src) > 8<<20 {
		t.Fatalf("generated file of %d bytes is past the 8 MiB limit", len(src))
	}
	return []byte(src)
}

// endless is a standard input that repeats line forever, like yes(1).
func endless(line string) func(*testing.T) io.Reader {
	return func(*testing.T) io.Reader {
		return &repeater{chunk: bytes.Repeat([]byte(line), 64<<10/len(line))}
	}
}

type repeater struct{ chunk []byte }

func (r *repeater) Read(p []byte) (int, error) { return copy(p, r.chunk), nil }

func devZero(t *testing.T) io.Reader {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestPDDLSearch: a PDDL problem whose blind search must store nearly all
// of 2^40 states, and one whose grounding explodes. The search ends at its
// memory limit, the grounding at its own, each within the RSS bound.
func TestPDDLSearch(t *testing.T) {
	var objects, goal strings.Builder
	for i := range 40 {
		fmt.Fprintf(&objects, " b%d", i)
		fmt.Fprintf(&goal, " (on b%d)", i)
	}
	domain := `(define (domain toggles) (:requirements :typing :negative-preconditions)
  (:types bit) (:predicates (on ?b - bit))
  (:action set :parameters (?b - bit) :precondition (not (on ?b)) :effect (on ?b))
  (:action clear :parameters (?b - bit) :precondition (on ?b) :effect (not (on ?b))))`
	problem := `(define (problem all) (:domain toggles) (:objects` + objects.String() + ` - bit)
  (:init) (:goal (and` + goal.String() + `)))`
	t.Run("2^40 states, blind", func(t *testing.T) {
		runAttack(t, attack{
			args:  []string{"plan", "d.pddl", "p.pddl", "--heuristic", "blind", "--max-bytes", "268435456", "--json"},
			files: map[string][]byte{"d.pddl": []byte(domain), "p.pddl": []byte(problem)},
			exits: []int{3},
			check: func(t *testing.T, r *result) {
				if !strings.Contains(r.stdout.String(), `"bound":"bytes"`) {
					t.Errorf("want the memory bound, got %s", r.stdout.String())
				}
			},
		})
	})
	wide := `(define (domain wide) (:predicates (p ?a ?b ?c ?d ?e ?f ?g ?h))
  (:action a :parameters (?a ?b ?c ?d ?e ?f ?g ?h) :precondition (and) :effect (p ?a ?b ?c ?d ?e ?f ?g ?h)))`
	var objs strings.Builder
	for i := range 100 {
		fmt.Fprintf(&objs, " o%d", i)
	}
	t.Run("a grounding of 10^16 actions", func(t *testing.T) {
		runAttack(t, attack{
			args:   []string{"plan", "d.pddl", "p.pddl"},
			files:  map[string][]byte{"d.pddl": []byte(wide), "p.pddl": []byte(`(define (problem w) (:domain wide) (:objects` + objs.String() + `) (:init) (:goal (p o1 o2 o3 o4 o5 o6 o7 o8)))`)},
			exits:  []int{1},
			stderr: positioned,
		})
	})
}
