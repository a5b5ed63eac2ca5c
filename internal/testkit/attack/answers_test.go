package attack

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Answers that grow with a plan or a decomposition are counted before they
// are made. A plan may repeat one action tens of thousands of times, and a
// name may be most of a small body: the server once built such an answer
// whole (gigabytes, the child killed at 512 MiB) before its general cap
// looked at its size, and `ploy plan --json` wrote 1.31 GB for a 24 KB
// file.

// htnFanout is an HTN whose decomposition is a binary tree of the given
// depth, each of its 2^depth leaves the same primitive action with a name
// of nameLen bytes: a small file whose plan, as JSON, is leaves × name.
func htnFanout(depth, nameLen int) string {
	long := "a" + strings.Repeat("x", nameLen)
	var b strings.Builder
	b.WriteString("name: fan\nfacts: [f]\nactions:\n")
	fmt.Fprintf(&b, "  - {name: %s, cost: 1}\n", long)
	b.WriteString("goals:\n  - {name: G, conditions: {f: true}}\n")
	b.WriteString("htn:\n  root: T0\n  tasks:\n")
	for i := range depth {
		next := fmt.Sprintf("T%d", i+1)
		if i == depth-1 {
			next = long
		}
		fmt.Fprintf(&b, "    - name: T%d\n      methods:\n        - {name: m, subtasks: [%s, %s]}\n", i, next, next)
	}
	return b.String()
}

// counterDomain is a binary counter of bits facts: the only plan from
// all false to all true (goal All) is 2^bits - 1 steps long, half of them
// inc0, whose name is nameLen bytes longer than the others'.
func counterDomain(bits, nameLen int) string {
	var b strings.Builder
	b.WriteString("name: counter\nfacts: [")
	for i := range bits {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "b%d", i)
	}
	b.WriteString("]\nactions:\n")
	for i := range bits {
		name := fmt.Sprintf("inc%d", i)
		if i == 0 {
			name += strings.Repeat("x", nameLen)
		}
		pre, eff := fmt.Sprintf("b%d: false", i), fmt.Sprintf("b%d: true", i)
		for j := range i {
			pre += fmt.Sprintf(", b%d: true", j)
			eff += fmt.Sprintf(", b%d: false", j)
		}
		fmt.Fprintf(&b, "  - {name: %s, preconditions: {%s}, effects: {%s}, cost: 1}\n", name, pre, eff)
	}
	b.WriteString("goals:\n  - {name: All, conditions: {")
	for i := range bits {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "b%d: true", i)
	}
	b.WriteString("}}\n")
	return b.String()
}

