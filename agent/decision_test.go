package agent_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// decisions reads a recording back: its header and its decisions.
func decisions(t *testing.T, f *agent.FlightRecorder, h agent.RecordHeader) (agent.RecordHeader, []agent.Decision) {
	t.Helper()
	var b bytes.Buffer
	if err := f.WriteJSONL(&b, h); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&b)
	sc.Buffer(nil, 1<<20)
	var head agent.RecordHeader
	var out []agent.Decision
	for n := 0; sc.Scan(); n++ {
		if n == 0 {
			if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
				t.Fatalf("header %q: %v", sc.Text(), err)
			}
			continue
		}
		var d agent.Decision
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("line %d %q: %v", n+1, sc.Text(), err)
		}
		out = append(out, d)
	}
	return head, out
}

// TestGOAPDecisionRecord: a GOAP agent's first plan is recorded whole: the
// facts it planned from, the goal options as weighed (GetHealthy's goal
// holds at the start, so Kill is chosen), the plan with each step's cost
// adding up to the plan's, and the search's outcome and counts as the
// event says them.
func TestGOAPDecisionRecord(t *testing.T) {
	w, d, _ := newToy(t)
	var rec agent.Recorder
	cfg := goapConfig(w, d, &rec)
	fr := agent.NewFlightRecorder(100, 1<<20)
	cfg.Decisions = fr
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.Tick()
	head, ds := decisions(t, fr, agent.RecordHeader{Domain: "battle mage", DomainHash: agent.DomainHash([]byte("x"))})
	if head.Format != "ploy-decisions" || head.Version != 1 || head.Decisions != 1 || head.Domain != "battle mage" || !strings.HasPrefix(head.DomainHash, "sha256:") {
		t.Errorf("header %+v", head)
	}
	if len(ds) != 1 {
		t.Fatalf("%d decisions, want 1", len(ds))
	}
	dec := ds[0]
	var made agent.Event
	for _, e := range rec.Events {
		if e.Kind == agent.PlanMade {
			made = e
		}
	}
	if dec.Tick != 1 || dec.Agent != "mage" || dec.Kind != "goap" || dec.Decided != "plan" || dec.Reason != agent.ReasonStart || dec.Goal != "Kill" || dec.Status != "found" {
		t.Errorf("decision %+v", dec)
	}
	var facts []string
	init := d.Initial()
	for f := range d.NumFacts() {
		if init.Has(goap.Fact(f)) {
			facts = append(facts, d.FactName(goap.Fact(f)))
		}
	}
	if !slices.Equal(dec.Snapshot.Facts, facts) {
		t.Errorf("snapshot facts %v, want the initial %v", dec.Snapshot.Facts, facts)
	}
	var names []string
	sum := 0.0
	for _, s := range dec.Plan {
		names = append(names, s.Action)
		sum += s.Cost
	}
	if !slices.Equal(names, made.Plan) || math.Abs(sum-dec.Cost) > 1e-9 || dec.Cost != made.Cost {
		t.Errorf("plan %+v (steps sum %g) cost %g; the event says %v at %g", dec.Plan, sum, dec.Cost, made.Plan, made.Cost)
	}
	if dec.Stats.Expanded != int64(made.Expanded) || dec.Stats.Depth != int64(len(made.Plan)) {
		t.Errorf("stats %+v; the event says %d expanded", dec.Stats, made.Expanded)
	}
	want := []agent.GoalScore{
		{Goal: "GetHealthy", Priority: 10, Why: "goal holds"},
		{Goal: "Kill", Priority: 5, Score: 5, Chosen: true, Why: "highest score"},
	}
	if !slices.Equal(dec.Options, want) {
		t.Errorf("options %+v, want %+v", dec.Options, want)
	}
}

