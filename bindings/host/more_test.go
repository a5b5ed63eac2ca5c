package host_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/bindings/host"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/replay"
)

// TestRecordedDecisionsReplay records a world's decisions through handles
// and checks the recording is one `ploy replay` trusts: every decision
// comes out again as recorded, from what it recorded.
func TestRecordedDecisionsReplay(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w := newWorld(t, d, 1)
	if err := host.Record(w, 0, 0); err != nil {
		t.Fatal(err)
	}
	var agents []host.Handle
	for _, kind := range []string{"goap", "htn", "htn-break"} {
		a := newAgent(t, w, kind, kind)
		agents = append(agents, a)
	}
	if err := host.Set(agents[0], "spare_crystals", 0); err != nil {
		t.Fatal(err)
	}
	runEngine(t, agents, 30, 1, w)
	out, err := host.Decisions(w)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := agent.ReadRecording(bytes.NewReader(out), "recording", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.Format != agent.RecordFormat || rec.Header.Domain != "battlemage.yaml" || rec.Header.DomainHash != agent.DomainHash(shipped(t, "battlemage.yaml")) {
		t.Fatalf("header %+v", rec.Header)
	}
	if len(rec.Decisions) < 6 {
		t.Fatalf("%d decisions recorded, want at least two per agent", len(rec.Decisions))
	}
	f, err := domain.Parse("battlemage.yaml", shipped(t, "battlemage.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	report := replay.New(replay.FromFile(f)).Run(rec.Decisions, 5)
	if report.Decisions != len(rec.Decisions) || report.Changed != 0 {
		t.Fatalf("replay: %+v", report)
	}
}

// TestSetPushesWhatSensorsSee checks that pushed facts and inputs are what
// the agent believes, and that it plans from them.
func TestSetPushesWhatSensorsSee(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a := newAgent(t, w, "goap", "mage")
	for name, v := range map[string]float64{"in_range": 1, "healthy": 0, "spare_crystals": 0.5, "health": 25} {
		if err := host.Set(a, name, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := host.Frame(w); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Goal   string
		Plan   []string
		Facts  []string
		Inputs map[string]float64
		Doing  string
	}
	raw, _ := host.State(a)
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	// health 25 is below the goal option's 40: the mage heals first.
	if s.Goal != "GetHealthy" || s.Inputs["health"] != 25 || strings.Join(s.Facts, ",") != "in_range,spare_crystals,potion_at_shrine" || s.Doing != "idle" {
		t.Fatalf("state: %s", raw)
	}
	if _, err := host.Frame(w); err != nil {
		t.Fatal(err)
	}
	name, doing, _ := host.Action(a)
	raw, _ = host.State(a)
	if doing != host.Acting || !strings.Contains(string(raw), `"doing":"acting"`) || !strings.Contains(string(raw), `"action":"`+name+`"`) {
		t.Fatalf("after a frame: %s %d, %s", name, doing, raw)
	}
}

func TestKeysAreChecked(t *testing.T) {
	d := load(t, "survivor.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a := newAgent(t, w, "survivor", "")
	for _, c := range []struct {
		name  string
		value float64
		says  string
	}{
		{"warmth", 1.5, "a key holds an integer"},
		{"warmth", 1e300, "a key holds an integer"},
		{"warmth", -1e300, "a key holds an integer"},
		{"warmth", 1 << 54, "a key holds an integer"},
		{"warmth", -(1 << 54), "a key holds an integer"},
		{"has_wood", 2, "has_wood"},
		{"warmht", 1, `did you mean "warmth"?`},
	} {
		if err := host.Set(a, c.name, c.value); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s = %v: %v, want %q", c.name, c.value, err, c.says)
		}
	}
	if err := host.Set(a, "warmth", -(1 << 53)); err != nil {
		t.Errorf("the least integer a double holds exactly: %v", err)
	}
	if err := host.Set(a, "warmth", 1<<53); err != nil {
		t.Errorf("the largest integer a double holds exactly: %v", err)
	}
	if err := host.Set(a, "has_wood", 1); err != nil {
		t.Error(err)
	}
	raw, _ := host.State(a)
	if !strings.Contains(string(raw), `"has_wood":1`) || !strings.Contains(string(raw), `"warmth":9007199254740992`) {
		t.Errorf("state: %s", raw)
	}
	if err := host.Set(a, "has_wood", 3); err == nil {
		t.Error("a boolean key took 3")
	}
	raw2, _ := host.State(a)
	if string(raw2) != string(raw) {
		t.Errorf("a refused value changed the agent: %s", raw2)
	}
	for _, c := range []struct {
		err  error
		says string
	}{
		{host.SetTarget(a, "wood_north", nan(), 0, true), "finite"},
		{host.SetTarget(a, "wood_nort", 0, 0, true), `did you mean "wood_north"?`},
		{host.SetPosition(a, 0, nan()), "finite"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.says) {
			t.Errorf("%v, want %q", c.err, c.says)
		}
	}
}

// TestArrivesWithinReach checks the walk ends when the engine's position
// is exactly the step's stopping distance from its target, not only
// nearer.
func TestArrivesWithinReach(t *testing.T) {
	d := load(t, "survivor.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a, _ := host.NewAgent(w, "survivor", "")
	host.Frame(w)
	host.Frame(w)
	if name, doing, _ := host.Action(a); name != "GatherWoodSouth" || doing != host.Walking {
		t.Fatalf("%s %d, want walking to GatherWoodSouth", name, doing)
	}
	// wood_south is at (0, -4), its stopping distance 1.
	if err := host.SetPosition(a, 0, -3); err != nil {
		t.Fatal(err)
	}
	host.Frame(w)
	if name, doing, _ := host.Action(a); name != "GatherWoodSouth" || doing != host.Acting {
		t.Fatalf("%s %d at the stopping distance, want acting", name, doing)
	}
	if _, _, walking, _ := host.Destination(a); walking {
		t.Fatal("still walking after arriving")
	}
}

// TestReportedArrivalAndFailure: an engine with its own navigation says
// an agent arrived (Success) or cannot get there (Failure).
func TestReportedArrivalAndFailure(t *testing.T) {
	d := load(t, "survivor.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a, _ := host.NewAgent(w, "survivor", "")
	host.Frame(w)
	host.Frame(w)
	if err := host.Report(a, host.Success); err != nil {
		t.Fatal(err)
	}
	host.Frame(w)
	if name, doing, _ := host.Action(a); name != "GatherWoodSouth" || doing != host.Acting {
		t.Fatalf("%s %d after the engine said it arrived", name, doing)
	}
	a2, _ := host.NewAgent(w, "survivor", "")
	host.Frame(w)
	host.Frame(w)
	if _, doing, _ := host.Action(a2); doing != host.Walking {
		t.Fatalf("the second survivor is not walking: %d", doing)
	}
	host.Events(a2)
	if err := host.Report(a2, host.Failure); err != nil {
		t.Fatal(err)
	}
	host.Frame(w)
	ev, _ := host.Events(a2)
	if !strings.Contains(string(ev), `"kind":"action_failed"`) {
		t.Fatalf("a failed walk: %s", ev)
	}
}

// TestEventsAreBounded checks an agent keeps its last MaxEvents events
// and counts those it dropped, until Events reads them.
func TestEventsAreBounded(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a, _ := host.NewAgent(w, "goap", "")
	// Every action fails: the agent replans for ever, a few events a frame.
	for range 600 {
		host.Frame(w)
		if _, doing, _ := host.Action(a); doing == host.Acting {
			host.Report(a, host.Failure)
		}
	}
	var got struct {
		Events  []struct{ Tick int }
		Dropped int
	}
	raw, _ := host.Events(a)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != host.MaxEvents || got.Dropped <= 0 {
		t.Fatalf("%d events kept, %d dropped", len(got.Events), got.Dropped)
	}
	if last := got.Events[len(got.Events)-1].Tick; last < 590 {
		t.Fatalf("the last event kept is of tick %d: the newest must be kept", last)
	}
	raw, _ = host.Events(a)
	if string(raw) != `{"events":[],"dropped":0}` {
		t.Fatalf("a second read: %s", raw)
	}
}

// TestReleasedAgentLeavesItsWorld checks the world goes on without an
// agent released from it.
func TestReleasedAgentLeavesItsWorld(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	if err := host.Record(w, 0, 0); err != nil {
		t.Fatal(err)
	}
	a, _ := host.NewAgent(w, "goap", "a")
	b, _ := host.NewAgent(w, "goap", "b")
	host.Release(a)
	host.Events(b)
	host.Frame(w)
	ev, _ := host.Events(b)
	if !strings.Contains(string(ev), `"kind":"plan_made"`) {
		t.Fatalf("the agent left plans no more: %s", ev)
	}
	if _, err := host.State(a); err == nil {
		t.Fatal("a released agent still answers")
	}
	// Its decisions stop: it is no longer ticked.
	out, _ := host.Decisions(w)
	if strings.Contains(string(out), `"agent":"a"`) || !strings.Contains(string(out), `"agent":"b"`) {
		t.Fatalf("the recording after a left:\n%.3000s", out)
	}
}

func TestWorkersBound(t *testing.T) {
	d := load(t, "battlemage.yaml")
	if _, err := host.NewWorld(d, host.MaxWorkers+1); err == nil {
		t.Error("65 workers taken")
	}
	w, err := host.NewWorld(d, host.MaxWorkers)
	if err != nil {
		t.Error(err)
	}
	host.Release(w)
}

func TestPDDLBudget(t *testing.T) {
	ds := []byte("(define (domain d) (:predicates (p) (q)) (:action a :parameters () :precondition (p) :effect (q)) (:action b :parameters () :effect (p)))")
	ps := []byte("(define (problem x) (:domain d) (:init) (:goal (q)))")
	d, err := host.LoadPDDL(ds, "d.pddl", ps, "p.pddl")
	if err != nil {
		t.Fatal(err)
	}
	defer host.Release(d)
	for _, c := range []struct{ body, says string }{
		{`{"budget":-1}`, `"field":"budget"`},
		{`{"budget":1000001}`, `"field":"budget"`},
		{`{"budget":1000000}`, `"cost":2`},
		{`{"budget":1}`, `"status":"budget_exhausted"`},
		{`{"budgt":1}`, `unknown field`},
	} {
		if got := string(host.Call(d, "plan", []byte(c.body))); !strings.Contains(got, c.says) {
			t.Errorf("%s: %s, want %q", c.body, got, c.says)
		}
	}
	if _, err := host.NewWorld(d, 1); err == nil || !strings.Contains(err.Error(), "PDDL") {
		t.Errorf("a world of a PDDL problem: %v", err)
	}
}

// TestReleaseWhileInUse releases a world while other goroutines drive it:
// every call either works or says the handle is gone, none panics, and
// nothing is left held.
func TestReleaseWhileInUse(t *testing.T) {
	d := load(t, "battlemage.yaml")
	before := host.Held()
	for range 20 {
		w, _ := host.NewWorld(d, 2)
		a, _ := host.NewAgent(w, "goap", "")
		done := make(chan struct{})
		go func() {
			defer close(done)
			for range 50 {
				if _, err := host.Frame(w); err != nil && !errors.Is(err, host.ErrNoHandle) {
					t.Error(err)
				}
				if err := host.Set(a, "in_range", 1); err != nil && !errors.Is(err, host.ErrNoHandle) {
					t.Error(err)
				}
				if b, err := host.NewAgent(w, "htn", ""); err != nil && !errors.Is(err, host.ErrNoHandle) {
					t.Error(err)
				} else if err == nil && b == 0 {
					t.Error("an agent with handle 0")
				}
			}
		}()
		host.Frame(w)
		host.Release(w)
		<-done
	}
	if got := host.Held() - before; got != 0 {
		t.Fatalf("%d handles left held after their worlds were released", got)
	}
}

// TestSuccessIsKeptWhenTheStepIsDropped: the engine reports CastBolt's
// success and, in the same frame, pushes the enemy's death. The agent's
// next tick sees Kill hold and drops the step before its behaviour reads
// the report; the bolt's other effect (the staff spent) must hold all
// the same.
func TestSuccessIsKeptWhenTheStepIsDropped(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w, _ := host.NewWorld(d, 1)
	defer host.Release(w)
	a, _ := host.NewAgent(w, "goap", "")
	for range 40 {
		host.Frame(w)
		name, doing, _ := host.Action(a)
		if doing != host.Acting {
			continue
		}
		if err := host.Report(a, host.Success); err != nil {
			t.Fatal(err)
		}
		if name == "CastBolt" {
			host.Set(a, "enemy_dead", 1)
			host.Frame(w)
			host.Frame(w)
			raw, _ := host.State(a)
			if strings.Contains(string(raw), "staff_charged") {
				t.Fatalf("the staff is still charged after the bolt: %s", raw)
			}
			return
		}
	}
	t.Fatal("the mage never cast its bolt")
}

// TestPushedFactsOutlastEffects: a fact the engine pushed is the world's
// word on it, even against the effects of an action the engine reports
// done; the facts it never pushed change as the action says.
func TestPushedFactsOutlastEffects(t *testing.T) {
	d := load(t, "battlemage.yaml")
	w := newWorld(t, d, 1)
	a := newAgent(t, w, "goap", "")
	if err := host.Set(a, "in_cover", 0); err != nil { // pushed: not in cover
		t.Fatal(err)
	}
	for range 20 {
		host.Frame(w)
		name, doing, _ := host.Action(a)
		if doing != host.Acting {
			continue
		}
		host.Report(a, host.Success)
		if name != "TakeCover" {
			continue
		}
		host.Frame(w)
		raw, _ := host.State(a)
		var s struct{ Facts []string }
		json.Unmarshal(raw, &s)
		if slices.Contains(s.Facts, "in_cover") || !slices.Contains(s.Facts, "in_range") {
			t.Fatalf("after TakeCover with in_cover pushed false: %s; want in_range from Approach's effects, and not in_cover", raw)
		}
		return
	}
	t.Fatal("the mage never took cover")
}
