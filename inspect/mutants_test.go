package inspect_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/inspect"
)

// These tests pin answers that a mutation run (tools/mutate) showed no
// other test of the package checked.

// TestLimitZeroAnswersNothing: limit=0 asks for no agents and no
// decisions, not for all of them (only a negative or absent limit means
// all).
func TestLimitZeroAnswersNothing(t *testing.T) {
	g := newGame(t, 3, 0, inspect.Options{})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil)
	for range 5 {
		g.step()
	}
	var list []agentJSON
	if code := c.get("/api/v1/agents?limit=0", &list); code != 200 || len(list) != 0 {
		t.Errorf("agents?limit=0: %d, %d agents; want 200 and none", code, len(list))
	}
	if c.get("/api/v1/agents?limit=2", &list); len(list) != 2 {
		t.Errorf("agents?limit=2 listed %d", len(list))
	}
	var ds []json.RawMessage
	if code := c.get("/api/v1/agents/mage-000/decisions?limit=0", &ds); code != 200 || len(ds) != 0 {
		t.Errorf("decisions?limit=0: %d, %d decisions; want 200 and none", code, len(ds))
	}
	if c.get("/api/v1/agents/mage-000/decisions", &ds); len(ds) == 0 {
		t.Fatal("mage-000 has no decisions: the test wants some")
	}
}

// TestRecordingHeaderCountsDropped: a decisions recording cut by limit
// says in its header how many of the agent's decisions it leaves out.
func TestRecordingHeaderCountsDropped(t *testing.T) {
	g := newGame(t, 1, 0, inspect.Options{Decisions: 8})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil)
	for range 30 {
		g.step()
	}
	var d detailJSON
	c.get("/api/v1/agents/mage-000", &d)
	if d.Decisions.Recorded <= 2 {
		t.Fatalf("mage-000 recorded %d decisions; the test wants more than 2", d.Decisions.Recorded)
	}
	resp, err := http.Get(srv.URL + "/api/v1/agents/mage-000/decisions?format=jsonl&limit=2&client=tab")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := readLines(t, resp)
	var head agent.RecordHeader
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
		t.Fatal(err)
	}
	if head.Decisions != 2 || head.Dropped != d.Decisions.Recorded-2 || len(lines) != 3 {
		t.Errorf("header %+v with %d lines; want 2 decisions, %d dropped", head, len(lines), d.Decisions.Recorded-2)
	}
}

// TestBreakpointsPerAgentAndClearByID: an agent's detail lists its own
// breakpoints only, and clearing by id clears that one, the first
// (id 1) included.
func TestBreakpointsPerAgentAndClearByID(t *testing.T) {
	g := newGame(t, 2, 0, inspect.Options{})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	var first, second struct{ ID int }
	c.post("/api/v1/breakpoints", map[string]any{"agent": "mage-000", "on": "goal"}, &first)
	c.post("/api/v1/breakpoints", map[string]any{"agent": "mage-001", "on": "plan"}, &second)
	if first.ID == second.ID || first.ID == 0 {
		t.Fatalf("breakpoint ids %d and %d", first.ID, second.ID)
	}
	var d struct {
		Breakpoints []struct {
			ID    int
			Agent string
		}
	}
	c.get("/api/v1/agents/mage-000", &d)
	if len(d.Breakpoints) != 1 || d.Breakpoints[0].ID != first.ID || d.Breakpoints[0].Agent != "mage-000" {
		t.Errorf("mage-000's detail lists breakpoints %+v; want only #%d", d.Breakpoints, first.ID)
	}
	for _, id := range []int{first.ID, second.ID} {
		var cleared struct{ Cleared int }
		if code := c.post("/api/v1/breakpoints/clear", map[string]any{"id": id}, &cleared); code != 200 || cleared.Cleared != 1 {
			t.Errorf("clear id %d: %d, cleared %d; want 1", id, code, cleared.Cleared)
		}
	}
	var s state
	if c.get("/api/v1/state", &s); len(s.Breakpoints) != 0 {
		t.Errorf("after clearing both by id, %+v are left", s.Breakpoints)
	}
}

// TestOptionOfOneIsKept: a limit set to 1 is 1, not replaced by the
// default (only 0 or less means "the default").
func TestOptionOfOneIsKept(t *testing.T) {
	g := newGame(t, 1, 0, inspect.Options{Decisions: 1, MaxBreakpoints: 1})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil)
	for range 10 {
		g.step()
	}
	var ds []json.RawMessage
	if c.get("/api/v1/agents/mage-000/decisions", &ds); len(ds) != 1 {
		t.Errorf("%d decisions kept with Options.Decisions 1", len(ds))
	}
	if code := c.post("/api/v1/breakpoints", map[string]any{"agent": "mage-000", "on": "goal"}, nil); code != 200 {
		t.Fatalf("first breakpoint: %d", code)
	}
	if code := c.post("/api/v1/breakpoints", map[string]any{"agent": "mage-000", "on": "plan"}, nil); code != http.StatusUnprocessableEntity {
		t.Errorf("a second breakpoint past MaxBreakpoints 1: %d, want 422", code)
	}
}

// TestShutdown: Shutdown before any Serve is a no-op, and after Serve it
// stops the server, whose Serve then returns http.ErrServerClosed.
func TestShutdown(t *testing.T) {
	if err := inspect.New(inspect.Options{}).Shutdown(context.Background()); err != nil {
		t.Errorf("Shutdown without Serve: %v", err)
	}
	ins := inspect.New(inspect.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- ins.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/api/v1/state?client=tab"
	waitFor(t, "the server to answer", func() bool {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ins.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	select {
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve returned %v after Shutdown", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve still running after Shutdown")
	}
}

// TestStatsFollowNoPlan: an agent whose goal cannot be planned fails to
// plan every frame; the detail's status and stats follow it.
func TestStatsFollowNoPlan(t *testing.T) {
	d, err := goap.NewDomain(goap.Spec{
		Name:  "stuck",
		Facts: []string{"done"},
		Goals: []goap.GoalSpec{{Name: "Finish", Conditions: map[string]bool{"done": true}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ins := inspect.New(inspect.Options{})
	a, err := agent.New(agent.Config{Name: "stuck", Domain: d, Goals: []agent.GoalOption{{Goal: d.Goal("Finish"), Priority: 1}}, Decisions: ins})
	if err != nil {
		t.Fatal(err)
	}
	if err := ins.Watch(a); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil)
	for tick := 1; tick <= 6; tick++ {
		a.Tick()
		ins.Frame(tick)
	}
	var det struct {
		Status string
		Stats  struct {
			NoPlan int `json:"no_plan"`
			Plans  int
		}
	}
	c.get("/api/v1/agents/stuck", &det)
	if a.Stats().NoPlan < 2 {
		t.Fatalf("the agent failed to plan %d times; the test wants at least 2", a.Stats().NoPlan)
	}
	if det.Stats.NoPlan != a.Stats().NoPlan || det.Status != "no_plan" {
		t.Errorf("detail: status %q, no_plan %d; the agent's no_plan is %d", det.Status, det.Stats.NoPlan, a.Stats().NoPlan)
	}
}
