package arena

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// palette gives each agent kind the same colour in every chart.
var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0xff, 0x7f, 0x0e, 0xff},
	{0x2c, 0xa0, 0x2c, 0xff}, {0x94, 0x67, 0xbd, 0xff},
}

const chartHeight = 4 * vg.Inch

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
	var charts []Chart
	health, err := t.healthPlot()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := drawLegendBeside(health, 9*vg.Inch, chartHeight, &buf); err != nil {
		return nil, err
	}
	charts = append(charts, Chart{Name: "health.svg", Title: health.Title.Text, SVG: buf.Bytes()})

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
		p, err := t.barPlot(chart.title, chart.unit, chart.value, chart.label, barTicks{whole: chart.count})
		if err != nil {
			return nil, err
		}
		c := vgsvg.New(6*vg.Inch, chartHeight)
		p.Draw(draw.New(c))
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
		charts = append(charts, Chart{Name: chart.file, Title: chart.title, SVG: buf.Bytes()})
	}
	return charts, nil
}

// healthPlot draws each kind's health over the first fight, with the
// threshold the HTN heals at. The first fight is fight 0, as the logs of
// --record and the viewer's replay number it.
func (t *Table) healthPlot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Mage health in fight 0 of seed %d", t.Seed)
	p.X.Label.Text = "seconds"
	p.Y.Label.Text = "health"
	end := 0.0
	for _, r := range t.Rows {
		end = max(end, float64(len(r.Health))*TickSeconds)
	}
	p.X.Min, p.X.Max = 0, end
	p.X.Tick.Marker = evenTicks{step: 30, minor: 3}
	// Headroom above 100 so that the thick lines at full health are not
	// cut by the top of the plot.
	p.Y.Min, p.Y.Max = 0, 104
	p.Y.Tick.Marker = evenTicks{step: 20, minor: 2, max: 100}
	// The first kind (GOAP, by default) is drawn last, on top, and
	// thinnest; each later kind under it a little wider, so that where
	// kinds' health is the same every colour still shows as a band and
	// none hides under another.
	lines := make([]*plotter.Line, len(t.Rows))
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
		line.Width = vg.Points(1.2 + 0.9*float64(i))
		lines[i] = line
	}
	for i := len(lines) - 1; i >= 0; i-- {
		p.Add(lines[i])
	}
	for i, r := range t.Rows {
		p.Legend.Add(r.Title, lines[i])
	}
	healthy, err := plotter.NewLine(plotter.XYs{{X: 0, Y: healthyAt}, {X: end, Y: healthyAt}})
	if err != nil {
		return nil, err
	}
	healthy.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	healthy.Color = color.Gray{0x99}
	p.Add(healthy)
	p.Legend.Add(fmt.Sprintf("healthy (%g)", float64(healthyAt)), healthy)
	return p, nil
}

// barPlot draws one bar per kind, labelled with its value, with room above
// the tallest bar for its label.
func (t *Table) barPlot(title, unit string, value func(Row) float64, label func(float64) string, ticks barTicks) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = unit
	p.Y.Tick.Marker = ticks
	var names, labels []string
	var tops plotter.XYs
	highest := 0.0
	for i, r := range t.Rows {
		v := value(r)
		bars, err := plotter.NewBarChart(plotter.Values{v}, vg.Points(40))
		if err != nil {
			return nil, err
		}
		bars.Color = palette[i%len(palette)]
		bars.LineStyle.Width = 0
		bars.XMin = float64(i)
		p.Add(bars)
		names = append(names, r.Kind)
		labels = append(labels, label(v))
		tops = append(tops, plotter.XY{X: float64(i), Y: v})
		highest = max(highest, v)
	}
	values, err := plotter.NewLabels(plotter.XYLabels{XYs: tops, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range values.TextStyle {
		values.TextStyle[i].XAlign = draw.XCenter
	}
	values.Offset = vg.Point{Y: vg.Points(3)}
	p.Add(values)
	p.NominalX(names...)
	// Half a slot either side, so that the outer bars are not cut.
	p.X.Min, p.X.Max = -0.5, float64(len(t.Rows))-0.5
	p.Y.Min, p.Y.Max = 0, max(highest*1.15, 1)
	return p, nil
}

// evenTicks marks every step (up to max, if set) with a plain label and
// minor ticks in between: "30", not "30.00".
type evenTicks struct {
	step  float64
	minor int // minor intervals per step
	max   float64
}

func (e evenTicks) Ticks(lo, hi float64) []plot.Tick {
	if e.max != 0 {
		hi = min(hi, e.max)
	}
	var ticks []plot.Tick
	first := math.Ceil(lo/e.step) * e.step
	for v := first; v <= hi+1e-9; v += e.step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		for m := 1; m < e.minor; m++ {
			if mv := v + float64(m)*e.step/float64(e.minor); mv <= hi {
				ticks = append(ticks, plot.Tick{Value: mv})
			}
		}
	}
	return ticks
}

// barTicks marks a bar chart's value axis every 1, 2 or 5 times a power
// of ten, four to six marks in all, each labelled with no more decimals than
// its step needs ("20", not "25.00"). A count (whole) never gets a step
// below 1: fights are not counted in halves.
type barTicks struct {
	whole bool
}

func (b barTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return nil
	}
	rough := (hi - lo) / 5
	power := math.Pow(10, math.Floor(math.Log10(rough)))
	step := 10 * power
	for _, m := range []float64{1, 2, 5} {
		if m*power >= rough {
			step = m * power
			break
		}
	}
	if b.whole {
		step = max(step, 1)
	}
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for i := math.Ceil(lo/step - 1e-9); i*step <= hi+1e-9; i++ {
		v := i * step
		if v == 0 {
			v = 0 // not -0, which formats as "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return ticks
}

// drawLegendBeside draws p with its legend to the right of the plot, where
// it cannot cover the data, and writes it as SVG to out.
func drawLegendBeside(p *plot.Plot, w, h vg.Length, out io.Writer) error {
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	legend := p.Legend
	// Room between the entries: a browser draws the names in its own
	// font, often taller than the one measured here.
	legend.Padding = vg.Points(3)
	p.Legend = plot.NewLegend() // empty: drawn separately below
	margin := vg.Points(12)
	box := legend.Rectangle(dc)
	// A third more than the measured text: a viewer without the
	// Liberation fonts the SVG names draws a wider one (DejaVu, often).
	width := (box.Max.X-box.Min.X)*4/3 + 2*margin
	p.Draw(draw.Crop(dc, 0, -width, 0, 0))
	legend.Top, legend.Left = true, true
	titleHeight := p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	legend.Draw(draw.Crop(dc, w-width+margin, 0, 0, -titleHeight-margin))
	_, err := c.WriteTo(out)
	return err
}
