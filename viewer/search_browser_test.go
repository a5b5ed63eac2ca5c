package viewer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// apiTrace is the part of the trace API's answer (`ploy trace --format
// json`) that figure 2 plays.
type apiTrace struct {
	Status string
	Cost   float64
	Nodes  []struct {
		ID      int
		Facts   []string
		G, H, F float64
		Parent  int
		Action  *string
	}
	Expansions []struct {
		Node    int
		Actions []struct {
			Action  string
			Outcome string
			Node    *int
		}
	}
	Path []int
}

func traceOf(t *testing.T, server, request string) apiTrace {
	t.Helper()
	code, body := postTo(t, server, "/api/v1/trace", request)
	var a apiTrace
	if err := json.Unmarshal(body, &a); code != 200 || err != nil {
		t.Fatalf("trace %s: %d %s", request, code, body)
	}
	return a
}

// searchFigure is what figure 2 shows, read from the page.
type searchFigure struct {
	Seq      int      `json:"seq"`
	Sent     int      `json:"sent"`
	Step     int      `json:"step"`
	Steps    int      `json:"steps"`
	Playing  bool     `json:"playing"`
	Visible  []int    `json:"visible"` // the nodes drawn, by id
	Path     []int    `json:"path"`    // the nodes drawn as the plan path
	Closed   []int    `json:"closed"`  // the nodes drawn as expanded
	Taken    []int    `json:"taken"`   // the node drawn as taken now
	PathActs []string `json:"pathActs"`
	Counter  string   `json:"counter"`
	Took     string   `json:"took"`
	Actions  []string `json:"actions"` // "Action: outcome" per row
	End      string   `json:"end"`
	Node     string   `json:"node"` // the side panel
	Error    string   `json:"error"`
	// The fills of a path node and of a discarded one, as drawn.
	PathFill   string `json:"pathFill"`
	ClosedFill string `json:"closedFill"`
	StepOff    bool   `json:"stepOff"`
	// Each drawn node's second line (what differs from the root), by id.
	Changes map[string]string `json:"changes"`
	// The graph's drawn size over its layout's: 1 when not shrunk.
	Scale float64 `json:"scale"`
	// The legend's first swatch, width and height in pixels.
	Swatch []float64 `json:"swatch"`
	// The boxes of the drawn edge labels and nodes, in the page's pixels,
	// and whether any line is drawn after a label (over it).
	LabelBoxes   []box `json:"labelBoxes"`
	NodeBoxes    []box `json:"nodeBoxes"`
	LineOverText bool  `json:"lineOverText"`
}

// box is an element's rectangle on the page, and what it is.
type box struct {
	X, Y, W, H float64
	What       string
}

func (a box) overlaps(b box) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

const readSearch = `(() => {
	const f = document.getElementById('search-figure');
	const ids = (sel) => [...f.querySelectorAll(sel)].map((g) => Number(g.dataset.node)).sort((a, b) => a - b);
	const fill = (sel) => { const r = f.querySelector(sel); return r ? getComputedStyle(r).fill : ''; };
	return {
		seq: Number(f.dataset.seq), sent: Number(f.dataset.sent || 0),
		step: Number(f.dataset.step || 0), steps: Number(f.dataset.steps || 0),
		playing: f.dataset.playing === 'true',
		visible: ids('g.node:not(.unseen)'),
		path: ids('g.node.path:not(.unseen)'),
		closed: ids('g.node.closed:not(.unseen)'),
		taken: ids('g.node.taken'),
		pathActs: [...f.querySelectorAll('g.edge.path:not(.unseen) text')].map((e) => e.textContent),
		counter: document.getElementById('search-step').textContent,
		took: document.getElementById('search-took').textContent,
		actions: [...f.querySelectorAll('#search-actions tr')].map((r) => r.cells[0].textContent + ': ' + r.cells[1].textContent),
		end: document.getElementById('search-end').textContent,
		node: document.getElementById('search-node').textContent,
		error: document.getElementById('search-error').textContent,
		pathFill: fill('g.node.path:not(.goal):not(.unseen) rect'),
		closedFill: fill('g.node.closed:not(.path):not(.unseen) rect'),
		stepOff: document.getElementById('search-stepper').disabled,
		changes: Object.fromEntries([...f.querySelectorAll('g.node:not(.unseen)')].map((g) => [g.dataset.node, [...g.querySelectorAll('text.changes')].map((e) => e.textContent).join(' ')])),
		scale: (() => { const s = f.querySelector('#search-graph svg'); return s ? s.getBoundingClientRect().width / s.viewBox.baseVal.width : 0; })(),
		swatch: (() => { const s = getComputedStyle(f.querySelector('.legend .key'), '::before'); return [parseFloat(s.width), parseFloat(s.height)]; })(),
		labelBoxes: [...f.querySelectorAll('g.edge-label:not(.unseen) rect')].map((r) => { const b = r.getBoundingClientRect(); return { X: b.x, Y: b.y, W: b.width, H: b.height, What: r.parentNode.textContent }; }),
		nodeBoxes: [...f.querySelectorAll('g.node:not(.unseen) rect')].map((r) => { const b = r.getBoundingClientRect(); return { X: b.x, Y: b.y, W: b.width, H: b.height, What: '#' + r.parentNode.dataset.node }; }),
		lineOverText: (() => {
			const all = [...f.querySelectorAll('#search-graph polyline, #search-graph g.edge text')];
			const firstText = all.findIndex((e) => e.tagName === 'text');
			return firstText >= 0 && all.slice(firstText).some((e) => e.tagName === 'polyline');
		})(),
	};
})()`

