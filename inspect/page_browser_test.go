package inspect_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/inspect"
	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/resolver"
)

// mixedAgents is how many agents the page's game has: GOAP mages and, of
// every other kind, a few (addOthers).
const mixedAgents = 200

// newMixedGame is newGame's battle mages with positions on a grid (GOAP
// agents have none of their own: Options.Position gives them), and
// agents of every other kind: HTN in both modes, a behaviour tree, a
// utility selector, and resolver survivors, each at a place of its own.
// 200 agents in all.
func newMixedGame(t *testing.T, opt inspect.Options) *game {
	t.Helper()
	opt.Position = func(a *agent.Agent) (resolver.Point, bool) {
		var i int
		if _, err := fmt.Sscanf(a.Name(), "mage-%d", &i); err != nil {
			return resolver.Point{}, false
		}
		return resolver.Point{X: float64(i%20) * 5, Y: float64(i/20) * 5}, true
	}
	const others = 7
	g := newGame(t, mixedAgents-others, 2, opt)
	h, err := htn.NewDomain(g.d, domains.BattleMageHTN())
	if err != nil {
		t.Fatal(err)
	}
	mage := func(name string, set func(*agent.Config)) {
		world := g.d.Initial()
		behaviours := map[string]agent.Behaviour{}
		for id := range goap.ActionID(g.d.NumActions()) {
			behaviours[g.d.ActionName(id)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
				g.d.Apply(id, world)
				return agent.Success
			}}
		}
		cfg := agent.Config{Name: name, Domain: g.d, Behaviours: behaviours, Decisions: g.ins, Queue: g.queue,
			Sensor: func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) }}
		set(&cfg)
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.ins.Watch(a); err != nil {
			t.Fatal(err)
		}
		g.others = append(g.others, a.Tick)
	}
	mage("htn-decompose", func(c *agent.Config) { c.HTN = h })
	mage("htn-interrupt", func(c *agent.Config) { c.HTN, c.HTNMode = h, agent.Interrupt })
	mage("tree", func(c *agent.Config) {
		c.Tree = agent.Sequence(agent.Action(g.d, "Approach"), agent.Action(g.d, "TakeCover"))
	})
	// A utility selector whose scores change with the tick, in a world
	// that starts again every few ticks: it chooses again and again.
	ticks := 0
	score := func(period int) func(*agent.Agent) float64 {
		return func(*agent.Agent) float64 { return float64(ticks % period) }
	}
	mage("utility", func(c *agent.Config) {
		c.Tree = agent.Utility(g.d, 0.5,
			agent.UtilityOption{Action: "Approach", Score: score(5)},
			agent.UtilityOption{Action: "TakeCover", Score: score(7)},
			agent.UtilityOption{Action: "GetCrystals", Score: score(3)})
		sense := c.Sensor
		c.Sensor = func(a *agent.Agent, facts goap.State) {
			if ticks++; ticks%4 == 0 {
				facts.CopyFrom(g.d.Initial())
				return
			}
			sense(a, facts)
		}
	})
	rd, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		values := map[string]int64{}
		sensed := 0
		rb := map[string]agent.ResolverBehaviour{}
		for id := range resolver.ActionID(rd.NumActions()) {
			rb[rd.ActionName(id)] = agent.ResolverFuncs{TickFunc: func(*agent.ResolverAgent) agent.Status {
				for _, e := range rd.Effects(id) {
					values[e.Key] = map[resolver.Direction]int64{resolver.SetTrue: 1, resolver.SetFalse: 0}[e.Dir]
				}
				return agent.Success
			}}
		}
		home := resolver.Point{X: 110 + float64(i)*10, Y: 20 * float64(i)}
		targets := map[string]agent.TargetSensor{}
		for _, name := range rd.Targets() {
			targets[name] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(resolver.Point{X: home.X + 2, Y: home.Y}) }
		}
		keeper, err := agent.NewResolverAgent(agent.ResolverConfig{Name: fmt.Sprintf("keeper-%d", i), Domain: rd, Behaviours: rb, Targets: targets,
			Goals:     []agent.ResolverGoal{{Goal: rd.Goal("Fed"), Priority: 1}},
			Decisions: g.ins, RetryAfter: 5,
			Sensor: func(a *agent.ResolverAgent, s *resolver.Snapshot) {
				// Hungry now and then: foraging beats hunting.
				if sensed++; sensed%(15+i) == 1 {
					values["hunger"], values["has_food"] = 60, 0
				}
				for name, v := range values {
					k, _ := rd.Key(name)
					s.Values[k] = v
				}
				s.At = home
			},
			Mover: agent.MoverFunc(func(resolver.Point, float64) agent.MoveStatus { return agent.Arrived }),
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.ins.WatchResolver(keeper); err != nil {
			t.Fatal(err)
		}
		g.others = append(g.others, keeper.Tick)
	}
	return g
}

