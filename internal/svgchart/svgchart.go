// Package svgchart draws the few kinds of chart ploy writes, as SVG: lines
// with their legend beside them, and one bar per name. Text is set in the
// reader's own sans-serif font (a font-family attribute, no embedded font),
// so the layout cannot measure it: it reserves room for a generous average
// glyph width instead, and squeezes a bar's name that would not fit its slot.
//
// Output is deterministic: the same chart gives the same bytes.
package svgchart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
)

// Font is the font-family every chart's text is set in: the viewer's page
// uses the same, so a chart in the page reads as part of it.
const Font = "system-ui, sans-serif"

// Font sizes, in points.
const (
	titleSize = 13
	labelSize = 11 // axis labels and the legend
	tickSize  = 10 // tick labels, bar names and bar values
)

// glyphWidth is the width reserved per character, in ems: wider than the
// average glyph of common sans-serif fonts (about 0.5 to 0.55), so that
// text measured with it fits whichever of them the reader has.
const glyphWidth = 0.62

// textWidth is the room reserved for s set at size points.
func textWidth(s string, size float64) float64 {
	return float64(len([]rune(s))) * size * glyphWidth
}

// Tick is one mark on an axis. A tick without a label is a minor one:
// shorter, and without a grid line.
type Tick struct {
	Value float64
	Label string
}

// Axis is one axis of a chart: what it measures, its range and its marks.
type Axis struct {
	Label    string
	Min, Max float64
	Ticks    []Tick
}

// Line is one line of a LineChart and its entry in the legend.
type Line struct {
	Name   string
	Color  string  // an SVG colour: "#1f77b4"
	Width  float64 // points
	Dashed bool
	X, Y   []float64 // the points, as many of each
}

// LineChart is lines over two axes with their legend to the right of the
// data, where it cannot cover a line.
type LineChart struct {
	Title         string
	Width, Height float64 // points; Height grows if the legend needs it
	X, Y          Axis
	// Lines are listed in the legend in this order and drawn in the
	// reverse, so that the first is drawn last, on top.
	Lines []Line
}

// Bar is one bar of a BarChart: its name under it, its value's label
// above it.
type Bar struct {
	Name  string
	Color string
	Value float64
	Label string
}

// BarChart is one bar per name over a value axis starting at Y.Min.
type BarChart struct {
	Title         string
	Width, Height float64 // points; Width grows if the bars need it
	Y             Axis
	Bars          []Bar
}

const (
	pad        = 8  // around the picture's edge
	tickLength = 4  // a labelled tick; a minor one is half that
	gap        = 3  // between a tick and its label
	legendRow  = 17 // from one legend entry to the next
	sample     = 26 // the length of a legend entry's sample line
	minSlot    = 44 // the narrowest slot a bar gets
	maxBar     = 40 // the widest a bar is drawn
)

// frame is the plotting area inside a chart, in points from the top left.
type frame struct{ left, top, right, bottom float64 }

// valueAxis works out the room a vertical axis needs to the left of the
// plotting area: its turned label, then its tick labels.
func valueAxis(y Axis) float64 {
	widest := 0.0
	for _, t := range y.Ticks {
		widest = max(widest, textWidth(t.Label, tickSize))
	}
	left := pad + tickLength + gap + widest
	if y.Label != "" {
		left += labelSize + gap
	}
	return left
}

