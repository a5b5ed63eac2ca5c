package viewer

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestLiveStreamSlots: with every stream slot taken the next stream is
// refused at once (503, Retry-After), the work slots untouched; a client
// that goes away ends its run and frees its slot.
func TestLiveStreamSlots(t *testing.T) {
	s, err := New(Config{MaxStreams: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	open := func(ctx context.Context) *http.Response {
		r, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/api/v1/live", strings.NewReader(`{"goal": "Kill", "ticks_per_second": 1}`))
		r.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	ctx, leave := context.WithCancel(context.Background())
	first := open(ctx)
	if first.StatusCode != 200 {
		t.Fatalf("the first stream: %d", first.StatusCode)
	}
	// Tick 0 has come: the run is under way, holding its slot.
	if line, err := bufio.NewReader(first.Body).ReadString('\n'); err != nil || line != "event: tick\n" {
		t.Fatalf("the first stream's first line: %q %v", line, err)
	}
	second := open(context.Background())
	second.Body.Close()
	if second.StatusCode != http.StatusServiceUnavailable || second.Header.Get("Retry-After") == "" {
		t.Errorf("a second stream with one slot: %d, Retry-After %q; want 503 with Retry-After", second.StatusCode, second.Header.Get("Retry-After"))
	}
	if len(s.slots) != 0 {
		t.Errorf("a stream holds %d work slots, want none", len(s.slots))
	}
	if w := do(s, (*Server).ServeHTTP, `{"goal": "Kill"}`); w.Code != 200 {
		t.Errorf("a plan while a stream runs: %d %s", w.Code, w.Body)
	}
	// The client goes: its run ends (at once, not at its next tick a
	// second later, nor at the end of its 300 ticks).
	leave()
	first.Body.Close()
	start := time.Now()
	for len(s.streams) != 0 {
		if time.Since(start) > 5*time.Second {
			t.Fatal("the stream still holds its slot 5 s after its client left")
		}
		time.Sleep(time.Millisecond)
	}
	t.Logf("slot freed %v after the client left", time.Since(start))
	third := open(context.Background())
	third.Body.Close()
	if third.StatusCode != 200 {
		t.Errorf("a stream after the client left: %d, want 200", third.StatusCode)
	}
}

// FuzzLive sends any body to the live agent: the answer is a JSON error
// with a status from the API's list, or a stream of events whose data is
// JSON, ending in one "end" event; never a panic, a 500 or a hang. The
// stream's time cap is short, so that a paced run ends within it.
func FuzzLive(f *testing.F) {
	for _, seed := range []string{
		`{"goal": "Kill", "fast": true}`,
		`{"domain": "soldier", "goal": "KillPlayer", "seed": 7, "fast": true, "toggles": [{"tick": 3, "fact": "gun_nearby", "value": false}]}`,
		`{"goal": "Kill", "policy": "reactive", "ticks_per_second": 20, "replay_to": 9}`,
		`{"goal": "Kill", "fast": true, "max_ticks": 3, "toggles": [{"tick": 3, "fact": "in_range", "value": true}, {"tick": 1, "fact": "enemy_dead", "value": true}]}`,
		`{"source": "name: x\nfacts: [a]\nactions:\n  - name: A\n    effects: {a: true}\n    cost: 1\ngoals:\n  - name: G\n    conditions: {a: true}\n", "goal": "G", "fast": true}`,
		`{"goal": "Kill", "toggles": [{"tick": 1e9}]}`,
		`{"seed": 18446744073709551615, "goal": "GetHealthy", "unset": ["healthy"], "fast": true}`,
		"\xff",
	} {
		f.Add(seed)
	}
	s, err := New(Config{MaxStreamTime: 50 * time.Millisecond})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest(http.MethodPost, "/api/v1/live", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		switch w.Code {
		case 400, 404, 413, 422:
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("%q: the error is not JSON: %s", body, w.Body)
			}
			return
		case 200:
		default:
			t.Fatalf("%q: status %d: %s", body, w.Code, w.Body)
		}
		blocks := strings.Split(strings.TrimSuffix(w.Body.String(), "\n\n"), "\n\n")
		for i, block := range blocks {
			name, data, _ := strings.Cut(block, "\n")
			want := "event: tick"
			if i == len(blocks)-1 {
				want = "event: end"
			}
			if name != want || !strings.HasPrefix(data, "data: ") || !json.Valid([]byte(strings.TrimPrefix(data, "data: "))) {
				t.Fatalf("%q: event %d of %d: %q", body, i, len(blocks), block)
			}
		}
	})
}
