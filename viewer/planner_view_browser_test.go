package viewer_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// commandLines is how figure 1's command sits on screen: the lines it
// takes and the words broken across two lines.
type commandLines struct {
	Lines  int      `json:"lines"`
	Broken []string `json:"broken"`
	Text   string   `json:"text"`
}

const readCommandLines = `(() => {
	const code = document.getElementById('command');
	const tops = new Set([...code.getClientRects()].map((r) => Math.round(r.top)));
	return {
		lines: tops.size,
		broken: [...code.querySelectorAll('.w')].filter((w) => w.getClientRects().length !== 1).map((w) => w.textContent),
		text: code.textContent,
	};
})()`

// TestBrowserPlannerLooked drives figure 1 where the screenshots
// showed it wrong: a long command on a narrow screen wraps between words,
// never inside a flag or a fact; an engine-model file loaded leaves no
// stale plan or command beside its refusal; a fragment naming an
// engine-model domain says figure 8 resolves it (and figure 8 opens it),
// and one naming no offered domain says so.
func TestBrowserPlannerLooked(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 40*time.Second)

	// A long command on a narrow screen.
	long := "/#domain=battlemage.yaml&goal=Kill&unset=spare_crystals,potion_at_shrine,healthy&set=in_range,staff_charged,carrying_potion&search=backward&heuristic=goal-cost"
	if err := chromedp.Do(tab, chromedp.EmulateViewport(420, 760)); err != nil {
		t.Fatal(err)
	}
	f, _ := after(t, tab, 0, "opening a long command", chromedp.Navigate(ts.URL+long))
	want := "ploy plan battlemage.yaml --goal Kill --set in_range,staff_charged,carrying_potion --unset spare_crystals,potion_at_shrine,healthy --search backward --heuristic goal-cost"
	c := browser.Read[commandLines](t, tab, "the command", readCommandLines)
	if f.Command != want || c.Lines < 3 || len(c.Broken) > 0 {
		t.Errorf("the long command %q on %d lines, words broken across lines %q; want %q on 3 or more lines, no word broken", c.Text, c.Lines, c.Broken, want)
	}
	screenshot(t, tab, "planner-long-command")
	if err := chromedp.Do(tab, chromedp.EmulateViewport(960, 760)); err != nil {
		t.Fatal(err)
	}

	// An engine-model file loaded as your own domain: the refusal, and
	// nothing of the last plan beside it.
	src, _ := fs.ReadFile(domains.Files, "survivor.yaml")
	file := filepath.Join(t.TempDir(), "survivor.yaml")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, choose("domain", "<source>"), chromedp.SetUploadFiles(chromedp.ID("source-file"), []string{file})); err != nil {
		t.Fatal(err)
	}
	type refusal struct {
		Status, Summary, Command, Goals string
		CommandShown                    bool
		Plan, Facts                     int
	}
	r := browser.WaitFor[refusal](t, tab, "loading an engine-model file", `document.getElementById('source-status').textContent.includes('engine-model')`, 5*time.Second, `(() => ({
		Status: document.getElementById('source-status').textContent,
		Summary: document.getElementById('summary').textContent,
		Command: document.getElementById('command').textContent,
		CommandShown: !document.getElementById('command-line').hidden,
		Goals: document.getElementById('goal').textContent,
		Plan: document.querySelectorAll('#plan li').length,
		Facts: document.querySelectorAll('#facts input').length,
	}))()`)
	if r.CommandShown || r.Command != "" || r.Plan != 0 || r.Facts != 0 || r.Goals != "" ||
		strings.Contains(r.Summary, "paste a domain") || !strings.Contains(r.Summary, "ploy resolve survivor.yaml") {
		t.Errorf("an engine-model file loaded: status %q, summary %q, command %q (shown %v), %d steps, %d facts, goals %q; want the refusal, the summary naming ploy resolve survivor.yaml and nothing stale", r.Status, r.Summary, r.Command, r.CommandShown, r.Plan, r.Facts, r.Goals)
	}
	screenshot(t, tab, "planner-engine-file")

	// A fragment naming an engine-model domain: figure 1 says why it
	// shows another, figure 8 opens it.
	type noted struct {
		Note, Domain, Resolver string
		Shown                  bool
	}
	readNote := `(() => ({
		Note: document.getElementById('address-note').textContent,
		Shown: !document.getElementById('address-note').hidden,
		Domain: document.getElementById('domain').value,
		Resolver: document.getElementById('resolver-domain').value,
	}))()`
	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/#domain=shopkeeper.yaml&goal=ServeCustomer")); err != nil {
		t.Fatal(err)
	}
	n := browser.WaitFor[noted](t, tab, "a fragment naming shopkeeper.yaml", `Number(document.getElementById('planner').dataset.seq) > 0 && Number(document.getElementById('resolver-figure').dataset.seq) > 0`, 5*time.Second, readNote)
	if !n.Shown || !strings.Contains(n.Note, "shopkeeper.yaml is an engine-model domain (keys:), resolved, not planned: figure 8 below shows it") || n.Domain != "battlemage.yaml" || n.Resolver != "shopkeeper.yaml" {
		t.Errorf("#domain=shopkeeper.yaml: figure 1 on %s says %q (shown %v), figure 8 on %s; want a note that figure 8 resolves it, and figure 8 on it", n.Domain, n.Note, n.Shown, n.Resolver)
	}
	screenshot(t, tab, "planner-engine-fragment")
	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/#domain=nosuch.yaml")); err != nil {
		t.Fatal(err)
	}
	n = browser.WaitFor[noted](t, tab, "a fragment naming nosuch.yaml", `Number(document.getElementById('planner').dataset.seq) > 0`, 5*time.Second, readNote)
	if !n.Shown || !strings.Contains(n.Note, "nosuch.yaml is not a domain this server offers") {
		t.Errorf("#domain=nosuch.yaml: figure 1 on %s says %q (shown %v); want that it is not offered", n.Domain, n.Note, n.Shown)
	}
	// A domain it plans: no note.
	f, _ = after(t, tab, shown(t, tab).Seq, "the soldier", choose("domain", "soldier.yaml"))
	if n = browser.Read[noted](t, tab, "the note", readNote); n.Shown {
		t.Errorf("the soldier picked: the note still says %q", n.Note)
	}
}
