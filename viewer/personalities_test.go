package viewer_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/viewer"
)

type personalityPlan struct {
	Status string   `json:"status"`
	Plan   []string `json:"plan"`
	Cost   float64  `json:"cost"`
}

type personalitiesJSON struct {
	Personalities []struct {
		Name   string `json:"name"`
		Chosen string `json:"chosen"`
		Goals  []struct {
			Goal     string          `json:"goal"`
			Priority float64         `json:"priority"`
			Holds    bool            `json:"holds"`
			Plan     json.RawMessage `json:"plan"`
		} `json:"goals"`
		Costs []struct {
			Action string  `json:"action"`
			Cost   float64 `json:"cost"`
			Base   float64 `json:"base"`
		} `json:"costs"`
	} `json:"personalities"`
}

// goapPlan plans with goap directly: the soldier as built, from its initial
// state changed by set and unset, with the profile (nil: the domain's).
func soldierPlan(t *testing.T, spec goap.ProfileSpec, goal string, set, unset []string) goap.Result {
	t.Helper()
	d, err := goap.NewDomain(domains.Soldier())
	if err != nil {
		t.Fatal(err)
	}
	prof, err := d.NewProfile(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := startState(t, d, set, unset)
	res, err := goap.NewPlanner(d).Plan(nil, s, d.Goal(goal), goap.Options{Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// startState is d's initial state with the facts set on and unset off,
// as a request's set and unset change it; a fact d does not have fails
// the test.
func startState(t testing.TB, d *goap.Domain, set, unset []string) goap.State {
	t.Helper()
	s := d.Initial()
	for _, list := range []struct {
		names []string
		v     bool
	}{{set, true}, {unset, false}} {
		for _, name := range list.names {
			f, ok := d.Fact(name)
			if !ok {
				t.Fatalf("no fact %q", name)
			}
			s.Set(f, list.v)
		}
	}
	return s
}

func actionNames(d *goap.Domain, plan []goap.ActionID) []string {
	out := []string{}
	for _, a := range plan {
		out = append(out, d.ActionName(a))
	}
	return out
}

func factList(names []string) string {
	b, _ := json.Marshal(names)
	return string(b)
}

// TestPlanWithPersonality checks "personality" on plan: the soldier
// lesson's two soldiers on one graph, the offensive one shooting (cost 9)
// and the defensive one, to whom shooting costs 5, taking the axe (cost
// 10), each equal to goap's own planner with the personality's profile.
func TestPlanWithPersonality(t *testing.T) {
	s := newServer(t, viewer.Config{})
	d, _ := goap.NewDomain(domains.Soldier())
	for _, c := range []struct {
		personality string
		profile     goap.ProfileSpec
		want        []string
		cost        float64
	}{
		{"offensive", goap.ProfileSpec{}, []string{"PickUpGun", "ApproachPlayer", "AttackRanged"}, 9},
		{"defensive", domains.DefensiveSoldier(), []string{"PickUpAxe", "ApproachPlayer", "AttackMelee"}, 10},
	} {
		code, body := post(t, s, "/api/v1/plan", `{"domain": "soldier", "goal": "KillPlayer", "personality": "`+c.personality+`"}`)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.personality, code, body)
		}
		var got personalityPlan
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Plan, c.want) || got.Cost != c.cost {
			t.Errorf("%s: %v cost %g, want %v cost %g", c.personality, got.Plan, got.Cost, c.want, c.cost)
		}
		res := soldierPlan(t, c.profile, "KillPlayer", nil, nil)
		if !slices.Equal(got.Plan, actionNames(d, res.Plan)) || got.Cost != res.Cost {
			t.Errorf("%s: %v cost %g; goap with the profile: %v cost %g", c.personality, got.Plan, got.Cost, actionNames(d, res.Plan), res.Cost)
		}
	}
	// The defensive soldier's GetSafe: TakeCover at its cost of 1.
	code, body := post(t, s, "/api/v1/plan", `{"domain": "soldier", "goal": "GetSafe", "personality": "defensive"}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"plan":["TakeCover"],"cost":1,`) {
		t.Errorf("defensive GetSafe: %d %s", code, body)
	}
	// Trace and explain take it too.
	code, body = post(t, s, "/api/v1/explain", `{"domain": "soldier", "goal": "KillPlayer", "personality": "defensive", "alternatives": 0}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"plan":["PickUpAxe","ApproachPlayer","AttackMelee"],"cost":10`) {
		t.Errorf("defensive explain: %d %s", code, body)
	}
	code, body = post(t, s, "/api/v1/trace", `{"domain": "soldier", "goal": "KillPlayer", "personality": "defensive"}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"cost": 10`) {
		t.Errorf("defensive trace: %d %.300s", code, body)
	}
}

// TestPersonalitiesChooseGoals checks figure 6's answer: per personality,
// the goal it pursues (the highest priority not met that has a plan), and
// each goal's plan equal to /api/v1/plan with the personality, on a few
// states.
func TestPersonalitiesChooseGoals(t *testing.T) {
	s := newServer(t, viewer.Config{})
	d, _ := goap.NewDomain(domains.Soldier())
	for _, c := range []struct {
		set, unset           []string
		offensive, defensive string
	}{
		// The default: the offensive soldier kills (10 over 3), the
		// defensive one takes cover (8 over 5).
		{nil, nil, "KillPlayer", "GetSafe"},
		// In cover and healthy, GetSafe holds: both go for the kill.
		{[]string{"at_cover"}, nil, "KillPlayer", "KillPlayer"},
		// No weapon: no plan to kill, so the offensive one takes cover.
		{nil, []string{"axe_nearby", "gun_nearby"}, "GetSafe", "GetSafe"},
		// No weapon, in cover and healthy: nothing to do.
		{[]string{"at_cover"}, []string{"axe_nearby", "gun_nearby"}, "", ""},
		// The player dead: only GetSafe is left.
		{nil, []string{"player_alive"}, "GetSafe", "GetSafe"},
	} {
		name := fmt.Sprintf("set %v unset %v", c.set, c.unset)
		state := `"domain": "soldier.yaml", "set": ` + factList(c.set) + `, "unset": ` + factList(c.unset)
		code, body := post(t, s, "/api/v1/personalities", `{`+state+`}`)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", name, code, body)
		}
		var got personalitiesJSON
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Personalities) != 2 || got.Personalities[0].Name != "offensive" || got.Personalities[1].Name != "defensive" {
			t.Fatalf("%s: %s", name, body)
		}
		for i, want := range []string{c.offensive, c.defensive} {
			p := got.Personalities[i]
			if p.Chosen != want {
				t.Errorf("%s: %s chose %q, want %q", name, p.Name, p.Chosen, want)
			}
			var prio []float64
			for _, g := range p.Goals {
				prio = append(prio, g.Priority)
				_, plan := post(t, s, "/api/v1/plan", `{`+state+`, "goal": "`+g.Goal+`", "personality": "`+p.Name+`"}`)
				if string(g.Plan)+"\n" != string(plan) {
					t.Errorf("%s: %s %s: %s; plan answers %s", name, p.Name, g.Goal, g.Plan, plan)
				}
				goal := d.Goal(g.Goal)
				if g.Holds != goal.Holds(startState(t, d, c.set, c.unset)) {
					t.Errorf("%s: %s %s holds %v", name, p.Name, g.Goal, g.Holds)
				}
			}
			if !slices.IsSortedFunc(prio, func(a, b float64) int { return int(b - a) }) {
				t.Errorf("%s: %s's goals not by priority: %v", name, p.Name, prio)
			}
		}
	}
	// The costs: the defensive soldier's two overrides beside the
	// domain's own.
	_, body := post(t, s, "/api/v1/personalities", `{"domain": "soldier"}`)
	var got personalitiesJSON
	json.Unmarshal(body, &got)
	for _, c := range got.Personalities[1].Costs {
		want := map[string]float64{"AttackRanged": 5, "TakeCover": 1}[c.Action]
		if want == 0 {
			want = c.Base
		}
		if c.Cost != want {
			t.Errorf("defensive %s costs %g, want %g (base %g)", c.Action, c.Cost, want, c.Base)
		}
	}
	// The battle mage's one GOAP agent: the arena's, whose GetHealthy
	// applies only below 40 health (the file's default input is 100) and
	// whose Restock and ChargeStaff are its own goals.
	code, body := post(t, s, "/api/v1/personalities", `{"domain": "battlemage", "unset": ["healthy"]}`)
	var mage personalitiesJSON
	json.Unmarshal(body, &mage)
	if code != http.StatusOK || len(mage.Personalities) != 1 || mage.Personalities[0].Name != "goap" || mage.Personalities[0].Chosen != "Kill" {
		t.Errorf("battlemage: %d %s, want its goap agent pursuing Kill", code, body)
	}
	if !strings.Contains(string(body), `{"goal":"GetHealthy","priority":10,"score":10,"holds":false,"applies":false,`) || !strings.Contains(string(body), `{"goal":"Restock","priority":2,"score":2,"holds":false,"applies":true,"plan":{"status":"found","plan":["FetchPotion"]`) {
		t.Errorf("battlemage's goals: %s, want GetHealthy not applying and its own Restock planned", body)
	}
	// A domain without GOAP agents says so with an empty list.
	src := strings.Replace(soldierYAML(t), "\nagents:", "\nunused_agents:", 1)
	src = src[:strings.Index(src, "\nunused_agents:")]
	q, _ := json.Marshal(map[string]any{"source": src})
	code, body = post(t, s, "/api/v1/personalities", string(q))
	if code != http.StatusOK || string(body) != `{"personalities":[]}`+"\n" {
		t.Errorf("a soldier without agents: %d %s", code, body)
	}
}

