package viewer_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/viewer"
)

// TestLoad sends 200 concurrent clients at the server on loopback, a few
// requests each: every request must be answered, 200 or 503 busy, none
// left hanging (the client's timeout would say so), and some served.
func TestLoad(t *testing.T) {
	const clients, requests = 200, 5
	ts := httptest.NewServer(newServer(t, viewer.Config{}))
	defer ts.Close()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	var ok, busy atomic.Int64
	var wg sync.WaitGroup
	bodies := []string{`{"goal": "Kill"}`, `{"domain": "soldier", "goal": "KillPlayer"}`, `{"goal": "Kill", "unset": ["spare_crystals"]}`}
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range requests {
				resp, err := client.Post(ts.URL+"/api/v1/plan", "application/json", strings.NewReader(bodies[(c+i)%len(bodies)]))
				if err != nil {
					t.Errorf("client %d, request %d: %v", c, i, err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				switch resp.StatusCode {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusServiceUnavailable:
					if resp.Header.Get("Retry-After") == "" {
						t.Errorf("a 503 without Retry-After")
					}
					busy.Add(1)
				default:
					t.Errorf("client %d, request %d: status %d", c, i, resp.StatusCode)
				}
			}
		}()
	}
	wg.Wait()
	if got := ok.Load() + busy.Load(); got != clients*requests {
		t.Errorf("%d requests answered, want %d", got, clients*requests)
	}
	if ok.Load() == 0 {
		t.Error("no request was served")
	}
	t.Logf("%d served, %d refused busy", ok.Load(), busy.Load())
}

// BenchmarkPlanLoopback measures plan requests against the real server on
// loopback, the battle mage's Kill, with keep-alive clients.
func BenchmarkPlanLoopback(b *testing.B) {
	ts := httptest.NewServer(newServer(b, viewer.Config{}))
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	var refused atomic.Int64
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Post(ts.URL+"/api/v1/plan", "application/json", strings.NewReader(`{"goal": "Kill", "unset": ["spare_crystals"]}`))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				refused.Add(1)
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
	b.ReportMetric(float64(refused.Load()), "refused")
}
