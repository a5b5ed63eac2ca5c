package viewer_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
	"github.com/ploy-ai/ploy/viewer"
)

// TestEveryFlagHasItsField checks that what the commands do with the
// flags that pick an agent, an input, a target or a goal, the API does
// with its fields (docs/api.md, "Every flag's field"): the same bytes.
func TestEveryFlagHasItsField(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct {
		path, body string
		args       []string
	}{
		// resolve --agent, with and without --goal, and a kind's costs
		{"/api/v1/resolve", `{"domain": "colony", "agent": "hunter"}`, []string{"resolve", "colony", "--agent", "hunter", "--json"}},
		{"/api/v1/resolve", `{"domain": "colony", "agent": "worker"}`, []string{"resolve", "colony", "--agent", "worker", "--json"}},
		{"/api/v1/resolve", `{"domain": "colony", "agent": "guard", "goal": "Fed"}`, []string{"resolve", "colony", "--agent", "guard", "--goal", "Fed", "--json"}},
		{"/api/v1/resolve", `{"domain": "colony", "agent": "hunter", "goal": "FoodStocked", "set": ["food_stock=0"]}`, []string{"resolve", "colony", "--agent", "hunter", "--goal", "FoodStocked", "--set", "food_stock=0", "--json"}},
		{"/api/v1/resolve", `{"domain": "survivor", "agent": "wounded"}`, []string{"resolve", "survivor", "--agent", "wounded", "--json"}},
		// an agent that pursues nothing: status no_goal
		{"/api/v1/resolve", `{"domain": "survivor", "agent": "survivor", "set": ["warmth=90", "hunger=0"]}`, []string{"resolve", "survivor", "--agent", "survivor", "--set", "warmth=90,hunger=0", "--json"}},
		// --target NAME=none: the sensor finds nothing
		{"/api/v1/resolve", `{"goal": "Fed", "targets": {"berries": null}}`, []string{"resolve", "--goal", "Fed", "--target", "berries=none", "--json"}},
		{"/api/v1/resolve", `{"goal": "Fed", "targets": {"berries": null, "deer": null}}`, []string{"resolve", "--goal", "Fed", "--target", "berries=none,deer=none", "--json"}},
		{"/api/v1/explain", `{"domain": "survivor", "goal": "Fed", "targets": {"berries": null, "deer": [0, 1]}}`, []string{"explain", "survivor", "--goal", "Fed", "--target", "berries=none,deer=0,1", "--json"}},
		// trace and explain --agent on an engine-model file
		{"/api/v1/trace", `{"domain": "colony", "agent": "hunter"}`, []string{"trace", "colony", "--agent", "hunter", "--format", "json"}},
		{"/api/v1/explain", `{"domain": "colony", "agent": "worker", "goal": "Fed"}`, []string{"explain", "colony", "--agent", "worker", "--goal", "Fed", "--json"}},
		// plan --agent and --input
		{"/api/v1/plan", `{"domain": "soldier", "agent": "defensive"}`, []string{"plan", "soldier", "--agent", "defensive", "--json"}},
		{"/api/v1/plan", `{"agent": "goap", "unset": ["healthy"], "inputs": {"health": 20}}`, []string{"plan", "--agent", "goap", "--unset", "healthy", "--input", "health=20", "--json"}},
		{"/api/v1/plan", `{"agent": "goap", "unset": ["healthy"]}`, []string{"plan", "--agent", "goap", "--unset", "healthy", "--json"}},
		{"/api/v1/plan", `{"agent": "goap", "goal": "Restock", "unset": ["spare_crystals"]}`, []string{"plan", "--agent", "goap", "--goal", "Restock", "--unset", "spare_crystals", "--json"}},
		{"/api/v1/trace", `{"agent": "goap", "unset": ["healthy"], "inputs": {"health": 20}}`, []string{"trace", "--agent", "goap", "--unset", "healthy", "--input", "health=20", "--budget", "10000", "--format", "json"}},
		{"/api/v1/explain", `{"domain": "soldier", "agent": "defensive"}`, []string{"explain", "soldier", "--agent", "defensive", "--json"}},
		// htn --agent
		{"/api/v1/htn", `{"agent": "htn-break", "unset": ["spare_crystals"]}`, []string{"htn", "--agent", "htn-break", "--unset", "spare_crystals", "--json"}},
	} {
		code, got := post(t, s, c.path, c.body)
		if code != http.StatusOK {
			t.Errorf("%s %s: status %d: %s", c.path, c.body, code, got)
			continue
		}
		if want := ploy(t, c.args...); !bytes.Equal(got, want) {
			t.Errorf("%s %s:\n got %s\nwant %s (ploy %s)", c.path, c.body, got, want, strings.Join(c.args, " "))
		}
	}
}

