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

// apiErrorOf decodes an error answer: {"error", "field"}.
func apiErrorOf(t *testing.T, answer []byte) (msg, field string) {
	t.Helper()
	var e struct {
		Error string `json:"error"`
		Field string `json:"field"`
	}
	if err := json.Unmarshal(answer, &e); err != nil {
		t.Fatalf("answer %s: %v", answer, err)
	}
	return e.Error, e.Field
}

// Every POST endpoint names a field of the wrong JSON type, or unknown, by
// the request's own JSON name (a dotted path when nested), never by Go's
// struct path (startRequest.set, source.domain, engineFields.at).
func TestErrorFieldsAreTheRequestsJSONNames(t *testing.T) {
	s := newServer(t, viewer.Config{})
	type bad struct{ body, field, message string }
	// Every endpoint's request embeds source.
	common := []bad{
		{`{"domain": 5}`, "domain", `field "domain" must be a string, not a JSON number`},
		{`{"source": ["x"]}`, "source", `field "source" must be a string, not a JSON array`},
		{`{"no_such_field": 1}`, "no_such_field", `unknown field "no_such_field"`},
	}
	start := []bad{
		{`{"set": 5}`, "set", `field "set" must be an array, not a JSON number`},
		{`{"set": {"a": 1}}`, "set", `field "set" must be an array, not a JSON object`},
		{`{"unset": [1]}`, "unset", `field "unset" must hold strings, not a JSON number`},
	}
	engine := []bad{
		{`{"domain": "survivor", "goal": "Warm", "at": [1, "x"]}`, "at", `field "at" must hold numbers, not a JSON string`},
		{`{"domain": "survivor", "goal": "Warm", "at": {"x": 1}}`, "at", `field "at" must be an array, not a JSON object`},
		{`{"domain": "survivor", "goal": "Warm", "targets": {"wood_north": [0, 1], "fireplace": ["x", 1]}}`, "targets.fireplace", `field "targets.fireplace" must hold numbers, not a JSON string`},
		{`{"domain": "survivor", "goal": "Warm", "targets": {"fireplace": {"x": 1}}}`, "targets.fireplace", `field "targets.fireplace" must be an array, not a JSON object`},
		{`{"domain": "survivor", "goal": "Warm", "targets": 5}`, "targets", `field "targets" must be an object, not a JSON number`},
		{`{"domain": "survivor", "goal": "Warm", "capabilities": "Eat"}`, "capabilities", `field "capabilities" must be an array, not a JSON string`},
	}
	routes := map[string][]bad{
		"/api/v1/domain":        nil,
		"/api/v1/lint":          nil,
		"/api/v1/graph":         nil,
		"/api/v1/arena":         {{`{"fights": "3"}`, "fights", `field "fights" must be a number, not a JSON string`}, {`{"agents": [1]}`, "agents", `field "agents" must hold strings, not a JSON number`}},
		"/api/v1/arena/batch":   {{`{"seed": "x"}`, "seed", `field "seed" must be a number, not a JSON string`}},
		"/api/v1/arena/fight":   {{`{"fight": "x"}`, "fight", `field "fight" must be a number, not a JSON string`}, {`{"agent": 1}`, "agent", `field "agent" must be a string, not a JSON number`}},
		"/api/v1/plan":          append([]bad{{`{"goal": 1}`, "goal", `field "goal" must be a string, not a JSON number`}, {`{"budget": "x"}`, "budget", `field "budget" must be a number, not a JSON string`}}, start...),
		"/api/v1/htn":           append([]bad{{`{"max_steps": true}`, "max_steps", `field "max_steps" must be a number, not a JSON bool`}}, start...),
		"/api/v1/decomposition": append([]bad{{`{"max_steps": true}`, "max_steps", `field "max_steps" must be a number, not a JSON bool`}}, start...),
		"/api/v1/trace":         append(append([]bad{{`{"htn": 1}`, "htn", `field "htn" must be true or false, not a JSON number`}, {`{"heuristic": 1}`, "heuristic", `field "heuristic" must be a string, not a JSON number`}}, start...), engine...),
		"/api/v1/explain":       append(append([]bad{{`{"alternatives": "x"}`, "alternatives", `field "alternatives" must be a number, not a JSON string`}, {`{"max_depth": "x"}`, "max_depth", `field "max_depth" must be a number, not a JSON string`}}, start...), engine...),
		"/api/v1/resolve":       append(append([]bad{{`{"max_depth": "x"}`, "max_depth", `field "max_depth" must be a number, not a JSON string`}}, start...), engine...),
		"/api/v1/tree":          start,
		"/api/v1/personalities": append([]bad{{`{"search": 1}`, "search", `field "search" must be a string, not a JSON number`}}, start...),
		"/api/v1/live": append([]bad{
			{`{"toggles": [{"tick": 1, "fact": "healthy", "value": false}, {"tick": "x"}]}`, "toggles.tick", `field "toggles.tick" must be a number, not a JSON string`},
			{`{"toggles": [{"tick": 1, "fact": "healthy", "value": false}, {"tick": 2, "when": 3}]}`, "toggles.when", `unknown field "toggles.when"`},
			{`{"fast": "yes"}`, "fast", `field "fast" must be true or false, not a JSON string`},
		}, start...),
	}
	if got := s.PostRoutes(); len(got) != len(routes) {
		t.Errorf("POST routes %v, want the %d of the table", got, len(routes))
	}
	for _, path := range s.PostRoutes() {
		cases, ok := routes[path]
		if !ok {
			t.Errorf("%s: no cases: add its request's fields here", path)
			continue
		}
		for _, c := range append(append([]bad{}, common...), cases...) {
			code, answer := post(t, s, path, c.body)
			msg, field := apiErrorOf(t, answer)
			if code != 400 || field != c.field || msg != c.message {
				t.Errorf("%s %s: %d field %q %q\nwant 400 field %q %q", path, c.body, code, field, msg, c.field, c.message)
			}
		}
	}
}