func searchShown(t *testing.T, tab context.Context) searchFigure {
	t.Helper()
	return browser.Read[searchFigure](t, tab, "figure 2", readSearch)
}

// newTrace runs act and waits for figure 2 to show a trace newer than seq.
func newTrace(t *testing.T, tab context.Context, seq int, what string, act chromedp.Action[chromedp.Void]) searchFigure {
	t.Helper()
	waitAnswer(t, tab, "search-figure", seq, what, act)
	return searchShown(t, tab)
}

// wantAfter is what figure 2 must show after k expansions of a trace:
// the nodes generated so far, the start included, and those expanded.
func wantAfter(a apiTrace, k int) (visible, closed []int) {
	visible = []int{0}
	for _, x := range a.Expansions[:k] {
		closed = append(closed, x.Node)
		for _, act := range x.Actions {
			if act.Outcome == "generated" && act.Node != nil {
				visible = append(visible, *act.Node)
			}
		}
	}
	slices.Sort(visible)
	slices.Sort(closed)
	return visible, slices.Compact(closed)
}

// stepThrough clicks step once per expansion of a (or the first steps
// of them, then end), checking after each
// click that exactly one more expansion shows, with what the trace says
// of it, and returns the figure at the end.
func stepThrough(t *testing.T, tab context.Context, a apiTrace, name string, steps int) searchFigure {
	t.Helper()
	f := searchShown(t, tab)
	if f.Step != 0 || f.Steps != len(a.Expansions) {
		t.Fatalf("%s: figure 2 at expansion %d of %d, want 0 of the trace's %d", name, f.Step, f.Steps, len(a.Expansions))
	}
	for k := 1; k <= steps; k++ {
		// A mouse click at the button's centre, as a person's (looked up
		// each time: figure 1 above may still be growing).
		at := centre(t, tab, "#search-stepper")
		if err := chromedp.Do(tab, chromedp.MouseClickXY(at[0], at[1])); err != nil {
			t.Fatalf("%s: step %d: %v", name, k, err)
		}
		f = searchShown(t, tab)
		x := a.Expansions[k-1]
		n := a.Nodes[x.Node]
		visible, closed := wantAfter(a, k)
		if f.Step != k || !slices.Equal(f.Visible, visible) || !slices.Equal(f.Closed, closed) || !slices.Equal(f.Taken, []int{x.Node}) {
			t.Fatalf("%s: click %d shows expansion %d, nodes %v, expanded %v, taken %v; want expansion %d, nodes %v, expanded %v, taken [%d]",
				name, k, f.Step, f.Visible, f.Closed, f.Taken, k, visible, closed, x.Node)
		}
		wantTook := fmt.Sprintf("Took #%d (", x.Node)
		wantGHF := fmt.Sprintf("g %g · h %g · f %g.", n.G, n.H, n.F)
		if !strings.HasPrefix(f.Took, wantTook) || !strings.HasSuffix(f.Took, wantGHF) {
			t.Errorf("%s: expansion %d: %q, want %q... %q", name, k, f.Took, wantTook, wantGHF)
		}
		var rows []string
		for _, act := range x.Actions {
			if act.Outcome == "generated" {
				rows = append(rows, fmt.Sprintf("%s: → #%d", act.Action, *act.Node))
			} else {
				rows = append(rows, act.Action+": "+act.Outcome)
			}
		}
		if !slices.Equal(f.Actions, rows) {
			t.Errorf("%s: expansion %d: actions %q, want the trace's %q", name, k, f.Actions, rows)
		}
	}
	if steps < len(a.Expansions) {
		if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("search-end-button"))); err != nil {
			t.Fatalf("%s: end: %v", name, err)
		}
		f = searchShown(t, tab)
		visible, closed := wantAfter(a, len(a.Expansions))
		if f.Step != len(a.Expansions) || !slices.Equal(f.Visible, visible) || !slices.Equal(f.Closed, closed) {
			t.Fatalf("%s: end shows expansion %d, nodes %v, expanded %v; want %d, %v, %v", name, f.Step, f.Visible, f.Closed, len(a.Expansions), visible, closed)
		}
	}
	return f
}

