package inspect_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/inspect"
	"github.com/ploy-ai/ploy/internal/testkit/camp"
)

// TestPageServed: the inspector serves its page at / with the policy that
// lets it run only the server's own scripts, every script and style it
// loads (its own and those it shares with ploy serve), and no other
// file; serving the page is not a client's heartbeat (the game stays
// uncopied until the page's own requests come).
func TestPageServed(t *testing.T) {
	ins := inspect.New(inspect.Options{})
	w := do(ins, "GET", "/", "", "", nil)
	if w.Code != 200 || w.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	csp := w.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("the page's Content-Security-Policy: %q", csp)
	}
	page := w.Body.String()
	if !strings.Contains(page, `data-mode="live"`) {
		t.Errorf("the live page is not in live mode")
	}
	refs := regexp.MustCompile(`(?:src|href)="(/[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) < 6 {
		t.Fatalf("the page loads %d files: %q", len(refs), refs)
	}
	for _, ref := range refs {
		a := do(ins, "GET", ref[1], "", "", nil)
		if a.Code != 200 || a.Body.Len() == 0 || a.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s (the page loads it): %d, %d bytes", ref[1], a.Code, a.Body.Len())
		}
		if p := do(ins, "POST", ref[1], "application/json", "{}", nil); p.Code != http.StatusMethodNotAllowed {
			t.Errorf("POST %s: %d, want 405", ref[1], p.Code)
		}
	}
	for _, path := range []string{"/index.html", "/page.go", "/planner.js", "/../inspect.go"} {
		if w := do(ins, "GET", path, "", "", nil); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, w.Code)
		}
	}
	// The page from another site's frame or a rebound name: refused.
	if w := get(ins, "GET", "/", map[string]string{"Host": "evil.example"}); w.Code != http.StatusForbidden {
		t.Errorf("GET / to host evil.example: %d, want 403", w.Code)
	}
}

// replayOf makes a Replay over a small recording: two agents' decisions.
func replayOf(t *testing.T, opt inspect.ReplayOptions) (*inspect.Replay, *agent.Recording) {
	t.Helper()
	rec := &agent.Recording{Header: agent.RecordHeader{Format: agent.RecordFormat, Version: agent.RecordVersion, Domain: "battlemage.yaml"},
		Decisions: []agent.Decision{
			{Tick: 1, Agent: "a", Kind: "goap", Decided: "plan", Reason: agent.ReasonStart, Goal: "Kill", Status: "found", Plan: []agent.DecisionStep{{Action: "Approach", Cost: 2}}, Cost: 2},
			{Tick: 3, Agent: "b", Kind: "htn", Decided: "plan", Reason: agent.ReasonStart, Task: "Fight", Status: "no_plan"},
		}}
	p, err := inspect.NewReplay(rec, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p, rec
}

func get(h http.Handler, method, target string, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "http://127.0.0.1:7070"+target, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	if host := header["Host"]; host != "" {
		r.Host = host
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestReplayHandler: ploy serve --replay's handler serves the page in
// replay mode and the recording as read, which agent.ReadRecording reads
// back the same; nothing else, and only to the loopback.
func TestReplayHandler(t *testing.T) {
	p, rec := replayOf(t, inspect.ReplayOptions{Name: "game <1>.jsonl"})
	w := get(p, "GET", "/", nil)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `data-mode="replay"`) || !strings.Contains(w.Body.String(), `data-recording="game &lt;1&gt;.jsonl"`) {
		t.Errorf("GET /: %d, want the page in replay mode naming the recording (escaped):\n%.600s", w.Code, w.Body.String())
	}
	if w.Header().Get("Content-Security-Policy") == "" {
		t.Errorf("the replay's page has no Content-Security-Policy")
	}
	w = get(p, "GET", "/api/v1/recording", nil)
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("GET /api/v1/recording: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	back, err := agent.ReadRecording(bytes.NewReader(w.Body.Bytes()), "served", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Decisions) != 2 || back.Header.Decisions != 2 || back.Header.Domain != "battlemage.yaml" || back.Decisions[1].Task != "Fight" || back.Decisions[0].Plan[0].Cost != 2 {
		t.Errorf("the recording served: %+v; want the one read, %+v", back, rec)
	}
	if w := get(p, "GET", "/common.js", nil); w.Code != 200 || w.Body.Len() == 0 {
		t.Errorf("GET /common.js: %d", w.Code)
	}
	for _, c := range []struct {
		method, path string
		header       map[string]string
		want         int
	}{
		{"GET", "/api/v1/agents", nil, 404},
		{"POST", "/api/v1/pause", nil, 404},
		{"POST", "/api/v1/recording", nil, 405},
		{"GET", "/", map[string]string{"Host": "rebound.example"}, 403},
		{"GET", "/api/v1/recording", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
	} {
		if w := get(p, c.method, c.path, c.header); w.Code != c.want {
			t.Errorf("%s %s %v: %d, want %d", c.method, c.path, c.header, w.Code, c.want)
		}
	}
	remote, _ := replayOf(t, inspect.ReplayOptions{AllowRemote: true})
	if w := get(remote, "GET", "/", map[string]string{"Host": "box.lan"}); w.Code != 200 {
		t.Errorf("AllowRemote: GET / to host box.lan: %d, want 200", w.Code)
	}
}

// TestReplayTooLarge: a recording larger than MaxRecording as the page
// reads it is refused at start, saying so.
func TestReplayTooLarge(t *testing.T) {
	rec := &agent.Recording{Header: agent.RecordHeader{Format: agent.RecordFormat, Version: agent.RecordVersion}}
	for i := range 100 {
		rec.Decisions = append(rec.Decisions, agent.Decision{Tick: i, Agent: "a", Kind: "goap", Decided: "plan", Status: "found"})
	}
	_, err := inspect.NewReplay(rec, inspect.ReplayOptions{Name: "big.jsonl", MaxRecording: 1000})
	if err == nil || !strings.Contains(err.Error(), "big.jsonl: the recording's 100 decisions are more than 1000 bytes") {
		t.Errorf("a recording past MaxRecording: %v", err)
	}
}

// TestReadReplayServesWhatNewReplayServes: streamed one decision at a
// time, a real game's recording makes the same replay, byte for byte and
// count for count, as the recording decoded whole and handed to
// NewReplay; a recording cut short, and one past MaxRecording, are
// refused with the file's name (and line).
func TestReadReplayServesWhatNewReplayServes(t *testing.T) {
	src := camp.Record(t, camp.Options{Agents: 6, Ticks: 80, Workers: 1})
	rec, err := agent.ReadRecording(bytes.NewReader(src), "camp.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := inspect.NewReplay(rec, inspect.ReplayOptions{Name: "camp.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := inspect.ReadReplay(bytes.NewReader(src), inspect.ReplayOptions{Name: "camp.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Counts() != streamed.Counts() || streamed.Counts().Decisions != len(rec.Decisions) || streamed.Counts().Agents != 6 {
		t.Errorf("counts: streamed %+v, whole %+v, want %d decisions of 6 agents", streamed.Counts(), whole.Counts(), len(rec.Decisions))
	}
	a := get(whole, "GET", "/api/v1/recording", nil)
	b := get(streamed, "GET", "/api/v1/recording", nil)
	if a.Code != 200 || b.Code != 200 || !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
		t.Errorf("the recordings served differ: %d and %d, %d and %d bytes", a.Code, b.Code, a.Body.Len(), b.Body.Len())
	}

	cut := src[:bytes.LastIndexByte(src[:len(src)-1], '\n')+1] // the last decision gone
	if _, err := inspect.ReadReplay(bytes.NewReader(cut), inspect.ReplayOptions{Name: "cut.jsonl"}); err == nil || !strings.Contains(err.Error(), "cut.jsonl: the header says") {
		t.Errorf("a recording cut short: %v", err)
	}
	small := len(src) / 2
	if _, err := inspect.ReadReplay(bytes.NewReader(src), inspect.ReplayOptions{Name: "big.jsonl", MaxRecording: small}); err == nil || !strings.Contains(err.Error(), "big.jsonl") {
		t.Errorf("a recording past MaxRecording of %d: %v", small, err)
	}
}
