package viewer_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/viewer"
)

// TestPageAssets checks what the browser relies on before any script
// runs: the assets served with their types, and a page that may run only
// the server's own script.
func TestPageAssets(t *testing.T) {
	s := newServer(t, viewer.Config{})
	for path, want := range map[string]string{
		"/planner.js": "text/javascript; charset=utf-8",
		"/common.js":  "text/javascript; charset=utf-8",
		"/style.css":  "text/css; charset=utf-8",
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 || w.Header().Get("Content-Type") != want || w.Body.Len() == 0 {
			t.Errorf("GET %s: %d, %q, %d bytes; want 200, %q and the file", path, w.Code, w.Header().Get("Content-Type"), w.Body.Len(), want)
		}
		w = httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("POST", path, nil))
		if w.Code != http.StatusMethodNotAllowed {
			t.Errorf("POST %s: %d, want 405", path, w.Code)
		}
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	csp := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the page's Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("the page's Content-Security-Policy %q allows inline code", csp)
	}
	page := w.Body.String()
	for _, ref := range []string{`src="/planner.js"`, `href="/style.css"`} {
		if !strings.Contains(page, ref) {
			t.Errorf("the page does not load %s", ref)
		}
	}
	// The figures' scripts use the helpers common.js defines: it runs
	// first, deferred like them (deferred scripts run in the page's order).
	scripts := regexp.MustCompile(`<script src="/([^"]+)" defer></script>`).FindAllStringSubmatch(page, -1)
	if len(scripts) < 2 || scripts[0][1] != "common.js" {
		t.Errorf("the page's scripts %q: want common.js first, deferred", scripts)
	}
	if n := strings.Count(page, "<script"); n != len(scripts) {
		t.Errorf("the page has %d scripts, %d of them deferred from /NAME: want all", n, len(scripts))
	}
	// Only the soldier and the battle mage can be planned with GOAP: the
	// picker offers those, not the engine-model files (figure 8's picker
	// offers those).
	_, picker, _ := strings.Cut(page, `<select id="domain">`)
	picker, _, _ = strings.Cut(picker, `</select>`)
	if !strings.Contains(picker, `<option value="soldier.yaml">`) || strings.Contains(picker, `<option value="survivor.yaml"`) {
		t.Errorf("the domain picker should offer the state-space domains only:\n%s", picker)
	}
	_, picker, _ = strings.Cut(page, `<select id="resolver-domain">`)
	picker, _, _ = strings.Cut(picker, `</select>`)
	if !strings.Contains(picker, `<option value="survivor.yaml" selected>`) || strings.Contains(picker, `<option value="soldier.yaml"`) {
		t.Errorf("figure 8's domain picker should offer the engine-model domains only, the survivor first:\n%s", picker)
	}
}
