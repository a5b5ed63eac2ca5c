package inspect_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/inspect"
)

// stuckAgent is an agent whose one goal no plan reaches: it never runs an
// action, and fails to plan each time it tries.
func stuckAgent(t *testing.T, ins *inspect.Inspector) *agent.Agent {
	t.Helper()
	d, err := goap.NewDomain(goap.Spec{
		Name:  "stuck",
		Facts: []string{"done", "possible"},
		Actions: []goap.ActionSpec{{Name: "Finish", Preconditions: map[string]bool{"possible": true},
			Effects: map[string]bool{"done": true}, Cost: goap.Const(1)}},
		Goals: []goap.GoalSpec{{Name: "Done", Conditions: map[string]bool{"done": true}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Config{Name: "stuck", Domain: d, Goals: []agent.GoalOption{{Goal: d.Goal("Done"), Priority: 1}},
		Behaviours: map[string]agent.Behaviour{"Finish": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { return agent.Success }}},
		RetryAfter: 1000, Decisions: ins})
	if err != nil {
		t.Fatal(err)
	}
	if err := ins.Watch(a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestOneDecisionIsRead: an agent's first decision, the only one kept,
// is what its status and detail answer from.
func TestOneDecisionIsRead(t *testing.T) {
	ins := inspect.New(inspect.Options{})
	a := stuckAgent(t, ins)
	srv := serve(t, ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil)
	a.Tick()
	ins.Frame(1)
	var list []agentJSON
	if code := c.get("/api/v1/agents", &list); code != 200 || len(list) != 1 || list[0].Status != "no_plan" {
		t.Errorf("agents: %d %+v; want the one agent, status no_plan", code, list)
	}

	g := newGame(t, 1, 0, inspect.Options{})
	srv = serve(t, g.ins)
	c = api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil)
	g.step()
	var d detailJSON
	c.get("/api/v1/agents/mage-000", &d)
	if d.Decisions.Kept != 1 || len(d.Steps) == 0 || len(d.Options) != 2 {
		t.Fatalf("after one frame: %d decisions kept, steps %+v, options %+v; want 1, a plan, both goals weighed", d.Decisions.Kept, d.Steps, d.Options)
	}
	for _, s := range d.Steps {
		if s.Cost == nil {
			t.Errorf("step %+v has no cost: the plan is the one decided", s)
		}
	}
}

func quoteOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return `"` + s + `"`
}

// TestGoalHitNamesTheGoals: a goal breakpoint's hit says which goal the
// agent left and which it took.
func TestGoalHitNamesTheGoals(t *testing.T) {
	g := newGame(t, 2, 0, inspect.Options{})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil)
	for range 3 {
		g.step()
	}
	var before, after detailJSON
	c.get("/api/v1/agents/mage-001", &before)
	c.post("/api/v1/breakpoints", map[string]any{"agent": "mage-001", "on": "goal"}, nil)
	stop := make(chan struct{})
	done := g.loop(stop, 0)
	s := pausedState(t, c)
	c.get("/api/v1/agents/mage-001", &after)
	want := "goal " + quoteOrNone(before.Goal) + " → " + quoteOrNone(after.Goal)
	if len(s.Hits) != 1 || s.Hits[0].What != want {
		t.Errorf("hits %+v; want one saying %s", s.Hits, want)
	}
	c.post("/api/v1/breakpoints/clear", map[string]any{"all": true}, nil)
	c.post("/api/v1/resume", nil, nil)
	close(stop)
	<-done
}

// TestActionBreakpointNeedsTheAction: an action breakpoint on an agent
// that never runs that action never pauses the game.
func TestActionBreakpointNeedsTheAction(t *testing.T) {
	ins := inspect.New(inspect.Options{})
	a := stuckAgent(t, ins)
	srv := serve(t, ins)
	c := api{t, srv.URL, "tab"}
	if code := c.post("/api/v1/breakpoints", map[string]any{"agent": "stuck", "on": "action", "action": "Finish"}, nil); code != 200 {
		t.Fatalf("breakpoint: %d", code)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for tick := 1; tick <= 5; tick++ {
			a.Tick()
			ins.Frame(tick)
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
		}
		var s state
		if c.get("/api/v1/state", &s); s.Paused {
			t.Errorf("paused with hits %+v; the agent never ran Finish", s.Hits)
			c.post("/api/v1/breakpoints/clear", map[string]any{"all": true}, nil)
			c.post("/api/v1/resume", nil, nil)
			<-done
			return
		}
	}
}

// TestFrameEventCountsUnnamed: a frame event names at most 256 changed
// agents and says how many more changed.
func TestFrameEventCountsUnnamed(t *testing.T) {
	g := newGame(t, 259, 0, inspect.Options{})
	srv := serve(t, g.ins)
	resp, err := http.Get(srv.URL + "/api/v1/events?client=tab")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	sc.Scan() // event: state
	sc.Scan() // its data
	g.step()  // every mage plans: all changed
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var e struct {
				Changed []string
				More    int
			}
			if err := json.Unmarshal([]byte(data), &e); err != nil {
				t.Fatal(err)
			}
			if len(e.Changed) != 256 || e.More != 3 {
				t.Errorf("frame event names %d and %d more; want 256 and 3 more", len(e.Changed), e.More)
			}
			return
		}
	}
	t.Fatal("the stream ended before a frame event")
}