// pageView is what the page shows, read from it.
type pageView struct {
	Source    string   `json:"source"`
	Paused    string   `json:"paused"`
	Frame     int      `json:"frame"`
	Hits      int      `json:"hits"`
	Reason    string   `json:"reason"`
	GameState string   `json:"gameState"`
	HitsText  string   `json:"hitsText"`
	Error     string   `json:"error"`
	Count     int      `json:"count"`
	Placed    int      `json:"placed"`
	Names     []string `json:"names"`
	Kinds     []string `json:"kinds"`
	Goals     []string `json:"goals"`
	Replans   []int    `json:"replans"`
	Picked    string   `json:"picked"`
	Kind      string   `json:"kind"`
	Decisions int      `json:"decisions"`
	Rejected  int      `json:"rejected"`
	Graph     int      `json:"graph"`
	Shown     string   `json:"shown"`
	Steps     int      `json:"steps"`
	Facts     int      `json:"facts"`
	Options   []string `json:"options"`
	BPs       int      `json:"bps"`
	Tick      int      `json:"tick"`
	RecCount  int      `json:"recCount"`
	RecAgents int      `json:"recAgents"`
	Summary   string   `json:"summary"`
	MTR       string   `json:"mtr"`
}

const readPage = `(() => {
	const g = document.getElementById('game').dataset, a = document.getElementById('agents').dataset, p = document.getElementById('agent').dataset;
	const col = (i) => [...document.querySelectorAll('#agent-list tbody tr')].map((tr) => tr.cells[i].textContent);
	return {
		source: g.source || '', paused: g.paused || '', frame: Number(g.frame || -1), hits: Number(g.hits || 0), reason: g.reason || '',
		gameState: document.getElementById('game-state').textContent, hitsText: document.getElementById('hits').textContent,
		error: document.getElementById('game-error').textContent,
		count: Number(a.count || 0), placed: Number(a.placed || 0),
		names: col(0), kinds: col(1), goals: col(2), replans: col(4).map((s) => Number(s.split(' / ')[0])),
		picked: p.name || '', kind: p.kind || '', decisions: Number(p.decisions || 0), rejected: Number(p.rejected || 0),
		graph: Number(p.graph || 0), shown: p.shown || '', steps: Number(p.steps || 0), facts: Number(p.facts || 0),
		options: [...document.querySelectorAll('#options tbody tr')].map((tr) => tr.cells[0].textContent),
		bps: Number(p.breakpoints || 0), tick: Number(g.tick || -1),
		recCount: Number(g.decisions || 0), recAgents: Number(g.agents || 0),
		summary: document.getElementById('agent-summary').textContent, mtr: document.getElementById('mtr').textContent,
	};
})()`

