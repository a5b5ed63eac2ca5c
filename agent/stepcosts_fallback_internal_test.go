package agent

import (
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// TestARecordCountsTheStepCostsTheWorkerDidNot: when the log does not
// hold one cost per step of the chain recorded (the worker counted none,
// or another chain's), the record counts them itself, from the snapshot
// the resolve read: each step's cost is what resolver.Domain.StepCosts
// counts, bit for bit, not a stale cost or none.
func TestARecordCountsTheStepCostsTheWorkerDidNot(t *testing.T) {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	behaviours := map[string]ResolverBehaviour{}
	targets := map[string]TargetSensor{}
	for id := range d.NumActions() {
		behaviours[d.ActionName(resolver.ActionID(id))] = ResolverFuncs{}
	}
	for i, name := range d.Targets() {
		at := resolver.Point{X: float64(3 * (i + 1)), Y: float64(i % 3)}
		targets[name] = func(*ResolverAgent) Where { return AtPoint(at) }
	}
	cfg := ResolverConfig{
		Domain: d, Behaviours: behaviours, Targets: targets,
		Mover:     MoverFunc(func(resolver.Point, float64) MoveStatus { return Moving }),
		Sensor:    func(_ *ResolverAgent, s *resolver.Snapshot) { k, _ := d.Key("warmth"); s.Values[k] = 10 },
		Goals:     []ResolverGoal{{Goal: d.Goal("Warm")}},
		Decisions: sinkFunc(func(*Decision) {}),
	}
	ra, err := NewResolverAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a := ra.Agent()
	a.Tick()
	chain := ra.Chain()
	if len(chain) < 2 {
		t.Fatalf("chain %v: want one of at least two steps, with a walk", chain)
	}
	w := a.world.(*resolverWorld)
	want := d.StepCosts(nil, chain, &w.request.snap, *w.opt)
	if want[0] == 0 {
		t.Fatalf("step costs %v: want a first step that costs something", want)
	}
	plan := planOf(append([]resolver.ActionID(nil), chain...))
	for _, tc := range []struct {
		name  string
		costs []float64
	}{
		{"none counted", nil},
		{"another chain's", []float64{-1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.log.stepCosts = tc.costs
			var rec Decision
			w.record(a, &request{chain: &w.request}, plan, &rec)
			if len(rec.Plan) != len(want) {
				t.Fatalf("the record has %d steps for a chain of %d", len(rec.Plan), len(want))
			}
			for i, s := range rec.Plan {
				if math.Float64bits(s.Cost) != math.Float64bits(want[i]) {
					t.Fatalf("step %d (%s) costs %v in the record; StepCosts counts %v (all: %v)", i, s.Action, s.Cost, want[i], want)
				}
			}
		})
	}
}

// TestWriteJSONLNamesTheTargetsOfASlotWithoutOptions: a slot's targets as
// read are named when the recording is written, whether or not the
// decision has goal options to make too.
func TestWriteJSONLNamesTheTargetsOfASlotWithoutOptions(t *testing.T) {
	f := NewFlightRecorder(4, 1<<20)
	d := f.lendSlot()
	*d = Decision{Agent: "ann", Decided: "plan", Plan: []DecisionStep{}}
	d.Snapshot.Resolver = true
	d.found = []resolver.Target{{At: resolver.Point{X: 1}, Found: true}, {}, {At: resolver.Point{Y: 2}, Found: true}}
	d.targetNames = []string{"fire", "wood", "deer"}
	f.keepSlot()
	var b strings.Builder
	if err := f.WriteJSONL(&b, RecordHeader{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], `"targets":{"deer":{"X":0,"Y":2},"fire":{"X":1,"Y":0}}`) {
		t.Errorf("recording %s: want the decision's targets fire and deer, not wood", b.String())
	}
}
