package svgchart

import (
	"encoding/xml"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the charts in testdata")

// hostile is a name as a domain file could give an agent kind: it must
// show as text, never become markup.
const hostile = `<script>&"'`

func lineChart() LineChart {
	return LineChart{
		Title: "Health of " + hostile, Width: 648, Height: 288,
		X: Axis{Label: "seconds", Min: 0, Max: 6, Ticks: Every(0, 6, 2, 2)},
		Y: Axis{Label: "health", Min: 0, Max: 104, Ticks: Every(0, 100, 20, 2)},
		Lines: []Line{
			{Name: "first, on top", Color: "#1f77b4", Width: 1.2, X: []float64{0, 1, 2, 3, 4, 5, 6}, Y: []float64{100, 100, 100, 100, 80, 40, 40}},
			{Name: hostile, Color: "#d62728", Width: 2.1, X: []float64{0, 3, 6}, Y: []float64{100, 50, 75}},
			{Name: "threshold", Color: "#999", Width: 1, Dashed: true, X: []float64{0, 6}, Y: []float64{60, 60}},
		},
	}
}

func barChart() BarChart {
	return BarChart{
		Title: "Replans per fight", Width: 432, Height: 288,
		Y: Axis{Label: "replans", Min: 0, Max: 63.1 * 1.15, Ticks: Round(0, 63.1*1.15, false)},
		Bars: []Bar{
			{Name: "goap", Color: "#1f77b4", Value: 35.4, Label: "35.4"},
			{Name: hostile, Color: "#d62728", Value: 63.1, Label: "63.1"},
			{Name: "a kind whose name is far wider than its slot", Color: "#ff7f0e", Value: 0, Label: "0.0"},
		},
	}
}

// TestGolden compares each chart's bytes with its file in testdata (go
// test -update rewrites them after a change that is meant), and a second
// drawing with the first.
func TestGolden(t *testing.T) {
	for name, draw := range map[string]func() []byte{
		"line.svg": func() []byte { return lineChart().SVG() },
		"bar.svg":  func() []byte { return barChart().SVG() },
	} {
		got := draw()
		if again := draw(); string(again) != string(got) {
			t.Errorf("%s: two drawings of the same chart differ", name)
		}
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, path, got)
		}
	}
}

// TestWellFormedAndEscaped reads each chart as XML: a name with markup in
// it stays text, read back as it was given.
func TestWellFormedAndEscaped(t *testing.T) {
	for name, svg := range map[string][]byte{"line": lineChart().SVG(), "bar": barChart().SVG()} {
		if strings.Contains(string(svg), "<script") {
			t.Errorf("%s: a name became markup", name)
		}
		var texts []string
		d := xml.NewDecoder(strings.NewReader(string(svg)))
		var inText bool
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed XML: %v", name, err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				inText = tok.Name.Local == "text"
			case xml.EndElement:
				inText = false
			case xml.CharData:
				if inText {
					texts = append(texts, string(tok))
				}
			}
		}
		if !slices.Contains(texts, hostile) {
			t.Errorf("%s: no text reads %q: %q", name, hostile, texts)
		}
	}
}

var (
	textRE  = regexp.MustCompile(`<text x="([0-9.-]+)" y="([0-9.-]+)" font-size="([0-9.]+)" text-anchor="(\w+)"( textLength="([0-9.]+)")?[^>]*>([^<]*)</text>`)
	pointRE = regexp.MustCompile(`[ML]([0-9.-]+),([0-9.-]+)`)
	pathRE  = regexp.MustCompile(`<path d="([^"]*)"`)
	sizeRE  = regexp.MustCompile(`width="([0-9.]+)pt" height="([0-9.]+)pt"`)
)