// TestResolverDecisionRecordsTheSubmittedSnapshot: with a queue, the world
// may change between the tick that asks and the frame that resolves; the
// record holds the snapshot the resolve read, taken at submit, and
// resolving again from the record gives the same chain at the same cost.
func TestResolverDecisionRecordsTheSubmittedSnapshot(t *testing.T) {
	c := newCamp(t)
	c.values["hunger"] = 80
	q := agent.NewQueue(1, 4)
	cfg := c.config(nil)
	cfg.Queue = q
	fr := agent.NewFlightRecorder(100, 1<<20)
	cfg.Decisions = fr
	a := mustResolverAgent(t, cfg)
	a.Tick() // submits
	c.values["hunger"] = 10
	c.at = resolver.Point{X: 40, Y: 40}
	a.Tick() // senses the changed world while its request waits
	q.Frame()
	_, ds := decisions(t, fr, agent.RecordHeader{})
	if len(ds) != 1 {
		t.Fatalf("%d decisions, want 1", len(ds))
	}
	dec := ds[0]
	if dec.Kind != "resolver" || dec.Snapshot.ValueMap()["hunger"] != 80 || dec.Snapshot.At != (resolver.Point{}) {
		t.Fatalf("decision %+v: want the snapshot at submit (hunger 80, at the origin)", dec)
	}
	wantOptions := []agent.GoalScore{
		{Goal: "Warm", Priority: 2, Score: 2, Chosen: true, Why: "highest score"},
		{Goal: "Fed", Priority: 1, Score: 1, Why: "lower score"},
	}
	if !slices.Equal(dec.Options, wantOptions) {
		t.Errorf("options %+v, want %+v", dec.Options, wantOptions)
	}
	snap, err := c.d.SnapshotOf(dec.Snapshot.ValueMap(), dec.Snapshot.At, dec.Snapshot.TargetMap())
	if err != nil {
		t.Fatal(err)
	}
	res, err := resolver.NewResolver(c.d).Resolve(nil, snap, c.d.Goal(dec.Goal), resolver.Options{})
	if err != nil || res.Status != resolver.Found {
		t.Fatalf("resolving the record again: %v %v", res.Status, err)
	}
	var names []string
	sum := 0.0
	for _, s := range dec.Plan {
		names = append(names, s.Action)
		sum += s.Cost
	}
	if got := strings.Join(names, " → "); got != c.d.FormatChain(res.Chain) || res.Cost != dec.Cost || math.Abs(sum-dec.Cost) > 1e-9 {
		t.Errorf("recorded %s at %g (steps sum %g); resolved again %s at %g", got, dec.Cost, sum, c.d.FormatChain(res.Chain), res.Cost)
	}
}

// TestFlightRecorderBounds: the recorder keeps the newest decisions within
// its count and byte bounds, counting the ones it dropped, and writes
// them oldest first.
func TestFlightRecorderBounds(t *testing.T) {
	fr := agent.NewFlightRecorder(3, 1<<20)
	for tick := range 10 {
		fr.RecordDecision(&agent.Decision{Tick: tick, Agent: "a", Status: "found"})
	}
	head, ds := decisions(t, fr, agent.RecordHeader{})
	if head.Decisions != 3 || head.Dropped != 7 || len(ds) != 3 || ds[0].Tick != 7 || ds[2].Tick != 9 {
		t.Errorf("count bound: header %+v, ticks %v", head, ds)
	}
	// A decision with no slices holds the struct's own bytes.
	fr = agent.NewFlightRecorder(100, int64(2*unsafe.Sizeof(agent.Decision{})))
	for tick := range 5 {
		fr.RecordDecision(&agent.Decision{Tick: tick, Agent: "a", Status: "found"})
	}
	if held, dropped := fr.Len(); held != 2 || dropped != 3 {
		t.Errorf("byte bound of two decisions: holds %d, dropped %d", held, dropped)
	}
	fr = agent.NewFlightRecorder(100, 10)
	fr.RecordDecision(&agent.Decision{Tick: 1, Agent: "a"})
	if held, dropped := fr.Len(); held != 0 || dropped != 1 {
		t.Errorf("a decision over the byte bound alone: holds %d, dropped %d", held, dropped)
	}
}
