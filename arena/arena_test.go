package arena_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
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
	if r := rows["goap"]; r.Replans < 10 || r.Replans > 100 || r.ExpandedPerPlan < 2 || r.ExpandedPerPlan > 30 {
		t.Errorf("goap: %.1f replans, %.1f expanded per plan; lesson 4 says about 33 and 6.5", r.Replans, r.ExpandedPerPlan)
	}
	if r := rows["htn"]; r.Interruptions <= 0 || r.TopLevel <= 0 || r.TopLevel >= r.Interruptions {
		t.Errorf("htn: %.1f interruptions, %.1f changing the top level; lesson 5 says 36 and 5", r.Interruptions, r.TopLevel)
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
	if _, err := arena.Run(arena.Config{GOAP: g, HTN: h, Seed: 3, Fights: 2, Kinds: []arena.Kind{k}, Record: dir}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) != 2 {
		t.Fatalf("files %v, want goap-00 and goap-01", files)
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
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: not an SVG (%v)", f, err)
		}
	}
}
