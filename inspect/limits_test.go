package inspect_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/inspect"
)

// do sends a request to the handler itself and returns the answer.
func do(ins *inspect.Inspector, method, target, contentType, body string, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "http://127.0.0.1:6060"+target, strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	ins.ServeHTTP(w, r)
	return w
}

// TestCrossSiteRefused: another site's page may neither set a breakpoint
// nor resume nor read the agents; a POST that is not JSON is refused (a
// form or a beacon crosses sites without asking); a host name that is not
// the loopback is refused (DNS rebinding) unless AllowRemote.
func TestCrossSiteRefused(t *testing.T) {
	g := newGame(t, 2, 0, inspect.Options{})
	bp := `{"client":"evil","agent":"mage-000","on":"plan"}`
	for _, c := range []struct {
		name, method, path, ct, body string
		header                       map[string]string
		want                         int
	}{
		{"another origin", "POST", "/api/v1/breakpoints", "application/json", bp, map[string]string{"Origin": "http://evil.example"}, 403},
		{"cross-site fetch", "POST", "/api/v1/resume", "application/json", `{}`, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"same site, another port", "POST", "/api/v1/breakpoints", "application/json", bp, map[string]string{"Origin": "http://127.0.0.1:8080", "Sec-Fetch-Site": "same-site"}, 403},
		{"cross-site read", "GET", "/api/v1/agents", "", "", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}, 403},
		{"a form", "POST", "/api/v1/breakpoints", "application/x-www-form-urlencoded", bp, nil, 415},
		{"text/plain", "POST", "/api/v1/breakpoints", "text/plain", bp, nil, 415},
		{"no content type", "POST", "/api/v1/breakpoints", "", bp, nil, 415},
		{"a rebound name", "POST", "/api/v1/breakpoints", "application/json", bp, map[string]string{"Host": "evil.example:6060"}, 403},
		{"the same origin", "POST", "/api/v1/breakpoints", "application/json", `{"client":"tab","agent":"mage-001","on":"plan"}`, map[string]string{"Origin": "http://127.0.0.1:6060", "Sec-Fetch-Site": "same-origin"}, 200},
	} {
		r := httptest.NewRequest(c.method, "http://127.0.0.1:6060"+c.path, strings.NewReader(c.body))
		if c.ct != "" {
			r.Header.Set("Content-Type", c.ct)
		}
		for k, v := range c.header {
			if k == "Host" {
				r.Host = v
				continue
			}
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		g.ins.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, w.Code, w.Body, c.want)
		}
	}
	w := do(g.ins, "GET", "/api/v1/state", "", "", nil)
	if !strings.Contains(w.Body.String(), `"agent":"mage-001"`) || strings.Contains(w.Body.String(), `"client":"evil"`) {
		t.Errorf("only the same origin's breakpoint may be set: %s", w.Body)
	}
	remote := inspect.New(inspect.Options{AllowRemote: true})
	r := httptest.NewRequest("GET", "http://game.lan:6060/api/v1/state", nil)
	rw := httptest.NewRecorder()
	remote.ServeHTTP(rw, r)
	if rw.Code != 200 {
		t.Errorf("AllowRemote: a request to game.lan: %d", rw.Code)
	}
}

// TestListenRefusesRemote: ListenAndServe refuses an address that is not
// the loopback unless Options.AllowRemote, and serves on the loopback.
func TestListenRefusesRemote(t *testing.T) {
	ins := inspect.New(inspect.Options{})
	err := ins.ListenAndServe("0.0.0.0:0")
	if err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("ListenAndServe on every interface: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- ins.Serve(ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/api/v1/state")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET on the loopback: %v %v", err, resp)
	}
	resp.Body.Close()
	ins.Close()
	if err := <-served; err != http.ErrServerClosed {
		t.Errorf("Serve after Close: %v", err)
	}
}

