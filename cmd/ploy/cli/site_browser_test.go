package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// buildSite runs `ploy site` into a new directory and returns it. It
// builds ploy.wasm: a minute or more on a cold build cache.
func buildSite(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "public")
	var stdout, stderr bytes.Buffer
	if st := cli.Main([]string{"site", dir}, nil, &stdout, &stderr); st != 0 {
		t.Fatalf("ploy site exited %d: %s%s", st, stdout.String(), stderr.String())
	}
	return dir
}

// siteView is what the static site's figures show.
type siteView struct {
	State         string     `json:"state"` // #site-status's data-state: loading, ready, failed
	Status        string     `json:"status"`
	Seq           string     `json:"seq"`
	Summary       string     `json:"summary"`
	Plan          []string   `json:"plan"`
	Errors        []string   `json:"errors"` // every figure's error line shown
	HTNResult     string     `json:"htnResult"`
	HTNPlan       []string   `json:"htnPlan"`
	Resolver      string     `json:"resolver"`
	ResolverChain []string   `json:"resolverChain"`
	SearchNodes   int        `json:"searchNodes"`
	TreeVerdict   string     `json:"treeVerdict"`
	Personalities string     `json:"personalities"`
	LiveEnd       string     `json:"liveEnd"`
	LiveDone      []string   `json:"liveDone"`
	LiveCommand   string     `json:"liveCommand"`
	Batch         string     `json:"batch"`
	Progress      string     `json:"progress"`
	ArenaRows     [][]string `json:"arenaRows"`
	ReplayName    string     `json:"replayName"`
	ReplayLast    string     `json:"replayLast"`
}

const readSite = `(() => {
	const texts = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent);
	const s = document.getElementById('site-status');
	return {
		state: s.dataset.state, status: s.textContent,
		seq: document.getElementById('planner').dataset.seq,
		summary: document.getElementById('summary').textContent,
		plan: texts('#plan .action'),
		errors: [...document.querySelectorAll('.error')].filter((e) => !e.hidden && e.textContent).map((e) => e.id + ': ' + e.textContent),
		htnResult: document.getElementById('htn-result').textContent,
		htnPlan: texts('#htn-plan li'),
		resolver: document.getElementById('resolver-summary').textContent,
		resolverChain: texts('#resolver-chain .action'),
		searchNodes: document.querySelectorAll('#search-graph g.node').length,
		treeVerdict: document.getElementById('tree-verdict').textContent + document.getElementById('tree-note').textContent,
		personalities: document.getElementById('personalities-sides').textContent + document.getElementById('personalities-none').textContent,
		liveEnd: document.getElementById('live-figure').dataset.end || '',
		liveDone: texts('#live-plan .action.done'),
		liveCommand: document.getElementById('live-command').textContent,
		batch: document.getElementById('arena-figure').dataset.batch || '',
		progress: document.getElementById('arena-progress-text').textContent,
		arenaRows: [...document.querySelectorAll('#arena-table tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
		replayName: document.getElementById('arena-replay-name').textContent,
		replayLast: document.getElementById('arena-last').textContent,
	};
})()`

// nativeCall is the native server's answer to method, to hold the
// page's, planned by ploy.wasm, to it.
func nativeCall(t *testing.T, method, request string) []byte {
	t.Helper()
	s, err := viewer.New(viewer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	status, body := s.Call(context.Background(), method, []byte(request))
	if status != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, request, status, body)
	}
	return body
}

// TestSiteBuilt writes the static site with `ploy site`, building
// ploy.wasm once (slow: -short skips it), then drives ploy.wasm's site
// functions in Node, and the site in Chromium, served and from a file.
func TestSiteBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ploy.wasm: -short skips it")
	}
	dir := buildSite(t)
	t.Run("node", func(t *testing.T) { testSiteNode(t, dir) })
	t.Run("served", func(t *testing.T) {
		browser.Find(t)
		testSiteServed(t, dir)
	})
	t.Run("file", func(t *testing.T) {
		browser.Find(t)
		testSiteFromFile(t, dir)
	})
}