func number(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// span is the room a label takes along its baseline, measured as the
// widest common sans-serif fonts set it (0.6 em a character), or its
// textLength when it has one.
type span struct {
	text        string
	left, right float64
	baseline    float64
}

func spans(t *testing.T, svg string) []span {
	var out []span
	for _, m := range textRE.FindAllStringSubmatch(svg, -1) {
		x, y, em := number(t, m[1]), number(t, m[2]), number(t, m[3])
		text := xmlUnescape(m[7])
		w := float64(len([]rune(text))) * em * 0.6
		if m[6] != "" {
			w = number(t, m[6])
		}
		left := x
		switch m[4] {
		case "middle":
			left -= w / 2
		case "end":
			left -= w
		}
		out = append(out, span{text, left, left + w, y})
	}
	return out
}

func xmlUnescape(s string) string {
	var v struct {
		S string `xml:",chardata"`
	}
	if err := xml.Unmarshal([]byte("<a>"+s+"</a>"), &v); err != nil {
		return s
	}
	return v.S
}

// TestBarNamesDoNotOverlap: with many bars, names on one line (the bars' names share a
// baseline) never run into each other, a long one squeezed into its slot.
func TestBarNamesDoNotOverlap(t *testing.T) {
	c := barChart()
	for range 20 {
		c.Bars = append(c.Bars, Bar{Name: "htn-replanning-on-break", Color: "#000", Value: 1, Label: "1.0"})
	}
	svg := string(c.SVG())
	checkInside(t, svg)
	// Squeezed, but not below about seven characters' room: many bars
	// widen the chart instead.
	for _, m := range textRE.FindAllStringSubmatch(svg, -1) {
		if m[6] != "" && number(t, m[6]) < 38 {
			t.Errorf("%q squeezed into %spt", m[7], m[6])
		}
	}
	byLine := map[float64][]span{}
	for _, s := range spans(t, svg) {
		byLine[s.baseline] = append(byLine[s.baseline], s)
	}
	for y, line := range byLine {
		slices.SortFunc(line, func(a, b span) int { return int(a.left*100 - b.left*100) })
		for i := 1; i < len(line); i++ {
			if line[i].left < line[i-1].right {
				t.Errorf("at y %g %q (to %.1f) runs into %q (from %.1f)", y, line[i-1].text, line[i-1].right, line[i].text, line[i].left)
			}
		}
	}
}

// TestLegendBesideTheData: every legend entry starts right of every line's
// points, and a legend longer than the chart is tall makes it taller.
func TestLegendBesideTheData(t *testing.T) {
	c := lineChart()
	for i := range 20 {
		c.Lines = append(c.Lines, Line{Name: "kind " + strconv.Itoa(i), Color: "#000", Width: 1, X: []float64{0, 6}, Y: []float64{0, 100}})
	}
	svg := string(c.SVG())
	checkInside(t, svg)
	dataRight := 0.0
	for _, m := range pathRE.FindAllStringSubmatch(svg, -1) {
		if strings.Contains(m[1], "H") {
			continue // a legend entry's sample
		}
		for _, p := range pointRE.FindAllStringSubmatch(m[1], -1) {
			dataRight = max(dataRight, number(t, p[1]))
		}
	}
	names := map[string]bool{}
	for _, l := range c.Lines {
		names[l.Name] = true
	}
	found := 0
	var bottom float64
	for _, s := range spans(t, svg) {
		if names[s.text] && !strings.HasPrefix(s.text, "Health") {
			found++
			bottom = max(bottom, s.baseline)
			if s.left <= dataRight {
				t.Errorf("legend entry %q at x %.1f is over the data, which reaches x %.1f", s.text, s.left, dataRight)
			}
		}
	}
	if found != len(c.Lines) || dataRight == 0 {
		t.Errorf("%d of %d legend entries, data to x %.1f", found, len(c.Lines), dataRight)
	}
}

// checkInside checks that every label lies within the picture.
func checkInside(t *testing.T, svg string) {
	t.Helper()
	size := sizeRE.FindStringSubmatch(svg)
	if size == nil {
		t.Fatal("no size")
	}
	width, height := number(t, size[1]), number(t, size[2])
	for _, s := range spans(t, svg) {
		if s.left < 0 || s.right > width || s.baseline < 8 || s.baseline > height-2 {
			t.Errorf("label %q (%.1f to %.1f, baseline %.1f) is cut by the %.0f×%.0f picture", s.text, s.left, s.right, s.baseline, width, height)
		}
	}
}

// TestRound checks a bar chart's value axis: marks every 1, 2 or 5 times a
// power of ten, labels without needless decimals, and a count of fights in
// whole numbers only (issue 24 saw 0.00, 2.50, 5.00).
func TestRound(t *testing.T) {
	for _, c := range []struct {
		whole  bool
		lo, hi float64
		want   []string
	}{
		{true, 0, 5 * 1.15, []string{"0", "2", "4"}},
		{true, 0, 3 * 1.15, []string{"0", "1", "2", "3"}},
		{true, 0, 1, []string{"0", "1"}},
		{false, 0, 51.5 * 1.15, []string{"0", "20", "40"}},
		{false, 0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{false, 0, 81.8 * 1.15, []string{"0", "20", "40", "60", "80"}},
		{false, 0, 9 * 1.15, []string{"0", "5", "10"}},
		{false, 0, 5, []string{"0", "1", "2", "3", "4", "5"}},
		{false, 0, 0, nil},
	} {
		var got []string
		for _, tk := range Round(c.lo, c.hi, c.whole) {
			got = append(got, tk.Label)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("whole %v, %g to %g: %q, want %q", c.whole, c.lo, c.hi, got, c.want)
		}
	}
}

// TestEvery checks the health chart's axes: plain labels every step and
// unlabelled minor ticks between, none past the end.
func TestEvery(t *testing.T) {
	var got []string
	for _, tk := range Every(0, 100, 20, 2) {
		got = append(got, tk.Label)
	}
	want := []string{"0", "", "20", "", "40", "", "60", "", "80", "", "100"}
	if !slices.Equal(got, want) {
		t.Errorf("0 to 100 every 20: %q, want %q", got, want)
	}
	if n := len(Every(0, 180.5, 30, 3)); n != 19 {
		t.Errorf("0 to 180.5 every 30 in thirds: %d ticks, want 19", n)
	}
}

// TestScaleAndNumbers checks where a value falls on an axis that does not
// start at 0, and that a coordinate is never NaN, ±Inf or -0 in the SVG.
func TestScaleAndNumbers(t *testing.T) {
	s := scale{lo: 10, hi: 20, from: 100, to: 300}
	for v, want := range map[float64]float64{10: 100, 15: 200, 20: 300, 5: 100, 25: 300} {
		if got := s.at(v); got != want {
			t.Errorf("at(%g) = %g, want %g", v, got, want)
		}
	}
	for v, want := range map[float64]string{math.NaN(): "0", math.Inf(1): "0", math.Inf(-1): "0", -0.001: "0", 1.005: "1", 2.5: "2.5"} {
		if got := num(v); got != want {
			t.Errorf("num(%g) = %q, want %q", v, got, want)
		}
	}
}
