package viewer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// goneClient is a response writer whose client goes away as soon as the
// first event reaches it.
type goneClient struct {
	*httptest.ResponseRecorder
	cancel context.CancelFunc
}

func (g goneClient) Write(b []byte) (int, error) {
	g.cancel()
	return g.ResponseRecorder.Write(b)
}

func (g goneClient) Flush() {}

func batchRequest(ctx context.Context, body string) *http.Request {
	r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/api/v1/arena/batch", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// TestArenaBatchEndsWhenTheClientGoes checks that a batch stops at the
// fight after its client went: one progress event of a hundred.
func TestArenaBatchEndsWhenTheClientGoes(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := goneClient{httptest.NewRecorder(), cancel}
	s.ServeHTTP(w, batchRequest(ctx, `{"fights": 50, "agents": ["goap", "bt"]}`))
	if n := strings.Count(w.Body.String(), "event: progress"); n != 1 || strings.Contains(w.Body.String(), "event: table") {
		t.Errorf("%d progress events and then %q after the client went, want 1 and nothing", n, w.Body.String())
	}
	if len(s.arenaStreams) != 0 || len(s.slots) != 0 {
		t.Errorf("the batch holds %d stream and %d work slots after it ended", len(s.arenaStreams), len(s.slots))
	}
}

// TestArenaBatchIsBounded checks the stream's caps: batches at once,
// requests working at once, and the time a batch may take.
func TestArenaBatchIsBounded(t *testing.T) {
	s, err := New(Config{MaxConcurrent: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range MaxArenaStreams {
		s.arenaStreams <- struct{}{}
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, batchRequest(context.Background(), `{"fights": 1}`))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "arena batches are already running") {
		t.Errorf("with %d batches streaming: %d %s, want 503 busy", MaxArenaStreams, w.Code, w.Body)
	}
	for range MaxArenaStreams {
		<-s.arenaStreams
	}
	s.slots <- struct{}{}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, batchRequest(context.Background(), `{"fights": 1}`))
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "requests are already working") {
		t.Errorf("with every slot taken: %d %s, want 503 busy", w.Code, w.Body)
	}
	<-s.slots

	s, err = New(Config{Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	w = httptest.NewRecorder()
	s.ServeHTTP(w, batchRequest(context.Background(), `{"fights": 1}`))
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "timeout: the batch did not end within 1ns") {
		t.Errorf("past the timeout: %d %s, want 503 timeout", w.Code, w.Body)
	}
}
