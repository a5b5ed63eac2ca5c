package viewer_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/viewer"
)

func newServer(t testing.TB, cfg viewer.Config) *viewer.Server {
	t.Helper()
	s, err := viewer.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// post sends body to path as application/json and returns the status and
// the answer.
func post(t testing.TB, h http.Handler, path, body string) (int, []byte) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", path, body, ct)
	}
	return w.Code, w.Body.Bytes()
}

// ploy runs the command in-process and returns its standard output.
func ploy(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	if st := cli.Main(args, strings.NewReader(""), &out, &errOut); st != 0 && st != 3 {
		t.Fatalf("ploy %s: status %d: %s", strings.Join(args, " "), st, errOut.String())
	}
	return out.Bytes()
}

// TestAnswersEqualTheCommand checks that every endpoint answers the bytes
// the command prints with --json for the same input.
func TestAnswersEqualTheCommand(t *testing.T) {
	src, err := fs.ReadFile(domains.Files, "soldier.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "soldier.yaml")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	pasted, _ := json.Marshal(string(src))
	s := newServer(t, viewer.Config{})
	for _, c := range []struct {
		path, body string
		args       []string
	}{
		{"/api/v1/plan", `{"goal": "Kill"}`, []string{"plan", "--goal", "Kill", "--json"}},
		{"/api/v1/plan", `{"domain": "battlemage", "goal": "Kill", "unset": ["spare_crystals"]}`, []string{"plan", "battlemage", "--goal", "Kill", "--unset", "spare_crystals", "--json"}},
		{"/api/v1/plan", `{"domain": "soldier.yaml", "goal": "KillPlayer", "search": "backward", "heuristic": "hmax"}`, []string{"plan", "soldier", "--goal", "KillPlayer", "--search", "backward", "--heuristic", "hmax", "--json"}},
		{"/api/v1/plan", `{"domain": "soldier", "goal": "KillPlayer", "unset": ["axe_nearby", "gun_nearby"]}`, []string{"plan", "soldier", "--goal", "KillPlayer", "--unset", "axe_nearby,gun_nearby", "--json"}},
		{"/api/v1/plan", `{"goal": "Kill", "budget": 3}`, []string{"plan", "--goal", "Kill", "--budget", "3", "--json"}},
		{"/api/v1/plan", `{"goal": "Kill", "heuristic": "goal-cost"}`, []string{"plan", "--goal", "Kill", "--heuristic", "goal-cost", "--json"}},
		{"/api/v1/plan", `{"source": ` + string(pasted) + `, "goal": "KillPlayer"}`, []string{"plan", file, "--goal", "KillPlayer", "--json"}},
		{"/api/v1/htn", `{}`, []string{"htn", "--json"}},
		{"/api/v1/htn", `{"unset": ["spare_crystals"]}`, []string{"htn", "--unset", "spare_crystals", "--json"}},
		{"/api/v1/trace", `{"goal": "Kill"}`, []string{"trace", "--goal", "Kill", "--budget", "10000", "--format", "json"}},
		{"/api/v1/trace", `{"goal": "GetHealthy", "unset": ["healthy"], "search": "backward", "budget": 50}`, []string{"trace", "--goal", "GetHealthy", "--unset", "healthy", "--search", "backward", "--budget", "50", "--format", "json"}},
		{"/api/v1/trace", `{"htn": true, "unset": ["spare_crystals"]}`, []string{"trace", "--htn", "--unset", "spare_crystals", "--format", "json"}},
		{"/api/v1/explain", `{"goal": "Kill"}`, []string{"explain", "--goal", "Kill", "--json"}},
		{"/api/v1/explain", `{"goal": "GetHealthy", "unset": ["healthy", "potion_at_shrine"], "alternatives": 0}`, []string{"explain", "--goal", "GetHealthy", "--unset", "healthy,potion_at_shrine", "--alternatives", "0", "--json"}},
		{"/api/v1/explain", `{"htn": true, "unset": ["spare_crystals"]}`, []string{"explain", "--htn", "--unset", "spare_crystals", "--json"}},
		{"/api/v1/explain", `{"domain": "survivor", "goal": "Fed", "capabilities": ["Eat", "Forage"], "unset": ["has_food"]}`, []string{"explain", "survivor", "--goal", "Fed", "--capabilities", "Eat,Forage", "--unset", "has_food", "--json"}},
		{"/api/v1/explain", `{"domain": "survivor", "goal": "Warm", "targets": {"wood_north": [0, 3]}}`, []string{"explain", "survivor", "--goal", "Warm", "--target", "wood_north=0,3", "--json"}},
		{"/api/v1/resolve", `{"goal": "Warm"}`, []string{"resolve", "--goal", "Warm", "--json"}},
		{"/api/v1/resolve", `{"goal": "Fed", "set": ["hunger=70"], "capabilities": ["Hunt", "Eat"], "at": [1, 2]}`, []string{"resolve", "--goal", "Fed", "--set", "hunger=70", "--capabilities", "Hunt,Eat", "--at", "1,2", "--json"}},
		{"/api/v1/resolve", `{"domain": "shopkeeper", "goal": "ServeCustomer", "set": ["can_reach_item=true"], "budget": 2}`, []string{"resolve", "shopkeeper", "--goal", "ServeCustomer", "--set", "can_reach_item=true", "--budget", "2", "--json"}},
		{"/api/v1/explain", `{"domain": "shopkeeper", "goal": "ServeCustomer", "set": ["can_reach_item=true"], "budget": 1}`, []string{"explain", "shopkeeper", "--goal", "ServeCustomer", "--set", "can_reach_item=true", "--budget", "1", "--json"}},
		{"/api/v1/explain", `{"domain": "survivor", "goal": "Warm", "alternatives": 20}`, []string{"explain", "survivor", "--goal", "Warm", "--alternatives", "20", "--json"}},
		{"/api/v1/graph", `{}`, []string{"graph", "--format", "json"}},
		{"/api/v1/graph", `{"domain": "shopkeeper"}`, []string{"graph", "shopkeeper", "--format", "json"}},
		{"/api/v1/trace", `{"domain": "survivor", "goal": "Warm", "max_depth": 3}`, []string{"trace", "survivor", "--goal", "Warm", "--max-depth", "3", "--format", "json"}},
		{"/api/v1/lint", `{"domain": "survivor"}`, nil},
		{"/api/v1/arena", `{"fights": 2, "seed": 7, "agents": ["goap", "htn"]}`, []string{"arena", "--fights", "2", "--seed", "7", "--agents", "goap,htn", "--json"}},
	} {
		code, got := post(t, s, c.path, c.body)
		if code != http.StatusOK {
			t.Errorf("%s %s: status %d: %s", c.path, c.body, code, got)
			continue
		}
		if c.args == nil {
			continue // no --json in the command: TestLint pins the shape
		}
		if want := ploy(t, c.args...); !bytes.Equal(got, want) {
			t.Errorf("%s %s:\n got %s\nwant %s (ploy %s)", c.path, c.body, got, want, strings.Join(c.args, " "))
		}
	}
}

// TestFigures pins the figures of docs/background.md the pages will show.
func TestFigures(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct{ path, body, want string }{
		{"/api/v1/plan", `{"goal": "Kill"}`, `"plan":["Approach","TakeCover","Recharge","CastBolt"],"cost":7`},
		{"/api/v1/plan", `{"goal": "Kill", "unset": ["spare_crystals"]}`, `"plan":["GetCrystals",`},
		{"/api/v1/plan", `{"goal": "Kill", "unset": ["spare_crystals"]}`, `"cost":10`},
		{"/api/v1/plan", `{"domain": "soldier", "goal": "KillPlayer"}`, `"cost":9`},
		{"/api/v1/plan", `{"domain": "soldier", "goal": "KillPlayer", "unset": ["axe_nearby", "gun_nearby"]}`, `"status":"no_plan"`},
		{"/api/v1/htn", `{}`, `"steps":13,"backtracks":0`},
		{"/api/v1/htn", `{"unset": ["spare_crystals"]}`, `"steps":21,"backtracks":2`},
	} {
		code, got := post(t, s, c.path, c.body)
		if code != http.StatusOK || !bytes.Contains(got, []byte(c.want)) {
			t.Errorf("%s %s: %d %s, want %s", c.path, c.body, code, got, c.want)
		}
	}
}

type errorAnswer struct {
	Error  string `json:"error"`
	Field  string `json:"field"`
	Errors []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Message string `json:"message"`
	} `json:"errors"`
}

