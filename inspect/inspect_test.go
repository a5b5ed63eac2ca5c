package inspect_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/inspect"
)

type agentJSON struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Goal    string   `json:"goal"`
	Status  string   `json:"status"`
	Plan    []string `json:"plan"`
	Step    int      `json:"step"`
	Action  string   `json:"action"`
	Plans   int      `json:"plans"`
	Replans int      `json:"replans"`
}

type detailJSON struct {
	agentJSON
	Tick  int `json:"tick"`
	Steps []struct {
		Action string   `json:"action"`
		Cost   *float64 `json:"cost"`
		State  string   `json:"state"`
	} `json:"steps"`
	Facts     []string          `json:"facts"`
	Options   []agent.GoalScore `json:"options"`
	Traced    bool              `json:"traced"`
	Decisions struct {
		Kept     int   `json:"kept"`
		Recorded int64 `json:"recorded"`
	} `json:"decisions"`
}

// TestAnswersReflectTheAgentsAfterFrame: with a client about, what the API
// answers after a Frame is what the agents are at that Frame: name, kind,
// goal, plan, step, running action, facts, and the plan's costs and goal
// scores from the agent's last decision.
func TestAnswersReflectTheAgentsAfterFrame(t *testing.T) {
	g := newGame(t, 5, 0, inspect.Options{})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil) // a client is about from now on
	for range 9 {
		g.step()
		var list []agentJSON
		if code := c.get("/api/v1/agents", &list); code != 200 {
			t.Fatalf("GET agents: %d", code)
		}
		if len(list) != len(g.mages) {
			t.Fatalf("%d agents listed, want %d", len(list), len(g.mages))
		}
		for i, m := range g.mages {
			got := list[i]
			var plan []string
			for _, id := range m.Plan() {
				plan = append(plan, g.d.ActionName(id))
			}
			goal := ""
			if m.Goal() != nil {
				goal = m.Goal().Name()
			}
			action := ""
			if id, ok := m.Current(); ok {
				action = g.d.ActionName(id)
			}
			if got.Name != m.Name() || got.Kind != "goap" || got.Goal != goal || !slices.Equal(got.Plan, plan) || got.Step != m.Step() ||
				got.Action != action || got.Plans != m.Stats().Plans {
				t.Fatalf("tick %d: listed %+v; the agent has goal %q plan %v step %d action %q plans %d", g.tick.Load(), got, goal, plan, m.Step(), action, m.Stats().Plans)
			}
		}
	}
	m := g.mages[0]
	var d detailJSON
	if code := c.get("/api/v1/agents/"+m.Name(), &d); code != 200 {
		t.Fatalf("GET agent: %d", code)
	}
	var facts []string
	for f := range g.d.NumFacts() {
		if m.Facts().Has(goapFact(f)) {
			facts = append(facts, g.d.FactName(goapFact(f)))
		}
	}
	if !slices.Equal(d.Facts, facts) || d.Tick != m.Now() {
		t.Errorf("facts %v tick %d; the agent's %v at %d", d.Facts, d.Tick, facts, m.Now())
	}
	if len(d.Options) != 2 || d.Decisions.Recorded == 0 {
		t.Errorf("options %+v, decisions %+v: want both goal options weighed, and decisions", d.Options, d.Decisions)
	}
	for _, s := range d.Steps {
		if s.Cost == nil {
			t.Errorf("step %+v has no cost: the plan is the one last recorded", s)
		}
	}
	if code := c.get("/api/v1/agents/nobody", nil); code != 404 {
		t.Errorf("an unknown agent: %d, want 404", code)
	}
	var filtered []agentJSON
	c.get("/api/v1/agents?kind=htn", &filtered)
	if len(filtered) != 0 {
		t.Errorf("kind=htn listed %d goap agents", len(filtered))
	}
	c.get("/api/v1/agents?goal="+d.Goal+"&sort=replans", &filtered)
	for i, a := range filtered {
		if a.Goal != d.Goal || i > 0 && a.Replans > filtered[i-1].Replans {
			t.Errorf("goal=%s&sort=replans listed %+v", d.Goal, filtered)
		}
	}
}