// SVG draws the line chart.
func (c LineChart) SVG() []byte {
	legendWidth := 0.0
	for _, l := range c.Lines {
		legendWidth = max(legendWidth, sample+6+textWidth(l.Name, labelSize))
	}
	f := frame{left: valueAxis(c.Y), top: pad + titleSize + 10}
	f.right = c.Width - pad - legendWidth - 16
	bottomRoom := tickLength + gap + tickSize + 6.0
	if c.X.Label != "" {
		bottomRoom += labelSize + gap
	}
	height := max(c.Height, f.top+float64(len(c.Lines))*legendRow+bottomRoom+pad)
	f.bottom = height - pad - bottomRoom
	// Fit the picture to its widest part, should the legend or the axis be
	// wider than the chart asked for.
	width := c.Width
	if f.right-f.left < 100 {
		width += 100 - (f.right - f.left)
		f.right = f.left + 100
	}

	var w writer
	w.open(width, height)
	w.title(c.Title, (f.left+f.right)/2)
	xs := scale{c.X.Min, c.X.Max, f.left, f.right}
	ys := scale{c.Y.Min, c.Y.Max, f.bottom, f.top}
	w.valueAxis(c.Y, ys, f)
	// The time axis: ticks and labels below the plotting area.
	for _, t := range c.X.Ticks {
		if t.Value < c.X.Min || t.Value > c.X.Max {
			continue
		}
		x := xs.at(t.Value)
		l := float64(tickLength)
		if t.Label == "" {
			l /= 2
		}
		w.line(x, f.bottom, x, f.bottom+l, "#000", 0.75)
		if t.Label != "" {
			w.text(x, f.bottom+tickLength+gap+tickSize, tickSize, "middle", t.Label)
		}
	}
	if c.X.Label != "" {
		w.text((f.left+f.right)/2, f.bottom+tickLength+gap+tickSize+gap+labelSize+2, labelSize, "middle", c.X.Label)
	}
	w.line(f.left, f.bottom, f.right, f.bottom, "#000", 0.75)

	for i := len(c.Lines) - 1; i >= 0; i-- {
		l := c.Lines[i]
		w.path(l, xs, ys)
	}
	// The legend, beside the plotting area, from its top.
	x := f.right + 16
	for i, l := range c.Lines {
		y := f.top + float64(i)*legendRow + legendRow/2
		dash := ""
		if l.Dashed {
			dash = ` stroke-dasharray="4 3"`
		}
		w.printf(`<path d="M%s,%sH%s" fill="none" stroke="%s" stroke-width="%s"%s/>`+"\n",
			num(x), num(y), num(x+sample), escape(l.Color), num(l.Width), dash)
		w.text(x+sample+6, y+labelSize*0.35, labelSize, "start", l.Name)
	}
	return w.close()
}

// SVG draws the bar chart.
func (c BarChart) SVG() []byte {
	f := frame{left: valueAxis(c.Y), top: pad + titleSize + 10}
	width := max(c.Width, f.left+float64(len(c.Bars))*minSlot+pad)
	f.right = width - pad
	f.bottom = c.Height - pad - (tickLength + gap + tickSize + 4)

	var w writer
	w.open(width, c.Height)
	w.title(c.Title, (f.left+f.right)/2)
	ys := scale{c.Y.Min, c.Y.Max, f.bottom, f.top}
	w.valueAxis(c.Y, ys, f)
	slot := (f.right - f.left) / float64(max(len(c.Bars), 1))
	barWidth := min(maxBar, slot*0.7)
	for i, b := range c.Bars {
		mid := f.left + slot*(float64(i)+0.5)
		base, top := ys.at(max(c.Y.Min, 0)), ys.at(b.Value)
		if top > base {
			base, top = top, base // a negative value hangs below the base
		}
		w.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n",
			num(mid-barWidth/2), num(top), num(barWidth), num(base-top), escape(b.Color))
		w.text(mid, top-gap, tickSize, "middle", b.Label)
		w.line(mid, f.bottom, mid, f.bottom+tickLength, "#000", 0.75)
		w.fitText(mid, f.bottom+tickLength+gap+tickSize, tickSize, b.Name, slot-4)
	}
	w.line(f.left, f.bottom, f.right, f.bottom, "#000", 0.75)
	return w.close()
}

// scale maps an axis's values onto the picture.
type scale struct{ lo, hi, from, to float64 }

// at is where v falls, kept within the axis's ends.
func (s scale) at(v float64) float64 {
	if !(s.hi > s.lo) || math.IsNaN(v) {
		return s.from
	}
	v = min(max(v, s.lo), s.hi)
	return s.from + (v-s.lo)/(s.hi-s.lo)*(s.to-s.from)
}

// writer writes one SVG picture.
type writer struct{ b bytes.Buffer }

func (w *writer) printf(format string, args ...any) {
	fmt.Fprintf(&w.b, format, args...)
}

