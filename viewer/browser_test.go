package viewer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// The browser tests drive the pages in headless Chromium (Debian's
// chromium package) against the real handler on a loopback httptest
// server, and check the values the figures show. They save screenshots
// for a person to look at under testdata/screenshots (not committed).

// servePage serves h on a loopback httptest server and starts a browser
// for at most timeout, its console watched as browser.WatchConsole does
// (expected: the refusals the test provokes). At the test's end the
// console is checked, then the browser and the server stop.
func servePage(t *testing.T, h http.Handler, timeout time.Duration, expected ...string) (*httptest.Server, context.Context) {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	tab := browser.Start(t, timeout)
	t.Cleanup(browser.WatchConsole(t, tab, expected...))
	return ts, tab
}

// figure is what figure 1 shows, read from the page.
type figure struct {
	Seq      int      `json:"seq"`      // answers shown so far
	Ms       float64  `json:"ms"`       // the page's own time from the user's act to the frame that draws the answer
	AnswerMs float64  `json:"answerMs"` // and to the answer in the page, before that frame
	Domain   string   `json:"domain"`   // the domain picker's value
	Goal     string   `json:"goal"`     // the goal picker's value
	Goals    []string `json:"goals"`    // the goal picker's options
	On       []string `json:"on"`       // the facts toggled on
	Summary  string   `json:"summary"`
	Plan     []string `json:"plan"`
	Why      []string `json:"why"` // explain's reasons, when they are shown
	Error    string   `json:"error"`
	Command  string   `json:"command"`
}

const readFigure = `(() => {
	const f = document.getElementById('planner');
	const texts = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent);
	const why = document.getElementById('why');
	return {
		seq: Number(f.dataset.seq), ms: Number(f.dataset.ms || 0), answerMs: Number(f.dataset.answerMs || 0),
		domain: document.getElementById('domain').value,
		goal: document.getElementById('goal').value,
		goals: texts('#goal option'),
		on: [...document.querySelectorAll('#facts input:checked')].map((e) => e.dataset.fact),
		summary: document.getElementById('summary').textContent,
		plan: texts('#plan .action'),
		why: why.hidden ? [] : texts('#why-list li'),
		error: document.getElementById('error').textContent,
		command: document.getElementById('command').textContent,
	};
})()`

// waitAnswer runs act and waits for the figure figureID to show the
// answer to it: an answer after seq (its data-seq), and to the last
// request it sent (data-sent), not to an earlier one. Figure 1's own
// answer must be on screen too, since the figures below it answer its
// problem: the page is done moving.
func waitAnswer(t *testing.T, tab context.Context, figureID string, seq int, what string, act chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tab, act); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	wait := fmt.Sprintf(`(() => {
		const d = document.getElementById(%q).dataset, p = document.getElementById('planner').dataset;
		return Number(d.seq) > %d && d.seq === d.sent && p.seq === p.sent;
	})()`, figureID, seq)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](wait, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("%s: #%s shows no new answer: %v", what, figureID, err)
	}
}

// shown reads the figure.
func shown(t *testing.T, tab context.Context) figure {
	t.Helper()
	return browser.Read[figure](t, tab, "the figure", readFigure)
}

// after runs act and waits for the figure to show the answer to it: the
// answer after seq. It returns the figure and the time from before act
// to the answer seen from Go (the page's own figure is in Ms).
func after(t *testing.T, tab context.Context, seq int, what string, act chromedp.Action[chromedp.Void]) (figure, time.Duration) {
	t.Helper()
	start := time.Now()
	waitAnswer(t, tab, "planner", seq, what, act)
	took := time.Since(start)
	return shown(t, tab), took
}

// toggle clicks a fact's toggle, as a person would.
func toggle(fact string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(fmt.Sprintf(`#facts input[data-fact=%q]`, fact)))
}

// choose picks an option of a select and fires its change, as a person
// picking from the list does.
func choose(id, value string) chromedp.Action[chromedp.Void] {
	v, _ := json.Marshal(value)
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const s = document.getElementById(%q);
		s.value = %s;
		if (s.value !== %s) throw new Error('no option ' + %s + ' in #' + %q);
		s.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, id, v, v, v, id))
}

