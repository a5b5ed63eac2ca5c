package viewer_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// htnFigure is what figure 3 shows, read from the page.
type htnFigure struct {
	Seq        int      `json:"seq"`
	Row        int      `json:"row"`
	Rows       int      `json:"rows"`
	Steps      int      `json:"steps"`
	Backtracks int      `json:"backtracks"`
	Shown      int      `json:"shown"`  // rows listed
	Undone     int      `json:"undone"` // rows struck out by a backtrack
	Plan       []string `json:"plan"`
	Tasks      []string `json:"tasks"` // the task list shown
	Facts      []string `json:"facts"` // the predicted facts shown
	Count      string   `json:"count"`
	Result     string   `json:"result"`
	Error      string   `json:"error"`
	// Each row's number (a backtrack's ↶N), the backtracks struck out,
	// the MTR's explanation when shown, and the decomposition drawn as a
	// tree: its nodes in the order drawn, first to last.
	Numbers        []string   `json:"numbers"`
	UndoneBacktrks int        `json:"undoneBacktracks"`
	MTRHelp        string     `json:"mtrHelp"`
	Tree           []treeNode `json:"tree"`
}

// treeNode is a node of figure 3's tree: a task, the task it is a subtask
// of, and for a compound task the number of the method chosen.
type treeNode struct {
	Task      string  `json:"task"`
	Parent    string  `json:"parent"`
	Method    string  `json:"method"`
	Primitive bool    `json:"primitive"`
	Label     string  `json:"label"`
	X         float64 `json:"x"` // its left edge on the page
}

const readHTN = `(() => {
	const f = document.getElementById('htn-figure');
	const d = f.dataset;
	return {
		seq: Number(d.seq), row: Number(d.row || 0), rows: Number(d.rows || 0),
		steps: Number(d.steps || 0), backtracks: Number(d.backtracks || 0),
		shown: f.querySelectorAll('#htn-rows li').length,
		undone: f.querySelectorAll('#htn-rows li.undone').length,
		plan: [...f.querySelectorAll('#htn-plan li')].map((e) => e.textContent),
		tasks: [...f.querySelectorAll('#htn-tasks li:not(.empty)')].map((e) => e.textContent),
		facts: [...f.querySelectorAll('#htn-facts li:not(.empty)')].map((e) => e.textContent),
		count: document.getElementById('htn-count').textContent,
		result: document.getElementById('htn-result').textContent,
		error: document.getElementById('htn-error').textContent,
		numbers: [...f.querySelectorAll('#htn-rows .htn-step')].map((e) => e.textContent),
		undoneBacktracks: f.querySelectorAll('#htn-rows li.backtrack.undone').length,
		mtrHelp: document.getElementById('htn-mtr').hidden ? '' : document.getElementById('htn-mtr').textContent.replace(/\s+/g, ' '),
		tree: [...f.querySelectorAll('#htn-tree g.node')].map((g) => ({
			task: g.dataset.task, parent: g.dataset.parent, method: g.dataset.method,
			primitive: g.classList.contains('primitive'), label: g.querySelector('text').textContent,
			x: g.getBoundingClientRect().x,
		})),
	};
})()`

func htnShown(t *testing.T, tab context.Context) htnFigure {
	t.Helper()
	return browser.Read[htnFigure](t, tab, "figure 3", readHTN)
}

// newHTN runs act and waits for figure 3 to show an answer newer than seq
// (and figure 1 its own: the page is done moving).
func newHTN(t *testing.T, tab context.Context, seq int, what string, act chromedp.Action[chromedp.Void]) htnFigure {
	t.Helper()
	waitAnswer(t, tab, "htn-figure", seq, what, act)
	return htnShown(t, tab)
}

