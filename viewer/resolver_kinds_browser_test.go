package viewer_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/internal/costfmt"
	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// kindView is what figure 8 shows of the agent kind picked.
type kindView struct {
	Kind       string   `json:"kind"`
	Note       string   `json:"note"`
	Overridden []string `json:"overridden"` // the graph's action nodes drawn as overridden
	Capable    []string `json:"capable"`    // the capabilities ticked
	Disabled   bool     `json:"disabled"`   // the capabilities toggles off limits
}

const readKind = `(() => {
	const f = document.getElementById('resolver-figure');
	const boxes = [...f.querySelectorAll('#resolver-capabilities input[data-action]')];
	return {
		kind: document.getElementById('resolver-kind').value,
		note: document.getElementById('resolver-kind-note').hidden ? '' : document.getElementById('resolver-kind-note').textContent,
		overridden: [...f.querySelectorAll('g.action-node.overridden')].map((g) => g.dataset.action + ': ' + g.querySelector('text.note').textContent),
		capable: boxes.filter((b) => b.checked).map((b) => b.dataset.action),
		disabled: boxes.length > 0 && boxes.every((b) => b.disabled),
	};
})()`

// TestBrowserResolverKinds drives figure 8's agent kind picker on the
// colony: a kind resolves as ploy resolve --agent does (its choice of
// goal, its costs, its capabilities), its cost overrides are shown beside
// the file's, and a target unticked is one the sensor does not find
// (--target NAME=none). Each answer is checked against the API's.
func TestBrowserResolverKinds(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 30*time.Second)
	f := newResolve(t, tab, 0, "opening the page", chromedp.Navigate(ts.URL+"/"))
	f = newResolve(t, tab, f.Seq, "the colony", choose("resolver-domain", "colony.yaml"))
	if k := browser.Read[kindView](t, tab, "figure 8's kind", readKind); k.Kind != "" || k.Note != "" || k.Disabled {
		t.Errorf("the colony opens with kind %q, note %q, capabilities disabled %v; want none", k.Kind, k.Note, k.Disabled)
	}
	api := func(request string) resolveAnswerAs {
		t.Helper()
		var a resolveAnswerAs
		if code, body := postTo(t, ts.URL, "/api/v1/resolve", request); code != 200 || json.Unmarshal(body, &a) != nil {
			t.Fatalf("the resolve API: %s: %d %s", request, code, body)
		}
		return a
	}

	// The hunter, choosing its goal: the API's choice and chain.
	f = newResolve(t, tab, f.Seq, "kind hunter", choose("resolver-kind", "hunter"))
	a := api(`{"domain": "colony.yaml", "agent": "hunter"}`)
	if f.Error != "" || f.Goal != "" || a.Status != "found" || !slices.Equal(f.Chain, a.Plan) ||
		!strings.HasPrefix(f.Summary, "agent hunter's choice: "+a.Goal+" · depth ") || !slices.Equal(f.Goals, []string{a.Goal}) {
		t.Errorf("kind hunter: goal picker %q, %q %q (error %q); the API: %s %q, goal %s", f.Goal, f.Summary, f.Chain, f.Error, a.Status, a.Plan, a.Goal)
	}
	k := browser.Read[kindView](t, tab, "figure 8's kind", readKind)
	for _, want := range []string{"PickBerries costs 10 (the file: 3)", "Hunt costs 2 (the file: 6)", "Fight costs 6 (the file: 4)", "can do 10 of 13 actions"} {
		if !strings.Contains(k.Note, want) {
			t.Errorf("kind hunter: the note says %q, want %q", k.Note, want)
		}
	}
	if !k.Disabled || slices.Contains(k.Capable, "ChopWood") || !slices.Contains(k.Capable, "Hunt") || len(k.Capable) != 10 {
		t.Errorf("kind hunter: capabilities %q, disabled %v; want the hunter's 10, not to be edited", k.Capable, k.Disabled)
	}
	// PickBerries is dear to the hunter: drawn overridden with its cost.
	if !slices.Contains(k.Overridden, "PickBerries: cost 10 (file 3)") && !slices.ContainsFunc(k.Overridden, func(s string) bool { return strings.HasPrefix(s, "PickBerries: ") }) {
		t.Errorf("kind hunter: overridden nodes %q, want PickBerries among them", k.Overridden)
	}

	// FoodStocked for the hunter and the worker: the kinds' costs and
	// capabilities give different chains.
	f = newResolve(t, tab, f.Seq, "goal FoodStocked", choose("resolver-goal", "FoodStocked"))
	hunter := api(`{"domain": "colony.yaml", "agent": "hunter", "goal": "FoodStocked"}`)
	if !slices.Equal(f.Chain, hunter.Plan) || !strings.HasPrefix(f.Summary, "as hunter · depth ") || !slices.Contains(hunter.Plan, "Hunt") {
		t.Errorf("hunter FoodStocked: %q %q; the API: %q", f.Summary, f.Chain, hunter.Plan)
	}
	browser.Screenshot(t, tab, "resolver-figure", "resolver-colony-hunter")
	f = newResolve(t, tab, f.Seq, "kind worker", choose("resolver-kind", "worker"))
	worker := api(`{"domain": "colony.yaml", "agent": "worker", "goal": "FoodStocked"}`)
	if f.Goal != "FoodStocked" || !slices.Equal(f.Chain, worker.Plan) || slices.Equal(worker.Plan, hunter.Plan) || !slices.Contains(worker.Plan, "PickBerries") {
		t.Errorf("worker FoodStocked: goal %q, %q %q; the API: %q (the hunter's %q)", f.Goal, f.Summary, f.Chain, worker.Plan, hunter.Plan)
	}

	// The berries not found: the worker, who cannot hunt, has no chain.
	f = newResolve(t, tab, f.Seq, "berries not found", chromedp.Click(chromedp.CSS(`#resolver-places .place[data-place="berries"] input[data-found]`)))
	lost := api(`{"domain": "colony.yaml", "agent": "worker", "goal": "FoodStocked", "targets": {"berries": null}}`)
	if lost.Status != "no_plan" || len(f.Chain) != 0 || !strings.HasPrefix(f.Summary, "as worker · no chain: no plan") || !strings.Contains(strings.Join(f.Why, " "), "berries was not found") {
		t.Errorf("berries not found: %q %q, why %q; the API: %s", f.Summary, f.Chain, f.Why, lost.Status)
	}
	browser.Screenshot(t, tab, "resolver-figure", "resolver-colony-worker-no-berries")
	// Found again, and no kind: the file's costs and every action.
	f = newResolve(t, tab, f.Seq, "berries found", chromedp.Click(chromedp.CSS(`#resolver-places .place[data-place="berries"] input[data-found]`)))
	f = newResolve(t, tab, f.Seq, "no kind", choose("resolver-kind", ""))
	plain := api(`{"domain": "colony.yaml", "goal": "FoodStocked"}`)
	k = browser.Read[kindView](t, tab, "figure 8's kind", readKind)
	if !slices.Equal(f.Chain, plain.Plan) || k.Note != "" || k.Disabled || len(k.Overridden) != 0 || len(k.Capable) != 13 {
		t.Errorf("no kind: %q (the API: %q), note %q, overridden %q, capabilities %d disabled %v", f.Chain, plain.Plan, k.Note, k.Overridden, len(k.Capable), k.Disabled)
	}
}

