package inspect_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/inspect"
)

// pausedState waits until the game is paused, and returns the state.
func pausedState(t *testing.T, c api) state {
	t.Helper()
	var s state
	waitFor(t, "the game to pause", func() bool {
		s = state{}
		c.get("/api/v1/state", &s)
		return s.Paused
	})
	return s
}

// TestBreakpointOnActionPausesUntilResume: a breakpoint on an agent's
// action blocks Frame at the frame the agent starts it: the game loop
// stops there (its tick is the paused frame's, and stays so), the API
// answers meanwhile with the agent running that action, and resume lets
// the loop go on.
func TestBreakpointOnActionPausesUntilResume(t *testing.T) {
	g := newGame(t, 4, 0, inspect.Options{})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	var bp struct{ ID int }
	if code := c.post("/api/v1/breakpoints", map[string]any{"agent": "mage-002", "on": "action", "action": "CastBolt"}, &bp); code != 200 || bp.ID == 0 {
		t.Fatalf("POST breakpoints: %d %+v", code, bp)
	}
	stop := make(chan struct{})
	done := g.loop(stop, 0)
	s := pausedState(t, c)
	if len(s.Hits) != 1 || s.Hits[0].Agent != "mage-002" || s.Hits[0].Breakpoint != bp.ID || s.Reason != "breakpoint" || s.Holder != "tab" {
		t.Fatalf("paused with %+v", s)
	}
	tick := g.tick.Load()
	if int(tick) != s.Frame {
		t.Fatalf("the loop is at tick %d, paused at frame %d", tick, s.Frame)
	}
	// The mages' behaviours succeed at once: CastBolt began and ended
	// within the frame (the plan's last step: the plan is done), which the
	// breakpoint sees in the steps done.
	var d detailJSON
	c.get("/api/v1/agents/mage-002", &d)
	if s.Hits[0].What != "started CastBolt" || d.Decisions.Recorded == 0 {
		t.Errorf("hit %+v; agent %+v", s.Hits[0], d)
	}
	time.Sleep(30 * time.Millisecond)
	if g.tick.Load() != tick {
		t.Fatalf("the loop went on from %d to %d while paused", tick, g.tick.Load())
	}
	c.post("/api/v1/breakpoints/clear", map[string]any{"all": true}, nil)
	if code := c.post("/api/v1/resume", nil, nil); code != 200 {
		t.Fatalf("POST resume: %d", code)
	}
	waitFor(t, "the loop to go on", func() bool { return g.tick.Load() > tick+5 })
	close(stop)
	<-done
}

// TestBreakpointOnGoalAndPlan: breakpoints on a goal change and on a plan
// each pause at a frame where it happened, and say what.
func TestBreakpointOnGoalAndPlan(t *testing.T) {
	for _, on := range []string{"goal", "plan"} {
		t.Run(on, func(t *testing.T) {
			g := newGame(t, 3, 2, inspect.Options{})
			srv := serve(t, g.ins)
			c := api{t, srv.URL, "tab"}
			c.get("/api/v1/state", nil) // about from the start: no stale copy to wait out
			for range 3 {
				g.step() // past the start
			}
			var before detailJSON
			c.get("/api/v1/agents/mage-001", &before)
			c.post("/api/v1/breakpoints", map[string]any{"agent": "mage-001", "on": on}, nil)
			stop := make(chan struct{})
			done := g.loop(stop, 0)
			s := pausedState(t, c)
			var after detailJSON
			c.get("/api/v1/agents/mage-001", &after)
			switch on {
			case "goal":
				if after.Goal == before.Goal && !strings.Contains(s.Hits[0].What, "→") {
					t.Errorf("paused on a goal change: %+v, goal %q → %q", s.Hits, before.Goal, after.Goal)
				}
			case "plan":
				if after.Plans <= before.Plans {
					t.Errorf("paused on a plan: %+v, plans %d → %d", s.Hits, before.Plans, after.Plans)
				}
			}
			c.post("/api/v1/breakpoints/clear", map[string]any{"agent": "mage-001"}, nil)
			c.post("/api/v1/resume", nil, nil)
			close(stop)
			<-done
		})
	}
}

