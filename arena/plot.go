package arena

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ploy-ai/ploy/internal/svgchart"
)

// palette gives each agent kind the same colour in every chart.
var palette = []string{"#1f77b4", "#d62728", "#ff7f0e", "#2ca02c", "#9467bd"}

// The charts' sizes, in points: the health chart is wider, for its legend.
const (
	chartHeight = 288
	barWidth    = 432
	healthWidth = 648
)

// Chart is one of a table's charts: an SVG picture and the file name
// WritePlots gives it.
type Chart struct {
	Name  string // health.svg, survived.svg, ...
	Title string
	SVG   []byte
}

// WritePlots writes SVG charts of the table into dir: the mage's health
// over the first fight for each agent kind, and the table's main columns
// as bars, each file named for what it shows.
func (t *Table) WritePlots(dir string) ([]string, error) {
	charts, err := t.Charts()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, c := range charts {
		path := filepath.Join(dir, c.Name)
		if err := os.WriteFile(path, c.SVG, 0o644); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	return written, nil
}

// Charts draws the charts WritePlots writes, in the same order, without
// writing a file.
func (t *Table) Charts() ([]Chart, error) {
	health := t.healthChart()
	charts := []Chart{{Name: "health.svg", Title: health.Title, SVG: health.SVG()}}

	whole := func(x float64) string { return fmt.Sprint(x) }
	for _, chart := range []struct {
		file, title, unit string
		value             func(Row) float64
		label             func(float64) string // as the table writes it
		count             bool                 // a count of fights: whole ticks only
	}{
		{"survived.svg", "Fights survived", fmt.Sprintf("fights (of %d)", t.Fights), func(r Row) float64 { return float64(r.Survived) }, whole, true},
		{"killed.svg", "Enemies killed per fight", "enemies", func(r Row) float64 { return r.Killed }, f1, false},
		{"health-mean.svg", "Mean health over a fight", "health", func(r Row) float64 { return r.MeanHealth }, f1, false},
		{"replans.svg", "Replans per fight", "replans", func(r Row) float64 { return r.Replans }, f1, false},
		{"work.svg", "Planning or tree work per tick", "states, steps or nodes", func(r Row) float64 { return r.WorkPerTick }, f2, false},
	} {
		c := t.barChart(chart.title, chart.unit, chart.value, chart.label, chart.count)
		charts = append(charts, Chart{Name: chart.file, Title: chart.title, SVG: c.SVG()})
	}
	return charts, nil
}

// healthChart draws each kind's health over the first fight, with the
// threshold the HTN heals at. The first fight is fight 0, as the logs of
// --record and the viewer's replay number it.
func (t *Table) healthChart() svgchart.LineChart {
	end := 0.0
	for _, r := range t.Rows {
		end = max(end, float64(len(r.Health))*TickSeconds)
	}
	// Every half minute over a whole fight; a fight every kind lost early
	// is marked in round steps instead, lest it get only its 0.
	seconds := svgchart.Every(0, end, 30, 3)
	if end < 90 {
		seconds = svgchart.Round(0, end, false)
	}
	c := svgchart.LineChart{
		Title: fmt.Sprintf("Mage health in fight 0 of seed %d", t.Seed),
		Width: healthWidth, Height: chartHeight,
		X: svgchart.Axis{Label: "seconds", Min: 0, Max: end, Ticks: seconds},
		// Headroom above 100 so that the thick lines at full health are
		// not cut by the top of the plot.
		Y: svgchart.Axis{Label: "health", Min: 0, Max: 104, Ticks: svgchart.Every(0, 100, 20, 2)},
	}
	// The first kind (GOAP, by default) is drawn last, on top, and
	// thinnest; each later kind under it a little wider, so that where
	// kinds' health is the same every colour still shows as a band and
	// none hides under another.
	for i, r := range t.Rows {
		line := svgchart.Line{Name: r.Title, Color: palette[i%len(palette)], Width: 1.2 + 0.9*float64(i)}
		for tick, h := range r.Health {
			line.X = append(line.X, float64(tick+1)*TickSeconds)
			line.Y = append(line.Y, h)
		}
		c.Lines = append(c.Lines, line)
	}
	c.Lines = append(c.Lines, svgchart.Line{
		Name: fmt.Sprintf("healthy (%g)", float64(healthyAt)), Color: "#999", Width: 1, Dashed: true,
		X: []float64{0, end}, Y: []float64{healthyAt, healthyAt},
	})
	return c
}

// barChart draws one bar per kind, labelled with its value, with room above
// the tallest bar for its label.
func (t *Table) barChart(title, unit string, value func(Row) float64, label func(float64) string, count bool) svgchart.BarChart {
	c := svgchart.BarChart{Title: title, Width: barWidth, Height: chartHeight}
	highest := 0.0
	for i, r := range t.Rows {
		v := value(r)
		c.Bars = append(c.Bars, svgchart.Bar{Name: r.Kind, Color: palette[i%len(palette)], Value: v, Label: label(v)})
		highest = max(highest, v)
	}
	top := max(highest*1.15, 1)
	c.Y = svgchart.Axis{Label: unit, Min: 0, Max: top, Ticks: svgchart.Round(0, top, count)}
	return c
}