// TestBrowserCostsPrintAsTheCommands checks that the page's number() and
// the commands' costfmt.Cost write the same text for the same costs, so
// that a figure and a command agree to the last digit shown.
func TestBrowserCostsPrintAsTheCommands(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 30*time.Second)
	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	values := []float64{29.027416997969524, 0.125, 1.005, 2.675, 9.549509756796393, 1e21, 1.5e21, 7, 0, 1e20, 0.30000000000000004, 1.999, 99.995, 12.527692569068709, 0.001, -0.125, 1234567.891, 0.375, 123456789012.345, 2.5, 1e-7, 0.005, 0.015, 1.115, 8.345, math.Copysign(0, -1), -0.001, -0.004, -0.005, -2.675, -999.995}
	for i := range 200 { // and distances as the resolver makes them
		values = append(values, math.Sqrt(float64(i*i+7*i+3))*0.37)
	}
	in, _ := json.Marshal(values)
	got, err := chromedp.Run(tab, chromedp.Evaluate[[]string](fmt.Sprintf(`%s.map((x) => ploy.number(x))`, in)))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range values {
		if want := costfmt.Cost(v); got[i] != want {
			t.Errorf("%v: the page writes %q, the commands %q", v, got[i], want)
		}
	}
}

type resolveAnswerAs struct {
	Status string   `json:"status"`
	Plan   []string `json:"plan"`
	Goal   string   `json:"goal"`
}

