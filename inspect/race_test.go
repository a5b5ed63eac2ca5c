package inspect_test

import (
	"bufio"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/inspect"
)

// TestConcurrentClientsOnALiveGame: a game loop of 100 mages on a queue
// with 2 workers, and 16 clients at once reading every endpoint, keeping
// event streams open, turning traces on and off, and setting breakpoints,
// stepping and resuming. Run with -race, it shows that no handler touches
// a live agent; the game must also keep going (no pause outlives the
// clients that resume it) and end.
func TestConcurrentClientsOnALiveGame(t *testing.T) {
	// Two decisions kept per agent: their slots are reused all the time.
	g := newGame(t, 100, 2, inspect.Options{HeartbeatTimeout: 200 * time.Millisecond, StaleWait: 50 * time.Millisecond, Decisions: 2})
	srv := serve(t, g.ins)
	stop := make(chan struct{})
	done := g.loop(stop, 0)
	var clients sync.WaitGroup
	quit := make(chan struct{})
	running := func(f func(i int)) {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for i := 0; ; i++ {
				select {
				case <-quit:
					return
				default:
				}
				f(i)
			}
		}()
	}
	for n := range 8 {
		c := api{t, srv.URL, fmt.Sprintf("reader-%d", n)}
		running(func(i int) {
			name := fmt.Sprintf("mage-%03d", (i*7+n)%100)
			switch i % 5 {
			case 0:
				c.get("/api/v1/agents?sort=replans", nil)
			case 1:
				c.get("/api/v1/agents/"+name, nil)
			case 2:
				c.get("/api/v1/agents/"+name+"/decisions", nil)
			case 3:
				c.get("/api/v1/state", nil)
			case 4:
				c.get("/api/v1/recording", nil)
			}
		})
	}
	for n := range 4 {
		c := api{t, srv.URL, fmt.Sprintf("streamer-%d", n)}
		running(func(int) {
			resp, err := http.Get(srv.URL + "/api/v1/events?client=" + c.client)
			if err != nil {
				return
			}
			sc := bufio.NewScanner(resp.Body)
			for lines := 0; lines < 50 && sc.Scan(); lines++ {
			}
			resp.Body.Close()
		})
	}
	for n := range 2 {
		c := api{t, srv.URL, fmt.Sprintf("tracer-%d", n)}
		running(func(i int) {
			c.post("/api/v1/trace", map[string]any{"agent": fmt.Sprintf("mage-%03d", i%100), "on": i%2 == 0}, nil)
		})
	}
	for n := range 2 {
		c := api{t, srv.URL, fmt.Sprintf("debugger-%d", n)}
		running(func(i int) {
			switch i % 5 {
			case 0:
				c.post("/api/v1/breakpoints", map[string]any{"agent": fmt.Sprintf("mage-%03d", i%100), "on": []string{"plan", "goal"}[i%2]}, nil)
			case 1, 2:
				c.post("/api/v1/step", nil, nil)
			case 3:
				c.post("/api/v1/breakpoints/clear", map[string]any{"all": true}, nil)
			case 4:
				c.post("/api/v1/resume", nil, nil)
			}
		})
	}
	start := g.tick.Load()
	time.Sleep(time.Second)
	close(quit)
	clients.Wait()
	c := api{t, srv.URL, "last"}
	c.post("/api/v1/breakpoints/clear", map[string]any{"all": true}, nil)
	c.post("/api/v1/resume", nil, nil)
	waitFor(t, "the game to go on after the clients", func() bool { return g.tick.Load() > start+20 })
	close(stop)
	<-done
}
