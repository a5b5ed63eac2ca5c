package viewer

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func do(s *Server, h func(*Server, http.ResponseWriter, *http.Request), body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/api/v1/plan", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h(s, w, r)
	return w
}

// TestBusyIsRefusedAtOnce fills every slot and checks that the next
// request gets 503 with Retry-After, not a place in a queue, and that a
// freed slot serves again.
func TestBusyIsRefusedAtOnce(t *testing.T) {
	s, err := New(Config{MaxConcurrent: 2})
	if err != nil {
		t.Fatal(err)
	}
	s.slots <- struct{}{}
	s.slots <- struct{}{}
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/api/v1/plan", strings.NewReader(`{"goal": "Kill"}`))
	r.Header.Set("Content-Type", "application/json")
	s.ServeHTTP(w, r)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "busy") {
		t.Errorf("all slots taken: %d %q %s, want 503 busy with Retry-After", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	<-s.slots
	w = httptest.NewRecorder()
	s.ServeHTTP(w, jsonPost("/api/v1/plan", `{"goal": "Kill"}`))
	if w.Code != http.StatusOK {
		t.Errorf("a slot free: %d %s, want 200", w.Code, w.Body)
	}
	if len(s.slots) != 1 {
		t.Errorf("%d slots taken after the request, want the 1 still held", len(s.slots))
	}
}

// TestSequentialRequestsFindTheSlotFree checks that a client sending
// its next request on the last answer is never refused busy: the slot is
// given back before the answer goes out.
func TestSequentialRequestsFindTheSlotFree(t *testing.T) {
	s, err := New(Config{MaxConcurrent: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, jsonPost("/api/v1/plan", `{"goal": "Kill"}`))
		if w.Code != http.StatusOK {
			t.Fatalf("request %d: %d %s, want 200", i, w.Code, w.Body)
		}
	}
}

// TestTimeoutAnswersWhileWorkHoldsItsSlot runs an endpoint that does not
// end until told: the client gets 503 at the timeout, and the work keeps
// its slot until it ends.
func TestTimeoutAnswersWhileWorkHoldsItsSlot(t *testing.T) {
	s, err := New(Config{MaxConcurrent: 1, Timeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	release, ended := make(chan struct{}), make(chan struct{})
	stuck := work(noContext(func(*Server, []byte) ([]byte, error) {
		<-release
		defer close(ended)
		return []byte("{}\n"), nil
	}))
	w := do(s, stuck, `{}`)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "timeout") {
		t.Errorf("stuck work: %d %s, want 503 timeout", w.Code, w.Body)
	}
	if len(s.slots) != 1 {
		t.Errorf("the abandoned work holds %d slots, want 1", len(s.slots))
	}
	close(release)
	<-ended
	for deadline := time.Now().Add(5 * time.Second); len(s.slots) != 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if len(s.slots) != 0 {
		t.Error("the slot was not given back when the work ended")
	}
}

// TestPanicIsAnError checks that a panic in an endpoint is a 500 answer
// and gives its slot back, not a crashed server.
func TestPanicIsAnError(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	w := do(s, work(noContext(func(*Server, []byte) ([]byte, error) { panic("boom") })), `{}`)
	var e apiError
	if w.Code != http.StatusInternalServerError || json.Unmarshal(w.Body.Bytes(), &e) != nil || !strings.Contains(e.Message, "boom") {
		t.Errorf("a panic: %d %s, want 500 with the panic's message", w.Code, w.Body)
	}
	if len(s.slots) != 0 {
		t.Errorf("%d slots still taken after a panic", len(s.slots))
	}
}

// TestLoopbackOnly checks that a server on the loopback refuses requests
// addressed to another name (DNS rebinding) and answers those to its own.
func TestLoopbackOnly(t *testing.T) {
	s, err := New(Config{LoopbackOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]int{
		"127.0.0.1:7070": 200, "localhost:7070": 200, "LOCALHOST": 200, "[::1]:7070": 200, "127.1.2.3": 200,
		"evil.example:7070": 403, "evil.example": 403, "10.0.0.1:7070": 403, "": 403, "127.0.0.1.evil.example": 403,
	} {
		r := httptest.NewRequest(http.MethodGet, "/api/v1/domains", nil)
		r.Host = host
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %q: %d, want %d", host, w.Code, want)
		}
	}
}

// jsonPost is a POST of a JSON body, as the pages send it.
func jsonPost(path, body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}
