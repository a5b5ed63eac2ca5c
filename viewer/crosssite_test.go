package viewer

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCrossSiteRequestsAreRefused sends what a browser sends for a page of
// another site (and of the server's own), and what a program sends.
func TestCrossSiteRequestsAreRefused(t *testing.T) {
	s, err := New(Config{LoopbackOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	const host = "127.0.0.1:7070"
	for _, c := range []struct {
		name, method, path, contentType string
		header                          map[string]string
		want                            int
	}{
		{"program, JSON", "POST", "/api/v1/plan", "application/json", nil, 200},
		{"own page, JSON", "POST", "/api/v1/plan", "application/json", map[string]string{"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}, 200},
		{"own page as localhost", "POST", "/api/v1/plan", "application/json", map[string]string{"Origin": "http://LOCALHOST:7070"}, 403},
		{"no content type (Blob, ArrayBuffer, sendBeacon)", "POST", "/api/v1/plan", "", nil, 415},
		{"text/plain", "POST", "/api/v1/plan", "text/plain", nil, 415},
		{"form", "POST", "/api/v1/plan", "application/x-www-form-urlencoded", nil, 415},
		{"JSON with parameters", "POST", "/api/v1/plan", "application/json; charset=utf-8", nil, 200},
		{"origin of another site", "POST", "/api/v1/plan", "application/json", map[string]string{"Origin": "http://evil.example"}, 403},
		{"origin of another port", "POST", "/api/v1/plan", "application/json", map[string]string{"Origin": "http://127.0.0.1:3000", "Sec-Fetch-Site": "same-site"}, 403},
		{"origin of another scheme", "POST", "/api/v1/plan", "application/json", map[string]string{"Origin": "ftp://" + host}, 403},
		{"null origin", "POST", "/api/v1/plan", "application/json", map[string]string{"Origin": "null"}, 403},
		{"cross-site without origin", "POST", "/api/v1/plan", "application/json", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"cross-site, no content type", "POST", "/api/v1/live", "", map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, 403},
		{"cross-site GET of the API", "GET", "/api/v1/domains", "", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}, 403},
		{"cross-site fetch of a script", "GET", "/common.js", "", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}, 403},
		{"link from another site to the app", "GET", "/", "", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}, 200},
		{"cross-site form navigation", "POST", "/api/v1/plan", "text/plain", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}, 403},
		{"typed address", "GET", "/", "", map[string]string{"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate"}, 200},
		{"own page's GET", "GET", "/api/v1/domains", "", map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			var body *strings.Reader
			if c.method == "POST" {
				body = strings.NewReader(`{"goal": "Kill"}`)
			} else {
				body = strings.NewReader("")
			}
			r := httptest.NewRequest(c.method, "http://"+host+c.path, body)
			if c.contentType != "" {
				r.Header.Set("Content-Type", c.contentType)
			}
			for k, v := range c.header {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != c.want {
				t.Errorf("%d %.300s, want %d", w.Code, w.Body, c.want)
			}
			if c.want >= 400 && !strings.Contains(w.Body.String(), `"error"`) {
				t.Errorf("the refusal is not a JSON error: %.300s", w.Body)
			}
		})
	}
}

// TestEveryAnswerIsBounded lowers MaxAnswer under the answers of a few
// endpoints: each is refused with 422, saying the bound, never sent.
func TestEveryAnswerIsBounded(t *testing.T) {
	const max = 200
	s, err := New(Config{MaxAnswer: max})
	if err != nil {
		t.Fatal(err)
	}
	wide := "name: wide\nkeys: {k: bool}\nactions:\n"
	for i := range 40 {
		wide += fmt.Sprintf("  - {name: P%d, effects: {k: true}, cost: 1}\n  - {name: C%d, conditions: {k: true}, effects: {k: false}, cost: 1}\n", i, i)
	}
	for _, c := range []struct{ path, body, field string }{
		{"/api/v1/graph", `{"domain": "survivor"}`, "domain"},
		{"/api/v1/graph", fmt.Sprintf(`{"source": %q}`, wide), "source"},
		{"/api/v1/lint", fmt.Sprintf(`{"source": %q}`, wide), ""},
		{"/api/v1/explain", `{"goal": "Kill"}`, ""},
		{"/api/v1/domain", `{"domain": "battlemage"}`, ""},
		{"/api/v1/trace", `{"goal": "Kill"}`, "budget"},
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, jsonPost(c.path, c.body))
		if w.Code != http.StatusUnprocessableEntity || !strings.Contains(w.Body.String(), fmt.Sprint(max)) || w.Body.Len() > 2000 {
			t.Errorf("%s %.80s: %d %.300s, want 422 naming the bound of %d", c.path, c.body, w.Code, w.Body, max)
		}
		if c.field != "" && !strings.Contains(w.Body.String(), fmt.Sprintf(`"field":%q`, c.field)) {
			t.Errorf("%s %.80s: %.300s, want field %q", c.path, c.body, w.Body, c.field)
		}
	}
	// Under the bound, the graph is the command's bytes.
	s, err = New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, jsonPost("/api/v1/graph", fmt.Sprintf(`{"source": %q}`, wide)))
	if w.Code != http.StatusOK || strings.Count(w.Body.String(), `"from":`) != 40*40 {
		t.Errorf("graph of 1600 edges: %d, %d edges, %.300s", w.Code, strings.Count(w.Body.String(), `"from":`), w.Body)
	}
}