// TestBadRequests: each bad request is a JSON error naming what is wrong.
func TestBadRequests(t *testing.T) {
	g := newGame(t, 2, 0, inspect.Options{MaxBody: 256, MaxBreakpoints: 2})
	j := "application/json"
	for _, c := range []struct {
		method, path, body string
		want               int
		field              string
	}{
		{"POST", "/api/v1/breakpoints", `{"agent":"nobody","on":"plan"}`, 404, "agent"},
		{"POST", "/api/v1/breakpoints", `{"agent":"mage-000","on":"sometimes"}`, 400, "on"},
		{"POST", "/api/v1/breakpoints", `{"agent":"mage-000","on":"action"}`, 400, "action"},
		{"POST", "/api/v1/breakpoints", `{"agent":"mage-000","on":"action","action":"Fly"}`, 400, "action"},
		{"POST", "/api/v1/breakpoints", `{"agent":"mage-000","on":"plan","action":"Approach"}`, 400, "action"},
		{"POST", "/api/v1/breakpoints", `{"agent":"mage-000","on":"plan","colour":1}`, 400, ""},
		{"POST", "/api/v1/breakpoints", `{"agent":"mage-000","on":"plan"} {}`, 400, ""},
		{"POST", "/api/v1/breakpoints", `{"client":"` + strings.Repeat("x", 65) + `"}`, 400, "client"},
		{"POST", "/api/v1/breakpoints", `{"agent":"` + strings.Repeat("x", 300) + `"}`, 413, ""},
		{"POST", "/api/v1/breakpoints/clear", `{}`, 400, "id"},
		{"POST", "/api/v1/trace", `{"agent":"nobody","on":true}`, 404, "agent"},
		{"GET", "/api/v1/breakpoints", ``, 405, ""},
		{"POST", "/api/v1/agents", `{}`, 405, ""},
		{"GET", "/api/v1/agents?limit=-1", ``, 400, "limit"},
		{"GET", "/api/v1/agents?sort=age", ``, 400, "sort"},
		{"GET", "/api/v1/agents/mage-000/plans", ``, 404, ""},
		{"GET", "/api/v1/agents/mage-000/decisions?format=xml", ``, 400, "format"},
		{"GET", "/api/v1/nothing", ``, 404, ""},
	} {
		ct := ""
		if c.method == "POST" {
			ct = j
		}
		w := do(g.ins, c.method, c.path, ct, c.body, nil)
		var e struct{ Error, Field string }
		if err := jsonDecode(w.Body.Bytes(), &e); err != nil || w.Code != c.want || e.Error == "" || e.Field != c.field {
			t.Errorf("%s %s %.60s: %d %s, want %d naming field %q", c.method, c.path, c.body, w.Code, w.Body, c.want, c.field)
		}
	}
	for i := range 3 {
		w := do(g.ins, "POST", "/api/v1/breakpoints", j, `{"agent":"mage-000","on":"plan"}`, nil)
		if want := map[bool]int{true: 200, false: 422}[i < 2]; w.Code != want {
			t.Errorf("breakpoint %d: %d %s, want %d (MaxBreakpoints 2)", i+1, w.Code, w.Body, want)
		}
	}
}

// TestAnswersBounded: an answer past MaxAnswer is refused before it is
// all made, and a filter or limit brings it under; decisions are kept
// per agent up to Options.Decisions however many are made.
func TestAnswersBounded(t *testing.T) {
	g := newGame(t, 40, 0, inspect.Options{MaxAnswer: 2000, Decisions: 3})
	do(g.ins, "GET", "/api/v1/state", "", "", nil) // a client about: frames copy
	for range 50 {
		g.step()
	}
	if w := do(g.ins, "GET", "/api/v1/agents", "", "", nil); w.Code != 422 || !strings.Contains(w.Body.String(), "limit") {
		t.Errorf("40 agents in 2000 bytes: %d %.100s", w.Code, w.Body)
	}
	if w := do(g.ins, "GET", "/api/v1/agents?limit=3", "", "", nil); w.Code != 200 {
		t.Errorf("3 agents: %d %.100s", w.Code, w.Body)
	}
	var d detailJSON
	w := do(g.ins, "GET", "/api/v1/agents/mage-000/decisions?limit=1", "", "", nil)
	if w.Code != 200 {
		t.Fatalf("one decision: %d %s", w.Code, w.Body)
	}
	w = do(g.ins, "GET", "/api/v1/agents/mage-000", "", "", nil)
	if err := jsonDecode(w.Body.Bytes(), &d); err != nil {
		t.Fatalf("%v: %s", err, w.Body)
	}
	if d.Decisions.Kept != 3 || d.Decisions.Recorded <= 3 {
		t.Errorf("decisions %+v: want 3 kept of more recorded", d.Decisions)
	}
}