func TestPersonalitiesBadInput(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for _, c := range []struct {
		path, body string
		code       int
		want       string
	}{
		{"/api/v1/plan", `{"domain": "soldier", "goal": "KillPlayer", "personality": "defensiv"}`, 400, `unknown personality \"defensiv\"; did you mean \"defensive\"?`},
		{"/api/v1/plan", `{"domain": "soldier", "goal": "KillPlayer", "personality": "berserk"}`, 400, `unknown personality \"berserk\"; the domain's personalities: offensive, defensive`},
		{"/api/v1/plan", `{"goal": "Kill", "personality": "defensive"}`, 400, `unknown personality \"defensive\"; the domain's personalities: goap`},
		{"/api/v1/plan", `{"goal": "Kill", "personality": "htn"}`, 400, `agent \"htn\" chooses no goal (an HTN or tree agent): a personality is a GOAP agent`},
		{"/api/v1/trace", `{"domain": "soldier", "htn": true, "personality": "defensive"}`, 400, `personality plans with GOAP`},
		// On an engine-model file a personality is one of its agent kinds
		// (issue 24: the API refused it there).
		{"/api/v1/resolve", `{"goal": "Warm", "personality": "defensive"}`, 400, `unknown agent \"defensive\"; survivor.yaml has survivor, wounded`},
		{"/api/v1/trace", `{"domain": "survivor", "goal": "Warm", "personality": "wonded"}`, 400, `did you mean \"wounded\"?`},
		{"/api/v1/personalities", `{"domain": "soldier", "unset": ["gun_nearbyy"]}`, 400, `did you mean \"gun_nearby\"?`},
		{"/api/v1/personalities", `{"domain": "soldier", "budget": 1000000000}`, 400, `above the server's cap`},
		{"/api/v1/personalities", `{"domain": "survivor"}`, 422, `engine-model file`},
		{"/api/v1/personalities", `{"domain": "soldier", "goal": "KillPlayer"}`, 400, `unknown field \"goal\"`},
		{"/api/v1/personalities", `{"domain": `, 400, `malformed JSON`},
	} {
		code, body := post(t, s, c.path, c.body)
		if code != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("%s %s: %d %s; want %d with %s", c.path, c.body, code, body, c.code, c.want)
		}
	}
	// A pasted soldier is planned with its own agents: a designer's edit
	// to the defensive soldier's costs changes its plan.
	src := strings.Replace(soldierYAML(t), "costs: {AttackRanged: 5, TakeCover: 1}", "costs: {AttackRanged: 2, TakeCover: 1}", 1)
	q, _ := json.Marshal(map[string]any{"source": src, "goal": "KillPlayer", "personality": "defensive"})
	code, body := post(t, s, "/api/v1/plan", string(q))
	if code != http.StatusOK || !strings.Contains(string(body), `"plan":["PickUpGun","ApproachPlayer","AttackRanged"],"cost":8,`) {
		t.Errorf("an edited defensive soldier: %d %s, want the gun at cost 8", code, body)
	}
}

