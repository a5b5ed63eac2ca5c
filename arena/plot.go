package arena

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// palette gives each agent kind the same colour in every chart.
var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0xff, 0x7f, 0x0e, 0xff},
	{0x2c, 0xa0, 0x2c, 0xff}, {0x94, 0x67, 0xbd, 0xff},
}

// WritePlots writes SVG charts of the table into dir: the mage's health
// over the first fight for each agent kind, and the table's main columns
// as bars.
func (t *Table) WritePlots(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	save := func(p *plot.Plot, name string, w vg.Length) error {
		path := filepath.Join(dir, name)
		if err := p.Save(w, 4*vg.Inch, path); err != nil {
			return err
		}
		written = append(written, path)
		return nil
	}

	p := plot.New()
	p.Title.Text = fmt.Sprintf("Mage health in fight 1 (seed %d)", t.Seed)
	p.X.Label.Text = "seconds"
	p.Y.Label.Text = "health"
	p.Y.Min, p.Y.Max = 0, 100
	p.Legend.Top = false
	p.Legend.Left = true
	for i, r := range t.Rows {
		pts := make(plotter.XYs, len(r.Health))
		for tick, h := range r.Health {
			pts[tick] = plotter.XY{X: float64(tick+1) * TickSeconds, Y: h}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		line.Color = palette[i%len(palette)]
		// Earlier kinds are drawn wider, so that where two kinds' health
		// is the same both colours still show.
		line.Width = vg.Points(1.2 + 0.9*float64(len(t.Rows)-1-i))
		p.Add(line)
		p.Legend.Add(r.Title, line)
	}
	healthy := plotter.NewFunction(func(float64) float64 { return healthyAt })
	healthy.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	healthy.Color = color.Gray{0x99}
	p.Add(healthy)
	if err := save(p, "health.svg", 8*vg.Inch); err != nil {
		return nil, err
	}

	for _, chart := range []struct {
		file, title string
		value       func(Row) float64
	}{
		{"survived.svg", "Fights survived", func(r Row) float64 { return float64(r.Survived) }},
		{"killed.svg", "Enemies killed per fight", func(r Row) float64 { return r.Killed }},
		{"health-mean.svg", "Mean health", func(r Row) float64 { return r.MeanHealth }},
		{"replans.svg", "Plans made per fight", func(r Row) float64 { return r.Plans }},
		{"work.svg", "Planning or tree work per tick", func(r Row) float64 { return r.WorkPerTick }},
	} {
		p := plot.New()
		p.Title.Text = chart.title
		var names []string
		for i, r := range t.Rows {
			bars, err := plotter.NewBarChart(plotter.Values{chart.value(r)}, vg.Points(40))
			if err != nil {
				return nil, err
			}
			bars.Color = palette[i%len(palette)]
			bars.LineStyle.Width = 0
			bars.XMin = float64(i)
			p.Add(bars)
			names = append(names, r.Kind)
		}
		p.NominalX(names...)
		if err := save(p, chart.file, 6*vg.Inch); err != nil {
			return nil, err
		}
	}
	return written, nil
}