func (w *writer) open(width, height float64) {
	w.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%spt" height="%spt" viewBox="0 0 %s %s" font-family="%s">`+"\n",
		num(width), num(height), num(width), num(height), Font)
	w.printf(`<rect width="%s" height="%s" fill="#fff"/>`+"\n", num(width), num(height))
}

func (w *writer) close() []byte {
	w.b.WriteString("</svg>\n")
	return w.b.Bytes()
}

func (w *writer) title(s string, mid float64) {
	w.text(mid, pad+titleSize, titleSize, "middle", s)
}

func (w *writer) line(x1, y1, x2, y2 float64, colour string, width float64) {
	w.printf(`<path d="M%s,%sL%s,%s" stroke="%s" stroke-width="%s"/>`+"\n", num(x1), num(y1), num(x2), num(y2), colour, num(width))
}

// text writes s with its anchor at (x, y), y its baseline.
func (w *writer) text(x, y, size float64, anchor, s string) {
	if s == "" {
		return
	}
	w.printf(`<text x="%s" y="%s" font-size="%s" text-anchor="%s">%s</text>`+"\n", num(x), num(y), num(size), anchor, escape(s))
}

// fitText writes s centred on x, squeezed to room if the room reserved
// for it is wider: a long name never runs into its neighbour's.
func (w *writer) fitText(x, y, size float64, s string, room float64) {
	if s == "" {
		return
	}
	if textWidth(s, size) <= room {
		w.text(x, y, size, "middle", s)
		return
	}
	w.printf(`<text x="%s" y="%s" font-size="%s" text-anchor="middle" textLength="%s" lengthAdjust="spacingAndGlyphs">%s</text>`+"\n",
		num(x), num(y), num(size), num(max(room, 1)), escape(s))
}

// valueAxis draws a vertical axis at the left of f: light grid lines at
// the labelled ticks, the ticks, their labels and the axis's turned label.
func (w *writer) valueAxis(a Axis, ys scale, f frame) {
	for _, t := range a.Ticks {
		if t.Value < a.Min || t.Value > a.Max {
			continue
		}
		y := ys.at(t.Value)
		l := float64(tickLength)
		if t.Label == "" {
			l /= 2
		} else if t.Value != a.Min {
			w.line(f.left, y, f.right, y, "#e4e4e4", 0.75)
		}
		w.line(f.left-l, y, f.left, y, "#000", 0.75)
		w.text(f.left-tickLength-gap, y+tickSize*0.35, tickSize, "end", t.Label)
	}
	if a.Label != "" {
		x, y := float64(pad+labelSize), (f.top+f.bottom)/2
		w.printf(`<text transform="translate(%s,%s) rotate(-90)" font-size="%s" text-anchor="middle">%s</text>`+"\n",
			num(x), num(y), num(labelSize), escape(a.Label))
	}
	w.line(f.left, f.top, f.left, f.bottom, "#000", 0.75)
}

// path draws a line's points, leaving out those in the middle of a flat
// stretch, which change nothing drawn.
func (w *writer) path(l Line, xs, ys scale) {
	n := min(len(l.X), len(l.Y))
	if n == 0 {
		return
	}
	w.b.WriteString(`<path d="`)
	for i := 0; i < n; i++ {
		if i > 0 && i < n-1 && l.Y[i-1] == l.Y[i] && l.Y[i] == l.Y[i+1] {
			continue
		}
		if i == 0 {
			w.b.WriteByte('M')
		} else {
			w.b.WriteByte('L')
		}
		w.printf("%s,%s", num(xs.at(l.X[i])), num(ys.at(l.Y[i])))
	}
	dash := ""
	if l.Dashed {
		dash = ` stroke-dasharray="4 3"`
	}
	w.printf(`" fill="none" stroke="%s" stroke-width="%s" stroke-linejoin="round"%s/>`+"\n", escape(l.Color), num(l.Width), dash)
}

// num writes a coordinate with at most two decimals: a hundredth of a
// point is finer than any screen shows.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // not -0
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// escape makes s safe as an SVG element's text or attribute value: names
// come from domain files, and a name such as <script> must stay text.
func escape(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s)) // a bytes.Buffer does not fail
	return b.String()
}