// gatedWriter is an event stream's client that takes each write only
// when the test lets it: entered gets what is being written, release
// lets it through.
type gatedWriter struct {
	header  http.Header
	entered chan string
	release chan struct{}
}

func (w *gatedWriter) Header() http.Header { return w.header }
func (w *gatedWriter) WriteHeader(int)     {}
func (w *gatedWriter) Flush()              {}
func (w *gatedWriter) Write(b []byte) (int, error) {
	w.entered <- string(b)
	<-w.release
	return len(b), nil
}

// TestLostEventReported: when a stream's client is slow and a single
// event is dropped, the stream says so (an "event: lost" of 1) after the
// write it was waiting on.
func TestLostEventReported(t *testing.T) {
	ins := inspect.New(inspect.Options{StreamBuffer: 1})
	t.Cleanup(func() { ins.Close() })
	flip := flipper(t, ins)
	w := &gatedWriter{header: http.Header{}, entered: make(chan string), release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequest("GET", "http://127.0.0.1/api/v1/events?client=tab", nil).WithContext(ctx)
	r.RemoteAddr = "127.0.0.1:50000"
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); ins.ServeHTTP(w, r) }()
	if first := <-w.entered; !strings.HasPrefix(first, "event: state") {
		t.Fatalf("first write %q", first)
	}
	w.release <- struct{}{}
	flip()
	ins.Frame(1)
	if b := <-w.entered; !strings.Contains(b, `"tick":1`) { // the stream now waits on this write
		t.Fatalf("second write %q", b)
	}
	flip()
	ins.Frame(2) // queued: the buffer holds one
	flip()
	ins.Frame(3) // lost
	w.release <- struct{}{}
	if b := <-w.entered; !strings.HasPrefix(b, "event: lost") || !strings.Contains(b, `{"events":1}`) {
		t.Errorf("after the write it waited on, the stream wrote %q; want a lost event of 1", b)
	}
	// Told once: the queued frame comes next, then the next frame's,
	// with no second lost event between them.
	w.release <- struct{}{}
	if b := <-w.entered; !strings.Contains(b, `"tick":2`) {
		t.Errorf("after the lost event, the stream wrote %q; want the queued frame 2", b)
	}
	w.release <- struct{}{}
	flip()
	ins.Frame(4)
	if b := <-w.entered; !strings.Contains(b, `"tick":4`) {
		t.Errorf("after frame 2, the stream wrote %q; want frame 4 (the loss was told already)", b)
	}
	cancel()
	close(w.release) // every write from now on goes through
	go func() { wg.Wait(); close(w.entered) }()
	for range w.entered {
	}
}

// TestNoStreamAfterClose: once the inspector is closed, an event stream
// is refused (503), not opened to wait for events that never come.
func TestNoStreamAfterClose(t *testing.T) {
	ins := inspect.New(inspect.Options{})
	srv := serve(t, ins)
	ins.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/v1/events?client=late", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("a stream after Close: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a stream after Close: %d, want 503", resp.StatusCode)
	}
}

