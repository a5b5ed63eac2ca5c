//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/bindings/host"
	"github.com/ploy-ai/ploy/internal/testkit/browser"
)

// examplePage is what examples/wasm/index.html shows, read from the page.
type examplePage struct {
	State     string     `json:"state"`
	Status    string     `json:"status"`
	StatusRed bool       `json:"statusRed"`
	Plan      []string   `json:"plan"`
	Summary   string     `json:"summary"`
	Battle    string     `json:"battle"`
	Rows      [][]string `json:"rows"`
	Error     string     `json:"error"`
}

const readExample = `(() => {
	const $ = (id) => document.getElementById(id);
	return {
		state: $('demo').dataset.state,
		status: $('status').textContent,
		statusRed: $('status').hasAttribute('data-error'),
		plan: [...document.querySelectorAll('#plan li')].map((li) => li.textContent),
		summary: $('plan-summary').textContent,
		battle: $('battle-summary').textContent,
		rows: [...document.querySelectorAll('#battle tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
		error: $('error-demo').textContent,
	};
})()`

// serveExample serves a static copy of the files examples/wasm/index.html
// needs, laid out as in the repository, with ploy.wasm and wasm_exec.js in
// bindings/wasm as docs/wasm.md says to put them: a plain static server,
// no API behind it.
func serveExample(t *testing.T, wasmDir string) *httptest.Server {
	t.Helper()
	root := t.TempDir()
	for to, from := range map[string]string{
		"bindings/wasm/ploy.wasm":    filepath.Join(wasmDir, "ploy.wasm"),
		"bindings/wasm/wasm_exec.js": filepath.Join(wasmDir, "wasm_exec.js"),
		"bindings/wasm/ploy.mjs":     "ploy.mjs",
		"examples/wasm/index.html":   filepath.Join("..", "..", "examples", "wasm", "index.html"),
		"examples/wasm/battle.mjs":   filepath.Join("..", "..", "examples", "wasm", "battle.mjs"),
		"domains/battlemage.yaml":    shipped(t, "battlemage.yaml"),
	} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(root, filepath.FromSlash(to))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts := httptest.NewServer(http.FileServer(http.Dir(root)))
	t.Cleanup(ts.Close)
	return ts
}

// TestBrowserExample opens examples/wasm/index.html in Chromium: the page
// loads ploy.wasm through ploy.mjs, plans Kill at cost 7 (the native
// answer), runs agents of every kind of the file in the tiny world of
// battle.mjs (with Node at hand, the same figures as node.mjs prints),
// and shows the error the API throws for an unknown goal.
func TestBrowserExample(t *testing.T) {
	browser.Find(t) // skips before the build when there is no Chromium
	dir := buildWasm(t)
	ts := serveExample(t, dir)
	tab := browser.Start(t, 90*time.Second)
	checkConsole := browser.WatchConsole(t, tab)
	if _, err := chromedp.Run(tab, chromedp.Navigate(ts.URL+"/examples/wasm/index.html")); err != nil {
		t.Fatal(err)
	}
	page := browser.WaitFor[examplePage](t, tab, "the example page", `document.getElementById('demo').dataset.state !== 'loading'`, 60*time.Second, readExample)
	browser.Screenshot(t, tab, "demo", "wasm-battlemage")
	checkConsole()
	if page.State != "done" || page.StatusRed {
		t.Fatalf("the page failed: %+v", page)
	}

	mage := loadNative(t, "battlemage.yaml")
	var native struct {
		Plan     []string
		Cost     float64
		Expanded int
	}
	if err := json.Unmarshal(host.Call(mage, "plan", []byte(`{"goal":"Kill"}`)), &native); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(page.Plan, native.Plan) || page.Summary != fmt.Sprintf("cost %v, %d states expanded", native.Cost, native.Expanded) || native.Cost != 7 {
		t.Errorf("the plan shown: %q, %q; natively %q at cost %v, %d expanded", page.Plan, page.Summary, native.Plan, native.Cost, native.Expanded)
	}
	if !strings.HasPrefix(page.Status, "ploy ") {
		t.Errorf("the status line: %q", page.Status)
	}
	if want := `PloyError: unknown goal "Kil"; did you mean "Kill"? (field goal, status 400)`; page.Error != want {
		t.Errorf("the error shown: %q, want %q", page.Error, want)
	}

	kinds, _ := host.Kinds(mage)
	var shown []string
	for _, row := range page.Rows {
		if len(row) != 7 {
			t.Fatalf("a row of %d cells: %q", len(row), row)
		}
		shown = append(shown, row[0])
		agents, _ := strconv.Atoi(row[1])
		kills, _ := strconv.Atoi(row[2])
		actions, _ := strconv.Atoi(row[4])
		if agents != 10 || kills < agents || actions < kills {
			t.Errorf("%s: %d agents killed %d enemies in %d actions; want 10 agents, each killing", row[0], agents, kills, actions)
		}
	}
	if !slices.Equal(shown, kinds) {
		t.Errorf("the kinds shown %q, the file's %q", shown, kinds)
	}
	if !strings.HasPrefix(page.Battle, "50 agents for 300 frames, ") {
		t.Errorf("the battle's summary: %q", page.Battle)
	}

	// The battle is deterministic: Node, when it is here, prints the same
	// figures.
	if _, err := findNodePath(); err != nil {
		t.Log("no Node: the page's figures are not compared with node.mjs's")
		return
	}
	out := nodeExample(t)
	for _, row := range page.Rows {
		line := fmt.Sprintf("%s: %s agents, %s kills, %s potions drunk, %s actions, %s plans, lowest health %s\n", row[0], row[1], row[2], row[3], row[4], row[5], row[6])
		if !strings.Contains(out, line) {
			t.Errorf("the page shows %q; node.mjs printed:\n%s", line, out)
		}
	}
	resolved, _, _ := strings.Cut(page.Battle, " plans resolved")
	if !strings.Contains(out, "battle: "+resolved+" plans resolved\n") {
		t.Errorf("the page's battle %q; node.mjs printed:\n%s", page.Battle, out)
	}
}
