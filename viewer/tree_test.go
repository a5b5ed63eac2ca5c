package viewer_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/viewer"
)

// treeAnswer is POST /api/v1/tree's answer.
type treeAnswer struct {
	Goal   string
	Status string
	Steps  []string
	Ticks  []struct {
		Tick    int
		Branch  string
		Actions []string
	}
	Facts []string
	Tree  []struct{ Name, Does string }
}

type planAnswer struct {
	Status string
	Plan   []string
	Cost   float64
}

// seedToggles are the soldier lesson's toggles: axe nearby, gun nearby,
// hp high, at cover.
var seedToggles = []string{"axe_nearby", "gun_nearby", "hp_high", "at_cover"}

// TestTreeAgainstGOAP runs the soldier's tree and GOAP's plan on every
// combination of the soldier lesson's toggles: the tree's steps are real
// actions that hold where it takes them and reach the goal when it says
// done; wherever the tree reaches the goal, GOAP plans no dearer; and
// there is a combination where the tree idles while GOAP plans.
func TestTreeAgainstGOAP(t *testing.T) {
	s := newServer(t, viewer.Config{})
	src, err := fs.ReadFile(domains.Files, "soldier.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := domain.Parse("soldier.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	d := f.GOAP
	idleWherePlanned := 0
	for mask := range 1 << len(seedToggles) {
		var set, unset []string
		for i, fact := range seedToggles {
			if mask&(1<<i) != 0 {
				set = append(set, fact)
			} else {
				unset = append(unset, fact)
			}
		}
		req := fmt.Sprintf(`{"domain": "soldier", "set": %s, "unset": %s}`, mustJSON(set), mustJSON(unset))
		code, body := post(t, s, "/api/v1/tree", req)
		var tr treeAnswer
		if code != 200 || json.Unmarshal(body, &tr) != nil {
			t.Fatalf("%s: %d %s", req, code, body)
		}
		code, body = post(t, s, "/api/v1/plan", strings.Replace(req, "{", `{"goal": "KillPlayer", `, 1))
		var pl planAnswer
		if code != 200 || json.Unmarshal(body, &pl) != nil {
			t.Fatalf("plan %s: %d %s", req, code, body)
		}
		// Replay the tree's steps with goap: each must hold where taken.
		state, err := d.StateOf(append(set, "player_alive")...)
		if err != nil {
			t.Fatal(err)
		}
		cost := 0.0
		for _, name := range tr.Steps {
			a, ok := d.ActionByName(name)
			if !ok || !d.Applicable(a, state) {
				t.Fatalf("%s: the tree's step %s does not hold there (steps %q)", req, name, tr.Steps)
			}
			cost += d.CostIn(a, state)
			d.Apply(a, state)
		}
		reached := d.Goal("KillPlayer").Holds(state)
		if (tr.Status == "done") != reached {
			t.Errorf("%s: the tree says %s, its steps %q reach the goal: %v", req, tr.Status, tr.Steps, reached)
		}
		switch {
		case tr.Status == "done" && pl.Status != "found":
			t.Errorf("%s: the tree reaches the goal, GOAP says %s", req, pl.Status)
		case tr.Status == "done" && pl.Cost > cost:
			t.Errorf("%s: GOAP's plan costs %v, more than the tree's %q at %v", req, pl.Cost, tr.Steps, cost)
		case tr.Status == "idle" && pl.Status == "found":
			idleWherePlanned++
			last := tr.Ticks[len(tr.Ticks)-1]
			if last.Branch != "" || len(last.Actions) != 0 {
				t.Errorf("%s: idle, but its last tick ran %q %q", req, last.Branch, last.Actions)
			}
		case tr.Status == "ticks_out":
			t.Errorf("%s: the tree ran out of ticks: %q", req, tr.Steps)
		}
		// The default state (axe, gun, hp high, not at cover): both act,
		// the tree as GOAP plans.
		if mask == 0b0111 && (tr.Status != "done" || strings.Join(tr.Steps, ",") != strings.Join(pl.Plan, ",")) {
			t.Errorf("default: the tree %s with %q, GOAP %q; want both PickUpGun, ApproachPlayer, AttackRanged", tr.Status, tr.Steps, pl.Plan)
		}
	}
	if idleWherePlanned == 0 {
		t.Error("no combination of the soldier's toggles where the tree idles while GOAP plans")
	}
}

func TestTreeBadInput(t *testing.T) {
	s := newServer(t, viewer.Config{MaxBody: 4096})
	for _, c := range []struct {
		body       string
		code       int
		field, msg string
	}{
		{`{"domain": "soldier"`, 400, "", "malformed JSON"},
		{`{"domain": "soldier", "goal": "KillPlayer"}`, 400, "goal", `unknown field "goal"`},
		{`{"domain": "soldier", "unset": ["gun_naerby"]}`, 400, "unset", `did you mean "gun_nearby"?`},
		{`{"domain": "soldier", "max_steps": 3}`, 400, "max_steps", `unknown field "max_steps"`},
		{`{}`, 422, "domain", "the tree is the soldier's and needs its fact player_alive"},
		{`{"domain": "survivor"}`, 422, "domain", "engine-model file"},
		{`{"source": "name: x\nfacts: [a]\n"}`, 422, "domain", "needs its fact player_alive"},
		{`{"source": "facts: [a"}`, 422, "", "the domain source has errors"},
		{`{"domain": "soldier", "unset": ["` + strings.Repeat("x", 5000) + `"]}`, 413, "", "larger than 4096 bytes"},
	} {
		code, body := post(t, s, "/api/v1/tree", c.body)
		var e errorAnswer
		if code != c.code || json.Unmarshal(body, &e) != nil || e.Field != c.field || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%.60s: %d %s; want %d, field %q, %q", c.body, code, body, c.code, c.field, c.msg)
		}
	}
}