// flipper watches an agent whose one fact flips at each call of the
// function it returns (which ticks it), so that each Frame after a call
// changes an agent and sends a frame event.
func flipper(t *testing.T, ins *inspect.Inspector) func() {
	t.Helper()
	d, err := goap.NewDomain(goap.Spec{Name: "flip", Facts: []string{"on", "never"},
		Goals: []goap.GoalSpec{{Name: "Never", Conditions: map[string]bool{"never": true}}}})
	if err != nil {
		t.Fatal(err)
	}
	world := d.Initial()
	on, _ := d.Fact("on")
	a, err := agent.New(agent.Config{Name: "flipper", Domain: d, Goals: []agent.GoalOption{{Goal: d.Goal("Never"), Priority: 1}},
		Sensor: func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) }, Decisions: ins})
	if err != nil {
		t.Fatal(err)
	}
	if err := ins.Watch(a); err != nil {
		t.Fatal(err)
	}
	return func() {
		world.Set(on, !world.Has(on))
		a.Tick()
	}
}

// TestStatusFromTheLastDecision: an agent that failed to plan is
// "no_plan" until its next decision finds one: then, its plan done at
// once, it is "waiting", whatever the decision before said.
func TestStatusFromTheLastDecision(t *testing.T) {
	d, err := goap.NewDomain(goap.Spec{
		Name:  "later",
		Facts: []string{"done", "possible"},
		Actions: []goap.ActionSpec{{Name: "Finish", Preconditions: map[string]bool{"possible": true},
			Effects: map[string]bool{"done": true}, Cost: goap.Const(1)}},
		Goals: []goap.GoalSpec{{Name: "Done", Conditions: map[string]bool{"done": true}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	world := d.Initial()
	possible, _ := d.Fact("possible")
	done, _ := d.Fact("done")
	ins := inspect.New(inspect.Options{})
	a, err := agent.New(agent.Config{Name: "later", Domain: d, Goals: []agent.GoalOption{{Goal: d.Goal("Done"), Priority: 1}},
		Behaviours: map[string]agent.Behaviour{"Finish": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
			world.Set(done, true)
			return agent.Success
		}}},
		Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
		RetryAfter: 1, Decisions: ins})
	if err != nil {
		t.Fatal(err)
	}
	if err := ins.Watch(a); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil)
	for _, step := range []struct {
		possible bool
		want     string
	}{{false, "no_plan"}, {true, "waiting"}} {
		world.Set(possible, step.possible)
		a.Tick()
		ins.Frame(a.Now())
		var list []agentJSON
		if c.get("/api/v1/agents", &list); len(list) != 1 || list[0].Status != step.want {
			t.Errorf("tick %d, goal reachable %v: %+v; want status %s", a.Now(), step.possible, list, step.want)
		}
	}
}

// TestHeadEventsOpensNoStream: a HEAD of the event stream answers its
// headers and returns: it takes none of the streams' places (with one
// allowed, a stream still opens after it).
func TestHeadEventsOpensNoStream(t *testing.T) {
	ins := inspect.New(inspect.Options{MaxStreams: 1})
	srv := serve(t, ins)
	// After serve's cleanup is registered, so it runs first: a stream
	// the HEAD opened ends, and the server can close.
	t.Cleanup(func() { ins.Close() })
	req, err := http.NewRequest(http.MethodHead, srv.URL+"/api/v1/events?client=tab", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("HEAD: %v (a HEAD that opens a stream never ends)", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("HEAD: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	stream, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/v1/events?client=tab", nil)
	if err != nil {
		t.Fatal(err)
	}
	get, err := http.DefaultClient.Do(stream)
	if err != nil {
		t.Fatalf("a stream after the HEAD: %v", err)
	}
	defer get.Body.Close()
	if get.StatusCode != 200 {
		t.Fatalf("a stream after the HEAD: %d, want 200 (the HEAD holds the one stream's place)", get.StatusCode)
	}
}