// planSummary is the summary line the page must show for an answer of
// the API, counted as the API counts.
func planSummary(t *testing.T, server, request string) string {
	t.Helper()
	code, body := postTo(t, server, "/api/v1/plan", request)
	var a struct {
		Status              string
		Plan                []string
		Cost                float64
		Expanded, Generated int
	}
	if err := json.Unmarshal(body, &a); code != 200 || err != nil {
		t.Fatalf("plan %s: %d %s", request, code, body)
	}
	counts := fmt.Sprintf("%d expanded · %d generated", a.Expanded, a.Generated)
	if a.Status != "found" {
		return "no plan · " + counts
	}
	steps := "steps"
	if len(a.Plan) == 1 {
		steps = "step"
	}
	return fmt.Sprintf("%d %s · cost %g · %s", len(a.Plan), steps, a.Cost, counts)
}

// postTo sends request to the server at URL server, over the network as
// the page does.
func postTo(t *testing.T, server, path, request string) (int, []byte) {
	t.Helper()
	r, err := http.Post(server+path, "application/json", strings.NewReader(request))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return r.StatusCode, body
}

// screenshot saves the figure as testdata/screenshots/NAME.png.
func screenshot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	browser.Screenshot(t, tab, "planner", name)
}

// TestBrowserPlanner drives figure 1, the planner, through the lessons'
// figures (docs/background.md): the battle mage's Kill and its crystals, the soldier's
// KillPlayer and its weapons.
func TestBrowserPlanner(t *testing.T) {
	// A file named on the command line, whose name a page must escape and
	// a shell must have quoted: the figure works on any loaded domain.
	worker := filepath.Join(t.TempDir(), "<b>worker's.yaml")
	if err := os.WriteFile(worker, []byte(workerDomain), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, viewer.Config{LoopbackOnly: true, Files: []string{worker}})
	// While slow is set, an answer with spare_crystals unset comes late:
	// after the answer to a later click.
	var slow atomic.Bool
	late := make(chan struct{}, 16) // a late answer has been sent
	ts, tab := servePage(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slow.Load() && r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"unset":["spare_crystals"]`)) {
				time.Sleep(200 * time.Millisecond)
				defer func() { late <- struct{}{} }()
			}
		}
		s.ServeHTTP(w, r)
	}), 20*time.Second)

	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`Number(document.getElementById('planner').dataset.seq) > 0`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("the page shows no plan: %v", err)
	}

	// The battle mage's Kill from the default state.
	f := shown(t, tab)
	mage := []string{"Approach", "TakeCover", "Recharge", "CastBolt"}
	if f.Domain != "battlemage.yaml" || f.Goal != "Kill" || !slices.Equal(f.Goals, []string{"Kill", "GetHealthy"}) {
		t.Errorf("the page opens on %s, goal %s of %q; want battlemage.yaml, Kill of [Kill GetHealthy]", f.Domain, f.Goal, f.Goals)
	}
	if want := []string{"spare_crystals", "potion_at_shrine", "healthy"}; !slices.Equal(f.On, want) {
		t.Errorf("facts on: %q, want the initial state %q", f.On, want)
	}
	if !slices.Equal(f.Plan, mage) || !strings.Contains(f.Summary, "cost 7") {
		t.Errorf("Kill: %q, plan %q; want cost 7 and %q", f.Summary, f.Plan, mage)
	}
	if want := planSummary(t, ts.URL, `{"goal": "Kill"}`); f.Summary != want {
		t.Errorf("Kill's summary: %q, want the API's %q", f.Summary, want)
	}

	// Spare crystals off: GetCrystals comes first and the cost is 10.
	f, _ = after(t, tab, f.Seq, "spare_crystals off", toggle("spare_crystals"))
	crystalsOff := append([]string{"GetCrystals"}, mage...)
	if !slices.Equal(f.Plan, crystalsOff) || !strings.Contains(f.Summary, "cost 10") {
		t.Errorf("spare_crystals off: %q, plan %q; want cost 10 and GetCrystals first", f.Summary, f.Plan)
	}
	if want := planSummary(t, ts.URL, `{"goal": "Kill", "unset": ["spare_crystals"]}`); f.Summary != want {
		t.Errorf("spare_crystals off: summary %q, want the API's %q", f.Summary, want)
	}
	if want := "ploy plan battlemage.yaml --goal Kill --unset spare_crystals"; f.Command != want {
		t.Errorf("the command shown: %q, want %q", f.Command, want)
	}
	screenshot(t, tab, "planner-crystals-off")

	// The time from a click to the new plan on screen, printed, never
	// asserted (the aim is under 50 ms).
	var answered, page, seen []float64
	for i := range 10 {
		g, took := after(t, tab, f.Seq, "spare_crystals again", toggle("spare_crystals"))
		f = g
		answered = append(answered, f.AnswerMs)
		page = append(page, f.Ms)
		seen = append(seen, float64(took.Microseconds())/1000)
		if wantCost := []string{"cost 7", "cost 10"}[i%2]; !strings.Contains(f.Summary, wantCost) {
			t.Fatalf("toggle %d: %q, want %s", i+1, f.Summary, wantCost)
		}
	}
	t.Logf("toggle to new plan, ms over 10 clicks: in the page, click to the answer in the page %s, to the frame that draws it %s; from Go, click sent to answer seen (with the protocol's round trips) %s", spread(answered), spread(page), spread(seen))

	// Quick clicks: three, the second's answer late; only the last answer
	// shows, the plan of the state the clicks left (spare_crystals back
	// on), also once the late answer has come.
	slow.Store(true)
	f, _ = after(t, tab, f.Seq, "three quick clicks", chromedp.Steps(toggle("spare_crystals"), toggle("spare_crystals"), toggle("spare_crystals")))
	slow.Store(false)
	// The page may abort the second request before it leaves: then no
	// answer can come late, and the wait ends with nothing to wait for.
	select {
	case <-late:
		// The late answer reaches the page, if the page still wants it.
		time.Sleep(100 * time.Millisecond)
	case <-time.After(2 * time.Second):
	}
	f = shown(t, tab)
	if want := planSummary(t, ts.URL, `{"goal": "Kill"}`); !slices.Contains(f.On, "spare_crystals") || f.Summary != want {
		t.Errorf("three quick clicks: facts on %q, %q; want spare_crystals on and %q", f.On, f.Summary, want)
	}
	f, _ = after(t, tab, f.Seq, "spare_crystals off again", toggle("spare_crystals"))

	// The search and heuristic pickers reach the planner: backward search
	// with hmax finds the same least-cost plan with other counts. (Ten
	// clicks left spare_crystals off.)
	f, _ = after(t, tab, f.Seq, "backward search", choose("search", "backward"))
	f, _ = after(t, tab, f.Seq, "hmax", choose("heuristic", "hmax"))
	request := `{"goal": "Kill", "unset": ["spare_crystals"], "search": "backward", "heuristic": "hmax"}`
	if want := planSummary(t, ts.URL, request); !slices.Equal(f.Plan, crystalsOff) || f.Summary != want {
		t.Errorf("backward, hmax: %q, plan %q; want the API's %q and %q", f.Summary, f.Plan, want, crystalsOff)
	}
	f, _ = after(t, tab, f.Seq, "forward search", choose("search", "forward"))
	f, _ = after(t, tab, f.Seq, "goal-count", choose("heuristic", "goal-count"))

	// The battle mage's other goal: GetHealthy with healthy off, then no potion
	// at the shrine either.
	f, _ = after(t, tab, f.Seq, "GetHealthy", choose("goal", "GetHealthy"))
	f, _ = after(t, tab, f.Seq, "healthy off", toggle("healthy"))
	if want := []string{"FetchPotion", "TakeCover", "DrinkPotion"}; !slices.Equal(f.Plan, want) {
		t.Errorf("GetHealthy, healthy off: %q, plan %q; want %q", f.Summary, f.Plan, want)
	}
	f, _ = after(t, tab, f.Seq, "potion_at_shrine off", toggle("potion_at_shrine"))
	request = `{"goal": "GetHealthy", "unset": ["spare_crystals", "healthy", "potion_at_shrine"]}`
	if want := planSummary(t, ts.URL, request); len(f.Plan) != 0 || f.Summary != want || len(f.Why) == 0 {
		t.Errorf("GetHealthy, no potion: %q, plan %q, why %q; want %q and explain's reason", f.Summary, f.Plan, f.Why, want)
	}

	// The soldier's KillPlayer.
	f, _ = after(t, tab, f.Seq, "the soldier", choose("domain", "soldier.yaml"))
	soldier := []string{"PickUpGun", "ApproachPlayer", "AttackRanged"}
	if f.Goal != "KillPlayer" || !slices.Equal(f.Plan, soldier) || !strings.HasPrefix(f.Summary, "3 steps · cost 9 · ") {
		t.Errorf("soldier, goal %s: %q, plan %q; want KillPlayer: 3 steps, cost 9, %q", f.Goal, f.Summary, f.Plan, soldier)
	}
	if want := planSummary(t, ts.URL, `{"domain": "soldier", "goal": "KillPlayer"}`); f.Summary != want {
		t.Errorf("soldier: summary %q, want the API's %q", f.Summary, want)
	}

	// Both weapons gone: no plan, and explain's reason.
	f, _ = after(t, tab, f.Seq, "axe_nearby off", toggle("axe_nearby"))
	if len(f.Plan) == 0 {
		t.Errorf("axe_nearby off: %q, no plan; the gun is still there", f.Summary)
	}
	f, _ = after(t, tab, f.Seq, "gun_nearby off", toggle("gun_nearby"))
	request = `{"domain": "soldier.yaml", "goal": "KillPlayer", "unset": ["axe_nearby", "gun_nearby"]}`
	if want := planSummary(t, ts.URL, request); len(f.Plan) != 0 || f.Summary != want {
		t.Errorf("both weapons off: %q, plan %q; want no plan: %q", f.Summary, f.Plan, want)
	}
	code, body := postTo(t, ts.URL, "/api/v1/explain", request)
	var explained struct{ Why []string }
	if err := json.Unmarshal(body, &explained); code != 200 || err != nil || len(explained.Why) == 0 {
		t.Fatalf("explain %s: %d %s", request, code, body)
	}
	if !slices.Equal(f.Why, explained.Why) {
		t.Errorf("both weapons off: the reason shown is %q, want explain's %q", f.Why, explained.Why)
	}
	if f.Error != "" {
		t.Errorf("both weapons off: an error is shown: %q", f.Error)
	}
	screenshot(t, tab, "planner-no-plan")

	// The address keeps the state: a reload shows the same figure.
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatalf("reload: %v", err)
	}
	g, _ := after(t, tab, 0, "reload", chromedp.Steps())
	if g.Domain != "soldier.yaml" || g.Goal != "KillPlayer" || !slices.Equal(g.On, f.On) || g.Summary != f.Summary {
		t.Errorf("after a reload: %s, %s, facts on %q, %q; want %s, %s, %q, %q", g.Domain, g.Goal, g.On, g.Summary, f.Domain, f.Goal, f.On, f.Summary)
	}
	f = g

	// Reset puts the initial state back, keeping the goal.
	f, _ = after(t, tab, f.Seq, "reset", chromedp.Click(chromedp.ID("reset")))
	if f.Goal != "KillPlayer" || !slices.Equal(f.Plan, soldier) {
		t.Errorf("reset: goal %s, plan %q; want KillPlayer's %q", f.Goal, f.Plan, soldier)
	}

	// The started file: its goal and facts, its plan, its name quoted.
	f, _ = after(t, tab, f.Seq, "the started file", choose("domain", worker))
	if want := []string{"GetAxe", "Chop"}; f.Goal != "HaveWood" || !slices.Equal(f.On, []string{"axe_in_shed"}) || !slices.Equal(f.Plan, want) {
		t.Errorf("%s: goal %s, facts on %q, plan %q; want HaveWood, [axe_in_shed], %q", worker, f.Goal, f.On, f.Plan, want)
	}
	quoted := "'" + strings.ReplaceAll(worker, "'", `'\''`) + "'"
	if want := "ploy plan " + quoted + " --goal HaveWood"; f.Command != want {
		t.Errorf("the command shown: %q, want %q", f.Command, want)
	}
	injected, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('b').length`))
	if err != nil || injected != 0 {
		t.Errorf("the file's name made %d <b> elements (%v): it must be shown as text", injected, err)
	}
}

// workerDomain is a domain that is none of the shipped ones, the GOAP
// lesson's colony worker who needs an axe before chopping.
const workerDomain = `name: worker
facts: [has_axe, axe_in_shed, wood]
initial: {axe_in_shed: true}
actions:
  - name: GetAxe
    preconditions: {axe_in_shed: true, has_axe: false}
    effects: {has_axe: true, axe_in_shed: false}
    cost: 2
  - name: Chop
    preconditions: {has_axe: true}
    effects: {wood: true}
    cost: 3
goals:
  - name: HaveWood
    conditions: {wood: true}
`

// spread formats a sample as its median, least and most.
func spread(sample []float64) string {
	s := slices.Clone(sample)
	sort.Float64s(s)
	return fmt.Sprintf("median %.1f (%.1f to %.1f)", s[len(s)/2], s[0], s[len(s)-1])
}
