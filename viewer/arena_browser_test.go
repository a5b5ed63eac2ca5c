package viewer_test

import (
	"bufio"
	"bytes"
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

// arenaFigure is what figure 7 shows, read from the page.
type arenaFigure struct {
	Batch       string     `json:"batch"`  // none, running, done, error
	Replay      string     `json:"replay"` // none, loading, paused, playing, ended, error
	Progress    string     `json:"progress"`
	Done, Total int        // the progress bar
	Rows        [][]string `json:"rows"`
	Charts      []string   `json:"charts"` // the charts' names, each an <svg> in the page
	Error       string     `json:"error"`
	ReplayError string     `json:"replayError"`
	Name        string     `json:"name"`
	Tick        string     `json:"tick"`
	Last        string     `json:"last"`
	Scrubber    string     `json:"scrubber"`
	Health      string     `json:"health"`
	Charges     string     `json:"charges"`
	Timeline    []string   `json:"timeline"` // each entry's tick
	Now         string     `json:"now"`      // the tick of the entry marked as now
	FrameMs     string     `json:"frameMs"`
	DrawMs      string     `json:"drawMs"`
	// The charts' text font beside the page's, every label of the bar
	// charts, the health chart's title and its data lines' colours in the
	// order drawn (the last on top).
	ChartFont   string   `json:"chartFont"`
	PageFont    string   `json:"pageFont"`
	BarTexts    []string `json:"barTexts"`
	HealthTitle string   `json:"healthTitle"`
	HealthLines []string `json:"healthLines"`
	// The colour of an interruption taken in the timeline, and of an error.
	TakenColor string `json:"takenColor"`
	Red        string `json:"red"`
	Placed     string `json:"placed"` // the boxes of the mage and the places' names drawn
}

const readArena = `(() => {
	const f = document.getElementById('arena-figure');
	const text = (id) => document.getElementById(id).textContent;
	const now = document.querySelector('#arena-timeline li.now');
	return {
		batch: f.dataset.batch, replay: f.dataset.replay,
		progress: text('arena-progress-text'),
		Done: document.getElementById('arena-progress').value, Total: document.getElementById('arena-progress').max,
		rows: [...document.querySelectorAll('#arena-table tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
		charts: [...document.querySelectorAll('#arena-charts .arena-chart')].filter((c) => c.querySelector('svg')).map((c) => c.dataset.name),
		error: document.getElementById('arena-error').hidden ? '' : text('arena-error'),
		replayError: document.getElementById('arena-replay-error').hidden ? '' : text('arena-replay-error'),
		name: text('arena-replay-name'), tick: text('arena-tick'), last: text('arena-last'),
		scrubber: document.getElementById('arena-scrubber').value,
		health: text('arena-health'), charges: text('arena-charges'),
		timeline: [...document.querySelectorAll('#arena-timeline li')].map((li) => li.dataset.tick),
		now: now ? now.dataset.tick : '',
		frameMs: document.getElementById('arena-canvas').dataset.frameMs || '',
		drawMs: document.getElementById('arena-canvas').dataset.drawMs || '',
		chartFont: (() => { const e = document.querySelector('#arena-charts svg text'); return e ? getComputedStyle(e).fontFamily : ''; })(),
		pageFont: getComputedStyle(document.body).fontFamily,
		barTexts: [...document.querySelectorAll('#arena-charts .arena-chart:not(.wide) svg text')].map((e) => e.textContent),
		healthTitle: (() => { const e = document.querySelector('#arena-charts .arena-chart.wide'); return e ? e.getAttribute('aria-label') : ''; })(),
		// A data line has many points; the axes' ticks and the legend's
		// samples have two.
		healthLines: [...document.querySelectorAll('#arena-charts .arena-chart.wide svg path')]
			.filter((p) => (p.getAttribute('d').match(/L/g) || []).length > 20).map((p) => getComputedStyle(p).stroke),
		takenColor: (() => { const e = document.querySelector('#arena-timeline .ev-interruption-taken .ev-text'); return e ? getComputedStyle(e).color : ''; })(),
		red: getComputedStyle(document.getElementById('arena-error')).color,
		placed: document.getElementById('arena-canvas').dataset.placed || '',
	};
})()`

func arenaShown(t *testing.T, tab context.Context) arenaFigure {
	t.Helper()
	return browser.Read[arenaFigure](t, tab, "figure 7", readArena)
}

// waitArena waits until the JavaScript condition cond holds on the page.
func waitArena(t *testing.T, tab context.Context, what, cond string) arenaFigure {
	t.Helper()
	return browser.WaitFor[arenaFigure](t, tab, what, cond, 15*time.Second, readArena)
}

// logWorld is a log's world line.
type logWorld struct {
	Tick    int
	Health  float64
	Charges int
}

// worlds reads a log's world lines.
func worlds(t *testing.T, log []byte) []logWorld {
	t.Helper()
	var out []logWorld
	sc := bufio.NewScanner(bytes.NewReader(log))
	for sc.Scan() {
		var line struct {
			World *logWorld `json:"world"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if line.World != nil {
			out = append(out, *line.World)
		}
	}
	return out
}

// mageAt is where a log's world line for tick puts the mage.
func mageAt(t *testing.T, log []byte, tick int) [2]float64 {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(log))
	for sc.Scan() {
		var line struct {
			World *struct {
				Tick int
				Mage [2]float64
			} `json:"world"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if line.World != nil && line.World.Tick == tick {
			return line.World.Mage
		}
	}
	t.Fatalf("the log has no world line for tick %d", tick)
	return [2]float64{}
}

// lastTick is the tick of a log's last world line.
func lastTick(t *testing.T, log []byte) int {
	t.Helper()
	w := worlds(t, log)
	return w[len(w)-1].Tick
}

// TestBrowserArena drives figure 7: a small batch streams its progress to
// the end and shows the table `ploy arena` prints and the charts; a fight
// of it replays to its last tick; the scrubber and the timeline seek; a
// log `ploy arena --record` wrote opens from a file, and a malformed one
// is refused with its line. It prints the replay's frame times.
func TestBrowserArena(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 60*time.Second)

	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	waitArena(t, tab, "the figure's script", `document.getElementById('arena-figure').dataset.batch === 'none'`)

	// A small batch: two kinds, four fights, seed 2, whose means include
	// exact ties (plans 31.25), which `ploy arena` rounds to even.
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById('arena-fights').value = '4';
		document.getElementById('arena-seed').value = '2';
		for (const c of document.querySelectorAll('#arena-kinds input')) c.checked = c.value === 'goap' || c.value === 'htn';
	})()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("arena-run"))); err != nil {
		t.Fatal(err)
	}
	f := waitArena(t, tab, "the batch", `['done', 'error'].includes(document.getElementById('arena-figure').dataset.batch)`)
	if f.Batch != "done" || f.Error != "" {
		t.Fatalf("the batch: %s, error %q", f.Batch, f.Error)
	}
	if f.Progress != "8/8 fights" || f.Done != 8 || f.Total != 8 {
		t.Errorf("progress at the end: %q, %d of %d; want 8/8 fights", f.Progress, f.Done, f.Total)
	}
	// The table's cells are `ploy arena`'s for the same batch.
	text := string(ploy(t, "arena", "--fights", "4", "--seed", "2", "--agents", "goap,htn"))
	var want [][]string
	for _, line := range strings.Split(text, "\n") {
		if fields := strings.Fields(line); len(fields) == 11 && (fields[0] == "goap" || fields[0] == "htn") {
			want = append(want, fields)
		}
	}
	if len(want) != 2 || !slices.EqualFunc(f.Rows, want, slices.Equal) {
		t.Errorf("the table:\n%q\nwant ploy arena's:\n%q", f.Rows, want)
	}
	if wantCharts := []string{"health.svg", "survived.svg", "killed.svg", "health-mean.svg", "replans.svg", "work.svg"}; !slices.Equal(f.Charts, wantCharts) {
		t.Errorf("charts %q, want %q", f.Charts, wantCharts)
	}
	// The charts in the page's font; the bar charts' axes without
	// needless decimals (the replans' read 0.00, 25.00, 50.00); the health
	// chart's fight numbered as the replay numbers it (from 0), GOAP's line
	// drawn last, on top of the HTN's.
	if f.ChartFont != f.PageFont || f.PageFont == "" {
		t.Errorf("the charts' font %q, the page's %q; want the page's", f.ChartFont, f.PageFont)
	}
	for _, label := range f.BarTexts {
		if strings.HasSuffix(label, ".00") || strings.HasSuffix(label, ".50") {
			t.Errorf("a bar chart's label %q: a needless decimal (all: %q)", label, f.BarTexts)
			break
		}
	}
	if f.HealthTitle != "Mage health in fight 0 of seed 2" {
		t.Errorf("the health chart: %q, want fight 0 of seed 2, as the replay numbers it", f.HealthTitle)
	}
	if goapBlue, htnRed := "rgb(31, 119, 180)", "rgb(214, 39, 40)"; len(f.HealthLines) != 2 || f.HealthLines[1] != goapBlue || f.HealthLines[0] != htnRed {
		t.Errorf("the health chart's lines, in the order drawn: %q; want the HTN's %s, then GOAP's %s on top", f.HealthLines, htnRed, goapBlue)
	}
	browser.Screenshot(t, tab, "arena-figure", "arena-batch")

	// Replay htn's fight 2, in which the mage falls at tick 387: it plays
	// to the fight's last tick, at 30 times the fight's pace.
	code, logBytes := postTo(t, ts.URL, "/api/v1/arena/fight", `{"seed": 2, "fight": 2, "agent": "htn"}`)
	if code != 200 {
		t.Fatalf("the fight's log: %d %s", code, logBytes)
	}
	end := lastTick(t, logBytes)
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById('arena-agent').value = 'htn';
		document.getElementById('arena-fight').value = '2';
		document.getElementById('arena-speed').value = '30';
	})()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("arena-replay-run"))); err != nil {
		t.Fatal(err)
	}
	f = waitArena(t, tab, "the replay", `document.getElementById('arena-figure').dataset.replay === 'paused'`)
	if f.Tick != "0" || f.Last != fmt.Sprint(end) || !strings.HasPrefix(f.Name, "htn-02.jsonl: htn, fight 2 of seed 2") || len(f.Timeline) == 0 {
		t.Fatalf("the replay before playing: tick %s of %s, %q, %d timeline entries; want 0 of %d", f.Tick, f.Last, f.Name, len(f.Timeline), end)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("arena-play"))); err != nil {
		t.Fatal(err)
	}
	f = waitArena(t, tab, "playing to the end", `document.getElementById('arena-figure').dataset.replay === 'ended'`)
	if f.Tick != fmt.Sprint(end) || f.Scrubber != fmt.Sprint(end) {
		t.Errorf("at the end: tick %s, scrubber %s; want the fight's last tick %d", f.Tick, f.Scrubber, end)
	}
	if f.Now != f.Timeline[len(f.Timeline)-1] {
		t.Errorf("at the end the timeline marks the entry at tick %s, want the last, at %s", f.Now, f.Timeline[len(f.Timeline)-1])
	}
	var frames, draws []float64
	if json.Unmarshal([]byte(f.FrameMs), &frames) != nil || json.Unmarshal([]byte(f.DrawMs), &draws) != nil || len(frames) == 0 {
		t.Fatalf("no frame times: %q, %q", f.FrameMs, f.DrawMs)
	}
	t.Logf("replay: %d frames, frame time (requestAnimationFrame) %s ms, so %.0f fps; drawing a frame %s ms",
		len(frames), spread(frames), 1000/median(frames), spread(draws))
	browser.Screenshot(t, tab, "arena-figure", "arena-replay-end")

	// The scrubber seeks, to the middle of the fight.
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const s = document.getElementById('arena-scrubber');
		s.value = '%d';
		s.dispatchEvent(new Event('input', {bubbles: true}));
	})()`, end/2))); err != nil {
		t.Fatal(err)
	}
	mid := worlds(t, logBytes)[end/2-1] // the world after tick end/2
	if f = arenaShown(t, tab); f.Tick != fmt.Sprint(end/2) || f.Replay != "paused" || f.Health != fmt.Sprint(mid.Health) || !strings.HasPrefix(f.Charges, fmt.Sprint(mid.Charges)) {
		t.Errorf("the scrubber at %d: tick %s, %s, health %s, charges %s; want the log's health %g and charges %d", end/2, f.Tick, f.Replay, f.Health, f.Charges, mid.Health, mid.Charges)
	}
	if mid.Tick != end/2 {
		t.Fatalf("the log's world line %d is tick %d", end/2-1, mid.Tick)
	}
	// At tick end/2 the mage stands at the crystal cache: the cache's
	// name is drawn where the mage is not. An interruption taken is not
	// shown in the error red.
	var placed struct {
		Mage   struct{ X, Y, W, H float64 }
		Area   struct{ X, Y, W, H float64 } // the arena's bounds
		Labels []struct {
			Text       string
			X, Y, W, H float64
		}
	}
	if err := json.Unmarshal([]byte(f.Placed), &placed); err != nil || len(placed.Labels) != 2 {
		t.Fatalf("the canvas's boxes drawn: %q (%v)", f.Placed, err)
	}
	if at := mageAt(t, logBytes, end/2); (at[0]-1)*(at[0]-1)+(at[1]-15)*(at[1]-15) > 2*2 {
		t.Fatalf("at tick %d the mage is at %v, not within 2 m of the crystal cache (1, 15): the check below would prove nothing", end/2, at)
	}
	m := placed.Mage
	for _, l := range placed.Labels {
		if l.X < m.X+m.W && m.X < l.X+l.W && l.Y < m.Y+m.H && m.Y < l.Y+l.H {
			t.Errorf("at the crystal cache, %q is drawn at %+v, across the mage at %+v", l.Text, l, m)
		}
		if a := placed.Area; l.X < a.X || l.Y < a.Y || l.X+l.W > a.X+a.W || l.Y+l.H > a.Y+a.H {
			t.Errorf("%q is drawn at %+v, outside the arena %+v", l.Text, l, a)
		}
	}
	if f.TakenColor == "" || f.TakenColor == f.Red || f.Red != "rgb(207, 34, 46)" {
		t.Errorf("an interruption taken in %q, errors in %q; want it not in the error red", f.TakenColor, f.Red)
	}
	browser.Screenshot(t, tab, "arena-replay", "arena-replay")
	// So does the timeline: its fifth entry.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#arena-timeline li:nth-child(5)`))); err != nil {
		t.Fatal(err)
	}
	if f = arenaShown(t, tab); f.Tick != f.Timeline[4] || f.Scrubber != f.Timeline[4] {
		t.Errorf("the timeline's fifth entry: tick %s, scrubber %s; want the entry's %s", f.Tick, f.Scrubber, f.Timeline[4])
	}

	// A log `ploy arena --record` wrote, opened from the file input.
	dir := t.TempDir()
	ploy(t, "arena", "--fights", "2", "--seed", "9", "--agents", "htn-break", "--record", dir)
	file := filepath.Join(dir, "htn-break-01.jsonl")
	recorded, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.ID("arena-file"), []string{file})); err != nil {
		t.Fatal(err)
	}
	f = waitArena(t, tab, "the file", `document.getElementById('arena-replay-name').textContent.startsWith('htn-break-01.jsonl')`)
	if fileEnd := lastTick(t, recorded); f.Last != fmt.Sprint(fileEnd) || f.Tick != "0" || f.ReplayError != "" ||
		f.Name != "htn-break-01.jsonl: htn-break, fight 1 of seed 9, from the file" {
		t.Errorf("the file: %q, tick %s of %s, error %q; want tick 0 of %d", f.Name, f.Tick, f.Last, f.ReplayError, fileEnd)
	}
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`document.getElementById('arena-speed').value = '100'`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("arena-play"))); err != nil {
		t.Fatal(err)
	}
	f = waitArena(t, tab, "playing the file to the end", `document.getElementById('arena-figure').dataset.replay === 'ended'`)
	if f.Tick != f.Last {
		t.Errorf("the file played to tick %s, want %s", f.Tick, f.Last)
	}

	// Malformed files: each is refused with where and why, and the replay
	// on screen stays.
	first, _, _ := strings.Cut(string(recorded), "\n")
	for _, c := range []struct{ name, body, want string }{
		{"notjson.jsonl", "hello\n", "notjson.jsonl line 1: not a JSON object"},
		{"old.jsonl", `{"world":{"tick":1,"mage":[1,2],"health":100,"charges":0,"enemies":[]}}` + "\n", "old.jsonl line 1: no layout"},
		{"skip.jsonl", first + "\n" + `{"world":{"tick":2,"mage":[1,2],"health":100,"charges":0,"enemies":[]}}` + "\n", "skip.jsonl line 2: world tick 2, want 1"},
		{"enemy.jsonl", first + "\n" + `{"world":{"tick":1,"mage":[1,2],"health":100,"charges":0,"enemies":[[1]]}}` + "\n", "enemy.jsonl line 2: each enemy must be two numbers"},
		{"empty.jsonl", "", "empty.jsonl: the file is empty"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.ID("arena-file"), []string{path})); err != nil {
			t.Fatal(err)
		}
		f = waitArena(t, tab, c.name, `document.getElementById('arena-replay-error').textContent.startsWith(`+fmt.Sprintf("%q", c.name)+`)`)
		if !strings.HasPrefix(f.ReplayError, c.want) || !strings.HasPrefix(f.Name, "htn-break-01.jsonl") {
			t.Errorf("%s: error %q, replay %q; want %q and the replay kept", c.name, f.ReplayError, f.Name, c.want)
		}
	}
	browser.Screenshot(t, tab, "arena-figure", "arena-bad-file")
}

// median is the middle of a sample.
func median(sample []float64) float64 {
	s := slices.Clone(sample)
	slices.Sort(s)
	return s[len(s)/2]
}
