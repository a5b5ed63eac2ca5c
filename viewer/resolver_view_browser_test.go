package viewer_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// graphView is how figure 8's action graph sits on screen, read from the
// page.
type graphView struct {
	Zoom       float64           `json:"zoom"`       // the figure's data-zoom
	Texts      int               `json:"texts"`      // the graph's texts with something in them
	Smallest   float64           `json:"smallest"`   // the smallest of their font sizes on screen, in CSS px
	SvgWidth   float64           `json:"svgWidth"`   // the drawing's width on screen
	SvgHeight  float64           `json:"svgHeight"`  // and its height
	BoxWidth   float64           `json:"boxWidth"`   // the scrolling box's inside width
	BoxHeight  float64           `json:"boxHeight"`  // and height
	ScrollLeft float64           `json:"scrollLeft"` // how far the box is scrolled
	ScrollTop  float64           `json:"scrollTop"`
	Spills     []string          `json:"spills"`   // the nodes whose note is wider than their box
	Selected   string            `json:"selected"` // the action clicked (selected), if any
	Notes      map[string]string `json:"notes"`    // each action's note as drawn
}

const readGraphView = `(() => {
	const box = document.getElementById('resolver-graph');
	const svg = box.querySelector('svg');
	const texts = svg ? [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '') : [];
	// A text's size on screen: its font size times the drawing's scale.
	const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
	const spills = [], notes = {};
	for (const g of (svg ? svg.querySelectorAll('g.node') : [])) {
		const note = g.querySelector('text.note');
		if (g.dataset.action !== undefined) notes[g.dataset.action] = note.textContent;
		if (!note || note.textContent === '') continue;
		const rect = g.querySelector('rect').getBBox(), text = note.getBBox();
		if (text.x < rect.x || text.x + text.width > rect.x + rect.width) {
			spills.push((g.dataset.action || g.dataset.goal) + ': ' + note.textContent + ' (' + text.width.toFixed(0) + ' in ' + rect.width.toFixed(0) + ')');
		}
	}
	const r = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
	return {
		zoom: Number(document.getElementById('resolver-figure').dataset.zoom || 0),
		texts: texts.length, smallest: sizes.length ? Math.min(...sizes) : 0,
		svgWidth: r.width, svgHeight: r.height, boxWidth: box.clientWidth, boxHeight: box.clientHeight,
		scrollLeft: box.scrollLeft, scrollTop: box.scrollTop, spills, notes,
		selected: ((svg && svg.querySelector('g.action-node.selected')) || { dataset: {} }).dataset.action || '',
	};
})()`

