package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/cmd/ploy/cli"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/browser"
)

// recordMages plays n battle mages for ticks ticks, each in a world of
// its own where an enemy comes back every few ticks, and writes their
// decisions as a recording in dir.
func recordMages(t *testing.T, dir string, n, ticks int) (string, *agent.Recording) {
	t.Helper()
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	dead, _ := d.Fact("enemy_dead")
	fr := agent.NewFlightRecorder(1<<16, 64<<20)
	var mages []*agent.Agent
	var worlds []goap.State
	for i := range n {
		world := d.Initial()
		behaviours := map[string]agent.Behaviour{}
		for id := range goap.ActionID(d.NumActions()) {
			behaviours[d.ActionName(id)] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
				d.Apply(id, world)
				return agent.Success
			}}
		}
		a, err := agent.New(agent.Config{Name: fmt.Sprintf("mage-%02d", i), Domain: d, Behaviours: behaviours, Decisions: fr,
			Goals:  []agent.GoalOption{{Goal: d.Goal("Kill"), Priority: 5}},
			Sensor: func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) }})
		if err != nil {
			t.Fatal(err)
		}
		mages, worlds = append(mages, a), append(worlds, world)
	}
	for tick := 1; tick <= ticks; tick++ {
		for i, w := range worlds {
			if tick%(6+i%4) == 0 && w.Has(dead) {
				w.CopyFrom(d.Initial())
			}
		}
		for _, m := range mages {
			m.Tick()
		}
	}
	var buf bytes.Buffer
	if err := fr.WriteJSONL(&buf, agent.RecordHeader{Domain: "battlemage.yaml"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mages.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := agent.ReadRecording(bytes.NewReader(buf.Bytes()), path, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	return path, rec
}

// TestBrowserServeReplay runs `ploy serve --replay FILE` and drives its
// page in Chromium: every agent of the recording listed, one picked, the
// timeline scrubbed to a tick and the agent shown as its last decision at
// or before it left it; then the server stops cleanly.
func TestBrowserServeReplay(t *testing.T) {
	path, rec := recordMages(t, t.TempDir(), 12, 60)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	defer cli.StopServeWith(ctx)()
	out, outW := io.Pipe()
	var stderr bytes.Buffer
	status := make(chan int, 1)
	go func() {
		status <- cli.Main([]string{"serve", "--replay", path, "--addr", "127.0.0.1:0"}, nil, outW, &stderr)
		outW.Close()
	}()
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("ploy serve --replay printed nothing; stderr %q", stderr.String())
	}
	first := lines.Text()
	go io.Copy(io.Discard, out)
	m := regexp.MustCompile(`^ploy serve: (http://\S+)/ \(recording \S+: (\d+) decisions of 12 agents; Ctrl-C stops\)$`).FindStringSubmatch(first)
	if m == nil || m[2] != fmt.Sprint(len(rec.Decisions)) {
		t.Fatalf("ploy serve --replay says %q; want its address and the recording's %d decisions of 12 agents", first, len(rec.Decisions))
	}
	url := m[1]

	// The API answers the recording, as it was read.
	resp, err := http.Get(url + "/api/v1/recording")
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	again, err := agent.ReadRecording(bytes.NewReader(served), "served", 64<<20)
	if err != nil || len(again.Decisions) != len(rec.Decisions) || again.Header.Domain != "battlemage.yaml" {
		t.Fatalf("GET /api/v1/recording: %v, %d decisions; want the file's %d", err, len(again.Decisions), len(rec.Decisions))
	}
	resp, err = http.Post(url+"/api/v1/pause", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST /api/v1/pause on a replay: %d, want 404 (no game to pause)", resp.StatusCode)
	}

	tab := browser.Start(t, 60*time.Second)
	checkConsole := browser.WatchConsole(t, tab)
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1280, 1000), chromedp.Navigate(url+"/")); err != nil {
		t.Fatal(err)
	}
	const read = `(() => { const g = document.getElementById('game').dataset, a = document.getElementById('agents').dataset, p = document.getElementById('agent').dataset;
		return {source: g.source || '', decisions: Number(g.decisions || 0), count: Number(a.count || 0), tick: Number(g.tick || -1), picked: p.name || '', shown: p.shown || '',
			live: !document.getElementById('live-controls').hidden, error: document.getElementById('game-error').textContent}; })()`
	type view struct {
		Source    string
		Decisions int
		Count     int
		Tick      int
		Picked    string
		Shown     string
		Live      bool
		Error     string
	}
	v := browser.WaitFor[view](t, tab, "the replay", `document.getElementById('game').dataset.source === 'recording' && Number(document.getElementById('agents').dataset.count) === 12`, 15*time.Second, read)
	last := rec.Decisions[len(rec.Decisions)-1].Tick
	if v.Decisions != len(rec.Decisions) || v.Tick != last || v.Live {
		t.Errorf("the replay's page: %+v; want the recording's %d decisions, at its last tick %d, no live controls", v, len(rec.Decisions), last)
	}
	// Pick mage-03, scrub to tick 30: it shows its last decision at or
	// before 30.
	want := -1
	for _, d := range rec.Decisions {
		if d.Agent == "mage-03" && d.Tick <= 30 {
			want = d.Tick
		}
	}
	if want < 0 {
		t.Fatal("mage-03 decided nothing by tick 30")
	}
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		document.querySelector('#agent-list tr[data-name="mage-03"]').click();
		const s = document.getElementById('scrub');
		s.value = '30';
		s.dispatchEvent(new Event('input'));
	})()`)); err != nil {
		t.Fatal(err)
	}
	v = browser.WaitFor[view](t, tab, "scrubbed to tick 30", `document.getElementById('game').dataset.tick === '30' && document.getElementById('agent').dataset.name === 'mage-03'`, 15*time.Second, read)
	if v.Shown != fmt.Sprint(want) {
		t.Errorf("at tick 30 mage-03 shows its decision of tick %q, want %d", v.Shown, want)
	}
	browser.Screenshot(t, tab, "game", "serve-replay")
	checkConsole()

	stop()
	if got := <-status; got != 0 {
		t.Errorf("ploy serve --replay exited %d after its stop, want 0; stderr %q", got, stderr.String())
	}
}
