package inspect_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/inspect"
	"github.com/ploy-ai/ploy/internal/testkit/browser"
)

// pageClient is the client id the page's requests carry, read from its
// record link (/api/v1/recording?client=ID).
func pageClient(t *testing.T, tab context.Context) string {
	t.Helper()
	href := browser.Read[string](t, tab, "the record link", `document.getElementById('record').href`)
	u, err := url.Parse(href)
	if err != nil || u.Query().Get("client") == "" {
		t.Fatalf("the record link %q carries no client id", href)
	}
	return u.Query().Get("client")
}

// TestBrowserBreakpointsSurviveAReload: the page's breakpoints and the
// pause they caused belong to its tab (docs/inspector.md: one client id
// per tab; they hold while the tab is open), so reloading the page keeps
// them: the reloaded page is the same client, and the game stays paused
// past the heartbeat timeout.
func TestBrowserBreakpointsSurviveAReload(t *testing.T) {
	const timeout = 500 * time.Millisecond
	g := newGame(t, 12, 1, inspect.Options{HeartbeatTimeout: timeout})
	ts := serve(t, g.ins)
	stop := make(chan struct{})
	done := g.loop(stop, 3*time.Millisecond)
	t.Cleanup(func() {
		g.ins.Close()
		close(stop)
		<-done
	})
	tab := browser.Start(t, 60*time.Second)
	checkConsole := browser.WatchConsole(t, tab)
	defer checkConsole()
	run(t, tab, "opening the page", chromedp.Navigate(ts.URL+"/"))
	pageUntil(t, tab, "the list", `Number(a.count) === 12 && g.stream === 'open'`)
	run(t, tab, "pick mage-003", clickRow("mage-003"))
	pageUntil(t, tab, "mage-003", `p.name === 'mage-003'`)
	run(t, tab, "break on plan", chromedp.Click(chromedp.ID("bp-plan")))
	pageUntil(t, tab, "the breakpoint hit", `g.paused === 'true' && g.reason === 'breakpoint'`)
	before := pageClient(t, tab)

	run(t, tab, "reloading the page", chromedp.Navigate(ts.URL+"/"))
	pageUntil(t, tab, "the page again", `g.stream === 'open' && g.paused === 'true'`)
	if after := pageClient(t, tab); after != before {
		t.Errorf("the reloaded page is client %q, before it %q: its breakpoints and pause are another's, released after the heartbeat timeout", after, before)
	}
	// Well past the timeout, the old page's stream long closed: the game
	// is still held by the breakpoint.
	time.Sleep(4 * timeout)
	var st state
	api{t, ts.URL, "test"}.get("/api/v1/state", &st)
	if !st.Paused || len(st.Breakpoints) != 1 || st.Breakpoints[0].Client != before {
		t.Errorf("after the reload and %v: paused %v, breakpoints %+v; want still paused by %s's breakpoint", 4*timeout, st.Paused, st.Breakpoints, before)
	}
	// The tab leaves the page for another: a heartbeat timeout later the
	// game runs on, its breakpoint gone. (Chromium keeps the page left,
	// frozen, for the back button: its event stream, left open, held the
	// game for good.)
	run(t, tab, "leaving the page", chromedp.Navigate("about:blank"))
	waitFor(t, "the game released", func() bool {
		var st state
		api{t, ts.URL, "test"}.get("/api/v1/state", &st)
		return !st.Paused && len(st.Breakpoints) == 0
	})
	at := g.tick.Load()
	waitFor(t, "the game running on", func() bool { return g.tick.Load() > at+3 })
}

