package viewer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// resolverFigure is what figure 8 shows, read from the page.
type resolverFigure struct {
	Seq      int      `json:"seq"`
	Domain   string   `json:"domain"`
	Goal     string   `json:"goal"`
	Summary  string   `json:"summary"`
	Chain    []string `json:"chain"`
	Why      []string `json:"why"`
	Error    string   `json:"error"`
	Numbered []string `json:"numbered"` // the graph's chain nodes, "N · Action", in step order
	Rejected []string `json:"rejected"` // the graph's rejected nodes, "Action: reason"
	Edges    []string `json:"edges"`    // the graph's accented edges' conditions
	Goals    []string `json:"goals"`    // the goal node accented
	Panel    string   `json:"panel"`    // the side panel's text
}

const readResolver = `(() => {
	const f = document.getElementById('resolver-figure');
	const texts = (sel) => [...f.querySelectorAll(sel)].map((e) => e.textContent);
	const why = document.getElementById('resolver-why');
	const chainNodes = [...f.querySelectorAll('g.action-node.chain')].sort((a, b) => Number(a.dataset.step) - Number(b.dataset.step));
	return {
		seq: Number(f.dataset.seq),
		domain: document.getElementById('resolver-domain').value,
		goal: document.getElementById('resolver-goal').value,
		summary: document.getElementById('resolver-summary').textContent,
		chain: texts('#resolver-chain .action'),
		why: why.hidden ? [] : texts('#resolver-why-list li'),
		error: document.getElementById('resolver-error').textContent,
		numbered: chainNodes.map((g) => g.querySelector('text.name').textContent),
		rejected: [...f.querySelectorAll('g.action-node.rejected')].map((g) => g.dataset.action + ': ' + g.dataset.reason),
		edges: texts('g.edge.chain text'),
		goals: [...f.querySelectorAll('g.goal-node.goal')].map((g) => g.dataset.goal),
		panel: document.getElementById('resolver-node').textContent,
	};
})()`

// newResolve runs act and waits for figure 8 to show an answer newer
// than seq.
func newResolve(t *testing.T, tab context.Context, seq int, what string, act chromedp.Action[chromedp.Void]) resolverFigure {
	t.Helper()
	waitAnswer(t, tab, "resolver-figure", seq, what, act)
	return readFigure8(t, tab)
}

func readFigure8(t *testing.T, tab context.Context) resolverFigure {
	t.Helper()
	return browser.Read[resolverFigure](t, tab, "figure 8", readResolver)
}

// setInput types value into the input sel and fires its change, as a
// person editing the number does.
func setInput(sel, value string) chromedp.Action[chromedp.Void] {
	q, _ := json.Marshal(sel)
	v, _ := json.Marshal(value)
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const i = document.querySelector(%s);
		if (!i) throw new Error('no ' + %s);
		i.value = %s;
		i.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, q, q, v))
}

type resolveAnswer struct {
	Status string   `json:"status"`
	Plan   []string `json:"plan"`
	Cost   float64  `json:"cost"`
}

// wantChain checks that figure 8 shows the chain and cost of the resolve
// API's answer to request, numbered in the graph with its edges accented,
// and returns that answer.
func wantChain(t *testing.T, server string, f resolverFigure, name, request string) resolveAnswer {
	t.Helper()
	var a resolveAnswer
	if code, body := postTo(t, server, "/api/v1/resolve", request); code != 200 || json.Unmarshal(body, &a) != nil {
		t.Fatalf("%s: the resolve API: %d %s", name, code, body)
	}
	if f.Error != "" {
		t.Fatalf("%s: figure 8 shows an error: %s", name, f.Error)
	}
	if a.Status != "found" {
		if len(f.Chain) != 0 || !strings.HasPrefix(f.Summary, "no chain: "+strings.ReplaceAll(a.Status, "_", " ")) || len(f.Numbered) != 0 {
			t.Errorf("%s: figure 8 shows %q, %q; the API: %s", name, f.Summary, f.Chain, a.Status)
		}
		return a
	}
	var numbered []string
	for i, act := range a.Plan {
		numbered = append(numbered, fmt.Sprintf("%d · %s", i+1, act))
	}
	if !slices.Equal(f.Chain, a.Plan) || !strings.HasPrefix(f.Summary, fmt.Sprintf("depth %d · cost %g · ", len(a.Plan), a.Cost)) ||
		!slices.Equal(f.Numbered, numbered) || len(f.Edges) != len(a.Plan) || !slices.Equal(f.Goals, []string{f.Goal}) {
		t.Errorf("%s: figure 8 shows %q %q, numbered %q, %d chain edges, goal %q; the API resolves %q at cost %g", name, f.Summary, f.Chain, f.Numbered, len(f.Edges), f.Goals, a.Plan, a.Cost)
	}
	return a
}