// pageUntil waits for cond, a JavaScript expression over g, a and p (the
// game's, the list's and the agent's datasets), and reads the page.
func pageUntil(t *testing.T, tab context.Context, what, cond string) pageView {
	t.Helper()
	wait := fmt.Sprintf(`(() => { const g = document.getElementById('game').dataset, a = document.getElementById('agents').dataset, p = document.getElementById('agent').dataset; return %s; })()`, cond)
	return browser.WaitFor[pageView](t, tab, what, wait, 20*time.Second, readPage)
}

func run(t *testing.T, tab context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tab, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// choose picks value in the select whose id is id, as a person would,
// and tells the page.
func choose(id, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const s = document.getElementById(%q);
		s.value = %q;
		if (s.value !== %q) throw new Error('no option %s in #%s');
		s.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, id, value, value, value, id))
}

// viewportShot saves what the window shows as
// testdata/screenshots/NAME.png: the whole page as a person sees it (an
// element's screenshot taller than the window is laid out again to be
// taken, and came out with the agent's panel lower than the list).
func viewportShot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := filepath.Join("testdata", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// clickRow clicks the list's row of the agent named name. The row is
// found and clicked in one go: a live game re-sorts the list while the
// browser would move the mouse to where the row was.
func clickRow(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const tr = document.querySelector('#agent-list tr[data-name=%q]');
		if (!tr) throw new Error('no row for %s');
		tr.click();
	})()`, name, name))
}

// TestBrowserInspector drives the page on a live game of 200 agents of
// every kind: the list sorted by replans and filtered, an agent picked
// (its options, facts, decisions and its traced search drawn), a
// breakpoint on its plan that really blocks the game in Frame, a step of
// exactly one frame, resume, the recording downloaded (and read by
// agent.ReadRecording), opened again in the page and scrubbed.
func TestBrowserInspector(t *testing.T) {
	g := newMixedGame(t, inspect.Options{})
	ts := serve(t, g.ins)
	stop := make(chan struct{})
	done := g.loop(stop, 3*time.Millisecond)
	t.Cleanup(func() {
		g.ins.Close() // a pause left by a failed test lets go
		close(stop)
		<-done
	})
	tab := browser.Start(t, 120*time.Second)
	checkConsole := browser.WatchConsole(t, tab)
	defer checkConsole()
	// Wider than the default window: the list and the agent's panel side
	// by side, as on a desktop.
	run(t, tab, "opening the page", chromedp.EmulateViewport(1280, 1300), chromedp.Navigate(ts.URL+"/"))

	// The list: every agent, most replans first, every kind.
	v := pageUntil(t, tab, "the list", `Number(a.count) === 200 && g.stream === 'open'`)
	if !slices.IsSortedFunc(v.Replans, func(a, b int) int { return b - a }) {
		t.Errorf("the list is not sorted by replans, most first: %v", v.Replans)
	}
	for _, k := range []string{"goap", "htn", "tree", "resolver"} {
		if !slices.Contains(v.Kinds, k) {
			t.Errorf("the list has no %s agent: %v", k, slices.Compact(slices.Sorted(slices.Values(v.Kinds))))
		}
	}
	if v.Placed != mixedAgents-4 { // all but the HTN, tree and utility mages
		t.Errorf("%d agents on the map, want %d", v.Placed, mixedAgents-4)
	}

	// Filters: by kind, then by goal.
	run(t, tab, "kind htn", choose("filter-kind", "htn"))
	v = pageUntil(t, tab, "the HTN agents", `Number(a.count) === 2`)
	if !slices.Equal(slices.Sorted(slices.Values(v.Names)), []string{"htn-decompose", "htn-interrupt"}) {
		t.Errorf("kind htn lists %v", v.Names)
	}
	run(t, tab, "kind resolver", choose("filter-kind", "resolver"))
	v = pageUntil(t, tab, "the resolver agents", `Number(a.count) === 3`)
	run(t, tab, "pick a keeper", clickRow("keeper-1"))
	v = pageUntil(t, tab, "keeper-1 with its traced resolve", `p.name === 'keeper-1' && Number(p.rejected) > 0 && Number(p.graph) > 2`)
	if v.Kind != "resolver" || v.Facts == 0 {
		t.Errorf("keeper-1: kind %q, %d key values; want resolver and its keys", v.Kind, v.Facts)
	}
	browser.Screenshot(t, tab, "agent", "inspector-resolver")
	run(t, tab, "kind htn", choose("filter-kind", "htn"))
	pageUntil(t, tab, "the HTN agents", `Number(a.count) === 2`)
	run(t, tab, "pick an HTN agent", clickRow("htn-interrupt"))
	v = pageUntil(t, tab, "htn-interrupt", `p.name === 'htn-interrupt' && Number(p.decisions) > 0 && !document.getElementById('mtr').hidden`)
	if !strings.Contains(v.MTR, "MTR") {
		t.Errorf("the HTN agent's MTR: %q", v.MTR)
	}
	run(t, tab, "kind tree", choose("filter-kind", "tree"))
	pageUntil(t, tab, "the tree and the utility selector", `Number(a.count) === 2 && !!document.querySelector('#agent-list tr[data-name="utility"]')`)
	run(t, tab, "pick the utility selector", clickRow("utility"))
	v = pageUntil(t, tab, "utility with its scores", `p.name === 'utility' && Number(p.decisions) > 0 && document.querySelectorAll('#options tbody tr td.num').length > 0`)
	if !slices.Equal(slices.Sorted(slices.Values(v.Options)), []string{"Approach", "GetCrystals", "TakeCover"}) {
		t.Errorf("the utility selector's options: %v, want its three actions", v.Options)
	}
	// The goal filter offers the goals the page has seen in its lists:
	// wait for the whole list to bring a mage on Kill before choosing it.
	run(t, tab, "any kind", choose("filter-kind", ""))
	pageUntil(t, tab, "Kill among the goals seen", `[...document.getElementById('filter-goal').options].some((o) => o.value === 'Kill')`)
	run(t, tab, "goal Kill", choose("filter-goal", "Kill"))
	v = pageUntil(t, tab, "the agents after Kill", `Number(a.count) > 0 && Number(a.count) < 200 && [...document.querySelectorAll('#agent-list tbody td:nth-child(3)')].every((td) => td.textContent === 'Kill')`)
	run(t, tab, "any goal", choose("filter-goal", ""))
	pageUntil(t, tab, "every agent again", `Number(a.count) === 200`)

	// Pick a mage: its options, facts, decisions and its traced search.
	run(t, tab, "pick mage-007", clickRow("mage-007"))
	v = pageUntil(t, tab, "mage-007 with a traced search", `p.name === 'mage-007' && Number(p.decisions) > 0 && Number(p.rejected) > 0 && Number(p.graph) > 1`)
	if !slices.Equal(slices.Sorted(slices.Values(v.Options)), []string{"GetHealthy", "Kill"}) || v.Facts == 0 || v.Kind != "goap" {
		t.Errorf("mage-007: options %v, %d facts, kind %q; want GetHealthy and Kill, its facts, goap", v.Options, v.Facts, v.Kind)
	}
	viewportShot(t, tab, "inspector-page")
	browser.Screenshot(t, tab, "agent", "inspector-agent")

	// A breakpoint on its plans: the game blocks in Frame.
	run(t, tab, "break on plan", chromedp.Click(chromedp.ID("bp-plan")))
	v = pageUntil(t, tab, "the breakpoint hit", `g.paused === 'true' && g.reason === 'breakpoint'`)
	if int(g.tick.Load()) != v.Frame || !strings.Contains(v.HitsText, "mage-007") {
		t.Errorf("paused at frame %d (the game at tick %d), hits %q; want the game held at that frame by mage-007", v.Frame, g.tick.Load(), v.HitsText)
	}
	browser.Screenshot(t, tab, "game", "inspector-paused")
	paused := v.Frame
	if int(g.tick.Load()) != paused {
		t.Errorf("the game went on to tick %d while the page showed it paused at %d", g.tick.Load(), paused)
	}

	// Step: exactly one frame, paused again.
	run(t, tab, "step", chromedp.Click(chromedp.ID("step")))
	v = pageUntil(t, tab, "one step", fmt.Sprintf(`g.paused === 'true' && Number(g.frame) === %d`, paused+1))
	if got := int(g.tick.Load()); got != paused+1 {
		t.Errorf("after a step the game is at tick %d, want %d", got, paused+1)
	}

	// Clear the breakpoint, resume: the game runs on.
	run(t, tab, "clear the breakpoint", chromedp.Click(chromedp.ID("bp-plan")))
	pageUntil(t, tab, "no breakpoint", `Number(p.breakpoints) === 0`)
	run(t, tab, "resume", chromedp.Click(chromedp.ID("resume")))
	v = pageUntil(t, tab, "running again", fmt.Sprintf(`g.paused === 'false' && Number(g.frame) > %d`, paused+3))

	// Pause: the game holds at a frame until resumed.
	run(t, tab, "pause", chromedp.Click(chromedp.ID("pause")))
	v = pageUntil(t, tab, "paused", `g.paused === 'true' && g.reason === 'pause'`)
	if got := int(g.tick.Load()); got != v.Frame {
		var st state
		api{t, ts.URL, "test"}.get("/api/v1/state", &st)
		t.Errorf("paused at frame %d, the game at tick %d; the API: %+v; game now %d; page %+v", v.Frame, got, st, g.tick.Load(), browser.Read[pageView](t, tab, "page", readPage).GameState)
	}
	run(t, tab, "resume", chromedp.Click(chromedp.ID("resume")))
	pageUntil(t, tab, "running after the pause", fmt.Sprintf(`g.paused === 'false' && Number(g.frame) > %d`, v.Frame))

	// A breakpoint on an action: listed on the agent, cleared by its ×
	// (a hit meanwhile pauses the game: resume lets it go).
	run(t, tab, "break on CastBolt", choose("bp-action", "CastBolt"))
	v = pageUntil(t, tab, "the action breakpoint", `Number(p.breakpoints) === 1`)
	if bp := browser.Read[string](t, tab, "the breakpoint", `document.getElementById('bp-list').textContent`); !strings.Contains(bp, "on action CastBolt") {
		t.Errorf("the agent's breakpoints show %q, want the one on action CastBolt", bp)
	}
	// Clicked inside the page, in one step: the list re-renders on every
	// poll, so a node chromedp looked up can be gone by its click.
	if !browser.Read[bool](t, tab, "clear it", `(() => {
		const b = document.querySelector('#bp-list button');
		if (b) b.click();
		return b !== null;
	})()`) {
		t.Fatal("the agent's breakpoint list has no × to clear it with")
	}
	pageUntil(t, tab, "no breakpoint", `Number(p.breakpoints) === 0`)
	if browser.Read[bool](t, tab, "paused?", `document.getElementById('game').dataset.paused === 'true'`) {
		run(t, tab, "resume", chromedp.Click(chromedp.ID("resume")))
	}
	pageUntil(t, tab, "running", `g.paused === 'false'`)

	// Record: the page's link downloads a recording agent.ReadRecording reads.
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(tab, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatalf("allowing downloads: %v", err)
	}
	run(t, tab, "record", chromedp.Click(chromedp.ID("record")))
	path := filepath.Join(dir, "recording.jsonl")
	var data []byte
	waitFor(t, "the download", func() bool {
		b, err := os.ReadFile(path)
		// Complete when its last line is: Chromium writes a
		// .crdownload first and renames it.
		if err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			data = b
			return true
		}
		return false
	})
	rec, err := agent.ReadRecording(bytes.NewReader(data), path, 64<<20)
	if err != nil {
		t.Fatalf("the downloaded recording: %v", err)
	}
	agents := map[string]bool{}
	for _, d := range rec.Decisions {
		agents[d.Agent] = true
	}
	// Every agent but the tree, whose sequence of actions plans nothing
	// and so decides nothing.
	if len(rec.Decisions) == 0 || len(agents) != mixedAgents-1 || agents["tree"] {
		t.Fatalf("the recording: %d decisions of %d agents, want decisions of all %d but the tree's", len(rec.Decisions), len(agents), mixedAgents-1)
	}

	// Open it in the page: the same decisions, and a timeline to scrub.
	run(t, tab, "open the recording", chromedp.SetUploadFiles(chromedp.ID("open-file"), []string{path}))
	v = pageUntil(t, tab, "the recording", `g.source === 'recording' && Number(a.count) === 199`)
	if v.RecCount != len(rec.Decisions) || v.RecAgents != len(agents) {
		t.Errorf("the page read %d decisions of %d agents, the file has %d of %d", v.RecCount, v.RecAgents, len(rec.Decisions), len(agents))
	}
	checkScrub(t, tab, rec, "mage-007")
	browser.Screenshot(t, tab, "agent", "inspector-recording")
	browser.Screenshot(t, tab, "game", "inspector-timeline")
}

// checkScrub scrubs the page's timeline to the middle of rec and checks
// that the picked agent shows its last decision at or before that tick,
// and the list every agent rec has.
func checkScrub(t *testing.T, tab context.Context, rec *agent.Recording, name string) {
	t.Helper()
	// The middle of the agent's own decisions (an agent keeps its last
	// ones only: a recording from the inspector starts earlier for some).
	var ticks []int
	for _, d := range rec.Decisions {
		if d.Agent == name {
			ticks = append(ticks, d.Tick)
		}
	}
	if len(ticks) < 3 {
		t.Fatalf("%s has %d decisions in the recording: too few to scrub through", name, len(ticks))
	}
	mid := (ticks[0] + ticks[len(ticks)-1]) / 2
	if slices.Contains(ticks, mid) {
		mid++ // between two decisions: the earlier one shows
	}
	// Its last search at or before mid, past decisions that searched
	// nothing.
	last, want := -1, -1
	for _, d := range rec.Decisions {
		if d.Agent == name && d.Tick <= mid {
			last = d.Tick
			if d.Status != "not_searched" {
				want = d.Tick
			}
		}
	}
	if want < 0 {
		want = last
	}
	run(t, tab, "scrub", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.getElementById('scrub'); s.value = '%d'; s.dispatchEvent(new Event('input')); })()`, mid)))
	wantShown := strconv.Itoa(want)
	v := pageUntil(t, tab, "scrubbed", fmt.Sprintf(`Number(g.tick) === %d && p.name === %q`, mid, name))
	if v.Shown != wantShown {
		t.Errorf("scrubbed to tick %d, %s shows its decision of tick %q; want %q (its last search at or before)", mid, name, v.Shown, wantShown)
	}
	if v.Count != mixedAgentsIn(rec) {
		t.Errorf("the list at tick %d: %d agents, want %d", mid, v.Count, mixedAgentsIn(rec))
	}
	// The decision after: the timeline's next decision button moves to it.
	next := -1
	for _, d := range rec.Decisions {
		if d.Tick > mid {
			next = d.Tick
			break
		}
	}
	run(t, tab, "the next decision", chromedp.Click(chromedp.ID("scrub-next")))
	pageUntil(t, tab, "the next decision", fmt.Sprintf(`Number(g.tick) === %d`, next))
}

func mixedAgentsIn(rec *agent.Recording) int {
	names := map[string]bool{}
	for _, d := range rec.Decisions {
		names[d.Agent] = true
	}
	return len(names)
}