// TestStreamsBoundedAndNeverBlockFrame: event streams are bounded in
// number; a stream that reads nothing never holds Frame up: its events
// are dropped, and it is told how many when it reads again.
func TestStreamsBoundedAndNeverBlockFrame(t *testing.T) {
	g := newGame(t, 200, 0, inspect.Options{MaxStreams: 2, StreamBuffer: 4})
	srv := serve(t, g.ins)
	host := strings.TrimPrefix(srv.URL, "http://")
	open := func(client string) (net.Conn, *http.Response) {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET /api/v1/events?client=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", client)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		return conn, resp
	}
	stalled, resp := open("stalled") // never reads past its header
	defer stalled.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header)
	}
	reader, resp2 := open("reader")
	defer reader.Close()
	third, resp3 := open("third")
	third.Close()
	if resp3.StatusCode != 503 {
		t.Errorf("a third stream of 2: %d", resp3.StatusCode)
	}
	// 300 frames of 200 changing agents, each frame with a change (the
	// flipper's) and so an event: the stalled stream's socket fills and
	// its queue of 4 overflows; Frame goes on all the same.
	flip := flipper(t, g.ins)
	for range 300 {
		flip()
		g.step()
	}
	// Every frame reaches the reader as an event or is counted in a lost
	// event: nothing is queued past the bound, and nothing goes missing
	// unsaid.
	br := bufio.NewReader(resp2.Body)
	reader.SetReadDeadline(time.Now().Add(10 * time.Second))
	frames, lost, event := 0, 0, ""
	for frames+lost < 300 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v (%d frames, %d lost)", err, frames, lost)
		}
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event: "))
			if event == "frame" {
				frames++
			}
		case event == "lost" && strings.HasPrefix(line, "data: "):
			var n struct{ Events int }
			jsonDecode([]byte(strings.TrimPrefix(line, "data: ")), &n)
			lost += n.Events
		}
	}
	if frames+lost != 300 {
		t.Errorf("%d frame events and %d lost, want 300 in all", frames, lost)
	}
}

// TestClientsBounded: past Options.MaxClients live clients, a new one is
// refused with 503; once one goes quiet, its place is free.
func TestClientsBounded(t *testing.T) {
	ins := inspect.New(inspect.Options{MaxClients: 2, HeartbeatTimeout: 50 * time.Millisecond})
	for i, want := range []int{200, 200, 503} {
		if w := do(ins, "GET", fmt.Sprintf("/api/v1/state?client=c%d", i), "", "", nil); w.Code != want {
			t.Errorf("client %d: %d, want %d", i, w.Code, want)
		}
	}
	if w := do(ins, "GET", "/api/v1/state?client=c0", "", "", nil); w.Code != 200 {
		t.Errorf("a known client: %d", w.Code)
	}
	time.Sleep(80 * time.Millisecond)
	if w := do(ins, "GET", "/api/v1/state?client=c2", "", "", nil); w.Code != 200 {
		t.Errorf("a new client once the others went quiet: %d", w.Code)
	}
}

// TestCloseReleasesTheGame: Close lets a paused Frame return, and no
// later Frame pauses.
func TestCloseReleasesTheGame(t *testing.T) {
	g := newGame(t, 2, 0, inspect.Options{})
	do(g.ins, "POST", "/api/v1/pause", "application/json", `{"client":"tab"}`, nil)
	returned := make(chan struct{})
	go func() {
		g.step() // pauses
		g.step() // and this one would too
		close(returned)
	}()
	waitFor(t, "the pause", func() bool {
		return strings.Contains(do(g.ins, "GET", "/api/v1/state", "", "", nil).Body.String(), `"paused":true`)
	})
	g.ins.Close()
	select {
	case <-returned:
	case <-time.After(20 * time.Second):
		t.Fatal("Frame still blocked after Close")
	}
}
