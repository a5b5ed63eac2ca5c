package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

// TestCostsPastFloatRange runs every command that prints a cost on domains
// whose costs add up past the largest float64. Whether the loader refuses
// such a file (exit 1, a message) or the planner carries the sum, the
// command must never succeed with an empty, infinite or unparsable answer.
func TestCostsPastFloatRange(t *testing.T) {
	for _, literal := range []string{"1e308", "1.0e+308", "1.7976931348623157e308"} {
		path := filepath.Join(t.TempDir(), "big.yaml")
		src := fmt.Sprintf(`name: big
facts: [a, b]
actions:
  - name: A
    effects: {a: true}
    cost: %[1]s
  - name: B
    preconditions: {a: true}
    effects: {b: true}
    cost: [{when: {b: false}, cost: %[1]s}, {cost: 1}]
goals:
  - name: G
    conditions: {b: true}
`, literal)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"plan", path, "--goal", "G"},
			{"plan", path, "--goal", "G", "--json"},
			{"plan", path, "--goal", "G", "--search", "backward", "--json"},
			{"trace", path, "--goal", "G"},
			{"trace", path, "--goal", "G", "--format", "json"},
			{"trace", path, "--goal", "G", "--format", "dot"},
		} {
			t.Run(literal+"/"+strings.Join(args[2:], " "), func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				st := cli.Main(args, strings.NewReader(""), &stdout, &stderr)
				switch st {
				case 0:
					out := stdout.String()
					if strings.TrimSpace(out) == "" {
						t.Fatalf("exit 0 with empty output; stderr:\n%s", stderr.String())
					}
					if strings.Contains(out, "Inf") || strings.Contains(out, "NaN") {
						t.Fatalf("exit 0 with a cost past the float range:\n%s", out)
					}
					if slicesContain(args, "json") {
						var v any
						if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
							t.Fatalf("exit 0 with invalid JSON (%v):\n%s", err, out)
						}
					}
				case 1:
					if stderr.Len() == 0 {
						t.Fatal("exit 1 with nothing on stderr")
					}
					if strings.Contains(stderr.String(), "goap:") {
						t.Errorf("internal prefix in the message:\n%s", stderr.String())
					}
				default:
					t.Fatalf("exit %d, want 0 with a finite cost or 1 with a message; stdout:\n%s\nstderr:\n%s", st, stdout.String(), stderr.String())
				}
			})
		}
	}
}

func slicesContain(args []string, word string) bool {
	for _, a := range args {
		if strings.Contains(a, word) {
			return true
		}
	}
	return false
}