// TestBrowserPlannerAgent drives figure 1's agent picker: the soldier
// planned as its defensive personality gets the API's answer for that
// personality (its costs), the command shown is ploy plan --agent, the
// address keeps it across a reload, and none plans with the file's costs.
func TestBrowserPlannerAgent(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 30*time.Second)
	f, _ := after(t, tab, 0, "opening the page", chromedp.Navigate(ts.URL+"/"))
	f, _ = after(t, tab, f.Seq, "the soldier", choose("domain", "soldier.yaml"))
	plain := f
	f, _ = after(t, tab, f.Seq, "agent defensive", choose("agent", "defensive"))
	request := `{"domain": "soldier", "goal": "KillPlayer", "personality": "defensive"}`
	if want := planSummary(t, ts.URL, request); f.Summary != want || f.Error != "" {
		t.Errorf("defensive: %q (error %q), want the API's %q", f.Summary, f.Error, want)
	}
	// The gun's ranged attack is dear to it: the axe instead.
	if !slices.Equal(plain.Plan, []string{"PickUpGun", "ApproachPlayer", "AttackRanged"}) || !slices.Equal(f.Plan, []string{"PickUpAxe", "ApproachPlayer", "AttackMelee"}) {
		t.Errorf("the soldier plans %q, as defensive %q; want the gun, and the axe", plain.Plan, f.Plan)
	}
	if want := "ploy plan soldier.yaml --goal KillPlayer --agent defensive"; f.Command != want {
		t.Errorf("the command shown: %q, want %q", f.Command, want)
	}
	note, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById('agent-note').hidden ? '' : document.getElementById('agent-note').textContent`))
	if err != nil || !strings.Contains(note, "AttackRanged 5") || !strings.Contains(note, "TakeCover 1") {
		t.Errorf("the agent's note: %q (%v), want its cost overrides", note, err)
	}
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatalf("reload: %v", err)
	}
	g, _ := after(t, tab, 0, "reload", chromedp.Steps())
	if g.Summary != f.Summary || g.Command != f.Command {
		t.Errorf("after a reload: %q, %q; want %q, %q", g.Summary, g.Command, f.Summary, f.Command)
	}
	browser.Screenshot(t, tab, "planner", "planner-agent-defensive")
	f, _ = after(t, tab, g.Seq, "no agent", choose("agent", ""))
	if f.Summary != plain.Summary || strings.Contains(f.Command, "--agent") {
		t.Errorf("no agent: %q, %q; want the file's %q", f.Summary, f.Command, plain.Summary)
	}
}

// oddKinds is an engine-model file whose agent kind's name and title hold
// quotes and markup, which figure 8 must show as text.
const oddKinds = `name: kinds
keys: {has_wood: bool, fire_lit: bool}
targets:
  wood: [0, -4]
  fireplace: [0, 2]
actions:
  - name: GatherWood
    effects: {has_wood: true}
    cost: 2
    target: wood
  - name: LightFire
    conditions: {has_wood: true}
    effects: {fire_lit: true}
    cost: 1
    target: fireplace
goals:
  - name: Warm
    conditions: {fire_lit: true}
agents:
  - name: '"><img/src=x/onerror=window.pwned=1>'
    title: '<b>bold</b> & "quoted" ''kind'''
    goals: [{goal: Warm, priority: 1}]
    costs: {GatherWood: 7}
`

// TestBrowserResolverKindNamedWithMarkup checks that figure 8's kind
// picker shows a kind named with quotes and markup as text: no element
// made of it, no script run, and the chain the API gives for it.
func TestBrowserResolverKindNamedWithMarkup(t *testing.T) {
	file := filepath.Join(t.TempDir(), "kinds.yaml")
	if err := os.WriteFile(file, []byte(oddKinds), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, viewer.Config{LoopbackOnly: true, Files: []string{file}})
	ts, tab := servePage(t, s, 30*time.Second)
	const name = `"><img/src=x/onerror=window.pwned=1>`
	f := newResolve(t, tab, 0, "opening the page", chromedp.Navigate(ts.URL+"/"))
	f = newResolve(t, tab, f.Seq, "the file", choose("resolver-domain", file))
	f = newResolve(t, tab, f.Seq, "the odd kind", choose("resolver-kind", name))
	request, _ := json.Marshal(map[string]string{"domain": file, "agent": name})
	var a resolveAnswerAs
	if code, body := postTo(t, ts.URL, "/api/v1/resolve", string(request)); code != 200 || json.Unmarshal(body, &a) != nil {
		t.Fatalf("the resolve API: %s: %d %s", request, code, body)
	}
	if f.Error != "" || !slices.Equal(f.Chain, a.Plan) || len(a.Plan) != 2 {
		t.Errorf("the odd kind: %q %q (error %q); the API: %q", f.Summary, f.Chain, f.Error, a.Plan)
	}
	type shown struct {
		Pwned   bool     `json:"pwned"`
		Markup  int      `json:"markup"` // img and b elements in the figure
		Options []string `json:"options"`
		Note    string   `json:"note"`
	}
	got := browser.Read[shown](t, tab, "figure 8's kind picker", `(() => {
		const f = document.getElementById('resolver-figure');
		return {
			pwned: window.pwned !== undefined,
			markup: f.querySelectorAll('img, b').length,
			options: [...document.getElementById('resolver-kind').options].map((o) => o.textContent),
			note: document.getElementById('resolver-kind-note').textContent,
		};
	})()`)
	if got.Pwned || got.Markup != 0 || !slices.Contains(got.Options, name) || !strings.Contains(got.Note, `<b>bold</b> & "quoted" 'kind'`) {
		t.Errorf("figure 8 shows the kind as %+v; want its name and title as text, no element made of them", got)
	}
	browser.Screenshot(t, tab, "resolver-figure", "resolver-kind-markup")
}