// siteAnswer is what testdata/site_node.js saw of one request.
type siteAnswer struct {
	Status int
	Type   string
	Body   string
	Chunks int
	Error  *string
	Thrown string
}

// testSiteNode runs testdata/site_node.js, which asks ploy.wasm's
// siteStream as the site's script does: its answers must be the native
// server's bytes, its refusals the server's or its own, and neither a
// cancelled stream nor a sink that throws may stop the program.
func testSiteNode(t *testing.T, dir string) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on the PATH (Debian's nodejs package): ploy.wasm's site functions are checked in Chromium only")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "site_node.js"), dir)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node site_node.js: %v\n%s", err, stderr.String())
	}
	var got struct {
		Plan, Resolve, Domains, Unknown, BadJSON, TooLarge, BadArgs, Cancelled, Throwing, After siteAnswer
		CancelledMs                                                                             float64
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node site_node.js printed %q: %v", out, err)
	}
	native, err := viewer.New(viewer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	same := func(name string, a siteAnswer, method, request string) {
		t.Helper()
		status, body := native.Call(context.Background(), method, []byte(request))
		if a.Status != status || a.Body != string(body) || a.Type != "application/json" || a.Error != nil {
			t.Errorf("%s: %d %q %q (error %v); want the native server's %d %q", name, a.Status, a.Type, a.Body, a.Error, status, body)
		}
	}
	same("plan Kill", got.Plan, "plan", `{"goal": "Kill"}`)
	if !strings.Contains(got.Plan.Body, `"cost":7`) {
		t.Errorf("plan Kill: %s, want cost 7", got.Plan.Body)
	}
	same("resolve Warm (a path without its /)", got.Resolve, "resolve", `{"domain": "survivor.yaml", "goal": "Warm"}`)
	same("plan GetHealthy, after a sink that threw", got.After, "plan", `{"goal": "GetHealthy"}`)
	w := httptest.NewRecorder()
	native.ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/domains", nil))
	if got.Domains.Status != 200 || got.Domains.Body != w.Body.String() {
		t.Errorf("GET /api/v1/domains: %d %q; want the native %q", got.Domains.Status, got.Domains.Body, w.Body.String())
	}
	for _, c := range []struct {
		name   string
		a      siteAnswer
		status int
		says   string
	}{
		{"an unknown path", got.Unknown, 404, `{"error":"no such endpoint: /api/v1/nosuch"}`},
		{"malformed JSON", got.BadJSON, 400, `"error":"malformed JSON`},
		{"a 3 MiB body", got.TooLarge, 413, `the request body is larger than 2097152 bytes, the most the page sends`},
	} {
		if c.a.Status != c.status || !strings.Contains(c.a.Body, c.says) || c.a.Type != "application/json" {
			t.Errorf("%s: %d %q %q; want %d and %q", c.name, c.a.Status, c.a.Type, c.a.Body, c.status, c.says)
		}
	}
	if !strings.Contains(got.BadArgs.Thrown, "path must be a string") {
		t.Errorf("siteStream with a number for its path: %+v; want an Error saying path must be a string", got.BadArgs)
	}
	// The stream was cancelled in its first chunk's callback: one tick,
	// then the end, with no error and no "end" event.
	if c := got.Cancelled; c.Status != 200 || c.Type != "text/event-stream" || strings.Count(c.Body, "event: tick") != 1 || strings.Contains(c.Body, "event: end") || c.Error != nil {
		t.Errorf("a live stream cancelled at its first tick: %d %q, %d chunks, error %v, body %q; want one tick, no end event", c.Status, c.Type, c.Chunks, c.Error, c.Body)
	}
	if got.Throwing.Status != 200 {
		t.Errorf("a sink that throws: head %d, want 200 before it threw", got.Throwing.Status)
	}
	t.Logf("a live stream at 2 ticks a second, cancelled at its first tick, ended after %.0f ms", got.CancelledMs)
}

