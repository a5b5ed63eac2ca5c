package arena_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/arena"
)

var update = flag.Bool("update", false, "rewrite the charts in testdata/charts")

// goldenTable is a batch's table made by hand, so that the charts' files
// change only when the charts do, not when the fights do. The second
// kind's name and title are markup, as a domain file may write them.
func goldenTable() *arena.Table {
	return &arena.Table{Fights: 2, Seed: 3, Rows: []arena.Row{
		{Kind: "goap", Title: "GOAP", Fights: 2, Survived: 2, Killed: 11.6, MeanHealth: 81.8, Replans: 35.4, WorkPerTick: 0.1,
			Health: []float64{100, 100, 100, 90, 90, 80, 80, 80, 95, 95}},
		{Kind: `<script>&"'`, Title: `<b>&"'`, Fights: 2, Survived: 1, Killed: 9.2, MeanHealth: 51.5, Replans: 63.1, WorkPerTick: 11.44,
			Health: []float64{100, 85, 70, 70, 55, 40, 40, 60, 60, 60, 60, 60}},
	}}
}

// TestChartsGolden compares each chart's bytes with its file in
// testdata/charts (go test -update rewrites them after a change that is
// meant): the same table draws the same bytes.
func TestChartsGolden(t *testing.T) {
	charts, err := goldenTable().Charts()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := goldenTable().Charts()
	for i, c := range charts {
		if string(again[i].SVG) != string(c.SVG) {
			t.Errorf("%s: two drawings of the same table differ", c.Name)
		}
		if strings.Contains(string(c.SVG), "<script") || strings.Contains(string(c.SVG), "<b>") {
			t.Errorf("%s: a kind's name became markup", c.Name)
		}
		path := filepath.Join("testdata", "charts", c.Name)
		if *update {
			if err := os.WriteFile(path, c.SVG, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(c.SVG) != string(want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", c.Name, path, c.SVG)
		}
	}
	// A short fight's time axis still has marks beyond its 0.
	if !strings.Contains(string(charts[0].SVG), `text-anchor="middle">1.0</text>`) {
		t.Error("health.svg of a 1.2 s fight marks no second")
	}
	// The count of fights survived is marked in whole fights only.
	survived := string(charts[1].SVG)
	for _, half := range []string{">0.5<", ">1.5<", ">0.0<", ">1.0<"} {
		if strings.Contains(survived, half) {
			t.Errorf("survived.svg marks %s", half)
		}
	}
}
