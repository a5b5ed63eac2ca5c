package arena_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/arena"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

func domainsForArena(t testing.TB) (*goap.Domain, *htn.Domain) {
	t.Helper()
	g, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	h, err := htn.NewDomain(g, domains.BattleMageHTN())
	if err != nil {
		t.Fatal(err)
	}
	return g, h
}

func table(t testing.TB, cfg arena.Config) string {
	t.Helper()
	tab, err := arena.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	tab.WriteText(&sb)
	tab.WriteJSON(&sb)
	return sb.String()
}

// TestSameSeedSameTable runs the default batch on fresh domains several
// times and compares the tables, text and JSON, byte for byte.
func TestSameSeedSameTable(t *testing.T) {
	g, h := domainsForArena(t)
	first := table(t, arena.Config{GOAP: g, HTN: h, Seed: 7})
	for i := 0; i < 3; i++ {
		g, h := domainsForArena(t)
		if got := table(t, arena.Config{GOAP: g, HTN: h, Seed: 7}); got != first {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, got, first)
		}
	}
	if other := table(t, arena.Config{GOAP: g, HTN: h, Seed: 8}); other == first {
		t.Error("another seed gave the same table")
	}
}

// TestBatchFigures checks the shape of the default batch: every kind
// fought every fight, the planners planned and the trees did not, only the
// interrupting HTN interrupts, and the figures the lessons quote come out
// in their order of magnitude.
func TestBatchFigures(t *testing.T) {
	g, h := domainsForArena(t)
	tab, err := arena.Run(arena.Config{GOAP: g, HTN: h, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]arena.Row{}
	for _, r := range tab.Rows {
		rows[r.Kind] = r
		if r.Fights != 40 || r.Killed <= 0 {
			t.Errorf("%s: %d fights, %.1f killed", r.Kind, r.Fights, r.Killed)
		}
	}
	if r := rows["goap"]; r.Replans < 10 || r.Replans > 100 || r.ExpandedPerPlan == nil || *r.ExpandedPerPlan < 2 || *r.ExpandedPerPlan > 30 || r.StepsPerPlan != nil {
		t.Errorf("goap: %.1f replans, %v expanded and %v steps per plan; the GOAP lesson says about 33 and 6.5, and no steps", r.Replans, r.ExpandedPerPlan, r.StepsPerPlan)
	}
	if r := rows["htn"]; r.Interruptions <= 0 || r.TopLevel <= 0 || r.TopLevel >= r.Interruptions {
		t.Errorf("htn: %.1f interruptions, %.1f changing the top level; the HTN lesson says 36 and 5", r.Interruptions, r.TopLevel)
	}
	if r := rows["htn-break"]; r.Interruptions != 0 {
		t.Errorf("htn-break interrupted %.1f times", r.Interruptions)
	}
	for _, k := range []string{"bt", "utility"} {
		if r := rows[k]; r.Plans != 0 || r.WorkPerTick <= 0 {
			t.Errorf("%s: %.1f plans, %.2f work per tick", k, r.Plans, r.WorkPerTick)
		}
	}
}

func TestRecordWritesReplayableLogs(t *testing.T) {
	g, h := domainsForArena(t)
	dir := t.TempDir()
	k, _ := arena.KindByName("goap")
	tab, err := arena.Run(arena.Config{GOAP: g, HTN: h, Seed: 3, Fights: 2, Kinds: []arena.Kind{k}, Record: dir})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) != 2 || !slices.Equal(tab.Logs, files) {
		t.Fatalf("files %v, want goap-00 and goap-01, as the table says: %v", files, tab.Logs)
	}
	f, err := os.Open(filepath.Join(dir, "goap-00.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, worlds := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("bad line %s: %v", sc.Text(), err)
		}
		if _, ok := line["event"]; ok {
			events++
		}
		if _, ok := line["world"]; ok {
			worlds++
		}
	}
	if events == 0 || worlds == 0 {
		t.Errorf("%d events, %d world lines", events, worlds)
	}
}

