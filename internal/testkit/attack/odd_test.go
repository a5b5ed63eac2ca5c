package attack

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// binaryHTN is a domain file whose HTN is levels deep and 2^levels actions
// wide, with no recursion: task Li's one method has two L(i+1).
func binaryHTN(levels int) []byte {
	var b strings.Builder
	b.WriteString("name: deep\nfacts: [done]\ninitial: {}\nactions:\n  - name: Act\n    effects: {done: true}\n    cost: 1\ngoals:\n  - name: Done\n    conditions: {done: true}\nhtn:\n  root: L0\n  tasks:\n")
	for i := range levels {
		sub := fmt.Sprintf("L%d", i+1)
		if i == levels-1 {
			sub = "Act"
		}
		fmt.Fprintf(&b, "    - name: L%d\n      methods:\n        - name: split\n          subtasks: [%s, %s]\n", i, sub, sub)
	}
	return []byte(b.String())
}

// Right answers on odd inputs. A 20-level binary HTN, lint-clean
// and without recursion, past the step limit is said to need more steps
// (it was asked "does it recurse without end?"); a position of three
// coordinates is refused saying a position has two (it was "\"0,5\" is
// not a number").
func TestOddInputsGetRightAnswers(t *testing.T) {
	deep := map[string][]byte{"deep.yaml": binaryHTN(20)}
	needsMore := func(stream func(r *result) string) func(t *testing.T, r *result) {
		return func(t *testing.T, r *result) {
			out := stream(r)
			if strings.Contains(out, "recurse without end") || !strings.Contains(out, "no task was open inside itself, so this is no endless recursion: the decomposition needs more steps") || !strings.Contains(out, "raise --max-steps") {
				t.Errorf("the limit's message does not say the decomposition needs more steps:\n%s", trim(out))
			}
		}
	}
	stdout := func(r *result) string { return r.stdout.String() }
	for _, a := range []attack{
		{name: "lint", args: []string{"lint", "deep.yaml"}, exits: []int{0}, check: func(t *testing.T, r *result) {
			if !strings.Contains(r.stdout.String(), "0 warnings") {
				t.Errorf("lint warns about a tree without recursion:\n%s", trim(r.stdout.String()))
			}
		}},
		{name: "htn", args: []string{"htn", "deep.yaml"}, exits: []int{3}, check: needsMore(stdout)},
		{name: "htn --json", args: []string{"htn", "deep.yaml", "--json"}, exits: []int{3}, check: needsMore(stdout)},
		{name: "explain --htn", args: []string{"explain", "--htn", "deep.yaml"}, exits: []int{3}, check: needsMore(stdout)},
		{name: "trace --htn", args: []string{"trace", "--htn", "deep.yaml", "--max-steps", "1000"}, exits: []int{3}, check: needsMore(func(r *result) string { return r.stderr.String() })},
		{name: "--at of 3 coordinates", args: []string{"resolve", "survivor", "--goal", "Warm", "--at", "0,0,5"}, exits: []int{2},
			stderr: regexp.MustCompile(`--at "0,0,5": want X,Y, such as 3,4: a position has 2 coordinates, not 3`)},
		{name: "--at of 1 coordinate", args: []string{"resolve", "survivor", "--goal", "Warm", "--at", "1"}, exits: []int{2},
			stderr: regexp.MustCompile(`--at "1": want X,Y, such as 3,4: a position has 2 coordinates, not 1`)},
		{name: "at: [1] in a file", args: []string{"resolve", "short.yaml", "--goal", "G"}, exits: []int{1},
			files:  map[string][]byte{"short.yaml": []byte("name: s\nkeys: {a: bool}\nat: [1]\ntargets:\n  t: [0, 0, 5]\nactions:\n  - {name: A, effects: {a: true}, cost: 1, target: t}\ngoals:\n  - {name: G, conditions: {a: true}}\n")},
			stderr: regexp.MustCompile(`(?s)short\.yaml:3:5: at must be a position \[x, y\], not a list of 1.*short\.yaml:5:6: target "t" must be a position \[x, y\], not a list of 3`)},
	} {
		t.Run(a.name, func(t *testing.T) {
			if a.files == nil {
				a.files = deep
			}
			runAttack(t, a)
		})
	}
}