// Positions of the wrong length are refused, naming the field and the
// length a position has (resolver.Dimensions, Point's X and Y), not padded
// with zeros or cut to two.
func TestPositionsOfTheWrongLengthAreRefused(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, path := range []string{"/api/v1/resolve", "/api/v1/trace", "/api/v1/explain"} {
		for _, c := range []struct{ fields, field, message string }{
			{`"at": [1]`, "at", "at must be a position [x, y] of 2 coordinates, not 1"},
			{`"at": [0, 0, 5, 6, 7]`, "at", "at must be a position [x, y] of 2 coordinates, not 5"},
			{`"at": []`, "at", "at must be a position [x, y] of 2 coordinates, not 0"},
			{`"targets": {"fireplace": [0]}`, "targets.fireplace", "targets.fireplace must be a position [x, y] of 2 coordinates, not 1"},
			{`"targets": {"wood_north": [0, 3], "fireplace": [0, 2, 9]}`, "targets.fireplace", "targets.fireplace must be a position [x, y] of 2 coordinates, not 3"},
			{`"targets": {"fireplace": []}`, "targets.fireplace", "targets.fireplace must be a position [x, y] of 2 coordinates, not 0"},
			// (null is a target not found, the command's --target NAME=none:
			// TestEveryFlagHasItsField)
		} {
			body := `{"domain": "survivor", "goal": "Warm", ` + c.fields + `}`
			code, answer := post(t, s, path, body)
			msg, field := apiErrorOf(t, answer)
			if code != 400 || field != c.field || msg != c.message {
				t.Errorf("%s %s: %d field %q %q\nwant 400 field %q %q", path, body, code, field, msg, c.field, c.message)
			}
		}
		// Two coordinates are taken, and change the answer: the
		// nearer pile is north once the agent stands at [0, 8].
		code, answer := post(t, s, path, `{"domain": "survivor", "goal": "Warm", "at": [0, 8], "targets": {"fireplace": [0, 9]}}`)
		if code != 200 || !strings.Contains(string(answer), "GatherWoodNorth") {
			t.Errorf("%s with two coordinates: %d %.300s", path, code, answer)
		}
	}
}
