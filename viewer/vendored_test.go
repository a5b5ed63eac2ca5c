package viewer_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/viewer"
)

// TestVendoredLayout: the layout library figure 2 uses is served from
// the binary as a script, with its name, version and licence at its head,
// and the page loads it before the figures that use it.
func TestVendoredLayout(t *testing.T) {
	s := newServer(t, viewer.Config{})
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/dagre.min.js", nil))
	head := w.Body.String()[:min(w.Body.Len(), 2000)]
	if w.Code != 200 || w.Header().Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Fatalf("GET /dagre.min.js: %d, %q", w.Code, w.Header().Get("Content-Type"))
	}
	for _, want := range []string{"@dagrejs/dagre 3.1.3", "Licence: MIT", "Copyright (c) 2012-2014 Chris Pettitt", "Permission is hereby granted"} {
		if !strings.Contains(head, want) {
			t.Errorf("/dagre.min.js's head lacks %q", want)
		}
	}
	if strings.Contains(w.Body.String(), "//# sourceMappingURL=") {
		t.Errorf("/dagre.min.js names a source map the server does not have")
	}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	page := w.Body.String()
	dagre, search, htn := strings.Index(page, `src="/dagre.min.js"`), strings.Index(page, `src="/search.js"`), strings.Index(page, `src="/htn.js"`)
	if dagre < 0 || search < dagre || htn < 0 {
		t.Errorf("the page loads dagre at %d, search.js at %d, htn.js at %d: want all three, dagre first", dagre, search, htn)
	}
}
