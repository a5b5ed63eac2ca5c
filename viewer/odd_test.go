package viewer_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/viewer"
)

// deepHTN is a domain file whose HTN is levels deep and 2^levels actions
// wide, with no recursion: task Li's one method has two L(i+1).
func deepHTN(levels int) string {
	var b strings.Builder
	b.WriteString("name: deep\nfacts: [done]\ninitial: {}\nactions:\n  - name: Act\n    effects: {done: true}\n    cost: 1\ngoals:\n  - name: Done\n    conditions: {done: true}\nhtn:\n  root: L0\n  tasks:\n")
	for i := range levels {
		sub := fmt.Sprintf("L%d", i+1)
		if i == levels-1 {
			sub = "Act"
		}
		fmt.Fprintf(&b, "    - name: L%d\n      methods:\n        - name: split\n          subtasks: [%s, %s]\n", i, sub, sub)
	}
	return b.String()
}

// The HTN answers of a deep, wide decomposition past its step limit say
// it needs more steps and which field gives them, not that it may recurse
// without end.
func TestHTNAnswersOfADeepTreeSayItNeedsMoreSteps(t *testing.T) {
	src, _ := json.Marshal(deepHTN(20))
	s := newServer(t, viewer.Config{})
	for _, path := range []string{"/api/v1/htn", "/api/v1/explain", "/api/v1/decomposition"} {
		body := `{"source": ` + string(src) + `, "max_steps": 1000, "htn": true}`
		if path == "/api/v1/htn" || path == "/api/v1/decomposition" {
			body = `{"source": ` + string(src) + `, "max_steps": 1000}`
		}
		code, answer := post(t, s, path, body)
		if code != 200 {
			t.Fatalf("%s: %d %s", path, code, answer)
		}
		var a struct {
			Status string `json:"status"`
			Limit  string `json:"limit"`
		}
		if err := json.Unmarshal(answer, &a); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := `step limit of 1000 reached decomposing "L0": no task was open inside itself, so this is no endless recursion: the decomposition needs more steps (it was 20 tasks deep, working on "L19"; "L19" was decomposed the most, 162 times); raise max_steps (up to the server's cap of 100000) to give it more`
		if a.Status != "step_limit" || a.Limit != want {
			t.Errorf("%s: status %q limit\n%s\nwant\n%s", path, a.Status, a.Limit, want)
		}
	}
}