// TestNoClientNoCopy: with no client about, Frame copies nothing (the
// copy stays at the frame it was made); a request then waits for the next
// frame, which copies, and answers from it.
func TestNoClientNoCopy(t *testing.T) {
	g := newGame(t, 3, 0, inspect.Options{HeartbeatTimeout: 50 * time.Millisecond, StaleWait: 10 * time.Second})
	srv := serve(t, g.ins)
	for range 5 {
		g.step()
	}
	// The first request: it copies nothing itself (the state answers
	// without waiting for a frame).
	c := api{t, srv.URL, "tab"}
	var s state
	c.get("/api/v1/state", &s)
	if s.Frame != 5 || s.Copied != 0 {
		t.Fatalf("state %+v: frames with no client must copy nothing (copied 0, frame 5)", s)
	}
	done := make(chan []agentJSON)
	go func() {
		var list []agentJSON
		c.get("/api/v1/agents", &list)
		done <- list
	}()
	time.Sleep(20 * time.Millisecond) // the request waits for a frame
	g.step()
	list := <-done
	if list[0].Plans != g.mages[0].Stats().Plans || list[0].Plans == 0 {
		t.Errorf("after the next frame, listed %+v; the agent planned %d times", list[0], g.mages[0].Stats().Plans)
	}
	c.get("/api/v1/state", &s)
	if s.Copied != 6 {
		t.Errorf("copied at %d, want 6", s.Copied)
	}
	time.Sleep(60 * time.Millisecond) // the client goes quiet
	g.step()                          // it is forgotten: the frame copies
	g.step()                          // and this one does not
	var s2 state
	c.get("/api/v1/state", &s2)
	if s2.Copied != 7 {
		t.Errorf("copied at %d after the client went quiet, want 7 (the frame that forgot it)", s2.Copied)
	}
}