// TestBrowserBackToTheLiveGame: a recording opened from a live game, then
// "back to the live game": the live controls return, the list and the
// picked agent follow the game again, and the timeline goes.
func TestBrowserBackToTheLiveGame(t *testing.T) {
	g := newGame(t, 12, 1, inspect.Options{})
	ts := serve(t, g.ins)
	stop := make(chan struct{})
	done := g.loop(stop, 3*time.Millisecond)
	t.Cleanup(func() {
		g.ins.Close()
		close(stop)
		<-done
	})
	tab := browser.Start(t, 60*time.Second)
	checkConsole := browser.WatchConsole(t, tab)
	defer checkConsole()
	run(t, tab, "opening the page", chromedp.Navigate(ts.URL+"/"))
	pageUntil(t, tab, "the list", `Number(a.count) === 12 && g.stream === 'open'`)
	run(t, tab, "pick mage-003", clickRow("mage-003"))
	pageUntil(t, tab, "mage-003", `p.name === 'mage-003' && Number(p.decisions) > 0`)

	resp, err := http.Get(ts.URL + "/api/v1/recording")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	path := filepath.Join(t.TempDir(), "game.jsonl")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, tab, "open the recording", chromedp.SetUploadFiles(chromedp.ID("open-file"), []string{path}))
	v := pageUntil(t, tab, "the recording", `g.source === 'recording' && Number(a.count) === 12`)
	if v.Picked != "mage-003" {
		t.Errorf("the recording shows %q picked, want mage-003 still", v.Picked)
	}
	// Meanwhile the game runs on: the page, on the recording, does not
	// follow it.
	recorded := browser.Read[string](t, tab, "the recording's version", `document.getElementById('agent').dataset.version || ''`)

	run(t, tab, "back to the live game", chromedp.Click(chromedp.ID("back-live")))
	at := int(g.tick.Load())
	v = pageUntil(t, tab, "the live game again", fmt.Sprintf(`g.source === 'live' && !document.getElementById('live-controls').hidden && document.getElementById('timeline-panel').hidden && document.getElementById('back-live').hidden && Number(g.frame) > %d && p.name === 'mage-003' && (p.version || '') !== %q`, at, recorded))
	if v.Error != "" {
		t.Errorf("back on the live game the page says %q", v.Error)
	}
	// The list is the API's again: every agent, with live statuses.
	var list []struct{ Name, Status string }
	api{t, ts.URL, "test"}.get("/api/v1/agents", &list)
	v = pageUntil(t, tab, "the live list", `Number(a.count) === 12 && [...document.querySelectorAll('#agent-list tbody td.status')].every((td) => !['found', 'none yet'].includes(td.textContent))`)
	if len(v.Names) != len(list) {
		t.Errorf("the live list shows %d agents, the API %d", len(v.Names), len(list))
	}
	// And it keeps following: frames later, the picked agent's panel is
	// asked for again.
	version := browser.Read[string](t, tab, "the version", `document.getElementById('agent').dataset.version || ''`)
	pageUntil(t, tab, "the panel following the game", fmt.Sprintf(`(p.version || '') !== %q`, version))
}