// TestBrowserSearch drives figure 2, the search, on figure 1's problem:
// one expansion per click, the node count of `ploy trace` (the trace
// API's answer, the command's bytes), the plan path coloured.
func TestBrowserSearch(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 60*time.Second)

	f := newTrace(t, tab, 0, "opening the page", chromedp.Navigate(ts.URL+"/"))
	if f.Error != "" {
		t.Fatalf("figure 2 shows an error: %s", f.Error)
	}
	kill := traceOf(t, ts.URL, `{"goal": "Kill"}`)
	if !slices.Equal(f.Visible, []int{0}) || f.Step != 0 || !strings.Contains(f.Took, "the start, #0") {
		t.Errorf("before the first step: nodes %v, expansion %d, %q; want the start alone", f.Visible, f.Step, f.Took)
	}

	// Hovering a state shows its facts.
	at := centre(t, tab, `#search-graph g.node[data-node="0"]`)
	if err := chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0], at[1])); err != nil {
		t.Fatalf("hovering the start: %v", err)
	}
	f = searchShown(t, tab)
	want := "#0 · the start · depth 0" + fmt.Sprintf("g %g · h %g · f %g", kill.Nodes[0].G, kill.Nodes[0].H, kill.Nodes[0].F) + "facts true:" + strings.Join(kill.Nodes[0].Facts, "")
	if f.Node != want {
		t.Errorf("hovering the start: %q, want %q", f.Node, want)
	}

	// Step through every expansion: one per click.
	f = stepThrough(t, tab, kill, "Kill", len(kill.Expansions))
	if len(f.Visible) != len(kill.Nodes) || !f.StepOff {
		t.Errorf("Kill, at the end: %d nodes drawn, step button enabled %v; want ploy trace's %d nodes, step disabled", len(f.Visible), !f.StepOff, len(kill.Nodes))
	}
	path := slices.Sorted(slices.Values(kill.Path))
	mage := []string{"Approach", "TakeCover", "Recharge", "CastBolt"}
	if !slices.Equal(f.Path, path) || !slices.Equal(f.PathActs, mage) {
		t.Errorf("Kill's path drawn: nodes %v, actions %q; want %v, %q", f.Path, f.PathActs, path, mage)
	}
	if f.PathFill == f.ClosedFill || f.PathFill == "" || f.ClosedFill != "rgb(216, 222, 228)" {
		t.Errorf("fills: path %q, discarded %q; want the path coloured and the discarded grey", f.PathFill, f.ClosedFill)
	}
	if !strings.Contains(f.End, "cost 7") {
		t.Errorf("at the end: %q, want cost 7", f.End)
	}
	// Clicking a state keeps its facts on show.
	goal := kill.Path[len(kill.Path)-1]
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#search-graph g.node[data-node="%d"]`, goal)))); err != nil {
		t.Fatal(err)
	}
	f = searchShown(t, tab)
	if want := fmt.Sprintf("#%d · CastBolt from #%d", goal, kill.Path[len(kill.Path)-2]); !strings.HasPrefix(f.Node, want) || !strings.Contains(f.Node, "enemy_dead") {
		t.Errorf("clicking the goal's state: %q, want %q... with enemy_dead", f.Node, want)
	}
	checkDrawing(t, "Kill", f, kill)
	browser.Screenshot(t, tab, "search-figure", "search-kill")

	// Reset, then play, then pause: the search stops where it is.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("search-reset"))); err != nil {
		t.Fatal(err)
	}
	if f = searchShown(t, tab); f.Step != 0 || len(f.Visible) != 1 {
		t.Errorf("reset: expansion %d, %d nodes; want 0 and the start", f.Step, len(f.Visible))
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("search-play"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`Number(document.getElementById('search-figure').dataset.step) >= 1`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("play: the search does not advance: %v", err)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("search-pause"))); err != nil {
		t.Fatal(err)
	}
	paused := searchShown(t, tab)
	if err := chromedp.Do(tab, chromedp.Sleep(700*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if f = searchShown(t, tab); f.Playing || f.Step != paused.Step {
		t.Errorf("pause: playing %v, expansion %d 0.7 s after pausing at %d (the page plays one every 0.45 s)", f.Playing, f.Step, paused.Step)
	}
	browser.Screenshot(t, tab, "search-figure", "search-kill-paused")

	// Figure 1's toggle re-traces: spare crystals off, GetCrystals first,
	// about twice the expansions.
	f = newTrace(t, tab, f.Seq, "spare_crystals off", toggle("spare_crystals"))
	crystals := traceOf(t, ts.URL, `{"goal": "Kill", "unset": ["spare_crystals"]}`)
	f = stepThrough(t, tab, crystals, "Kill, spare_crystals off", len(crystals.Expansions))
	if want := append([]string{"GetCrystals"}, mage...); len(f.Visible) != len(crystals.Nodes) || !slices.Equal(f.PathActs, want) {
		t.Errorf("spare_crystals off: %d nodes, path %q; want the trace's %d, %q", len(f.Visible), f.PathActs, len(crystals.Nodes), want)
	}
	checkDrawing(t, "spare_crystals off", f, crystals)
	browser.Screenshot(t, tab, "search-figure", "search-crystals-off")

	// No plan: the search runs dry and says so.
	f = newTrace(t, tab, f.Seq, "GetHealthy", choose("goal", "GetHealthy"))
	f = newTrace(t, tab, f.Seq, "healthy off", toggle("healthy"))
	f = newTrace(t, tab, f.Seq, "potion_at_shrine off", toggle("potion_at_shrine"))
	none := traceOf(t, ts.URL, `{"goal": "GetHealthy", "unset": ["spare_crystals", "potion_at_shrine", "healthy"]}`)
	f = stepThrough(t, tab, none, "GetHealthy, no potion", 3)
	if none.Status != "no_plan" || len(f.Path) != 0 || len(f.Visible) != len(none.Nodes) || !strings.Contains(f.End, "no plan") {
		t.Errorf("no potion: status %s, path drawn %v, %d nodes, %q; want no_plan, no path, the trace's %d nodes, no plan", none.Status, f.Path, len(f.Visible), f.End, len(none.Nodes))
	}

	// Backward: the nodes are the facts still needed.
	f = newTrace(t, tab, f.Seq, "reset", chromedp.Click(chromedp.ID("reset")))
	f = newTrace(t, tab, f.Seq, "Kill", choose("goal", "Kill"))
	f = newTrace(t, tab, f.Seq, "backward", choose("search", "backward"))
	backward := traceOf(t, ts.URL, `{"goal": "Kill", "search": "backward"}`)
	f = stepThrough(t, tab, backward, "Kill, backward", 2)
	if path := slices.Sorted(slices.Values(backward.Path)); len(f.Visible) != len(backward.Nodes) || !slices.Equal(f.Path, path) || !strings.Contains(f.End, "cost 7") {
		t.Errorf("backward: %d nodes, path %v, %q; want the trace's %d, %v, cost 7", len(f.Visible), f.Path, f.End, len(backward.Nodes), path)
	}
	at = centre(t, tab, `#search-graph g.node[data-node="0"]`)
	if err := chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0], at[1])); err != nil {
		t.Fatal(err)
	}
	if f = searchShown(t, tab); !strings.HasPrefix(f.Node, "#0 · the goal") || !strings.Contains(f.Node, "needs:enemy_dead") {
		t.Errorf("backward, the goal's node: %q, want it to need enemy_dead", f.Node)
	}
	checkDrawing(t, "backward", f, backward)

	// hmax finds GetHealthy out of reach without the potion: the backward
	// search stops before its first expansion, and the page says so.
	f = newTrace(t, tab, f.Seq, "GetHealthy", choose("goal", "GetHealthy"))
	f = newTrace(t, tab, f.Seq, "healthy off", toggle("healthy"))
	f = newTrace(t, tab, f.Seq, "potion_at_shrine off", toggle("potion_at_shrine"))
	f = newTrace(t, tab, f.Seq, "hmax", choose("heuristic", "hmax"))
	dry := traceOf(t, ts.URL, `{"goal": "GetHealthy", "search": "backward", "heuristic": "hmax", "unset": ["potion_at_shrine", "healthy"]}`)
	if len(dry.Expansions) != 0 || dry.Status != "no_plan" {
		t.Fatalf("hmax, no potion: the trace API expands %d and says %s; want none and no_plan", len(dry.Expansions), dry.Status)
	}
	if f.Counter != "expansion 0 of 0 · 1 of 1 states · open list 1" || !strings.Contains(f.Took, "h ∞") ||
		!strings.Contains(f.Took, "out of reach") || !strings.Contains(f.End, "no plan") || f.Error != "" {
		t.Errorf("hmax, no potion: %q, %q, %q, error %q; want no expansion, h ∞, out of reach, no plan", f.Counter, f.Took, f.End, f.Error)
	}
	browser.Screenshot(t, tab, "search-figure", "search-hmax-no-plan")
}

