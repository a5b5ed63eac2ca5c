package arena_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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
		t.Errorf("goap: %.1f replans, %v expanded and %v steps per plan; lesson 4 says about 33 and 6.5, and no steps", r.Replans, r.ExpandedPerPlan, r.StepsPerPlan)
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
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: not an SVG (%v)", f, err)
		}
	}
}

// TestJSONIsNullWhereTheTableHasADash reads the text table and the JSON of
// the same batch: every "-" cell is null in the JSON, and every null is a
// "-" cell.
func TestJSONIsNullWhereTheTableHasADash(t *testing.T) {
	g, h := domainsForArena(t)
	tab, err := arena.Run(arena.Config{GOAP: g, HTN: h, Seed: 1, Fights: 3})
	if err != nil {
		t.Fatal(err)
	}
	var text, js strings.Builder
	tab.WriteText(&text)
	tab.WriteJSON(&js)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(js.String()), &rows); err != nil {
		t.Fatal(err)
	}
	columns := map[string]string{"expanded/plan": "expanded_per_plan", "steps/plan": "steps_per_plan"}
	lines := strings.Split(text.String(), "\n")
	header := strings.Fields(lines[2])
	dashes := 0
	for i, row := range rows {
		cells := strings.Fields(lines[3+i])
		if cells[0] != row["kind"] {
			t.Fatalf("table row %d is %q, JSON row %v", i, cells[0], row["kind"])
		}
		dashed := map[string]bool{}
		for c, name := range header {
			if cells[c] != "-" {
				continue
			}
			dashes++
			key, ok := columns[name]
			if !ok {
				t.Errorf("%s: unexpected dash in column %s", cells[0], name)
				continue
			}
			dashed[key] = true
			if v, present := row[key]; !present || v != nil {
				t.Errorf("%s: %s is %v in the JSON where the table has -", cells[0], key, v)
			}
		}
		for key, v := range row {
			if v == nil && !dashed[key] {
				t.Errorf("%s: %s is null but the table shows a number", cells[0], key)
			}
		}
	}
	if dashes == 0 {
		t.Fatal("no dash in the table: the test checks nothing")
	}
}