// fortyActions writes an engine-model file of 40 actions: five lines of
// eight stages, each stage needing the one before it, the goal needing
// every line's last stage, with condition names as long as a game's.
func fortyActions(t *testing.T) string {
	t.Helper()
	var src strings.Builder
	src.WriteString("name: workshop\nkeys: {")
	for l := range 5 {
		for s := range 8 {
			if l+s > 0 {
				src.WriteString(", ")
			}
			fmt.Fprintf(&src, "line%d_stage%d_done: bool", l, s)
		}
	}
	src.WriteString("}\nactions:\n")
	for l := range 5 {
		for s := range 8 {
			fmt.Fprintf(&src, "  - name: Line%dStage%d\n", l, s)
			switch {
			case l == 4 && s == 7:
				// Two conditions, both unmet while line 3 is unfinished:
				// a note longer than the box is sized for.
				fmt.Fprintf(&src, "    conditions: {line%d_stage%d_done: true, line3_stage7_done: true}\n", l, s-1)
			case s > 0:
				fmt.Fprintf(&src, "    conditions: {line%d_stage%d_done: true}\n", l, s-1)
			}
			fmt.Fprintf(&src, "    effects: {line%d_stage%d_done: true}\n    cost: %d\n", l, s, 1+(l+s)%3)
		}
	}
	src.WriteString("goals:\n  - name: AllLinesDone\n    conditions: {")
	for l := range 5 {
		if l > 0 {
			src.WriteString(", ")
		}
		fmt.Fprintf(&src, "line%d_stage7_done: true", l)
	}
	src.WriteString("}\n")
	path := filepath.Join(t.TempDir(), "workshop.yaml")
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserResolverLegible opens figure 8 on a 40-action file named in
// the address: the graph is drawn at a size where its smallest text is
// 10 px on screen, the box scrolls, the zoom buttons zoom and fit, a drag
// pans without selecting an action, no node's note spills out of its box
// (the survivor's "unmet: fire_lit" did), and the figure's state is in the
// address, so that a reload shows it again.
func TestBrowserResolverLegible(t *testing.T) {
	workshop := fortyActions(t)
	s := newServer(t, viewer.Config{LoopbackOnly: true, Files: []string{workshop}})
	ts, tab := servePage(t, s, 40*time.Second)
	view := func() graphView { return browser.Read[graphView](t, tab, "figure 8's graph", readGraphView) }

	f := newResolve(t, tab, 0, "opening the page on the workshop", chromedp.Navigate(ts.URL+"/#resolver="+url.QueryEscape(workshop)))
	if f.Domain != workshop || f.Goal != "AllLinesDone" {
		t.Fatalf("#resolver=%s: figure 8 opens on %s %s", workshop, f.Domain, f.Goal)
	}
	wantChain(t, ts.URL, f, "the workshop", `{"domain": "`+workshop+`", "goal": "AllLinesDone"}`)
	v := view()
	if v.Texts < 80 || v.Smallest < 10 || v.Zoom != 1 {
		t.Errorf("the 40-action graph opens at zoom %g with %d texts, the smallest %.1f px on screen; want zoom 1 and at least 10 px", v.Zoom, v.Texts, v.Smallest)
	}
	if v.SvgWidth <= v.BoxWidth && v.SvgHeight <= v.BoxHeight {
		t.Errorf("the 40-action graph (%.0f×%.0f) fits its box (%.0f×%.0f) at zoom 1: it was squeezed", v.SvgWidth, v.SvgHeight, v.BoxWidth, v.BoxHeight)
	}
	// A note of one unmet condition is whole; a longer one is shortened
	// to its box (the tooltip and the side panel have it all).
	if len(v.Spills) > 0 || v.Notes["Line1Stage3"] != "unmet: line1_stage2_done" || !strings.HasSuffix(v.Notes["Line4Stage7"], "…") {
		t.Errorf("the workshop: notes spill out of their boxes: %q; Line1Stage3's note %q, Line4Stage7's %q", v.Spills, v.Notes["Line1Stage3"], v.Notes["Line4Stage7"])
	}
	browser.Screenshot(t, tab, "resolver-figure", "resolver-forty-actions")

	// Zoom in: the drawing grows by the step, and its text with it.
	width := v.SvgWidth
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("resolver-zoom-in"))); err != nil {
		t.Fatal(err)
	}
	if v = view(); v.Zoom != 1.3 || v.SvgWidth < 1.28*width || v.SvgWidth > 1.32*width || v.Smallest < 12.9 {
		t.Errorf("zoom in: zoom %g, width %.0f (was %.0f), smallest text %.1f px; want 1.3 times", v.Zoom, v.SvgWidth, width, v.Smallest)
	}
	// Fit: the whole graph in the box.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("resolver-zoom-fit"))); err != nil {
		t.Fatal(err)
	}
	if v = view(); v.Zoom >= 1 || v.SvgWidth > v.BoxWidth || v.SvgHeight > v.BoxHeight {
		t.Errorf("fit: zoom %g, drawing %.0f×%.0f in a box %.0f×%.0f; want it all in the box", v.Zoom, v.SvgWidth, v.SvgHeight, v.BoxWidth, v.BoxHeight)
	}
	browser.Screenshot(t, tab, "resolver-figure", "resolver-forty-actions-fit")
	// Back to reading size, then a drag pans: the box scrolls by the
	// pointer's movement, and the drag selects nothing.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("resolver-zoom-one"))); err != nil {
		t.Fatal(err)
	}
	if v = view(); v.Zoom != 1 {
		t.Errorf("1:1: zoom %g, want 1", v.Zoom)
	}
	at := browser.Read[[]float64](t, tab, "the box's place", `(() => { const b = document.getElementById('resolver-graph'); b.scrollIntoView({block: 'center'}); b.scrollLeft = 0; b.scrollTop = 0; const r = b.getBoundingClientRect(); return [r.left + r.width * 0.7, r.top + r.height * 0.7]; })()`)
	before := view()
	x, y := at[0], at[1]
	if err := chromedp.Do(tab,
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, x-60, y-40, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, x-150, y-100, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, x-150, y-100, chromedp.ButtonLeft),
	); err != nil {
		t.Fatal(err)
	}
	if v = view(); v.ScrollLeft-before.ScrollLeft < 149 || v.ScrollLeft-before.ScrollLeft > 151 || v.ScrollTop-before.ScrollTop < 99 || v.ScrollTop-before.ScrollTop > 101 || v.Selected != "" {
		t.Errorf("a drag of 150, 100 px: the box scrolled from %.0f,%.0f to %.0f,%.0f, action %q selected; want 150, 100 further and none", before.ScrollLeft, before.ScrollTop, v.ScrollLeft, v.ScrollTop, v.Selected)
	}

	// The survivor without LightFire: WarmUp's fire_lit is unmet, and
	// the note saying so stays inside WarmUp's box.
	f = newResolve(t, tab, f.Seq, "the survivor", choose("resolver-domain", "survivor.yaml"))
	f = newResolve(t, tab, f.Seq, "LightFire not capable", chromedp.Click(chromedp.CSS(`#resolver-capabilities input[data-action="LightFire"]`)))
	if !strings.Contains(strings.Join(f.Rejected, "\n"), "WarmUp: unmet: fire_lit") {
		t.Errorf("the survivor without LightFire: rejected %q, want WarmUp: unmet: fire_lit", f.Rejected)
	}
	if v = view(); len(v.Spills) > 0 || v.Smallest < 10 || v.Notes["WarmUp"] != "unmet: fire_lit" {
		t.Errorf("the survivor without LightFire: WarmUp's note %q; notes spill out of their boxes: %q; smallest text %.1f px; want unmet: fire_lit whole, inside its box", v.Notes["WarmUp"], v.Spills, v.Smallest)
	}
	browser.Screenshot(t, tab, "resolver-figure", "resolver-survivor-unmet")

	// The state is in the address; a reload shows the same figure.
	f = newResolve(t, tab, f.Seq, "goal Fed", choose("resolver-goal", "Fed"))
	f = newResolve(t, tab, f.Seq, "berries not found", chromedp.Click(chromedp.CSS(`#resolver-places input[data-found="berries"]`)))
	f = newResolve(t, tab, f.Seq, "deer at 3,0", setInput(`#resolver-places .place[data-place="deer"] input[data-axis="0"]`, "3"))
	f = newResolve(t, tab, f.Seq, "hunger 80", setInput(`#resolver-keys input[data-key="hunger"]`, "80"))
	address := browser.Read[string](t, tab, "the address", `location.hash`)
	want := `{"domain": "survivor.yaml", "goal": "Fed", "set": ["hunger=80"], "targets": {"berries": null, "deer": [3, 0]}, "capabilities": ["GatherWoodNorth", "GatherWoodSouth", "WarmUp", "Forage", "Hunt", "Eat"]}`
	wantChain(t, ts.URL, f, "Fed, no berries, the deer at 3,0", want)
	g := newResolve(t, tab, 0, "a reload", chromedp.Reload())
	if g.Domain != f.Domain || g.Goal != f.Goal || g.Summary != f.Summary || strings.Join(g.Chain, " ") != strings.Join(f.Chain, " ") || strings.Join(g.Rejected, "\n") != strings.Join(f.Rejected, "\n") {
		t.Errorf("after a reload of %s: %s %s %q %q, rejected %q; want %s %s %q %q, rejected %q", address, g.Domain, g.Goal, g.Summary, g.Chain, g.Rejected, f.Domain, f.Goal, f.Summary, f.Chain, f.Rejected)
	}
	wantChain(t, ts.URL, g, "after a reload", want)
	// Figure 1's keys and figure 8's live side by side in the address.
	p, err := url.ParseQuery(strings.TrimPrefix(browser.Read[string](t, tab, "the address", `location.hash`), "#"))
	if err != nil || p.Get("domain") != "battlemage.yaml" || p.Get("resolver") != "survivor.yaml" || p.Get("resolver.targets") != "berries:none;deer:3,0" {
		t.Errorf("the address %s (%v): want figure 1's domain=battlemage.yaml beside resolver=survivor.yaml and its targets", address, err)
	}
}