// TestBadRequests checks every refusal: its status, its message and the
// field at fault, as JSON.
func TestBadRequests(t *testing.T) {
	s := newServer(t, viewer.Config{MaxBody: 4096})
	big := `{"goal": "` + strings.Repeat("x", 5000) + `"}`
	for _, c := range []struct {
		path, body string
		code       int
		field, msg string
	}{
		{"/api/v1/plan", `{"goal": `, 400, "", "malformed JSON"},
		{"/api/v1/plan", `{"goal": "Kill"} {}`, 400, "", "more after the request object"},
		{"/api/v1/plan", `[1]`, 400, "", "must be an object"},
		{"/api/v1/plan", big, 413, "", "larger than 4096 bytes"},
		{"/api/v1/plan", `{"goal": "Kil"}`, 400, "goal", `unknown goal "Kil"; did you mean "Kill"?`},
		{"/api/v1/plan", `{"goal": "` + strings.Repeat("é", 2000) + `"}`, 400, "goal", `unknown goal "éé`},
		{"/api/v1/plan", `{}`, 400, "goal", "goal is required (or agent, which chooses); the domain's goals: Kill, GetHealthy"},
		{"/api/v1/plan", `{"goal": "Kill", "budget": 100001}`, 400, "budget", "above the server's cap of 100000"},
		{"/api/v1/plan", `{"goal": "Kill", "budget": -1}`, 400, "budget", "at least 1"},
		{"/api/v1/trace", `{"goal": "Kill", "budget": 10001}`, 400, "budget", "above the server's cap of 10000"},
		{"/api/v1/plan", `{"goal": "Kill", "max_depth": -2}`, 400, "max_depth", "must not be negative"},
		{"/api/v1/plan", `{"goal": "Kill", "search": "sideways"}`, 400, "search", "forward or backward"},
		{"/api/v1/plan", `{"goal": "Kill", "heuristic": "magic"}`, 400, "heuristic", "goal-count, goal-cost, hmax or blind"},
		{"/api/v1/plan", `{"goal": "Kill", "set": ["in_rnage"]}`, 400, "set", `unknown fact "in_rnage"; did you mean "in_range"?`},
		{"/api/v1/plan", `{"goal": "Kill", "set": ["healthy"], "unset": ["healthy"]}`, 400, "unset", "both set and unset"},
		{"/api/v1/plan", `{"goal": "Kill", "gaol": 1}`, 400, "gaol", `unknown field "gaol"`},
		{"/api/v1/plan", `{"goal": 7}`, 400, "goal", `"goal" must be a string`},
		{"/api/v1/plan", `{"domain": "soldir", "goal": "Kill"}`, 404, "domain", `did you mean "soldier"?`},
		{"/api/v1/plan", `{"domain": "survivor", "goal": "Warm"}`, 422, "domain", "engine-model file"},
		{"/api/v1/plan", `{"domain": "soldier", "source": "x", "goal": "Kill"}`, 400, "source", "not both"},
		{"/api/v1/htn", `{"domain": "soldier"}`, 422, "domain", "no htn section"},
		{"/api/v1/htn", `{"max_steps": 100001}`, 400, "max_steps", "above the server's cap"},
		{"/api/v1/trace", `{"goal": "Kill", "max_steps": 5}`, 400, "max_steps", "give it with htn"},
		{"/api/v1/trace", `{"htn": true, "goal": "Kill"}`, 400, "goal", "leave goal out"},
		{"/api/v1/arena", `{"fights": 101}`, 400, "fights", "above the server's cap of 100"},
		{"/api/v1/arena", `{"fights": 1, "agents": ["gaop"]}`, 400, "agents", `unknown agent kind "gaop"`},
		{"/api/v1/arena", `{"fights": 1, "seed": -1}`, 400, "seed", `"seed" must be a number`},
		{"/api/v1/lint", `{"domain": 3}`, 400, "domain", "must be a string"},
		{"/api/v1/resolve", `{"goal": "Wram"}`, 400, "goal", `did you mean "Warm"?`},
		{"/api/v1/resolve", `{"goal": "Warm", "set": ["hungr=3"]}`, 400, "set", `unknown key "hungr"; did you mean "hunger"?`},
		{"/api/v1/resolve", `{"goal": "Warm", "set": ["hunger=lots"]}`, 400, "set", "an integer key"},
		{"/api/v1/resolve", `{"goal": "Warm", "set": ["hunger=99999999999999999999"]}`, 400, "set", "out of range"},
		{"/api/v1/resolve", `{"goal": "Warm", "capabilities": ["Fly", "Swim"]}`, 400, "capabilities", `"Swim"`},
		{"/api/v1/resolve", `{"goal": "Warm", "budget": 65537}`, 400, "budget", "from 1 to 65536"},
		{"/api/v1/resolve", `{"goal": "Warm", "at": [1e13, 0]}`, 400, "at", "out of range"},
		{"/api/v1/resolve", `{"goal": "Warm", "targets": {"wood_nort": [0, 1]}}`, 400, "targets", `did you mean "wood_north"?`},
		{"/api/v1/resolve", `{"goal": "Warm", "capabilities": ["Fly"]}`, 400, "capabilities", "Fly"},
		{"/api/v1/resolve", `{"domain": "battlemage", "goal": "Kill"}`, 422, "domain", "state-space file"},
		{"/api/v1/graph", `{"domain": "soldier"}`, 422, "domain", "state-space file"},
		{"/api/v1/trace", `{"domain": "survivor", "goal": "Warm", "search": "backward"}`, 400, "search", "does not apply"},
		{"/api/v1/trace", `{"goal": "Kill", "at": [0, 0]}`, 400, "at", "does not apply"},
		{"/api/v1/explain", `{"goal": "Kill", "alternatives": 21}`, 400, "alternatives", "from 0 to 20"},
	} {
		code, got := post(t, s, c.path, c.body)
		var e errorAnswer
		if err := json.Unmarshal(got, &e); err != nil {
			t.Errorf("%s %.60s: the answer is not JSON: %v: %s", c.path, c.body, err, got)
			continue
		}
		if len(got) > 2000 {
			t.Errorf("%s %.60s: a %d-byte error, want the echo cut", c.path, c.body, len(got))
		}
		if code != c.code || e.Field != c.field || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s %.60s: %d %s, want %d, field %q, an error with %q", c.path, c.body, code, got, c.code, c.field, c.msg)
		}
	}
}