// testSiteServed serves the site with a plain file server under a path
// of its own (the site's addresses are relative) and drives it: ploy.wasm
// loads, and every figure answers from it, as the native server does,
// with nothing in the console.
func testSiteServed(t *testing.T, dir string) {
	mux := http.NewServeMux()
	mux.Handle("/course/figures/", http.StripPrefix("/course/figures/", http.FileServer(http.Dir(dir))))
	ts := httptest.NewServer(mux)
	defer ts.Close()
	tab := browser.Start(t, 3*time.Minute)
	checkConsole := browser.WatchConsole(t, tab)
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1100, 900), chromedp.Navigate(ts.URL+"/course/figures/")); err != nil {
		t.Fatal(err)
	}
	wait := func(what, cond string, timeout time.Duration) siteView {
		t.Helper()
		return browser.WaitFor[siteView](t, tab, what, cond, timeout, readSite)
	}
	click := func(id string) {
		t.Helper()
		if err := chromedp.Do(tab, chromedp.Click(chromedp.ID(id))); err != nil {
			t.Fatalf("clicking #%s: %v", id, err)
		}
	}

	// Figure 1: the battle mage's Kill at cost 7, the summary the
	// native server's.
	v := wait("ploy.wasm and figure 1", `document.getElementById('site-status').dataset.state !== 'loading' && Number(document.getElementById('planner').dataset.seq) > 0`, time.Minute)
	if v.State != "ready" || !strings.Contains(v.Status, "ploy.wasm") {
		t.Fatalf("the site's status: %s, %q; want ready", v.State, v.Status)
	}
	mage := []string{"Approach", "TakeCover", "Recharge", "CastBolt"}
	var plan struct {
		Cost                float64
		Expanded, Generated int
	}
	if err := json.Unmarshal(nativeCall(t, "plan", `{"goal": "Kill"}`), &plan); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("4 steps · cost 7 · %d expanded · %d generated", plan.Expanded, plan.Generated); v.Summary != want || !slices.Equal(v.Plan, mage) {
		t.Errorf("figure 1: %q, %q; want %q, %q", v.Summary, v.Plan, want, mage)
	}
	browser.Screenshot(t, tab, "planner", "site-figure1")

	// The time from a toggle's click to the frame that draws its plan, as
	// the page measures it (data-ms), printed, never asserted.
	var ms []float64
	for i := range 10 {
		seq := browser.Read[string](t, tab, "figure 1's answer", `document.getElementById('planner').dataset.seq`)
		if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#facts input[data-fact="in_range"]`))); err != nil {
			t.Fatal(err)
		}
		got := browser.WaitFor[float64](t, tab, "a toggle's plan", fmt.Sprintf(`(() => { const p = document.getElementById('planner').dataset; return p.seq !== %q && p.seq === p.sent; })()`, seq),
			10*time.Second, `Number(document.getElementById('planner').dataset.ms)`)
		ms = append(ms, got)
		if i == 9 && !strings.Contains(browser.Read[string](t, tab, "the summary", `document.getElementById('summary').textContent`), "cost 7") {
			t.Errorf("in_range toggled ten times: not back to cost 7")
		}
	}
	slices.Sort(ms)
	t.Logf("%s; toggle to new plan on screen, ms over 10 clicks: median %.1f (%.1f to %.1f)", v.Status, ms[5], ms[0], ms[9])
	v = browser.Read[siteView](t, tab, "the site", readSite)

	// spare_crystals off: GetCrystals first, cost 10; figure 3 follows,
	// 21 steps and 2 backtracks as natively.
	seq := v.Seq
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#facts input[data-fact="spare_crystals"]`))); err != nil {
		t.Fatal(err)
	}
	v = wait("spare_crystals off", fmt.Sprintf(`(() => { const p = document.getElementById('planner').dataset, h = document.getElementById('htn-figure').dataset;
		return p.seq !== %q && p.seq === p.sent && Number(h.seq) > 0 && h.seq === h.sent; })()`, seq), 30*time.Second)
	if !strings.Contains(v.Summary, "cost 10") || !slices.Equal(v.Plan, append([]string{"GetCrystals"}, mage...)) {
		t.Errorf("spare_crystals off: %q, %q; want cost 10, GetCrystals first", v.Summary, v.Plan)
	}
	click("htn-end-button")
	v = wait("figure 3 at its end", `document.getElementById('htn-result').textContent.includes('MTR')`, 30*time.Second)
	if !strings.Contains(v.HTNResult, "21 steps") || !strings.Contains(v.HTNResult, "2 backtracks") || !strings.Contains(v.HTNResult, "MTR 2, 3, 2") ||
		!slices.Equal(v.HTNPlan, append([]string{"GetCrystals"}, mage...)) {
		t.Errorf("figure 3: %q, plan %q; want 21 steps, 2 backtracks, MTR 2, 3, 2, GetCrystals first", v.HTNResult, v.HTNPlan)
	}
	browser.Screenshot(t, tab, "htn-figure", "site-figure3")
	click("search-end-button")
	v = wait("figure 2 at its end", `document.querySelectorAll('#search-graph g.node').length > 0`, 30*time.Second)
	browser.Screenshot(t, tab, "search-figure", "site-figure2")

	// Figure 8: the survivor's Warm, as the resolve API answers natively.
	v = wait("figure 8", `(() => { const d = document.getElementById('resolver-figure').dataset; return Number(d.seq) > 0 && d.seq === d.sent; })()`, 30*time.Second)
	var resolve struct {
		Plan []string
		Cost float64
	}
	if err := json.Unmarshal(nativeCall(t, "resolve", `{"domain": "survivor.yaml", "goal": "Warm"}`), &resolve); err != nil {
		t.Fatal(err)
	}
	if want := []string{"GatherWoodSouth", "LightFire", "WarmUp"}; !slices.Equal(v.ResolverChain, want) || !slices.Equal(resolve.Plan, want) ||
		!strings.HasPrefix(v.Resolver, fmt.Sprintf("depth 3 · cost %g · ", resolve.Cost)) {
		t.Errorf("figure 8: %q, %q; want the native %q at cost %g", v.Resolver, v.ResolverChain, resolve.Plan, resolve.Cost)
	}
	browser.Screenshot(t, tab, "resolver-figure", "site-figure8")

	// Figure 4 streams: the battle mage's run at once, to its goal.
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		for (const e of document.querySelectorAll('#facts input[data-fact="spare_crystals"]')) if (!e.checked) e.click();
		const s = document.getElementById('live-speed'); s.value = 'fast'; s.dispatchEvent(new Event('change', {bubbles: true}));
	})()`)); err != nil {
		t.Fatal(err)
	}
	wait("spare_crystals back on", `(() => { const p = document.getElementById('planner').dataset; return p.seq === p.sent && document.getElementById('summary').textContent.includes('cost 7'); })()`, 30*time.Second)
	click("live-run")
	v = wait("figure 4's run", `document.getElementById('live-figure').dataset.end !== undefined && document.getElementById('live-figure').dataset.end !== ''`, time.Minute)
	if v.LiveEnd != "goal_reached" || !slices.Equal(v.LiveDone, mage) {
		t.Errorf("figure 4: end %q, done %q; want goal_reached, %q", v.LiveEnd, v.LiveDone, mage)
	}
	if !strings.Contains(v.LiveCommand, "http://127.0.0.1:7070/api/v1/live") {
		t.Errorf("figure 4's command %q: want ploy serve's address, the site having no server", v.LiveCommand)
	}
	browser.Screenshot(t, tab, "live-figure", "site-figure4")

	// Figure 7 streams its batch: one fight each of goap and htn, the
	// table ploy arena prints; then the replay of htn's fight 0.
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById('arena-fights').value = '1';
		document.getElementById('arena-seed').value = '2';
		for (const c of document.querySelectorAll('#arena-kinds input')) c.checked = c.value === 'goap' || c.value === 'htn';
	})()`)); err != nil {
		t.Fatal(err)
	}
	// The progress as the page saw it, a snapshot per round of the
	// page's reactions: a stream shows a fight's progress before the
	// batch's end, an answer read whole only the end.
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		window.progressSeen = [];
		const p = document.getElementById('arena-progress-text');
		new MutationObserver(() => window.progressSeen.push(p.textContent)).observe(p, {childList: true, characterData: true, subtree: true});
	})()`)); err != nil {
		t.Fatal(err)
	}
	click("arena-run")
	v = wait("figure 7's batch", `['done', 'error'].includes(document.getElementById('arena-figure').dataset.batch)`, 2*time.Minute)
	var out, errOut bytes.Buffer
	if st := cli.Main([]string{"arena", "--fights", "1", "--seed", "2", "--agents", "goap,htn"}, nil, &out, &errOut); st != 0 {
		t.Fatalf("ploy arena: %d %s", st, errOut.String())
	}
	var want [][]string
	for _, line := range strings.Split(out.String(), "\n") {
		if fields := strings.Fields(line); len(fields) == 11 && (fields[0] == "goap" || fields[0] == "htn") {
			want = append(want, fields)
		}
	}
	if v.Batch != "done" || v.Progress != "2/2 fights" || len(want) != 2 || !slices.EqualFunc(v.ArenaRows, want, slices.Equal) {
		t.Errorf("figure 7: batch %s, %q, table %q; want done, 2/2 fights and ploy arena's %q", v.Batch, v.Progress, v.ArenaRows, want)
	}
	if seen := browser.Read[[]string](t, tab, "the progress seen", `window.progressSeen`); !slices.Contains(seen, "1/2 fights") {
		t.Errorf("figure 7's progress went %q: want 1/2 fights on the way, streamed", seen)
	}
	browser.Screenshot(t, tab, "arena-results", "site-figure7")

	// Figures 2, 5 and 6 answer too; no figure shows an error.
	if v.SearchNodes == 0 || v.TreeVerdict == "" || v.Personalities == "" || len(v.Errors) > 0 {
		t.Errorf("figures 2, 5, 6: %d search nodes, tree %q, personalities %q; errors %q", v.SearchNodes, v.TreeVerdict, v.Personalities, v.Errors)
	}
	browser.Screenshot(t, tab, "site-status", "site-status")
	checkConsole()
}

// testSiteFromFile opens the site's index.html as a file: the browser
// refuses the page's fetch of ploy.wasm (saying so in the console), and
// the page says so, with what to do, above the figures.
func testSiteFromFile(t *testing.T, dir string) {
	tab := browser.Start(t, time.Minute)
	checkConsole := browser.WatchConsole(t, tab, "blocked by CORS policy", "Failed to load resource: net::ERR_FAILED")
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1100, 900), chromedp.Navigate("file://"+filepath.Join(dir, "index.html"))); err != nil {
		t.Fatal(err)
	}
	v := browser.WaitFor[siteView](t, tab, "the page from a file", `document.getElementById('site-status').dataset.state === 'failed' && document.getElementById('summary').textContent.includes('from a file')`, 30*time.Second, readSite)
	if !strings.Contains(v.Status, "python3 -m http.server") || !strings.Contains(v.Status, "ploy serve") {
		t.Errorf("from a file, the site's status: %q; want what to do: a static server, or ploy serve", v.Status)
	}
	browser.Screenshot(t, tab, "site-status", "site-file")
	checkConsole()
}