// TestDecisionsAsRecorded: the decisions endpoint answers an agent's last
// Options.Decisions decisions exactly as the game's own recorder (the
// inspector's Sink) writes them, and ?format=jsonl is a recording.
func TestDecisionsAsRecorded(t *testing.T) {
	fr := agent.NewFlightRecorder(1<<16, 1<<30)
	g := newGame(t, 3, 2, inspect.Options{Sink: fr, Decisions: 4})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	c.get("/api/v1/state", nil) // about from the start: no stale copy to wait out
	for range 60 {
		g.step()
	}
	var buf bytes.Buffer
	if err := fr.WriteJSONL(&buf, agent.RecordHeader{}); err != nil {
		t.Fatal(err)
	}
	var want []string
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<20)
	sc.Scan() // the header
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"agent":"mage-001"`) {
			want = append(want, sc.Text())
		}
	}
	if len(want) <= 4 {
		t.Fatalf("mage-001 made %d decisions; the test wants more than the 4 kept", len(want))
	}
	want = want[len(want)-4:]
	var got []json.RawMessage
	if code := c.get("/api/v1/agents/mage-001/decisions", &got); code != 200 {
		t.Fatalf("GET decisions: %d", code)
	}
	if len(got) != 4 {
		t.Fatalf("%d decisions kept, want 4 (Options.Decisions)", len(got))
	}
	for i := range got {
		var compact bytes.Buffer
		json.Compact(&compact, got[i])
		if compact.String() != want[i] {
			t.Errorf("decision %d:\n got %s\nwant %s", i, compact.String(), want[i])
		}
	}
	resp, err := http.Get(srv.URL + "/api/v1/agents/mage-001/decisions?format=jsonl&limit=2")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := readLines(t, resp)
	var head agent.RecordHeader
	json.Unmarshal([]byte(lines[0]), &head)
	if len(lines) != 3 || head.Format != agent.RecordFormat || head.Decisions != 2 || lines[2] != want[3] || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Errorf("jsonl: header %+v, %d lines, last %s", head, len(lines), lines[len(lines)-1])
	}
}

// TestTraceAppliedAtFrame: asking for an agent's trace turns its
// decisions' Rejected on from the next frame, for that agent only, and a
// client that goes quiet has it turned off again.
func TestTraceAppliedAtFrame(t *testing.T) {
	g := newGame(t, 2, 0, inspect.Options{HeartbeatTimeout: 100 * time.Millisecond, StaleWait: 10 * time.Millisecond})
	srv := serve(t, g.ins)
	c := api{t, srv.URL, "tab"}
	if code := c.post("/api/v1/trace", map[string]any{"agent": "mage-000", "on": true}, nil); code != 200 {
		t.Fatalf("POST trace: %d", code)
	}
	var d detailJSON
	c.get("/api/v1/agents/mage-000", &d)
	if d.Traced {
		t.Fatal("traced before any frame: the handler must not touch the agent")
	}
	for range 40 {
		g.step()
	}
	c.get("/api/v1/agents/mage-000", &d)
	if !d.Traced {
		t.Fatal("not traced after frames")
	}
	rejected := func(name string) int {
		var ds []agent.Decision
		c.get("/api/v1/agents/"+name+"/decisions", &ds)
		n := 0
		for _, x := range ds {
			n += len(x.Rejected)
		}
		return n
	}
	if rejected("mage-000") == 0 || rejected("mage-001") != 0 {
		t.Errorf("rejected alternatives: %d for the traced mage, %d for the other", rejected("mage-000"), rejected("mage-001"))
	}
	time.Sleep(150 * time.Millisecond)
	g.step() // forgets the client, turns the trace off
	for range 40 {
		g.step()
	}
	var ds []agent.Decision
	c.get("/api/v1/agents/mage-000/decisions?limit=3", &ds)
	for _, x := range ds {
		if len(x.Rejected) != 0 {
			t.Errorf("decision at tick %d traced after its client went quiet", x.Tick)
		}
	}
}

func readLines(t *testing.T, resp *http.Response) []string {
	var lines []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// TestRecordingEndpoint: GET /api/v1/recording is every agent's kept
// decisions as one recording, ordered by tick, with the domain's name and
// hash from Options and the decisions no longer kept counted as dropped;
// ?agent= keeps one agent's; past MaxRecording it is refused.
func TestRecordingEndpoint(t *testing.T) {
	g := newGame(t, 3, 2, inspect.Options{Decisions: 5, Domain: "mage.yaml", DomainHash: "sha256:00", MaxRecording: 1 << 20})
	for range 80 {
		g.step()
	}
	w := do(g.ins, "GET", "/api/v1/recording", "", "", nil)
	rec, err := agent.ReadRecording(w.Body, "recording.jsonl", 0)
	if err != nil || w.Header().Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("%v (%s)", err, w.Header())
	}
	h := rec.Header
	if h.Domain != "mage.yaml" || h.DomainHash != "sha256:00" || len(rec.Decisions) != 15 || h.Dropped == 0 {
		t.Errorf("header %+v, %d decisions: want 3 agents' 5 each, and some dropped", h, len(rec.Decisions))
	}
	for i := 1; i < len(rec.Decisions); i++ {
		if rec.Decisions[i].Tick < rec.Decisions[i-1].Tick {
			t.Errorf("decision %d at tick %d after one at %d", i, rec.Decisions[i].Tick, rec.Decisions[i-1].Tick)
		}
	}
	one, err := agent.ReadRecording(do(g.ins, "GET", "/api/v1/recording?agent=mage-002", "", "", nil).Body, "one.jsonl", 0)
	if err != nil || len(one.Decisions) != 5 || one.Decisions[0].Agent != "mage-002" {
		t.Errorf("one agent's: %v, %d decisions", err, len(one.Decisions))
	}
	if code := do(g.ins, "GET", "/api/v1/recording?agent=nobody", "", "", nil).Code; code != 404 {
		t.Errorf("an unknown agent's recording: %d", code)
	}
	small := newGame(t, 3, 0, inspect.Options{MaxRecording: 500})
	for range 10 {
		small.step()
	}
	if w := do(small.ins, "GET", "/api/v1/recording", "", "", nil); w.Code != 422 {
		t.Errorf("a recording past MaxRecording: %d", w.Code)
	}
}