// TestInvalidSourceIsPositioned checks that a pasted domain's errors come
// back with their line and column.
func TestInvalidSourceIsPositioned(t *testing.T) {
	s := newServer(t, viewer.Config{})
	src := "name: bad\nfacts: [a]\nactions:\n  - name: A\n    effects: {b: true}\n    cost: 1\ngoals:\n  - name: G\n    conditions: {a: true}\n"
	body, _ := json.Marshal(map[string]string{"source": src, "goal": "G"})
	for _, path := range []string{"/api/v1/plan", "/api/v1/lint", "/api/v1/htn", "/api/v1/trace", "/api/v1/arena", "/api/v1/domain"} {
		b := body
		if path == "/api/v1/lint" || path == "/api/v1/arena" || path == "/api/v1/htn" || path == "/api/v1/domain" {
			b, _ = json.Marshal(map[string]string{"source": src})
		}
		code, got := post(t, s, path, string(b))
		var e errorAnswer
		if err := json.Unmarshal(got, &e); err != nil || code != http.StatusUnprocessableEntity || len(e.Errors) == 0 {
			t.Fatalf("%s: %d %s, want 422 with positioned errors", path, code, got)
		}
		first := e.Errors[0]
		if first.File != "<source>" || first.Line != 5 || first.Column == 0 || !strings.Contains(first.Message, `"b"`) {
			t.Errorf("%s: first error %+v, want <source>, line 5, a column, about fact \"b\"", path, first)
		}
	}
	code, got := post(t, s, "/api/v1/plan", `{"source": "facts: [a\n"}`)
	if code != http.StatusUnprocessableEntity || !bytes.Contains(got, []byte(`"line":1,"column":`)) {
		t.Errorf("invalid YAML: %d %s, want 422 at line 1", code, got)
	}
}

