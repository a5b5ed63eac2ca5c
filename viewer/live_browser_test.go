package viewer_test

import (
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

// liveFigure is what figure 4 shows, read from the page.
type liveFigure struct {
	Tick       int      `json:"tick"`
	Status     string   `json:"status"`
	Action     string   `json:"action"`
	End        string   `json:"end"`
	Request    string   `json:"request"` // the last request the page sent
	Problem    string   `json:"problem"`
	Replans    string   `json:"replans"` // the "replans: N" line
	State      string   `json:"state"`
	Plan       []string `json:"plan"`
	Done       []string `json:"done"` // the plan's steps shown done
	ReplanList []string `json:"replanList"`
	Log        []string `json:"log"`
	Toggles    []string `json:"toggles"` // the foregrounded toggles' labels
	On         []string `json:"on"`      // the world's facts shown on
	Command    string   `json:"command"`
	Error      string   `json:"error"`
	TickText   string   `json:"tickText"`
	RunLabel   string   `json:"runLabel"`
	Example    string   `json:"example"` // the lede's case of a flip that breaks a step
	// The event log: whether it overflows its box, and how much of its
	// top visible row the box cuts off, in pixels.
	LogOverflows bool    `json:"logOverflows"`
	LogTopCut    float64 `json:"logTopCut"`
}

const readLive = `(() => {
	const f = document.getElementById('live-figure');
	const texts = (sel) => [...f.querySelectorAll(sel)].map((e) => e.textContent);
	return {
		tick: Number(f.dataset.tick || -1), status: f.dataset.status || '', action: f.dataset.action || '', end: f.dataset.end || '',
		request: f.dataset.request || '', problem: f.dataset.problem || '',
		replans: document.getElementById('live-replans').textContent,
		state: document.getElementById('live-state').textContent,
		plan: texts('#live-plan .action'), done: texts('#live-plan .action.done'),
		replanList: texts('#live-replan-list li'), log: texts('#live-log li'),
		toggles: texts('#live-toggles label'),
		on: [...f.querySelectorAll('input[data-fact]:checked')].map((e) => e.dataset.fact),
		command: document.getElementById('live-command').textContent,
		error: document.getElementById('live-error').textContent,
		tickText: document.getElementById('live-tick').textContent,
		runLabel: document.getElementById('live-run').textContent,
		example: document.getElementById('live-example').textContent,
		...(() => {
			const log = document.getElementById('live-log');
			const top = log.getBoundingClientRect().top + log.clientTop;
			const row = [...log.children].find((li) => li.getBoundingClientRect().bottom > top + 0.5);
			return { logOverflows: log.scrollHeight > log.clientHeight, logTopCut: row ? Math.max(0, top - row.getBoundingClientRect().top) : 0 };
		})(),
	};
})()`

// liveUntil waits for figure 4 to satisfy cond, a JavaScript expression
// over f (the figure's dataset), and reads it.
func liveUntil(t *testing.T, tab context.Context, what, cond string) liveFigure {
	t.Helper()
	wait := fmt.Sprintf(`(() => { const f = document.getElementById('live-figure').dataset; return %s; })()`, cond)
	return browser.WaitFor[liveFigure](t, tab, what, wait, 8*time.Second, readLive)
}

// apiRun is the API's stream for the page's request, run unpaced: the
// values the page must show.
func apiRun(t *testing.T, server, request string) liveRun {
	t.Helper()
	var q map[string]any
	if err := json.Unmarshal([]byte(request), &q); err != nil {
		t.Fatalf("the page's request %q: %v", request, err)
	}
	delete(q, "ticks_per_second")
	q["fast"] = true
	code, body := postTo(t, server, "/api/v1/live", string(mustJSON(q)))
	if code != 200 {
		t.Fatalf("the API on the page's request: %d %s", code, body)
	}
	return parseLive(t, body)
}

// TestBrowserLive drives figure 4: the battle mage's run to its goal; the
// soldier walking to the gun, the gun taken away on the way by a click,
// and the replan the page shows: its count, its reason, the new plan,
// each as the API streams it for the page's own request.
func TestBrowserLive(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 40*time.Second)

	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	f := liveUntil(t, tab, "opening the page", `f.problem === 'battlemage.yaml Kill'`)
	if f.State != "press run" || f.Tick != 0 || !slices.Equal(f.On, []string{"spare_crystals", "potion_at_shrine", "healthy"}) {
		t.Errorf("before a run: %q at tick %d, facts on %q; want press run at tick 0, the start state", f.State, f.Tick, f.On)
	}
	// Before a run nothing is paused, "same as" already shows the request
	// ▶ run sends, and the lede's example is the battle mage's own (it has
	// no axe).
	if f.TickText != "" || !strings.Contains(f.Command, `"goal":"Kill"`) || !strings.Contains(f.Command, "/api/v1/live") ||
		!strings.Contains(f.Example, "spare_crystals") || strings.Contains(f.Example, "axe") {
		t.Errorf("before a run: tick line %q, same as %q, example %q; want no tick line, the run's request, the battle mage's spare_crystals", f.TickText, f.Command, f.Example)
	}
	browser.Screenshot(t, tab, "live-figure", "live-before")

	// The battle mage, at once: the goal, with no replan.
	if err := chromedp.Do(tab, chromedp.Steps(choose("live-speed", "fast"), chromedp.Click(chromedp.ID("live-run")))); err != nil {
		t.Fatal(err)
	}
	f = liveUntil(t, tab, "the battle mage at once", `f.end !== ''`)
	mage := apiRun(t, ts.URL, f.Request)
	mageDone := []string{"Approach", "TakeCover", "Recharge", "CastBolt"}
	if f.End != "goal_reached" || f.End != mage.End.End || f.Tick != mage.End.Tick || f.Replans != "replans: 0" ||
		!slices.Equal(f.Plan, mageDone) || !slices.Equal(f.Done, mageDone) || f.State != "goal reached" {
		t.Errorf("the battle mage: end %s at tick %d, %q, plan %q (done %q), %q; the API: %s at tick %d; want replans: 0, %q done, goal reached",
			f.End, f.Tick, f.Replans, f.Plan, f.Done, f.State, mage.End.End, mage.End.Tick, mageDone)
	}
	if !strings.Contains(f.Command, "/api/v1/live") || !strings.Contains(f.Command, `"goal":"Kill"`) {
		t.Errorf("the command shown: %q", f.Command)
	}

	// The soldier (figure 1's domain picker), at the default pace.
	if _, err := chromedp.Run(tab, choose("domain", "soldier.yaml")); err != nil {
		t.Fatal(err)
	}
	f = liveUntil(t, tab, "the soldier", `f.problem === 'soldier.yaml KillPlayer'`)
	if want := []string{"axe_nearby · hacha cerca", "gun_nearby · arma cerca", "at_cover · cobertura"}; !slices.Equal(f.Toggles, want) {
		t.Errorf("the soldier's toggles: %q, want the soldier lesson's %q first", f.Toggles, want)
	}
	if !strings.Contains(f.Example, "gun_nearby") {
		t.Errorf("the soldier's example: %q, want the gun taken away", f.Example)
	}
	if err := chromedp.Do(tab, chromedp.Steps(choose("live-speed", "4"), chromedp.Click(chromedp.ID("live-run")))); err != nil {
		t.Fatal(err)
	}
	f = liveUntil(t, tab, "the soldier under way", `f.action === 'PickUpGun' && Number(f.tick) >= 2`)
	if f.Replans != "replans: 0" || f.State != "acting: PickUpGun" || !slices.Equal(f.Plan, []string{"PickUpGun", "ApproachPlayer", "AttackRanged"}) {
		t.Errorf("walking to the gun: %q, %q, plan %q; want replans: 0, acting: PickUpGun, the gun's plan", f.Replans, f.State, f.Plan)
	}
	browser.Screenshot(t, tab, "live-figure", "live-walking")

	// Paused on the way: the stream stops, the page says so.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("live-pause"))); err != nil {
		t.Fatal(err)
	}
	f = liveUntil(t, tab, "pause", `document.getElementById('live-run').textContent === '▶ resume'`)
	if !strings.HasSuffix(f.TickText, " · paused") || f.Action != "PickUpGun" {
		t.Errorf("paused: %q, running %q; want paused on the way to the gun", f.TickText, f.Action)
	}

	// The gun taken away on the way to it: the flip resumes the run.
	start := time.Now()
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#live-toggles input[data-fact="gun_nearby"]`))); err != nil {
		t.Fatal(err)
	}
	f = liveUntil(t, tab, "the gun taken away", `f.replans === '1' && f.action === 'PickUpAxe'`)
	t.Logf("click to the replan on screen: %v", time.Since(start))
	axe := []string{"PickUpAxe", "ApproachPlayer", "AttackMelee"}
	if f.Replans != "replans: 1" || len(f.ReplanList) != 1 || !strings.HasPrefix(f.ReplanList[0], "#1 · tick ") ||
		!strings.Contains(f.ReplanList[0], "action failed: PickUpGun needed gun_nearby truewas PickUpGun → ApproachPlayer → AttackRangednow PickUpAxe → ApproachPlayer → AttackMelee · cost 10") ||
		!slices.Equal(f.Plan, axe) || slices.Contains(f.On, "gun_nearby") {
		t.Errorf("after the gun is taken: %q, replans %q, plan %q, facts on %q; want replans: 1 for action failed, PickUpGun needing gun_nearby, the new plan %q at cost 10, gun_nearby off",
			f.Replans, f.ReplanList, f.Plan, f.On, axe)
	}
	browser.Screenshot(t, tab, "live-figure", "live-replanned")

	// The rest at once: the page restarts its stream for the pace only.
	if _, err := chromedp.Run(tab, choose("live-speed", "fast")); err != nil {
		t.Fatal(err)
	}
	f = liveUntil(t, tab, "the soldier's end", `f.end !== ''`)
	run := apiRun(t, ts.URL, f.Request)
	var q struct {
		Toggles []struct {
			Tick  int
			Fact  string
			Value bool
		}
	}
	json.Unmarshal([]byte(f.Request), &q)
	calm := apiRun(t, ts.URL, `{"domain": "soldier.yaml", "goal": "KillPlayer", "seed": 1}`)
	walk := ticksOf(calm, "PickUpGun")
	if len(q.Toggles) != 1 || q.Toggles[0].Fact != "gun_nearby" || q.Toggles[0].Value || !slices.Contains(walk, q.Toggles[0].Tick) {
		t.Fatalf("the page's toggles %+v; want gun_nearby off at a tick of the walk to the gun, %v", q.Toggles, walk)
	}
	replans, made := eventsOf(run, "replan"), eventsOf(run, "plan_made")
	if len(replans) != 1 || len(made) != 2 {
		t.Fatalf("the API: replans %+v, plans %+v", replans, made)
	}
	wantReplan := fmt.Sprintf("#1 · tick %d · %s: PickUpGun needed gun_nearby truewas %snow %s · cost %v", replans[0].Tick, replans[0].Reason, strings.Join(made[0].Plan, " → "), strings.Join(made[1].Plan, " → "), made[1].Cost)
	if f.End != run.End.End || f.Tick != run.End.Tick || f.Replans != fmt.Sprintf("replans: %d", run.End.Replans) ||
		len(f.ReplanList) != 1 || f.ReplanList[0] != wantReplan || !slices.Equal(f.Plan, made[1].Plan) || !slices.Equal(f.Done, made[1].Plan) {
		t.Errorf("the end: %s at tick %d, %q, %q, plan %q (done %q); the API: %s at tick %d, %d replans, %q, plan %q",
			f.End, f.Tick, f.Replans, f.ReplanList, f.Plan, f.Done, run.End.End, run.End.Tick, run.End.Replans, wantReplan, made[1].Plan)
	}
	var logged []string
	for _, tk := range run.Ticks {
		for range tk.Toggled {
			logged = append(logged, fmt.Sprint("t", tk.Tick))
		}
		for range tk.Events {
			logged = append(logged, fmt.Sprint("t", tk.Tick))
		}
	}
	if len(f.Log) != len(logged) {
		t.Errorf("the log shows %d lines, the API streamed %d events and toggles", len(f.Log), len(logged))
	}
	for i := range min(len(f.Log), len(logged)) {
		if !strings.HasPrefix(f.Log[i], logged[i]) {
			t.Errorf("log line %d: %q, want it at %s", i, f.Log[i], logged[i])
		}
	}
	// Scrolled to its newest row, the event log shows its top row whole.
	if !f.LogOverflows || f.LogTopCut > 0.5 {
		t.Errorf("the event log: overflows %v, its top row cut by %.1f px; want a log longer than its box, its top row whole", f.LogOverflows, f.LogTopCut)
	}
	browser.Screenshot(t, tab, "live-figure", "live-done")

	// After the end, the player back on his feet: the run goes on from
	// there, the goal chosen again, a second replan.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#live-more input[data-fact="player_alive"]`))); err != nil {
		t.Fatal(err)
	}
	f = liveUntil(t, tab, "the player back", `f.end !== '' && f.replans === '2'`)
	run = apiRun(t, ts.URL, f.Request)
	replans, made = eventsOf(run, "replan"), eventsOf(run, "plan_made")
	if len(replans) != 2 || replans[1].Reason != "goal changed" || f.End != run.End.End || f.Tick != run.End.Tick ||
		len(f.ReplanList) != 2 || !strings.Contains(f.ReplanList[1], "goal changed") || !strings.HasSuffix(f.ReplanList[1], "now "+strings.Join(made[2].Plan, " → ")+fmt.Sprintf(" · cost %v", made[2].Cost)) {
		t.Errorf("the player back: the page ends %s at tick %d, replans %q; the API: %s at tick %d, replans %+v, plans %+v",
			f.End, f.Tick, f.ReplanList, run.End.End, run.End.Tick, replans, made)
	}
}
