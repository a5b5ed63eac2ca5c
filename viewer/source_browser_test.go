package viewer_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// badSource names a fact it does not declare, on line 5 at column 15.
const badSource = "name: pasted\nfacts: [a]\nactions:\n  - name: A\n    effects: {b: true}\n    cost: 1\ngoals:\n  - name: G\n    conditions: {a: true}\n"

// goodSource is badSource mended, with a second action so that a toggle
// changes the plan.
const goodSource = `name: pasted
facts: [a, b]
actions:
  - name: MakeB
    effects: {b: true}
    cost: 2
  - name: MakeA
    preconditions: {b: true}
    effects: {a: true}
    cost: 1
goals:
  - name: G
    conditions: {a: true}
`

// sourceErrorShown is one error figure 1 lists under a pasted domain.
type sourceErrorShown struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	At      string `json:"at"`
	Message string `json:"message"`
	Listing string `json:"listing"` // the copy of the line and the caret under it
}

const readSourceErrors = `[...document.querySelectorAll('#source-errors .source-error')].map((e) => ({
	line: Number(e.dataset.line), column: Number(e.dataset.column),
	at: e.querySelector('.at').textContent,
	message: e.querySelector('.message').textContent.trim(),
	listing: (e.querySelector('pre') || {}).textContent || '',
}))`