func TestLint(t *testing.T) {
	s := newServer(t, viewer.Config{})
	src := "name: fridge\nfacts: [a, unused]\nactions:\n  - name: A\n    effects: {a: true}\n    cost: 1\ngoals:\n  - name: G\n    conditions: {a: true}\n"
	body, _ := json.Marshal(map[string]string{"source": src})
	code, got := post(t, s, "/api/v1/lint", string(body))
	want := `{"file":"\u003csource\u003e","warnings":[{"file":"\u003csource\u003e","line":2,"column":12,"message":"warning: fact \"unused\" is never used"}],"count":1}` + "\n"
	if code != http.StatusOK || string(got) != want {
		t.Errorf("lint: %d %s\nwant %s", code, got, want)
	}
}

func TestRoutes(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct {
		method, path string
		code         int
		allow        string
	}{
		{"GET", "/api/v1/nope", 404, ""},
		{"GET", "/api/v2/plan", 404, ""},
		{"GET", "/api/v1/plan", 405, "POST"},
		{"DELETE", "/api/v1/domains", 405, "GET"},
		{"POST", "/", 405, "GET"},
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(c.method, c.path, nil))
		var e errorAnswer
		if w.Code != c.code || w.Header().Get("Allow") != c.allow || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error == "" {
			t.Errorf("%s %s: %d, Allow %q, %s; want %d, Allow %q, a JSON error", c.method, c.path, w.Code, w.Header().Get("Allow"), w.Body, c.code, c.allow)
		}
	}
	r := httptest.NewRequest("POST", "/api/v1/plan", strings.NewReader(`{"goal": "Kill"}`))
	r.Header.Set("Content-Type", "text/plain")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("a text/plain body: %d %s, want 415", w.Code, w.Body)
	}
}