// TestBrowserResolver drives figure 8 on the survivor and the
// shopkeeper: the chain shown is the resolve API's, the figures
// pinned in resolver/resolve_test.go; the actions weighed and not taken
// show the trace's reason; editing the snapshot changes the chain.
func TestBrowserResolver(t *testing.T) {
	started := startedEngineFile(t)
	wide := filepath.Join(t.TempDir(), "wide.yaml")
	var src strings.Builder
	src.WriteString("name: wide\nkeys: {done: bool}\nactions:\n")
	for i := range 400 {
		fmt.Fprintf(&src, "  - name: A%d\n    effects: {done: true}\n    cost: %d\n", i, 400-i)
	}
	src.WriteString("goals:\n  - name: Done\n    conditions: {done: true}\n")
	if err := os.WriteFile(wide, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, viewer.Config{LoopbackOnly: true, Files: []string{started, wide}})
	ts, tab := servePage(t, s, 30*time.Second)

	f := newResolve(t, tab, 0, "opening the page", chromedp.Navigate(ts.URL+"/"))
	if f.Domain != "survivor.yaml" || f.Goal != "Warm" {
		t.Fatalf("figure 8 opens on %s %s, want survivor.yaml Warm", f.Domain, f.Goal)
	}
	// The survivor: the nearer wood pile, cost 9 (north would cost 13).
	a := wantChain(t, ts.URL, f, "survivor Warm", `{"domain": "survivor.yaml", "goal": "Warm"}`)
	if !slices.Equal(a.Plan, []string{"GatherWoodSouth", "LightFire", "WarmUp"}) || a.Cost != 9 {
		t.Errorf("survivor Warm: the API resolves %q cost %g, want the south pile at cost 9", a.Plan, a.Cost)
	}
	slices.Sort(f.Edges)
	if !slices.Equal(f.Edges, []string{"fire_lit", "has_wood", "warmth >= 50"}) {
		t.Errorf("survivor Warm: chain edges %q, want has_wood, fire_lit and warmth >= 50", f.Edges)
	}
	if !slices.Equal(f.Rejected, []string{"GatherWoodNorth: chain cost 13 > 9"}) {
		t.Errorf("survivor Warm: rejected %q, want GatherWoodNorth's beaten chain at cost 13", f.Rejected)
	}
	// Clicking the rejected action shows the trace's record of it.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`g.action-node[data-action="GatherWoodNorth"]`))); err != nil {
		t.Fatal(err)
	}
	f = readFigure8(t, tab)
	if !strings.Contains(f.Panel, "before LightFire → WarmUp, serving has_wood: candidate · cost 13") {
		t.Errorf("GatherWoodNorth clicked: the panel says %q", f.Panel)
	}
	// The click scrolled the graph's box to the action: back to its start
	// for the picture, and the sizes logged.
	sizes := browser.Read[string](t, tab, "the graph's size", `(() => { const b = document.getElementById('resolver-graph'); b.scrollTo(0, 0); const r = b.querySelector('svg').getBoundingClientRect(); return r.width.toFixed(0) + '×' + r.height.toFixed(0) + ' in ' + b.clientWidth + '×' + b.clientHeight; })()`)
	t.Logf("the survivor's graph: %s", sizes)
	browser.Screenshot(t, tab, "resolver-figure", "resolver-survivor-warm")

	// The north pile moved 3 m away: it is now the nearer.
	f = newResolve(t, tab, f.Seq, "wood_north at 0,3", setInput(`#resolver-places .place[data-place="wood_north"] input[data-axis="1"]`, "3"))
	a = wantChain(t, ts.URL, f, "wood_north at 0,3", `{"domain": "survivor.yaml", "goal": "Warm", "targets": {"wood_north": [0, 3]}}`)
	if a.Plan[0] != "GatherWoodNorth" || len(f.Rejected) != 1 || f.Rejected[0] != fmt.Sprintf("GatherWoodSouth: chain cost 9 > %g", a.Cost) {
		t.Errorf("wood_north at 0,3: the API resolves %q; rejected %q", a.Plan, f.Rejected)
	}

	// Fed: foraging beats hunting; without Forage, hunt (Hunt → Eat,
	// cost 7), and Forage is not capable.
	f = newResolve(t, tab, f.Seq, "goal Fed", choose("resolver-goal", "Fed"))
	wantChain(t, ts.URL, f, "Fed", `{"domain": "survivor.yaml", "goal": "Fed", "targets": {"wood_north": [0, 3]}}`)
	f = newResolve(t, tab, f.Seq, "Forage not capable", chromedp.Click(chromedp.CSS(`#resolver-capabilities input[data-action="Forage"]`)))
	caps := `["GatherWoodNorth", "GatherWoodSouth", "LightFire", "WarmUp", "Hunt", "Eat"]`
	a = wantChain(t, ts.URL, f, "Fed without Forage", `{"domain": "survivor.yaml", "goal": "Fed", "targets": {"wood_north": [0, 3]}, "capabilities": `+caps+`}`)
	if !slices.Equal(a.Plan, []string{"Hunt", "Eat"}) || a.Cost != 7 || !slices.Contains(f.Rejected, "Forage: not capable") {
		t.Errorf("Fed without Forage: %q cost %g, rejected %q; want Hunt → Eat cost 7 and Forage not capable", a.Plan, a.Cost, f.Rejected)
	}
	// Hunt not capable either: no chain, and explain's reason.
	f = newResolve(t, tab, f.Seq, "Hunt not capable", chromedp.Click(chromedp.CSS(`#resolver-capabilities input[data-action="Hunt"]`)))
	wantChain(t, ts.URL, f, "Fed without food", `{"domain": "survivor.yaml", "goal": "Fed", "targets": {"wood_north": [0, 3]}, "capabilities": ["GatherWoodNorth", "GatherWoodSouth", "LightFire", "WarmUp", "Eat"]}`)
	if len(f.Why) == 0 || !strings.Contains(strings.Join(f.Why, " "), "has_food") {
		t.Errorf("Fed without food: why %q, want explain's reason naming has_food", f.Why)
	}
	// hunger already low: the goal holds.
	f = newResolve(t, tab, f.Seq, "hunger 10", setInput(`#resolver-keys input[data-key="hunger"]`, "10"))
	if len(f.Chain) != 0 || !strings.HasPrefix(f.Summary, "the goal holds already") {
		t.Errorf("hunger 10: %q %q, want the goal holding", f.Summary, f.Chain)
	}

	// The shopkeeper: the ladder for a high shelf, cost 18; reachable, 10.
	f = newResolve(t, tab, f.Seq, "the shopkeeper", choose("resolver-domain", "shopkeeper.yaml"))
	a = wantChain(t, ts.URL, f, "shopkeeper", `{"domain": "shopkeeper.yaml", "goal": "ServeCustomer"}`)
	if !slices.Equal(a.Plan, []string{"FetchLadder", "PlaceLadder", "TakeItem", "HandOver"}) || a.Cost != 18 || len(f.Rejected) != 0 {
		t.Errorf("shopkeeper: %q cost %g, rejected %q; want the ladder at cost 18, nothing rejected", a.Plan, a.Cost, f.Rejected)
	}
	browser.Screenshot(t, tab, "resolver-figure", "resolver-shopkeeper")
	f = newResolve(t, tab, f.Seq, "can_reach_item on", chromedp.Click(chromedp.CSS(`#resolver-keys input[data-key="can_reach_item"]`)))
	a = wantChain(t, ts.URL, f, "can_reach_item on", `{"domain": "shopkeeper.yaml", "goal": "ServeCustomer", "set": ["can_reach_item"]}`)
	if !slices.Equal(a.Plan, []string{"TakeItem", "HandOver"}) || a.Cost != 10 {
		t.Errorf("can_reach_item on: %q cost %g, want TakeItem → HandOver cost 10", a.Plan, a.Cost)
	}
	// The ladder's actions are no longer weighed.
	if len(f.Rejected) != 0 {
		t.Errorf("can_reach_item on: rejected %q", f.Rejected)
	}
	// The time from a toggle's click to the frame drawing its answer, as
	// the page measures it: printed, never asserted.
	var ms []float64
	for i := range 10 {
		f = newResolve(t, tab, f.Seq, fmt.Sprintf("timing click %d", i), chromedp.Click(chromedp.CSS(`#resolver-keys input[data-key="has_ladder"]`)))
		took, err := chromedp.Run(tab, chromedp.Poll[float64](`Number(document.getElementById('resolver-figure').dataset.ms || 0)`, chromedp.WithPollingTimeout(2*time.Second)))
		if err == nil {
			ms = append(ms, took)
		}
		chromedp.Run(tab, chromedp.Evaluate[chromedp.Void](`delete document.getElementById('resolver-figure').dataset.ms`))
	}
	t.Logf("figure 8, toggle to the traced resolve drawn, ms over %d clicks: %s", len(ms), spread(ms))

	// A position left empty is refused on the page, not sent as 0.
	f = newResolve(t, tab, f.Seq, "the ladder's x emptied", setInput(`#resolver-places .place[data-place="ladder"] input[data-axis="0"]`, ""))
	if f.Error != "ladder needs two numbers for its position" || len(f.Chain) != 0 {
		t.Errorf("an empty coordinate: error %q, chain %q", f.Error, f.Chain)
	}

	// Reset: the file's snapshot again.
	f = newResolve(t, tab, f.Seq, "reset", chromedp.Click(chromedp.ID("resolver-reset")))
	if a = wantChain(t, ts.URL, f, "reset", `{"domain": "shopkeeper.yaml", "goal": "ServeCustomer"}`); a.Cost != 18 {
		t.Errorf("reset: cost %g, want 18", a.Cost)
	}

	// A keys: file named at start is offered too, its snapshot editable.
	f = newResolve(t, tab, f.Seq, "the file named at start", choose("resolver-domain", started))
	wantChain(t, ts.URL, f, "the file named at start", `{"domain": "`+started+`", "goal": "Lit"}`)
	if !slices.Equal(f.Chain, []string{"Strike"}) {
		t.Errorf("the file named at start: chain %q, want Strike", f.Chain)
	}
	// A graph too large to lay out: the chain still shows, the graph
	// says why it is not drawn.
	f = newResolve(t, tab, f.Seq, "a wide file", choose("resolver-domain", wide))
	var wideAnswer resolveAnswer
	if code, body := postTo(t, ts.URL, "/api/v1/resolve", `{"domain": "`+wide+`", "goal": "Done"}`); code != 200 || json.Unmarshal(body, &wideAnswer) != nil {
		t.Fatalf("a wide file: the resolve API: %d %s", code, body)
	}
	if !slices.Equal(f.Chain, wideAnswer.Plan) || !strings.HasPrefix(f.Summary, fmt.Sprintf("depth 1 · cost %g · ", wideAnswer.Cost)) || !slices.Equal(f.Chain, []string{"A399"}) {
		t.Errorf("a wide file: figure 8 shows %q %q; the API resolves %q at cost %g", f.Summary, f.Chain, wideAnswer.Plan, wideAnswer.Cost)
	}
	if graph, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById('resolver-graph').textContent`)); !strings.Contains(graph, "401 actions and goals, 400 edges: too many to draw") {
		t.Errorf("a wide file: the graph box says %q", graph)
	}
	f = newResolve(t, tab, f.Seq, "back to the lamp", choose("resolver-domain", started))
	f = newResolve(t, tab, f.Seq, "matches 0", setInput(`#resolver-keys input[data-key="matches"]`, "0"))
	wantChain(t, ts.URL, f, "no matches", `{"domain": "`+started+`", "goal": "Lit", "set": ["matches=0"]}`)
	if len(f.Chain) != 0 || len(f.Why) == 0 {
		t.Errorf("no matches: chain %q, why %q; want no chain and a reason", f.Chain, f.Why)
	}
}

// startedEngineFile writes a small keys: file of the test's own.
func startedEngineFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lamp.yaml")
	src := `name: lamp
keys: {lit: bool, matches: int}
initial: {matches: 2}
actions:
  - name: Strike
    conditions: {matches: "> 0"}
    effects: {lit: true, matches: decrease}
    cost: 1
goals:
  - name: Lit
    conditions: {lit: true}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