// paste puts text in figure 1's editor and presses its load button.
func paste(text string) chromedp.Action[chromedp.Void] {
	v, _ := json.Marshal(text)
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		document.getElementById('source').value = %s;
		document.getElementById('source-load').click();
	})()`, v))
}

// TestBrowserPastedDomain pastes a domain with an error into figure 1,
// checks the error is shown under its line with a caret at its column and
// that clicking its position puts the editor's cursor there, mends it and
// plans it, toggles one of its facts, reloads the page, and opens a file
// through the file picker: every answer equal to the API's for the same
// source.
func TestBrowserPastedDomain(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	// The browser notes the two refusals the test provokes.
	refused := "the server responded with a status of 422"
	ts, tab := servePage(t, s, 25*time.Second, refused, refused)
	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`Number(document.getElementById('planner').dataset.seq) > 0`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("the page shows no plan: %v", err)
	}
	seq := shown(t, tab).Seq

	if err := chromedp.Do(tab, choose("domain", "<source>")); err != nil {
		t.Fatal(err)
	}
	visible, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!document.getElementById('source-panel').hidden`))
	if err != nil || !visible {
		t.Fatalf("picking your own domain shows no editor (%v)", err)
	}

	// The error, at the loader's position, under a copy of its line.
	if err := chromedp.Do(tab, paste(badSource)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById('planner').dataset.sourceErrors > 0`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("no errors shown for a domain with one: %v", err)
	}
	listed, err := chromedp.Run(tab, chromedp.Evaluate[[]sourceErrorShown](readSourceErrors))
	if err != nil {
		t.Fatal(err)
	}
	code, body := postTo(t, ts.URL, "/api/v1/domain", string(mustJSON(map[string]string{"source": badSource})))
	var api errorAnswer
	if err := json.Unmarshal(body, &api); err != nil || code != 422 || len(api.Errors) != 1 {
		t.Fatalf("the API on the bad source: %d %s, want 422 and one error", code, body)
	}
	want := api.Errors[0]
	if len(listed) != 1 || listed[0].Line != want.Line || listed[0].Column != want.Column || listed[0].Message != want.Message || listed[0].At != fmt.Sprintf("%d:%d", want.Line, want.Column) {
		t.Fatalf("errors shown: %+v, want the API's %+v", listed, want)
	}
	if want.Line != 5 || want.Column != 15 {
		t.Errorf("the API puts the error at %d:%d, want 5:15 (the b in effects: {b: true})", want.Line, want.Column)
	}
	lines := strings.Split(listed[0].Listing, "\n")
	prefix := "5 │ "
	if len(lines) != 2 || lines[0] != prefix+"    effects: {b: true}" || strings.Index(lines[1], "^") != len([]rune(prefix))+want.Column-1 || strings.TrimSpace(lines[1]) != "^" {
		t.Errorf("the listing:\n%s\nwant line 5 with a caret under column %d", listed[0].Listing, want.Column)
	}
	browser.Screenshot(t, tab, "source-panel", "figure1-source-errors")
	// A click on the position puts the cursor on the b.
	cursor, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
		document.querySelector('#source-errors .at').click();
		const e = document.getElementById('source');
		return document.activeElement === e ? e.value.slice(e.selectionStart, e.selectionStart + 8) : 'not focused';
	})()`))
	if err != nil || cursor != "b: true}" {
		t.Errorf("after clicking the error's position the cursor is before %q (%v), want before \"b: true}\"", cursor, err)
	}
	if f := shown(t, tab); f.Seq != seq {
		t.Errorf("a domain with errors was planned: seq %d, was %d", f.Seq, seq)
	}

	// Mended, it is planned as the API plans it.
	f, _ := after(t, tab, seq, "loading the mended source", paste(goodSource))
	request := func(set ...string) string {
		q := map[string]any{"source": goodSource, "goal": "G"}
		if len(set) > 0 {
			q["set"] = set
		}
		return string(mustJSON(q))
	}
	if want := planSummary(t, ts.URL, request()); f.Domain != "<source>" || f.Goal != "G" || f.Summary != want || !slices.Equal(f.Plan, []string{"MakeB", "MakeA"}) {
		t.Errorf("the mended domain: %s, goal %s, %q, plan %q; want <source>, G, the API's %q, MakeB → MakeA", f.Domain, f.Goal, f.Summary, f.Plan, want)
	}
	if f.Command != "ploy plan your-domain.yaml --goal G" {
		t.Errorf("command %q, want ploy plan your-domain.yaml --goal G", f.Command)
	}
	errorsHidden, _ := chromedp.Run(tab, chromedp.Evaluate[bool](`document.getElementById('source-errors').hidden`))
	if !errorsHidden {
		t.Error("the mended domain still shows the old errors")
	}
	f, _ = after(t, tab, f.Seq, "b on", toggle("b"))
	if want := planSummary(t, ts.URL, request("b")); f.Summary != want || !slices.Equal(f.Plan, []string{"MakeA"}) {
		t.Errorf("b on: %q, plan %q; want the API's %q, MakeA", f.Summary, f.Plan, want)
	}

	// A reload keeps the pasted domain and the toggle.
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`Number(document.getElementById('planner').dataset.seq) > 0`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("the reloaded page shows no plan: %v", err)
	}
	if g := shown(t, tab); g.Domain != "<source>" || g.Summary != f.Summary || !slices.Equal(g.On, []string{"b"}) {
		t.Errorf("after a reload: %s, %q, on %q; want <source>, %q, on [b]", g.Domain, g.Summary, g.On, f.Summary)
	}

	// A file opened through the picker.
	src, _ := fs.ReadFile(domains.Files, "soldier.yaml")
	file := filepath.Join(t.TempDir(), "my soldier.yaml")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	seq = shown(t, tab).Seq
	f, _ = after(t, tab, seq, "opening a file", chromedp.SetUploadFiles(chromedp.ID("source-file"), []string{file}))
	if f.Goal != "KillPlayer" || !strings.HasPrefix(f.Summary, "3 steps · cost 9 ·") || f.Command != "ploy plan 'my soldier.yaml' --goal KillPlayer" {
		t.Errorf("the opened soldier: goal %s, %q, command %q; want KillPlayer, 3 steps · cost 9, ploy plan 'my soldier.yaml' --goal KillPlayer", f.Goal, f.Summary, f.Command)
	}
	screenshot(t, tab, "figure1-source")
	// And a broken file's errors are shown, its position from the API.
	// (another name: the picker fires no change for the same file again)
	file = filepath.Join(filepath.Dir(file), "broken.yaml")
	if err := os.WriteFile(file, []byte("facts: [a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.SetUploadFiles(chromedp.ID("source-file"), []string{file})); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById('planner').dataset.sourceErrors > 0`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("no errors shown for a broken file: %v", err)
	}
	listed, _ = chromedp.Run(tab, chromedp.Evaluate[[]sourceErrorShown](readSourceErrors))
	if len(listed) == 0 || listed[0].Line != 1 || !strings.HasPrefix(listed[0].Listing, "1 │ facts: [a") {
		t.Errorf("a broken file's errors: %+v, want one at line 1 under its copy", listed)
	}
}