func TestIndexAndDomains(t *testing.T) {
	dir := t.TempDir()
	// A started file's name lands in the page: it must be escaped.
	name := filepath.Join(dir, "<b>mine.yaml")
	src, _ := fs.ReadFile(domains.Files, "soldier.yaml")
	if err := os.WriteFile(name, src, 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, viewer.Config{Files: []string{name}})
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	page := w.Body.String()
	if w.Code != 200 || !strings.Contains(page, "battlemage.yaml") || !strings.Contains(page, "&lt;b&gt;mine.yaml") || strings.Contains(page, "<b>mine") {
		t.Errorf("index: %d, want the domains listed and the started file's name escaped:\n%s", w.Code, page)
	}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/domains", nil))
	var list struct {
		Domains []struct {
			Name, Kind string
			Shipped    bool
			Goals      []string
			Initial    []string
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range list.Domains {
		if d.Name == name {
			found = !d.Shipped && d.Kind == "state-space" && len(d.Goals) == 2
		}
		if d.Name == "survivor.yaml" && d.Kind != "engine-model" {
			t.Errorf("survivor.yaml: kind %q", d.Kind)
		}
	}
	if !found {
		t.Errorf("domains: %s, want the started file, not shipped, with its goals", w.Body)
	}
	code, got := post(t, s, "/api/v1/plan", `{"domain": `+string(mustJSON(name))+`, "goal": "KillPlayer"}`)
	if code != 200 || !bytes.Contains(got, []byte(`"cost":9`)) {
		t.Errorf("plan on the started file: %d %s", code, got)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func TestNewRefusesAnInvalidFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(name, []byte("facts: [a\n"), 0o644)
	if _, err := viewer.New(viewer.Config{Files: []string{name}}); err == nil || !strings.Contains(err.Error(), "bad.yaml:1:") {
		t.Errorf("New with an invalid file: %v, want its position", err)
	}
	if _, err := viewer.New(viewer.Config{Files: []string{filepath.Join(t.TempDir(), "missing.yaml")}}); err == nil {
		t.Error("New with a missing file: no error")
	}
}

// TestAnswerAndMemoryCaps checks that a trace past Config.MaxAnswer is
// refused, saying what to lower, and that a search is held to
// Config.MaxSearchBytes.
func TestAnswerAndMemoryCaps(t *testing.T) {
	s := newServer(t, viewer.Config{MaxAnswer: 1000})
	for _, body := range []string{`{"goal": "Kill"}`, `{"htn": true}`, `{"domain": "survivor", "goal": "Warm"}`} {
		code, got := post(t, s, "/api/v1/trace", body)
		if code != http.StatusUnprocessableEntity || !bytes.Contains(got, []byte("the trace is larger than 1000 bytes")) {
			t.Errorf("trace %s over the answer cap: %d %.200s", body, code, got)
		}
	}
	s = newServer(t, viewer.Config{MaxSearchBytes: 1})
	code, got := post(t, s, "/api/v1/plan", `{"goal": "Kill"}`)
	if code != http.StatusOK || !bytes.Contains(got, []byte(`"status":"budget_exhausted"`)) || !bytes.Contains(got, []byte(`"bound":"bytes"`)) {
		t.Errorf("plan held to 1 byte: %d %s, want budget_exhausted on bytes", code, got)
	}
}

// TestStartedFilesAreReadOnce removes a started file after New: the
// server still answers on it, since it reads files only at start.
func TestStartedFilesAreReadOnce(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "soldier.yaml")
	name := filepath.Join(t.TempDir(), "mine.yaml")
	if err := os.WriteFile(name, src, 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, viewer.Config{Files: []string{name}})
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	code, got := post(t, s, "/api/v1/plan", `{"domain": `+string(mustJSON(name))+`, "goal": "KillPlayer"}`)
	if code != http.StatusOK || !bytes.Contains(got, []byte(`"cost":9`)) {
		t.Errorf("plan on a started file since removed: %d %s", code, got)
	}
}

// BenchmarkPlanHandler measures the handler alone, without the network:
// decoding, the search on a warm planner, the answer.
func BenchmarkPlanHandler(b *testing.B) {
	s := newServer(b, viewer.Config{})
	body := `{"goal": "Kill", "unset": ["spare_crystals"]}`
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/api/v1/plan", strings.NewReader(body))
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatal(w.Code, w.Body)
		}
	}
}