// stepHTN clicks step once per row of the trace (its first clicks rows),
// checking each click
// shows one more row and the step it reached.
func stepHTN(t *testing.T, tab context.Context, a decompositionAnswer, name string, clicks int) htnFigure {
	t.Helper()
	f := htnShown(t, tab)
	if f.Row != 0 || f.Rows != len(a.Trace) || f.Shown != 0 {
		t.Fatalf("%s: figure 3 at row %d of %d with %d listed, want 0 of the trace's %d", name, f.Row, f.Rows, f.Shown, len(a.Trace))
	}
	step, backtracks := 0, 0
	for k := 1; k <= clicks; k++ {
		at := centre(t, tab, "#htn-stepper")
		if err := chromedp.Do(tab, chromedp.MouseClickXY(at[0], at[1])); err != nil {
			t.Fatalf("%s: step %d: %v", name, k, err)
		}
		if r := a.Trace[k-1]; r.Kind == "backtrack" {
			backtracks++
		} else {
			step = r.Step
		}
		f = htnShown(t, tab)
		if f.Row != k || f.Shown != k || f.Steps != step || f.Backtracks != backtracks {
			t.Fatalf("%s: click %d shows row %d (%d listed), step %d, %d backtracks; want row %d, step %d, %d backtracks", name, k, f.Row, f.Shown, f.Steps, f.Backtracks, k, step, backtracks)
		}
	}
	return f
}

// checkTree checks figure 3's tree at the end of a decomposition: its
// leaves, left to right on the page, are the plan; its compound tasks, top-down, chose
// the methods the MTR lists; each node but the root hangs from a compound
// task drawn before it.
func checkTree(t *testing.T, name string, tree []treeNode, plan, mtr []string) {
	t.Helper()
	var leaves, methods []string
	seen := map[string]bool{}
	var leafNodes []treeNode
	for i, n := range tree {
		if n.Primitive {
			leafNodes = append(leafNodes, n)
		} else {
			methods = append(methods, n.Method)
		}
		if (i == 0) != (n.Parent == "") || (i > 0 && !seen[n.Parent]) {
			t.Errorf("%s: the tree's node %d, %s, hangs from %q", name, i, n.Task, n.Parent)
		}
		if !n.Primitive {
			seen[n.Task] = true
		}
	}
	slices.SortStableFunc(leafNodes, func(a, b treeNode) int { return cmp.Compare(a.X, b.X) })
	for _, n := range leafNodes {
		leaves = append(leaves, n.Task)
	}
	if !slices.Equal(leaves, plan) || !slices.Equal(methods, mtr) {
		t.Errorf("%s: the tree's leaves %q, its methods %q; want the plan %q, the MTR %q (the tree: %+v)", name, leaves, methods, plan, mtr, tree)
	}
}