func BenchmarkDefaultBatch(b *testing.B) {
	g, h := domainsForArena(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := arena.Run(arena.Config{GOAP: g, HTN: h, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPlots(t *testing.T) {
	g, h := domainsForArena(t)
	tab, err := arena.Run(arena.Config{GOAP: g, HTN: h, Seed: 1, Fights: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files, err := tab.WritePlots(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 6 {
		t.Fatalf("wrote %v", files)
	}
	svgs := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: not an SVG (%v)", f, err)
		}
		svgs[filepath.Base(f)] = string(b)
	}
	// Each chart is titled for what it shows, and shows the table's values.
	replans := fmt.Sprintf("%.1f", tab.Rows[0].Replans)
	if s := svgs["replans.svg"]; !strings.Contains(s, ">Replans per fight<") || !strings.Contains(s, ">"+replans+"<") {
		t.Errorf("replans.svg is not titled for the replans, or lacks %s", replans)
	}
	for _, f := range files {
		checkTextInside(t, f, svgs[filepath.Base(f)])
	}
	checkLegendBesideData(t, svgs["health.svg"], tab)
}

var (
	svgSize = regexp.MustCompile(`<svg [^>]*width="([0-9.]+)pt" height="([0-9.]+)pt"`)
	// Horizontal text only: an axis's turned label is written with a
	// transform, not x and y.
	svgText  = regexp.MustCompile(`<text x="(-?[0-9.]+)" y="(-?[0-9.]+)" font-size="([0-9.]+)" text-anchor="(start|middle|end)"[^>]*>([^<]*)</text>`)
	svgPath  = regexp.MustCompile(`<path d="([^"]*)"`)
	svgPoint = regexp.MustCompile(`[ML](-?[0-9.]+),(-?[0-9.]+)`)
)

func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// checkTextInside checks that every label of an SVG lies within the
// picture, allowing for a font up to a third wider than the one measured
// (a viewer without the SVG's font substitutes one) around its anchor.
func checkTextInside(t *testing.T, name, svg string) {
	size := svgSize.FindStringSubmatch(svg)
	if size == nil {
		t.Fatalf("%s: no size", name)
	}
	width, height := num(t, size[1]), num(t, size[2])
	texts := svgText.FindAllStringSubmatch(svg, -1)
	if len(texts) == 0 {
		t.Fatalf("%s: no text found", name)
	}
	for _, m := range texts {
		x, baseline, em, label := num(t, m[1]), num(t, m[2]), num(t, m[3]), m[5]
		// Sans-serif glyphs average about half an em; a fifth more allows
		// for a wide font. x is the anchor: the left edge, middle or right.
		wide := float64(len([]rune(label))) * em * 0.5 * 1.2
		left := x
		switch m[4] {
		case "middle":
			left -= wide / 2
		case "end":
			left -= wide
		}
		if left < 0 || left+wide > width || baseline-em*3/4 < 0 || baseline+em/4 > height {
			t.Errorf("%s: label %q at (%.0f, %.0f) is cut by the %.0f×%.0f picture", filepath.Base(name), label, x, baseline, width, height)
		}
	}
}

// checkLegendBesideData checks that the health chart's legend lies to the
// right of every data line, where it cannot cover one.
func checkLegendBesideData(t *testing.T, svg string, tab *arena.Table) {
	dataRight := 0.0
	for _, m := range svgPath.FindAllStringSubmatch(svg, -1) {
		pts := svgPoint.FindAllStringSubmatch(m[1], -1)
		if len(pts) <= 2 {
			continue // axes, ticks and legend thumbnails: data lines have many points
		}
		for _, p := range pts {
			dataRight = max(dataRight, num(t, p[1]))
		}
	}
	found := 0
	for _, m := range svgText.FindAllStringSubmatch(svg, -1) {
		for _, r := range tab.Rows {
			if m[5] == r.Title {
				found++
				if x := num(t, m[1]); x <= dataRight {
					t.Errorf("legend entry %q at x %.0f is over the data, which reaches x %.0f", r.Title, x, dataRight)
				}
			}
		}
	}
	if dataRight == 0 || found != len(tab.Rows) {
		t.Errorf("found data reaching x %.0f and %d of %d legend entries", dataRight, found, len(tab.Rows))
	}
}

func TestTooManyFights(t *testing.T) {
	g, h := domainsForArena(t)
	_, err := arena.Run(arena.Config{GOAP: g, HTN: h, Fights: arena.MaxFights + 1})
	if err == nil || err.Error() != "arena: 1001 fights per kind is more than 1000" {
		t.Errorf("got %v", err)
	}
}

// TestDomainTheArenaCannotRun: a domain without the battle mage's goals or
// with other actions is refused in the arena's terms, before any agent is
// built.
func TestDomainTheArenaCannotRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*goap.Spec)
		want   string
	}{
		{"no GetHealthy", func(s *goap.Spec) { s.Goals = s.Goals[:1] }, `arena: the domain has no goal "GetHealthy": the arena's GOAP agent pursues the battle mage's Kill and GetHealthy`},
		{"Approach misspelled", func(s *goap.Spec) { s.Actions[0].Name = "Aproach" }, `arena: the domain has no action "Approach" (it has "Aproach"): the arena runs the battle mage's actions: Approach, CastBolt, DrinkPotion, FetchPotion, GetCrystals, Recharge, TakeCover`},
		{"an extra action", func(s *goap.Spec) {
			s.Actions = append(s.Actions, goap.ActionSpec{Name: "Dance", Effects: map[string]bool{"healthy": true}, Cost: goap.Const(1)})
		}, `arena: the arena has no behaviour for the domain's action "Dance": it runs only the battle mage's actions: Approach, CastBolt, DrinkPotion, FetchPotion, GetCrystals, Recharge, TakeCover`},
	} {
		spec := domains.BattleMage()
		tc.change(&spec)
		g, err := goap.NewDomain(spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := arena.Run(arena.Config{GOAP: g, Fights: 1}); err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

func TestWriteLogIsTheRecordedLog(t *testing.T) {
	g, h := domainsForArena(t)
	dir := t.TempDir()
	var kinds []arena.Kind
	for _, name := range []string{"goap", "htn"} {
		k, _ := arena.KindByName(name)
		kinds = append(kinds, k)
	}
	cfg := arena.Config{GOAP: g, HTN: h, Seed: 5, Fights: 2, Kinds: kinds, Record: dir}
	if _, err := arena.Run(cfg); err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		for n := range 2 {
			want, err := os.ReadFile(filepath.Join(dir, arena.LogName(k.Name, n)))
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			if err := arena.WriteLog(arena.Config{GOAP: g, HTN: h, Seed: 5}, k, n, &got); err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("%s fight %d: WriteLog's %d bytes differ from the recorded %d", k.Name, n, got.Len(), len(want))
			}
			first, _, _ := strings.Cut(got.String(), "\n")
			var line struct {
				Layout struct {
					Fight int          `json:"fight"`
					Agent string       `json:"agent"`
					Seed  uint64       `json:"seed"`
					Cover [][2]float64 `json:"cover"`
					Width float64      `json:"width"`
				} `json:"layout"`
			}
			if err := json.Unmarshal([]byte(first), &line); err != nil {
				t.Fatal(err)
			}
			if l := line.Layout; l.Fight != n || l.Agent != k.Name || l.Seed != 5 || len(l.Cover) == 0 || l.Width <= 0 {
				t.Errorf("%s fight %d: first line %s", k.Name, n, first)
			}
		}
	}
	if err := arena.WriteLog(arena.Config{GOAP: g, HTN: h}, kinds[0], arena.MaxFights, io.Discard); err == nil {
		t.Error("WriteLog took fight MaxFights")
	}
}

func TestRunContextStopsBetweenFights(t *testing.T) {
	g, h := domainsForArena(t)
	ctx, cancel := context.WithCancel(context.Background())
	fought := 0
	_, err := arena.RunContext(ctx, arena.Config{GOAP: g, HTN: h, Fights: 5, Progress: func(done, total int) {
		fought = done
		cancel()
	}})
	if !errors.Is(err, context.Canceled) || fought != 1 {
		t.Errorf("after cancelling in the first fight's progress: %d fights, %v", fought, err)
	}
}

func TestChartsAreThePlots(t *testing.T) {
	g, h := domainsForArena(t)
	tab, err := arena.Run(arena.Config{GOAP: g, HTN: h, Seed: 2, Fights: 1})
	if err != nil {
		t.Fatal(err)
	}
	charts, err := tab.Charts()
	if err != nil {
		t.Fatal(err)
	}
	files, err := tab.WritePlots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(charts) != len(files) {
		t.Fatalf("%d charts, %d files", len(charts), len(files))
	}
	for i, c := range charts {
		b, _ := os.ReadFile(files[i])
		if filepath.Base(files[i]) != c.Name || string(b) != string(c.SVG) || c.Title == "" {
			t.Errorf("chart %q (%q) is not the file %s", c.Name, c.Title, files[i])
		}
	}
}