// TestStepAdvancesOneFrame: from a pause, each step lets exactly one frame
// run and pauses at the next.
func TestStepAdvancesOneFrame(t *testing.T) {
	g := newGame(t, 3, 2, inspect.Options{})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	stop := make(chan struct{})
	done := g.loop(stop, 0)
	c.post("/api/v1/pause", nil, nil)
	s := pausedState(t, c)
	if s.Reason != "pause" {
		t.Errorf("reason %q, want pause", s.Reason)
	}
	for range 5 {
		from := s.Frame
		c.post("/api/v1/step", nil, nil)
		waitFor(t, "the step", func() bool {
			s = state{}
			c.get("/api/v1/state", &s)
			return s.Paused && s.Frame != from
		})
		time.Sleep(10 * time.Millisecond) // a loop that ran on would show it
		if s.Frame != from+1 || g.tick.Load() != int64(from+1) || s.Reason != "step" {
			t.Fatalf("a step from frame %d paused at %d (%s), the loop at tick %d", from, s.Frame, s.Reason, g.tick.Load())
		}
	}
	c.post("/api/v1/resume", nil, nil)
	close(stop)
	<-done
}

// TestHeartbeatTimeoutReleases: a client that goes quiet loses its
// breakpoints and its pause, and the game goes on; while its event stream
// is open it is not quiet.
func TestHeartbeatTimeoutReleases(t *testing.T) {
	g := newGame(t, 3, 0, inspect.Options{HeartbeatTimeout: 150 * time.Millisecond})
	srv := serve(t, g.ins)
	tab := api{t, srv.URL, "tab"}
	watcher := api{t, srv.URL, "watcher"} // polls, as another page would
	tab.post("/api/v1/breakpoints", map[string]any{"agent": "mage-000", "on": "plan"}, nil)
	stop := make(chan struct{})
	done := g.loop(stop, time.Millisecond)
	defer func() { close(stop); <-done }()
	s := pausedState(t, watcher)
	if s.Holder != "tab" {
		t.Fatalf("holder %q", s.Holder)
	}
	waitFor(t, "the quiet tab to release the game", func() bool {
		s = state{}
		watcher.get("/api/v1/state", &s)
		return !s.Paused && len(s.Breakpoints) == 0
	})

	// The same with an open event stream: it is a heartbeat.
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "GET /api/v1/events?client=tab HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	rd := bufio.NewReader(conn)
	resp, err := http.ReadResponse(rd, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("event stream: %v %v", err, resp)
	}
	go func() { // keep reading, as a page does
		buf := make([]byte, 4096)
		for {
			if _, err := resp.Body.Read(buf); err != nil {
				return
			}
		}
	}()
	tab.post("/api/v1/breakpoints", map[string]any{"agent": "mage-000", "on": "plan"}, nil)
	s = pausedState(t, watcher)
	paused := s.Frame
	time.Sleep(400 * time.Millisecond) // well past the timeout
	watcher.get("/api/v1/state", &s)
	if !s.Paused || s.Frame != paused {
		t.Fatalf("a client with an open stream lost its pause: %+v", s)
	}
	conn.Close() // the tab closes
	waitFor(t, "the closed tab to release the game", func() bool {
		s = state{}
		watcher.get("/api/v1/state", &s)
		return !s.Paused && len(s.Breakpoints) == 0
	})
}

// TestEventsTellPauseAndResume: a page's event stream hears the state at
// once, frames with the agents that changed, the pause (with its hit) and
// the resume.
func TestEventsTellPauseAndResume(t *testing.T) {
	g := newGame(t, 3, 0, inspect.Options{})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	resp, err := http.Get(srv.URL + "/api/v1/events?client=tab")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan [2]string, 1024)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				events <- [2]string{event, strings.TrimPrefix(line, "data: ")}
			}
		}
		close(events)
	}()
	next := func(want string) string {
		t.Helper()
		for e := range events {
			if e[0] == want {
				return e[1]
			}
		}
		t.Fatalf("the stream ended before a %s event", want)
		return ""
	}
	next("state")
	c.post("/api/v1/breakpoints", map[string]any{"agent": "mage-000", "on": "goal"}, nil)
	stop := make(chan struct{})
	done := g.loop(stop, 0)
	defer func() { close(stop); <-done }()
	if frame := next("frame"); !strings.Contains(frame, `"changed":[`) {
		t.Errorf("frame event %s", frame)
	}
	if paused := next("paused"); !strings.Contains(paused, `"paused":true`) || !strings.Contains(paused, `"agent":"mage-000","on":"goal"`) {
		t.Errorf("paused event %s", paused)
	}
	c.post("/api/v1/breakpoints/clear", map[string]any{"all": true}, nil)
	c.post("/api/v1/resume", nil, nil)
	if resumed := next("resumed"); !strings.Contains(resumed, `"paused":false`) {
		t.Errorf("resumed event %s", resumed)
	}
}