// TestBrowserHTN drives figure 3: the HTN lesson's decomposition of the
// battle mage, 13 steps, and with spare_crystals off 21 steps and 2
// backtracks, against the trace API's answers.
func TestBrowserHTN(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 40*time.Second)

	f := newHTN(t, tab, 0, "opening the page", chromedp.Navigate(ts.URL+"/"))
	mage := []string{"Approach", "TakeCover", "Recharge", "CastBolt"}
	var a decompositionAnswer // the trace API's rows, without the tasks and facts
	if code, body := postTo(t, ts.URL, "/api/v1/trace", `{"htn": true}`); code != 200 || json.Unmarshal(body, &a) != nil {
		t.Fatalf("the trace API: %d %s", code, body)
	}
	f = stepHTN(t, tab, a, "default", len(a.Trace))
	checkTree(t, "default", f.Tree, mage, []string{"2", "2", "2"})
	if f.Steps != 13 || f.Backtracks != 0 || f.Undone != 0 || !slices.Equal(f.Plan, mage) || !strings.Contains(f.Result, "MTR 2, 2, 2") {
		t.Errorf("default: step %d, %d backtracks, %d rows undone, plan %q, %q; want 13, 0, 0, %q, MTR 2, 2, 2", f.Steps, f.Backtracks, f.Undone, f.Plan, f.Result, mage)
	}

	// Spare crystals off: into Recharge in cover, backed out of twice.
	f = newHTN(t, tab, f.Seq, "spare_crystals off", toggle("spare_crystals"))
	if code, body := postTo(t, ts.URL, "/api/v1/trace", `{"htn": true, "unset": ["spare_crystals"]}`); code != 200 || json.Unmarshal(body, &a) != nil {
		t.Fatalf("the trace API: %d %s", code, body)
	}
	// Up to the second backtrack: the plan so far is empty again, the
	// rows since Recharge in cover struck out.
	second := 0
	for i, r := range a.Trace {
		if r.Kind == "backtrack" {
			second = i + 1
		}
	}
	f = stepHTN(t, tab, a, "spare_crystals off, to the second backtrack", second)
	if f.Backtracks != 2 || len(f.Plan) != 0 || f.Undone == 0 || len(f.Tasks) != 0 || !slices.Equal(f.Facts, []string{"potion_at_shrine", "healthy"}) {
		t.Errorf("after the second backtrack: %d backtracks, plan so far %q, %d rows undone, tasks %q, facts %q; want 2, none, some, none, the start's", f.Backtracks, f.Plan, f.Undone, f.Tasks, f.Facts)
	}
	// The first backtrack is not struck out by the second: it happened.
	if f.UndoneBacktrks != 0 {
		t.Errorf("after the second backtrack: %d backtrack rows struck out, want none", f.UndoneBacktrks)
	}
	// Recharge in cover undone: the tree is the root's Fight, Fight's
	// method not chosen yet.
	for i := range f.Tree {
		f.Tree[i].X = 0 // the layout's; checked at the end
	}
	if want := []treeNode{{Task: "BeABattleMage", Method: "2", Label: "BeABattleMage · 2 Fight"}, {Task: "Fight", Parent: "BeABattleMage", Label: "Fight"}}; !slices.Equal(f.Tree, want) {
		t.Errorf("after the second backtrack, the tree %+v, want %+v", f.Tree, want)
	}
	// One more: Fight's third method puts GetCrystals first.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("htn-stepper"))); err != nil {
		t.Fatal(err)
	}
	if f = htnShown(t, tab); !slices.Equal(f.Tasks, []string{"GetCrystals", "CloseIn", "TakeCover", "Recharge", "CastBolt"}) {
		t.Errorf("RestockFirst: task list %q, want its subtasks", f.Tasks)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("htn-reset"))); err != nil {
		t.Fatal(err)
	}
	f = stepHTN(t, tab, a, "spare_crystals off", len(a.Trace))
	if want := append([]string{"GetCrystals"}, mage...); f.Steps != 21 || f.Backtracks != 2 || !slices.Equal(f.Plan, want) || !strings.Contains(f.Result, "MTR 2, 3, 2") {
		t.Errorf("spare_crystals off: step %d, %d backtracks, plan %q, %q; want 21, 2, %q, MTR 2, 3, 2", f.Steps, f.Backtracks, f.Plan, f.Result, want)
	}
	if !slices.Contains(f.Facts, "enemy_dead") || len(f.Tasks) != 0 {
		t.Errorf("spare_crystals off, at the end: facts %q, tasks %q; want enemy_dead, no task", f.Facts, f.Tasks)
	}
	// Every row numbered: the steps 1 to 21 and the backtracks ↶1, ↶2,
	// in the trace's order; the count says how many rows there are.
	var numbers []string
	bt := 0
	for _, r := range a.Trace {
		if r.Kind == "backtrack" {
			bt++
			numbers = append(numbers, fmt.Sprint("↶", bt))
		} else {
			numbers = append(numbers, fmt.Sprint(r.Step))
		}
	}
	if !slices.Equal(f.Numbers, numbers) || !strings.HasSuffix(f.Count, fmt.Sprintf("· %d of %d rows", len(a.Trace), len(a.Trace))) {
		t.Errorf("spare_crystals off: rows numbered %q, count %q; want %q and %d rows", f.Numbers, f.Count, numbers, len(a.Trace))
	}
	if !strings.Contains(f.MTRHelp, "MTR, the method traversal record: the number of the method chosen at each compound task") {
		t.Errorf("spare_crystals off: the MTR explained as %q", f.MTRHelp)
	}
	checkTree(t, "spare_crystals off", f.Tree, f.Plan, []string{"2", "3", "2"})
	browser.Screenshot(t, tab, "htn-figure", "htn-crystals-off")

	// A domain without an htn section says so.
	f = newHTN(t, tab, f.Seq, "the soldier", choose("domain", "soldier.yaml"))
	if !strings.Contains(f.Error, "no htn section") {
		t.Errorf("the soldier: %q, want that it has no htn section", f.Error)
	}
}