func soldierYAML(t *testing.T) string {
	b, err := domains.Files.ReadFile("soldier.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDomainsListPersonalities(t *testing.T) {
	s := newServer(t, viewer.Config{})
	r, _ := http.NewRequest(http.MethodGet, "/api/v1/domains", nil)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var got struct {
		Domains []struct {
			Name          string `json:"name"`
			Personalities []struct {
				Name  string `json:"name"`
				Goals []struct {
					Goal     string  `json:"goal"`
					Priority float64 `json:"priority"`
				} `json:"goals"`
				Costs map[string]float64 `json:"costs"`
			} `json:"personalities"`
		} `json:"domains"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, d := range got.Domains {
		text := fmt.Sprintf("%+v", d.Personalities)
		want := "[]"
		switch d.Name {
		case "soldier.yaml":
			want = "[{Name:offensive Goals:[{Goal:KillPlayer Priority:10} {Goal:GetSafe Priority:3}] Costs:map[]} {Name:defensive Goals:[{Goal:GetSafe Priority:8} {Goal:KillPlayer Priority:5}] Costs:map[AttackRanged:5 TakeCover:1]}]"
		case "battlemage.yaml":
			want = "[{Name:goap Goals:[{Goal:GetHealthy Priority:10} {Goal:Kill Priority:5} {Goal:Restock Priority:2} {Goal:ChargeStaff Priority:1}] Costs:map[]}]"
		}
		if text != want {
			t.Errorf("%s: personalities %s, want %s", d.Name, text, want)
		}
	}
}

// TestPersonalitiesSearchesAreBounded pastes a domain whose personalities
// have more goal options than figure 6 plans in one request (a search
// each, every one of which may run to the plan's caps): 422 before any
// search, naming the count; at the bound, an answer.
func TestPersonalitiesSearchesAreBounded(t *testing.T) {
	s := newServer(t, viewer.Config{})
	src := func(agents, goals int) string {
		var sb strings.Builder
		sb.WriteString("name: many\nfacts: [a]\nactions: [{name: A, effects: {a: true}, cost: 1}]\ngoals:\n")
		for i := range goals {
			fmt.Fprintf(&sb, "  - {name: G%d, conditions: {a: true}}\n", i)
		}
		sb.WriteString("agents:\n")
		for k := range agents {
			fmt.Fprintf(&sb, "  - name: k%d\n    goals:\n", k)
			for i := range goals {
				fmt.Fprintf(&sb, "      - {goal: G%d, priority: %d}\n", i, i)
			}
		}
		q, _ := json.Marshal(map[string]any{"source": sb.String()})
		return string(q)
	}
	code, body := post(t, s, "/api/v1/personalities", src(256, 20))
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "5120 goal options") {
		t.Errorf("256 personalities of 20 goals each: %d %s, want 422 naming 5120 goal options", code, body)
	}
	if code, body := post(t, s, "/api/v1/personalities", src(4, 16)); code != http.StatusOK {
		t.Errorf("4 personalities of 16 goals each: %d %s, want 200", code, body)
	}
}
