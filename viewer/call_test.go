package viewer_test

import (
	"context"
	"io/fs"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/viewer"
)

func shippedFile(t testing.TB, name string) *domain.File {
	t.Helper()
	src, err := fs.ReadFile(domains.Files, name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := domain.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCallAnswersAsTheHandler checks that Call on a server given its one
// domain answers every method with the bytes and status the HTTP API
// sends for the same domain named in the request.
func TestCallAnswersAsTheHandler(t *testing.T) {
	web := newServer(t, viewer.Config{})
	cases := []struct{ file, method, body string }{
		{"battlemage.yaml", "plan", `{"goal":"Kill"}`},
		{"battlemage.yaml", "plan", `{"goal":"Kill","unset":["spare_crystals"],"heuristic":"hmax"}`},
		{"battlemage.yaml", "plan", `{"agent":"goap"}`},
		{"battlemage.yaml", "plan", `{"goal":"Kil"}`},
		{"battlemage.yaml", "htn", `{"unset":["spare_crystals"]}`},
		{"battlemage.yaml", "trace", `{"goal":"Kill","budget":50}`},
		{"battlemage.yaml", "explain", `{"goal":"Kill"}`},
		{"battlemage.yaml", "lint", `{}`},
		{"battlemage.yaml", "decomposition", `{}`},
		{"battlemage.yaml", "domain", `{}`},
		{"battlemage.yaml", "personalities", `{"goal":"Kill"}`},
		{"battlemage.yaml", "resolve", `{}`},
		{"soldier.yaml", "tree", `{}`},
		{"survivor.yaml", "resolve", `{"goal":"Warm"}`},
		{"survivor.yaml", "graph", `{}`},
		{"survivor.yaml", "plan", `{"goal":"Warm"}`},
	}
	for _, c := range cases {
		one := newServer(t, viewer.Config{Domain: shippedFile(t, c.file)})
		named := `{"domain":"` + c.file + `",` + strings.TrimPrefix(c.body, "{")
		if c.body == "{}" {
			named = `{"domain":"` + c.file + `"}`
		}
		wantStatus, want := post(t, web, "/api/v1/"+c.method, named)
		if c.method == "domain" { // the one domain is the caller's, not shipped
			want = []byte(strings.Replace(string(want), `"shipped":true`, `"shipped":false`, 1))
		}
		status, got := one.Call(context.Background(), c.method, []byte(c.body))
		if status != wantStatus || string(got) != string(want) {
			t.Errorf("%s %s %s: Call gave %d %s\nthe handler %d %s", c.file, c.method, c.body, status, got, wantStatus, want)
		}
	}
}

// TestCallRefuses checks what Call refuses, and that each refusal says
// what to change.
func TestCallRefuses(t *testing.T) {
	s := newServer(t, viewer.Config{Domain: shippedFile(t, "battlemage.yaml"), MaxBody: 100})
	cases := []struct {
		method, body string
		status       int
		says         string
	}{
		{"plna", `{}`, http.StatusNotFound, `unknown method \"plna\"; the methods: arena, arena/fight, decomposition, domain, explain, graph, htn, lint, personalities, plan, resolve, trace, tree`},
		{"live", `{}`, http.StatusNotFound, `unknown method \"live\"`},
		{"plan", `{"goal":"Kill","source":"name: x"}`, http.StatusBadRequest, `answers about battlemage.yaml alone, loaded already: send no source`},
		{"plan", `{"goal":"Kill","domain":"soldier"}`, http.StatusNotFound, `unknown domain \"soldier\": this server answers about battlemage.yaml alone (leave domain out)`},
		{"plan", `{"goal":"Kill","domain":"battlemage.yaml"}`, http.StatusOK, `"cost":7`},
		{"plan", `{"goal":"Kill","unset":["` + strings.Repeat("x", 100) + `"]}`, http.StatusRequestEntityTooLarge, `larger than 100 bytes`},
	}
	for _, c := range cases {
		status, got := s.Call(context.Background(), c.method, []byte(c.body))
		if status != c.status || !strings.Contains(string(got), c.says) {
			t.Errorf("%s %s: %d %s, want %d and %q", c.method, c.body, status, got, c.status, c.says)
		}
	}
}

// TestCallStopsAtItsTimeout checks that a search longer than the timeout
// is stopped and answered 503, and that the slot it held is free again.
func TestCallStopsAtItsTimeout(t *testing.T) {
	s := newServer(t, viewer.Config{Domain: shippedFile(t, "battlemage.yaml"), Timeout: time.Nanosecond, MaxConcurrent: 1})
	for range 3 { // a slot kept by a timed-out call would make the next one busy
		status, got := s.Call(context.Background(), "personalities", []byte(`{"goal":"Kill"}`))
		if status != http.StatusServiceUnavailable || !strings.Contains(string(got), "timeout: no answer within 1ns") {
			t.Fatalf("%d %s, want 503 timeout", status, got)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s = newServer(t, viewer.Config{Domain: shippedFile(t, "battlemage.yaml")})
	if status, got := s.Call(ctx, "plan", []byte(`{"goal":"Kill"}`)); status != http.StatusServiceUnavailable || !strings.Contains(string(got), "canceled") {
		t.Fatalf("a canceled call: %d %s", status, got)
	}
}

func TestDomainAndFilesRefused(t *testing.T) {
	_, err := viewer.New(viewer.Config{Domain: shippedFile(t, "battlemage.yaml"), Files: []string{"x.yaml"}})
	if err == nil || !strings.Contains(err.Error(), "Config.Domain and Config.Files") {
		t.Fatalf("err = %v", err)
	}
}

// TestCallLimitsAtTheirEdges checks a request of exactly MaxBody bytes
// and an answer of exactly MaxAnswer bytes pass, and one byte more not.
func TestCallLimitsAtTheirEdges(t *testing.T) {
	f := shippedFile(t, "battlemage.yaml")
	body := `{"goal":"Kill"}`
	s := newServer(t, viewer.Config{Domain: f, MaxBody: int64(len(body))})
	if status, got := s.Call(context.Background(), "plan", []byte(body)); status != http.StatusOK {
		t.Errorf("a body of exactly MaxBody bytes: %d %s", status, got)
	}
	if status, _ := s.Call(context.Background(), "plan", []byte(body+" ")); status != http.StatusRequestEntityTooLarge {
		t.Errorf("a body one byte past MaxBody: %d", status)
	}
	_, answer := newServer(t, viewer.Config{Domain: f}).Call(context.Background(), "domain", nil)
	s = newServer(t, viewer.Config{Domain: f, MaxAnswer: len(answer)})
	if status, got := s.Call(context.Background(), "domain", nil); status != http.StatusOK || string(got) != string(answer) {
		t.Errorf("an answer of exactly MaxAnswer bytes: %d %s", status, got)
	}
	s = newServer(t, viewer.Config{Domain: f, MaxAnswer: len(answer) - 1})
	if status, got := s.Call(context.Background(), "domain", nil); status != http.StatusUnprocessableEntity {
		t.Errorf("an answer one byte past MaxAnswer: %d %s", status, got)
	}
}

// TestConfigDomainIsNotShipped: the one domain a program gave the server
// (Config.Domain) is its caller's, not one ploy ships, even when it has
// a shipped file's name: "domain" says shipped false, as for a file
// named on the command line.
func TestConfigDomainIsNotShipped(t *testing.T) {
	s := newServer(t, viewer.Config{Domain: shippedFile(t, "survivor.yaml")})
	status, got := s.Call(context.Background(), "domain", []byte(`{}`))
	if status != http.StatusOK || !strings.Contains(string(got), `"shipped":false`) {
		t.Fatalf("domain: %d %.200s; want shipped false", status, got)
	}
}