// TestDescribe checks POST /api/v1/domain: an offered domain, by its name
// or its short name, is described as GET /api/v1/domains describes it,
// and the same text pasted is described alike but for its name and
// origin.
func TestDescribe(t *testing.T) {
	s := newServer(t, viewer.Config{})
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/domains", nil))
	var list struct{ Domains []json.RawMessage }
	if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	offered := map[string]string{}
	for _, d := range list.Domains {
		var named struct{ Name string }
		json.Unmarshal(d, &named)
		offered[named.Name] = string(d) + "\n"
	}
	for _, c := range []struct{ body, want string }{
		{`{"domain": "soldier.yaml"}`, "soldier.yaml"},
		{`{"domain": "soldier"}`, "soldier.yaml"},
		{`{}`, "battlemage.yaml"},
		{`{"domain": "survivor"}`, "survivor.yaml"},
	} {
		code, got := post(t, s, "/api/v1/domain", c.body)
		if code != 200 || string(got) != offered[c.want] {
			t.Errorf("%s: %d %s, want GET /api/v1/domains' %s", c.body, code, got, offered[c.want])
		}
	}
	src, _ := fs.ReadFile(domains.Files, "soldier.yaml")
	code, got := post(t, s, "/api/v1/domain", string(mustJSON(map[string]string{"source": string(src)})))
	want := strings.Replace(strings.Replace(offered["soldier.yaml"], `"name":"soldier.yaml"`, `"name":"\u003csource\u003e"`, 1), `"shipped":true`, `"shipped":false`, 1)
	if code != 200 || string(got) != want {
		t.Errorf("the soldier pasted: %d %s, want %s", code, got, want)
	}
	for _, c := range []struct {
		body string
		code int
		says string
	}{
		{`{"domain": "soldir"}`, 404, `did you mean \"soldier\"?`},
		{`{"domain": "soldier", "source": "x"}`, 400, "not both"},
		{`{"goal": "Kill"}`, 400, `unknown field \"goal\"`},
	} {
		code, got := post(t, s, "/api/v1/domain", c.body)
		if code != c.code || !strings.Contains(string(got), c.says) {
			t.Errorf("%s: %d %s, want %d saying %s", c.body, code, got, c.code, c.says)
		}
	}
}
