package viewer_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/viewer"
)

// decompositionAnswer is POST /api/v1/decomposition's answer; the trace
// API's answer with htn (`ploy trace --htn --format json`) is the same but
// for each row's tasks and facts.
type decompositionAnswer struct {
	Status     string
	Steps      int
	Backtracks int
	Plan       []string
	MTR        []int
	Trace      []struct {
		Step   int
		Kind   string
		Task   string
		Method string
		Number int
		Holds  *bool
		Depth  int
		Tasks  []string
		Facts  []string
	}
}

// TestDecomposition checks the decomposition's rows against the trace
// API's (the bytes of `ploy trace --htn`), and its predicted facts
// against the battle mage's own actions applied to the start state.
func TestDecomposition(t *testing.T) {
	s := newServer(t, viewer.Config{})
	g, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		request           string
		unset             []string
		steps, backtracks int
	}{
		{`{}`, nil, 13, 0},
		{`{"unset": ["spare_crystals"]}`, []string{"spare_crystals"}, 21, 2},
		{`{"unset": ["healthy", "potion_at_shrine"]}`, []string{"healthy", "potion_at_shrine"}, 0, 0},
	} {
		code, body := post(t, s, "/api/v1/decomposition", c.request)
		var a decompositionAnswer
		if err := json.Unmarshal(body, &a); code != 200 || err != nil {
			t.Fatalf("%s: %d %s", c.request, code, body)
		}
		var traced decompositionAnswer
		traceRequest := strings.Replace(c.request, "{", `{"htn": true,`, 1)
		traceRequest = strings.Replace(traceRequest, ",}", "}", 1)
		code, body = post(t, s, "/api/v1/trace", traceRequest)
		if err := json.Unmarshal(body, &traced); code != 200 || err != nil {
			t.Fatalf("trace %s: %d %s", traceRequest, code, body)
		}
		if c.steps != 0 && (a.Steps != c.steps || a.Backtracks != c.backtracks) {
			t.Errorf("%s: %d steps, %d backtracks; want %d, %d", c.request, a.Steps, a.Backtracks, c.steps, c.backtracks)
		}
		if a.Status != traced.Status || a.Steps != traced.Steps || a.Backtracks != traced.Backtracks || !slices.Equal(a.Plan, traced.Plan) || !slices.Equal(a.MTR, traced.MTR) || len(a.Trace) != len(traced.Trace) {
			t.Fatalf("%s: %s %d %d %q %v, %d rows; the trace says %s %d %d %q %v, %d rows", c.request,
				a.Status, a.Steps, a.Backtracks, a.Plan, a.MTR, len(a.Trace), traced.Status, traced.Steps, traced.Backtracks, traced.Plan, traced.MTR, len(traced.Trace))
		}
		for i, r := range a.Trace {
			w := traced.Trace[i]
			if r.Step != w.Step || r.Kind != w.Kind || r.Task != w.Task || r.Method != w.Method || r.Number != w.Number || r.Depth != w.Depth || (r.Holds == nil) != (w.Holds == nil) || (r.Holds != nil && *r.Holds != *w.Holds) {
				t.Fatalf("%s: row %d is %+v, the trace's %+v", c.request, i+1, r, w)
			}
		}
		// The facts predicted once the plan is built are the start state
		// with the plan's actions applied, by goap.
		state := startState(t, g, nil, c.unset)
		for _, name := range a.Plan {
			id, _ := g.ActionByName(name)
			g.Apply(id, state)
		}
		var want []string
		for _, name := range g.Facts() {
			if f, _ := g.Fact(name); state.Has(f) {
				want = append(want, name)
			}
		}
		last := a.Trace[len(a.Trace)-1]
		if !slices.Equal(last.Facts, want) || len(last.Tasks) != 0 {
			t.Errorf("%s: at the end, facts %q and tasks %q; want %q, no task left", c.request, last.Facts, last.Tasks, want)
		}
	}

	// Spare crystals off: right after the second backtrack, the state is
	// the start again (the walk into cover undone) and nothing is left to
	// do but Fight's next method.
	code, body := post(t, s, "/api/v1/decomposition", `{"unset": ["spare_crystals"]}`)
	var a decompositionAnswer
	if err := json.Unmarshal(body, &a); code != 200 || err != nil {
		t.Fatalf("%d %s", code, body)
	}
	second := -1
	for i, r := range a.Trace {
		if r.Kind == "backtrack" {
			second = i
		}
	}
	if r := a.Trace[second]; !slices.Equal(r.Facts, []string{"potion_at_shrine", "healthy"}) || len(r.Tasks) != 0 {
		t.Errorf("after the second backtrack: facts %q, tasks %q; want the start's [potion_at_shrine healthy], no task", r.Facts, r.Tasks)
	}
	if r := a.Trace[second+1]; r.Method != "RestockFirst" || !slices.Equal(r.Tasks, []string{"GetCrystals", "CloseIn", "TakeCover", "Recharge", "CastBolt"}) {
		t.Errorf("the method after: %s, tasks %q; want RestockFirst's subtasks", r.Method, r.Tasks)
	}
}

// TestDecompositionBadInput: the decomposition's requests are held to
// the trace's rules.
func TestDecompositionBadInput(t *testing.T) {
	s := newServer(t, viewer.Config{MaxAnswer: 2000})
	for _, c := range []struct {
		request string
		status  int
		says    string
	}{
		{`{"unset": ["spare_crystal"]}`, http.StatusBadRequest, `did you mean \"spare_crystals\"`},
		{`{"domain": "soldier"}`, http.StatusUnprocessableEntity, "no htn section"},
		{`{"domain": "survivor"}`, http.StatusUnprocessableEntity, "no htn section"},
		{`{"max_steps": 100000000}`, http.StatusBadRequest, "above the server's cap"},
		{`{"goal": "Kill"}`, http.StatusBadRequest, "goal"},
		{`{"unset": [`, http.StatusBadRequest, ""},
		// Over the answer's cap (2 000 bytes here): refused, not cut.
		{`{"unset": ["spare_crystals"]}`, http.StatusUnprocessableEntity, "larger than 2000 bytes"},
		// Over the body's cap (1 MiB).
		{`{"unset": ["` + strings.Repeat("x", 1<<20) + `"]}`, http.StatusRequestEntityTooLarge, "larger than"},
	} {
		code, body := post(t, s, "/api/v1/decomposition", c.request)
		if code != c.status || !strings.Contains(string(body), c.says) || !json.Valid(body) {
			t.Errorf("%s: %d %s; want %d saying %q", c.request, code, body, c.status, c.says)
		}
	}
}