// TestAgentFieldsChangeTheAnswer checks that the fields are not ignored:
// a kind's choice and costs, an input and a lost target each change what
// comes back.
func TestAgentFieldsChangeTheAnswer(t *testing.T) {
	s := newServer(t, viewer.Config{})
	answer := func(path, body string) map[string]any {
		t.Helper()
		code, got := post(t, s, path, body)
		if code != http.StatusOK {
			t.Fatalf("%s %s: status %d: %s", path, body, code, got)
		}
		var m map[string]any
		if err := json.Unmarshal(got, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	hunter := answer("/api/v1/resolve", `{"domain": "colony", "agent": "hunter"}`)
	worker := answer("/api/v1/resolve", `{"domain": "colony", "agent": "worker"}`)
	if hunter["agent"] != "hunter" || worker["agent"] != "worker" || hunter["goal"] == nil {
		t.Errorf("agent and goal missing: %v, %v", hunter, worker)
	}
	if plan(hunter) == plan(worker) {
		t.Errorf("hunter and worker resolve the same chain %s: the kinds' costs were ignored", plan(hunter))
	}
	// personality: the kind's costs for a given goal, the answer's shape
	// unchanged
	asHunter := answer("/api/v1/resolve", `{"domain": "colony", "personality": "hunter", "goal": "FoodStocked"}`)
	plain := answer("/api/v1/resolve", `{"domain": "colony", "goal": "FoodStocked"}`)
	if _, has := asHunter["agent"]; has || plan(asHunter) == plan(plain) {
		t.Errorf("personality hunter: %v; without: %v", asHunter, plain)
	}
	hurt := answer("/api/v1/plan", `{"agent": "goap", "unset": ["healthy"], "inputs": {"health": 20}}`)
	fine := answer("/api/v1/plan", `{"agent": "goap", "unset": ["healthy"], "inputs": {"health": 90}}`)
	if hurt["goal"] != "GetHealthy" || fine["goal"] != "Kill" {
		t.Errorf("inputs ignored: health 20 chose %v, health 90 chose %v", hurt["goal"], fine["goal"])
	}
	lost := answer("/api/v1/resolve", `{"goal": "Fed", "targets": {"berries": null, "deer": null}}`)
	if lost["status"] != "no_plan" {
		t.Errorf("berries and deer not found, still %v", lost)
	}
}

func plan(m map[string]any) string {
	b, _ := json.Marshal(m["plan"])
	return string(b)
}

// TestAgentFieldsRefused checks the new fields' errors: each names its
// field and says what to do.
func TestAgentFieldsRefused(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct {
		path, body string
		code       int
		field, msg string
	}{
		{"/api/v1/resolve", `{"domain": "colony", "agent": "huntr"}`, 400, "agent", `did you mean "hunter"?`},
		{"/api/v1/resolve", `{"domain": "colony", "agent": "hunter", "personality": "hunter"}`, 400, "personality", "give agent or personality, not both"},
		{"/api/v1/resolve", `{"domain": "colony", "agent": "hunter", "capabilities": ["Eat"]}`, 400, "capabilities", "the agent's capabilities are its own"},
		{"/api/v1/resolve", `{"domain": "colony", "personality": "hunter"}`, 400, "goal", "goal is required (or agent, which chooses)"},
		{"/api/v1/resolve", `{"goal": "Fed", "targets": {"berries": []}}`, 400, "targets.berries", "must be a position [x, y] of 2 coordinates, not 0"},
		{"/api/v1/resolve", `{"goal": "Fed", "targets": {"berris": null}}`, 400, "targets", `did you mean "berries"?`},
		{"/api/v1/trace", `{"domain": "survivor", "agent": "survivor", "set": ["warmth=90", "hunger=0"]}`, 422, "agent", `agent "survivor" pursues no goal from {warmth=90, hunger=0}`},
		{"/api/v1/trace", `{"domain": "survivor", "goal": "Warm", "inputs": {"warmth": 3}}`, 400, "inputs", "its agents' inputs are its keys, given in set"},
		{"/api/v1/plan", `{"agent": "goap", "inputs": {"helth": 3}}`, 400, "inputs", `unknown input "helth"; did you mean "health"?`},
		{"/api/v1/plan", `{"goal": "Kill", "inputs": {"health": 3}}`, 400, "inputs", "give them with agent"},
		{"/api/v1/plan", `{"agent": "htn"}`, 400, "agent", `"htn" is an HTN agent: decompose as it with /api/v1/htn and agent`},
		{"/api/v1/plan", `{"agent": "bt"}`, 400, "agent", "behaviour-tree agent"},
		{"/api/v1/htn", `{"agent": "goap"}`, 400, "agent", `"goap" is a GOAP agent: plan as it with /api/v1/plan and agent`},
		{"/api/v1/trace", `{"htn": true, "agent": "htn"}`, 400, "agent", "give agent to /api/v1/htn"},
		{"/api/v1/explain", `{"htn": true, "inputs": {"health": 3}}`, 400, "inputs", "leave inputs out with htn"},
	} {
		code, got := post(t, s, c.path, c.body)
		var e errorAnswer
		if err := json.Unmarshal(got, &e); err != nil {
			t.Errorf("%s %s: the answer is not JSON: %v: %s", c.path, c.body, err, got)
			continue
		}
		if code != c.code || e.Field != c.field || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s %s: %d %s, want %d, field %q, an error with %q", c.path, c.body, code, got, c.code, c.field, c.msg)
		}
	}
}

// TestDomainsListEngineKinds checks what figure 8's kind picker is built
// from: an engine-model file's agent kinds, each with its capabilities
// (absent: all) and its cost overrides beside the file's costs.
func TestDomainsListEngineKinds(t *testing.T) {
	s := newServer(t, viewer.Config{})
	code, body := post(t, s, "/api/v1/domain", `{"domain": "colony"}`)
	var d struct {
		Agents json.RawMessage `json:"agents"`
	}
	if code != http.StatusOK || json.Unmarshal(body, &d) != nil {
		t.Fatalf("colony: %d %s", code, body)
	}
	for _, want := range []string{
		`{"name":"hunter","title":"hunter (hunts deer, fights raiders when food is not short)","capabilities":["Hunt","PickBerries","HaulFood","TakeMeal","Eat","Drink","Sleep","Hide","ArmUp","Fight"],"costs":[{"action":"PickBerries","cost":10,"base":3},{"action":"Hunt","cost":2,"base":6},{"action":"Fight","cost":6,"base":4}]}`,
		`{"name":"guard","title":"guard (keeps watch from the towers, drives raiders off)","capabilities":["ArmUp","Fight","KeepWatch","TakeMeal","Eat","Drink","Sleep"],"costs":[{"action":"Sleep","cost":8,"base":5},{"action":"Fight","cost":1,"base":4}]}`,
	} {
		if !strings.Contains(string(d.Agents), want) {
			t.Errorf("colony's agents %s\nwant among them %s", d.Agents, want)
		}
	}
	code, body = post(t, s, "/api/v1/domain", `{"domain": "survivor"}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"agents":[{"name":"survivor","title":"survivor","costs":[]},{"name":"wounded",`) {
		t.Errorf("survivor: %d %s", code, body)
	}
	code, body = post(t, s, "/api/v1/domain", `{"domain": "soldier"}`)
	if code != http.StatusOK || strings.Contains(string(body), `"agents"`) {
		t.Errorf("soldier, a state-space file: %d %s; want no agents field (its kinds are personalities)", code, body)
	}
}

// TestRefusedAlike checks that a request the API refuses (400, naming the
// field) the command refuses too, as a usage error (exit 2), rather than
// answering with the field ignored: an agent's inputs without the agent,
// an agent unknown, agent with htn, inputs on an engine-model file.
func TestRefusedAlike(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct {
		path, body, field string
		args              []string
	}{
		{"/api/v1/plan", `{"goal": "Kill", "inputs": {"health": 30}}`, "inputs", []string{"plan", "--goal", "Kill", "--input", "health=30", "--json"}},
		{"/api/v1/trace", `{"goal": "Kill", "inputs": {"health": 30}}`, "inputs", []string{"trace", "--goal", "Kill", "--input", "health=30", "--format", "json"}},
		{"/api/v1/explain", `{"goal": "Kill", "inputs": {"health": 30}}`, "inputs", []string{"explain", "--goal", "Kill", "--input", "health=30", "--json"}},
		{"/api/v1/resolve", `{"domain": "colony", "agent": "Hunter"}`, "agent", []string{"resolve", "colony", "--agent", "Hunter", "--json"}},
		{"/api/v1/resolve", `{"domain": "colony", "agent": "hunter", "capabilities": ["Eat"]}`, "capabilities", []string{"resolve", "colony", "--agent", "hunter", "--capabilities", "Eat", "--json"}},
		{"/api/v1/trace", `{"htn": true, "agent": "goap"}`, "agent", []string{"trace", "--htn", "--agent", "goap", "--format", "json"}},
		{"/api/v1/trace", `{"domain": "survivor", "goal": "Fed", "inputs": {"warmth": 3}}`, "inputs", []string{"trace", "survivor", "--goal", "Fed", "--input", "warmth=3", "--format", "json"}},
		{"/api/v1/htn", `{"agent": "goap"}`, "agent", []string{"htn", "--agent", "goap", "--json"}},
	} {
		code, got := post(t, s, c.path, c.body)
		var answer struct{ Field string }
		_ = json.Unmarshal(got, &answer)
		if code != http.StatusBadRequest || answer.Field != c.field {
			t.Errorf("%s %s: status %d, %s; want 400, field %s", c.path, c.body, code, got, c.field)
		}
		var out, errOut bytes.Buffer
		if st := cli.Main(c.args, strings.NewReader(""), &out, &errOut); st != 2 {
			t.Errorf("ploy %s: status %d, want 2 (a usage error), as the API refuses it; stdout %.200s", strings.Join(c.args, " "), st, out.String())
		}
	}
}

// TestRequestsSaidOnce checks that a request that says a thing twice, or
// leaves a coordinate out, is refused naming the field, as the command
// refuses --target NAME given twice: encoding/json would keep the last
// of two members silently (targets {"berries": [1, 2], "berries": null}),
// and read a null coordinate as 0 ([null, 1], the origin's column).
func TestRequestsSaidOnce(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct{ body, field, says string }{
		{`{"goal": "Fed", "targets": {"berries": [1, 2], "berries": null}}`, "targets.berries", "given twice"},
		{`{"goal": "Fed", "targets": {"berries": null, "berries": [1, 2]}}`, "targets.berries", "given twice"},
		{`{"goal": "Fed", "goal": "Warm"}`, "goal", "given twice"},
		{`{"goal": "Fed", "targets": {"berries": [null, 1]}}`, "targets.berries", "null"},
		{`{"goal": "Fed", "at": [0, null]}`, "at", "null"},
	} {
		code, got := post(t, s, "/api/v1/resolve", c.body)
		var answer struct{ Error, Field string }
		_ = json.Unmarshal(got, &answer)
		if code != http.StatusBadRequest || answer.Field != c.field || !strings.Contains(answer.Error, c.says) {
			t.Errorf("%s: status %d, %s; want 400, field %s, saying %q", c.body, code, got, c.field, c.says)
		}
	}
	// Members of different objects may share a name, and null is still a
	// target not found.
	if code, got := post(t, s, "/api/v1/resolve", `{"goal": "Fed", "targets": {"berries": null, "deer": [0, 1]}, "at": [0, 1]}`); code != http.StatusOK {
		t.Errorf("distinct members: status %d, %s", code, got)
	}
}

// TestKindThatCanDoNothing checks that GET /api/v1/domains tells a kind
// that can do no action (capabilities: []) from one that can do every
// action (no capabilities:): figure 8 showed the first as "can do every
// action", every toggle ticked, while the resolve, as the command's,
// found no capable action.
func TestKindThatCanDoNothing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "idle.yaml")
	src := strings.Replace(oddKinds, "    costs: {GatherWood: 7}\n", "    capabilities: []\n  - name: busy\n    goals: [{goal: Warm, priority: 1}]\n", 1)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, viewer.Config{Files: []string{file}})
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/domains", nil))
	var list struct {
		Domains []struct {
			Name   string
			Agents []map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	for _, d := range list.Domains {
		if d.Name != file {
			continue
		}
		if len(d.Agents) != 2 {
			t.Fatalf("%s: agents %v, want 2", file, d.Agents)
		}
		if got := string(d.Agents[0]["capabilities"]); got != "[]" {
			t.Errorf("the kind with capabilities: []: capabilities %q, want []", got)
		}
		if _, ok := d.Agents[1]["capabilities"]; ok {
			t.Errorf("the kind with no capabilities: has %s, want none (every action)", d.Agents[1]["capabilities"])
		}
		return
	}
	t.Fatalf("%s not listed", file)
}