// TestBrowserLongRecordingTimelineIsBounded: an agent with thousands of
// decisions in a recording (a game's FlightRecorder keeps 65,536) draws a
// bounded timeline, the decisions around the tick scrubbed to: one mark
// a decision made every scrub of the slider redraw thousands of marks
// (a second a step at 20,000). The decision shown is still the last at or
// before the tick, and a mark clicked scrubs to its tick.
func TestBrowserLongRecordingTimelineIsBounded(t *testing.T) {
	const n = 5000
	rec := &agent.Recording{Header: agent.RecordHeader{Format: agent.RecordFormat, Version: agent.RecordVersion}}
	for i := range n {
		rec.Decisions = append(rec.Decisions, agent.Decision{Tick: 2 * (i + 1), Agent: "solo", Kind: "goap", Decided: "plan", Reason: "start",
			Goal: "G", Status: "found", Plan: []agent.DecisionStep{{Action: "x", Cost: 1}}, Cost: 1})
	}
	replay, err := inspect.NewReplay(rec, inspect.ReplayOptions{Name: "long.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(replay)
	defer ts.Close()
	tab := browser.Start(t, 60*time.Second)
	checkConsole := browser.WatchConsole(t, tab)
	defer checkConsole()
	run(t, tab, "opening the replay", chromedp.Navigate(ts.URL+"/"))
	pageUntil(t, tab, "the recording", `g.source === 'recording' && Number(a.count) === 1`)
	run(t, tab, "pick solo", clickRow("solo"))
	marks := func() int {
		return browser.Read[int](t, tab, "the marks", `document.querySelectorAll('#timeline rect.mark').length`)
	}
	v := pageUntil(t, tab, "solo", `p.name === 'solo'`)
	if m := marks(); v.Decisions != n || m == 0 || m > 200 {
		t.Errorf("solo: %d decisions, %d marks drawn; want all %d decisions and at most 200 marks", v.Decisions, m, n)
	}
	// Scrub to an odd tick in the middle: its decision is the one before.
	run(t, tab, "scrub", chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById('scrub'); s.value = '5001'; s.dispatchEvent(new Event('input')); })()`))
	v = pageUntil(t, tab, "tick 5001", `g.tick === '5001'`)
	if m := marks(); v.Shown != "5000" || m == 0 || m > 200 {
		t.Errorf("at tick 5001: decision %q shown, %d marks; want 5000's and at most 200 marks", v.Shown, m)
	}
	browser.Screenshot(t, tab, "agent", "inspector-long-timeline")
	// The marks drawn are around it: the first and the last mark's ticks
	// hold 5001 between them. Click the last: the page scrubs there.
	span := browser.Read[[]int](t, tab, "the marks' ticks", `(() => { const ms = [...document.querySelectorAll('#timeline rect.mark')]; return [ms[0], ms[ms.length - 1]].map((m) => Number(m.querySelector('title').textContent.match(/^tick (\d+)/)[1])); })()`)
	if span[0] > 5001 || span[1] < 5001 {
		t.Errorf("the marks drawn run from tick %d to %d, not around 5001", span[0], span[1])
	}
	run(t, tab, "click the last mark", chromedp.Evaluate[chromedp.Void](`(() => { const ms = document.querySelectorAll('#timeline rect.mark'); ms[ms.length - 1].dispatchEvent(new MouseEvent('click', {bubbles: true})); })()`))
	v = pageUntil(t, tab, "the last mark's tick", fmt.Sprintf(`g.tick === '%d'`, span[1]))
	if v.Shown != fmt.Sprint(span[1]) {
		t.Errorf("after a click on the mark of tick %d, decision %q shown", span[1], v.Shown)
	}
}

// TestBrowserPageShowsWhatTheAPISays: with the game paused (so nothing
// moves), the page's list and the picked agent's panel say what the API
// answers: every row's kind, goal, status, replans and searches; the
// agent's summary, plan steps, facts and goal options.
func TestBrowserPageShowsWhatTheAPISays(t *testing.T) {
	g := newGame(t, 30, 1, inspect.Options{})
	ts := serve(t, g.ins)
	stop := make(chan struct{})
	done := g.loop(stop, 3*time.Millisecond)
	t.Cleanup(func() {
		g.ins.Close()
		close(stop)
		<-done
	})
	tab := browser.Start(t, 60*time.Second)
	checkConsole := browser.WatchConsole(t, tab)
	defer checkConsole()
	run(t, tab, "opening the page", chromedp.Navigate(ts.URL+"/"))
	pageUntil(t, tab, "the list", `Number(a.count) === 30 && g.stream === 'open'`)
	run(t, tab, "pick mage-011", clickRow("mage-011"))
	pageUntil(t, tab, "mage-011", `p.name === 'mage-011' && Number(p.decisions) > 0`)
	// Pause from the page, wait for its copy of the paused frame.
	run(t, tab, "pause", chromedp.Click(chromedp.ID("pause")))
	v := pageUntil(t, tab, "paused", `g.paused === 'true'`)
	var list []struct {
		Name, Kind, Goal, Status string
		Plans, Replans           int
		Version                  int64
	}
	var d struct {
		Name, Kind, Goal, Status string
		Plans, Replans, Tick     int
		Version                  int64
		Steps                    []struct{ Action string }
		Facts                    []string
		Options                  []struct{ Goal string }
	}
	c := api{t, ts.URL, "test"}
	c.get("/api/v1/agents?sort=replans&limit=500", &list)
	c.get("/api/v1/agents/mage-011", &d)
	// The page asks again after the pause's event: wait for the copy it
	// shows to be the API's.
	v = pageUntil(t, tab, "the paused copy", fmt.Sprintf(`p.version === '%d' && [...document.querySelectorAll('#agent-list tbody tr')].length === 30`, d.Version))
	// The list is fetched again after the pause's event too; a copy
	// fetched just before the game stopped may show a frame or two
	// earlier until then, so the rows are read until they are the API's,
	// for at most ten seconds.
	var wrong []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		rows := browser.Read[[][]string](t, tab, "the rows", `[...document.querySelectorAll('#agent-list tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent))`)
		byName := map[string][]string{}
		for _, r := range rows {
			byName[r[0]] = r
		}
		wrong = wrong[:0]
		for _, a := range list {
			want := []string{a.Name, a.Kind, a.Goal, strings.Replace(a.Status, "_", " ", 1), fmt.Sprintf("%d / %d", a.Replans, a.Plans)}
			if want[2] == "" {
				want[2] = "—"
			}
			if got := byName[a.Name]; !slices.Equal(got, want) {
				wrong = append(wrong, fmt.Sprintf("row of %s: %q, the API %q", a.Name, got, want))
			}
		}
		if len(wrong) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, w := range wrong {
		t.Error(w)
	}
	goal := " · goal " + d.Goal
	if d.Goal == "" {
		goal = " · no goal"
	}
	wantSummary := fmt.Sprintf("%s%s · %s · %d %s, %d %s · its tick %d", d.Kind, goal, strings.Replace(d.Status, "_", " ", 1),
		d.Plans, map[bool]string{true: "search", false: "searches"}[d.Plans == 1], d.Replans, map[bool]string{true: "replan", false: "replans"}[d.Replans == 1], d.Tick)
	if v.Summary != wantSummary {
		t.Errorf("the panel's summary: %q, the API's %q", v.Summary, wantSummary)
	}
	if v.Steps != len(d.Steps) || v.Facts != max(len(d.Facts), 0) {
		t.Errorf("the panel: %d steps, %d facts; the API %d steps, %d facts", v.Steps, v.Facts, len(d.Steps), len(d.Facts))
	}
	var goals []string
	for _, o := range d.Options {
		goals = append(goals, o.Goal)
	}
	if !slices.Equal(v.Options, goals) {
		t.Errorf("the panel's options %q, the API's %q", v.Options, goals)
	}
	run(t, tab, "resume", chromedp.Click(chromedp.ID("resume")))
	pageUntil(t, tab, "running", `g.paused === 'false'`)
}

// TestBrowserARecordingStaysSoWhileTheGamePauses: a recording opened on
// a live game stays what the page shows when the game pauses meanwhile
// (another client's pause, a breakpoint): the line still names the
// recording, no hits show under it; back on the live game, the pause does.
func TestBrowserARecordingStaysSoWhileTheGamePauses(t *testing.T) {
	g := newGame(t, 12, 1, inspect.Options{})
	ts := serve(t, g.ins)
	stop := make(chan struct{})
	done := g.loop(stop, 3*time.Millisecond)
	t.Cleanup(func() {
		g.ins.Close()
		close(stop)
		<-done
	})
	tab := browser.Start(t, 60*time.Second)
	checkConsole := browser.WatchConsole(t, tab)
	defer checkConsole()
	run(t, tab, "opening the page", chromedp.Navigate(ts.URL+"/"))
	pageUntil(t, tab, "the list", `Number(a.count) === 12 && g.stream === 'open'`)
	resp, err := http.Get(ts.URL + "/api/v1/recording")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	path := filepath.Join(t.TempDir(), "game.jsonl")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, tab, "open the recording", chromedp.SetUploadFiles(chromedp.ID("open-file"), []string{path}))
	pageUntil(t, tab, "the recording", `g.source === 'recording'`)
	c := api{t, ts.URL, "other"}
	if code := c.post("/api/v1/pause", nil, nil); code != 200 {
		t.Fatalf("POST /api/v1/pause: %d", code)
	}
	v := pageUntil(t, tab, "the game paused", `g.paused === 'true'`)
	if !strings.HasPrefix(v.GameState, "recording ") || !browser.Read[bool](t, tab, "hits hidden", `document.getElementById('hits').hidden`) {
		t.Errorf("a recording shown while the game paused: the line says %q; want it to name the recording", v.GameState)
	}
	run(t, tab, "back to the live game", chromedp.Click(chromedp.ID("back-live")))
	pageUntil(t, tab, "the live game, paused", `g.source === 'live' && document.getElementById('game-state').textContent.startsWith('paused at frame')`)
	c.post("/api/v1/resume", nil, nil)
}