// checkDrawing checks figure 2's drawing of a trace at its end: each node
// shows what differs from the root, as the trace's facts say; the
// legend's swatches are node-like, not square checkboxes; no edge label
// crosses another or a node, and none lies under a line.
func checkDrawing(t *testing.T, name string, f searchFigure, a apiTrace) {
	t.Helper()
	root := map[string]bool{}
	for _, x := range a.Nodes[0].Facts {
		root[x] = true
	}
	for _, n := range a.Nodes {
		var diff []string
		mine := map[string]bool{}
		for _, x := range n.Facts {
			mine[x] = true
			if !root[x] {
				diff = append(diff, "+"+x)
			}
		}
		for _, x := range a.Nodes[0].Facts {
			if !mine[x] {
				diff = append(diff, "−"+x)
			}
		}
		want := strings.Join(diff, " ")
		switch {
		case n.ID == 0 && a.Nodes[0].Facts == nil:
			want = "the goal"
		case n.ID == 0:
			want = "the start"
		case len(diff) == 0:
			want = "same facts"
		case len(diff) > 2:
			want = strings.Join(diff[:2], " ") + fmt.Sprintf(" +%d", len(diff)-2)
		}
		if a.Nodes[0].Facts == nil && n.ID != 0 {
			continue // backward: the needs are a map; the root's panel is checked above
		}
		if got := f.Changes[fmt.Sprint(n.ID)]; got != want {
			t.Errorf("%s: node #%d shows %q, want %q (its facts %q)", name, n.ID, got, want, n.Facts)
		}
	}
	if len(f.Swatch) != 2 || f.Swatch[0] < 1.5*f.Swatch[1] {
		t.Errorf("%s: the legend's swatch is %v px (width, height): square, like a checkbox", name, f.Swatch)
	}
	if f.Scale < 0.99 {
		t.Errorf("%s: the graph is drawn at %.2f of its size: its facts illegible", name, f.Scale)
	}
	if f.LineOverText {
		t.Errorf("%s: a line is drawn after an edge's label, over it", name)
	}
	for i, l := range f.LabelBoxes {
		for _, m := range f.LabelBoxes[i+1:] {
			if l.overlaps(m) {
				t.Errorf("%s: the labels %q %+v and %q %+v collide", name, l.What, l, m.What, m)
			}
		}
		for _, n := range f.NodeBoxes {
			if l.overlaps(n) {
				t.Errorf("%s: the label %q %+v covers node %s %+v", name, l.What, l, n.What, n)
			}
		}
	}
	if len(f.LabelBoxes) != len(f.NodeBoxes)-1 {
		t.Errorf("%s: %d edge labels for %d nodes, want one per node but the root", name, len(f.LabelBoxes), len(f.NodeBoxes))
	}
}

// centre scrolls the element sel into view and returns its centre, in
// the viewport's pixels.
func centre(t *testing.T, tab context.Context, sel string) []float64 {
	t.Helper()
	q, _ := json.Marshal(sel)
	at, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
		const e = document.querySelector(%s);
		e.scrollIntoView({block: 'center'});
		const r = e.getBoundingClientRect();
		return [r.x + r.width / 2, r.y + r.height / 2];
	})()`, q)))
	if err != nil || len(at) != 2 {
		t.Fatalf("finding %s: %v", sel, err)
	}
	return at
}