// wantTooLarge checks a 422 refusal naming the field to lower.
func wantTooLarge(t *testing.T, path string, a *answer, field string) {
	t.Helper()
	t.Logf("%s: %d, %d bytes: %.300s", path, a.status, a.n, a.body)
	if a.status != http.StatusUnprocessableEntity {
		t.Fatalf("%s: status %d, want 422", path, a.status)
	}
	var e struct {
		Field string `json:"field"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(a.body), &e); err != nil {
		t.Fatalf("%s: the refusal is not JSON: %v", path, err)
	}
	if e.Field != field || !strings.Contains(e.Error, "bytes of JSON, the most the server answers") {
		t.Errorf("%s: refusal field %q, %q; want field %q and the size", path, e.Field, e.Error, field)
	}
}

// TestServeHTNAnswerIsBounded: a 901 KB body whose decomposition is 32 768
// leaves of a 300 KB name (9.8 GB of JSON) is refused with 422 by htn,
// explain with htn and decomposition, within the server's memory bound.
func TestServeHTNAnswerIsBounded(t *testing.T) {
	src := htnFanout(15, 300_000)
	for _, path := range []string{"/api/v1/htn", "/api/v1/explain", "/api/v1/decomposition"} {
		t.Run(strings.TrimPrefix(path, "/api/v1/"), func(t *testing.T) {
			fields := map[string]any{}
			if path == "/api/v1/explain" {
				fields["htn"] = true
			}
			body := requestBody(t, src, fields)
			runServeAttack(t, serveAttack{
				do: func(t *testing.T, base string) {
					wantTooLarge(t, path, postJSON(t, base+path, body), "max_steps")
				},
			})
		})
	}
}

// TestServePlanAnswerIsBounded: a 104 KB body whose only plan is 65 535
// steps, half of them a 100 KB name (3.3 GB of JSON), is refused with 422
// by plan, explain and personalities, and ends the live stream with
// size_limit, within the server's memory bound.
func TestServePlanAnswerIsBounded(t *testing.T) {
	src := counterDomain(16, 100_000)
	for _, path := range []string{"/api/v1/plan", "/api/v1/explain"} {
		t.Run(strings.TrimPrefix(path, "/api/v1/"), func(t *testing.T) {
			body := requestBody(t, src, map[string]any{"goal": "All"})
			runServeAttack(t, serveAttack{
				do: func(t *testing.T, base string) {
					wantTooLarge(t, path, postJSON(t, base+path, body), "max_depth")
				},
			})
		})
	}
	t.Run("personalities", func(t *testing.T) {
		// figure 6 plans each agent's goal options: one agent, All its goal
		body := requestBody(t, src+"agents:\n  - name: a\n    goals:\n      - {goal: All, priority: 1}\n", nil)
		runServeAttack(t, serveAttack{
			do: func(t *testing.T, base string) {
				wantTooLarge(t, "/api/v1/personalities", postJSON(t, base+"/api/v1/personalities", body), "max_depth")
			},
		})
	})
	t.Run("live", func(t *testing.T) {
		// The live NPC plans within a smaller budget: a 1 023-step plan,
		// half of it a 900 KB name (460 MB a tick).
		body := requestBody(t, counterDomain(10, 900_000), map[string]any{"goal": "All", "fast": true})
		runServeAttack(t, serveAttack{
			do: func(t *testing.T, base string) {
				status, text, n, took := postStream(t, base+"/api/v1/live", body)
				if status != http.StatusOK {
					t.Fatalf("live: %d %s", status, trim(text))
				}
				i := strings.LastIndex(text, "event: end\ndata: ")
				if i < 0 {
					t.Fatalf("the stream has no end event (%d bytes, %v): ...%.300s", n, took, text[max(0, len(text)-300):])
				}
				var end struct {
					End string `json:"end"`
				}
				if err := json.Unmarshal([]byte(strings.SplitN(text[i+len("event: end\ndata: "):], "\n", 2)[0]), &end); err != nil || end.End != "size_limit" {
					t.Errorf("the stream ended %q (%v), want size_limit", end.End, err)
				}
				if n > 8<<20 {
					t.Errorf("the stream sent %d bytes, past the 8 MiB cap", n)
				}
				t.Logf("the stream ended %q after %d bytes, %v", end.End, n, took)
			},
		})
	})
}

// TestPlanOutputIsBounded: `ploy plan` on a 24 KB counter file whose plan
// is 65 535 steps, half of them a 20 KB name: its JSON (about 655 MB) is
// refused whole before a byte is written, its text (1.31 GB) cut at
// --max-output's default 64 MiB, exit status 1 either way.
func TestPlanOutputIsBounded(t *testing.T) {
	outputBounded(t, "c.yaml", counterDomain(16, 20_000), []string{"plan", "c.yaml", "--goal", "All"}, "the plan")
}

// TestHTNOutputIsBounded: `ploy htn` on a 60 KB file whose decomposition
// is 32 768 leaves of a 20 KB name: its JSON (655 MB) is refused whole,
// its text cut at 64 MiB, exit status 1 either way.
func TestHTNOutputIsBounded(t *testing.T) {
	outputBounded(t, "fan.yaml", htnFanout(15, 20_000), []string{"htn", "fan.yaml"}, "the decomposition")
}

// outputBounded runs args (a command and its file, written from src) with
// --json, wanting the JSON (what) refused whole, and without, wanting the
// text cut at --max-output's default.
func outputBounded(t *testing.T, file, src string, args []string, what string) {
	files := map[string][]byte{file: []byte(src)}
	t.Run("json", func(t *testing.T) {
		runAttack(t, attack{
			args:   append(slices.Clone(args), "--json"),
			files:  files,
			exits:  []int{1},
			stderr: regexp.MustCompile(`ploy ` + args[0] + `: ` + what + ` is more than --max-output \(67108864\) bytes of JSON`),
			check: func(t *testing.T, r *result) {
				if r.stdout.n != 0 {
					t.Errorf("%d bytes of JSON written, want none", r.stdout.n)
				}
			},
		})
	})
	t.Run("text", func(t *testing.T) {
		runAttack(t, attack{
			args:      args,
			files:     files,
			exits:     []int{1},
			stderr:    regexp.MustCompile(`ploy ` + args[0] + `: output cut after \d+ bytes, at the --max-output bound of 67108864`),
			maxOutput: 64<<20 + 1,
		})
	})
}
