package agent

import (
	"math"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// TestTheResolvingWorkerCountsTheStepCosts: a recording resolver agent's
// record takes its steps' costs from the worker that found the chain
// (resolver.Options.StepCosts into the log), not from counting them again
// at delivery: after a chain is found, inline, traced, through a queue,
// and a slice at a time, the log holds one cost per step, what
// resolver.Domain.StepCosts counts for the snapshot the resolve read.
func TestTheResolvingWorkerCountsTheStepCosts(t *testing.T) {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"inline", "traced", "queue", "slices"} {
		t.Run(how, func(t *testing.T) {
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
				Decisions: NewFlightRecorder(10, 1<<20),
			}
			cfg.TraceDecisions = how == "traced"
			var q *Queue
			if how == "queue" || how == "slices" {
				q = NewQueue(2, 10)
				if how == "slices" {
					q.SetSlice(1)
				}
				cfg.Queue = q
			}
			ra, err := NewResolverAgent(cfg)
			if err != nil {
				t.Fatal(err)
			}
			a := ra.Agent()
			a.Tick()
			frames := 0
			for ; q != nil && a.pending && frames < 50; frames++ {
				q.Frame()
			}
			if how == "slices" && frames < 2 {
				t.Fatalf("resolved in %d frame: want a search suspended at its slice and resumed", frames)
			}
			plan := ra.Chain()
			if len(plan) < 2 {
				t.Fatalf("chain %v: want one of at least two steps, with a walk", plan)
			}
			w := a.world.(*resolverWorld)
			want := d.StepCosts(nil, plan, &w.request.snap, *w.opt)
			got := a.log.stepCosts
			if len(got) != len(want) {
				t.Fatalf("the log holds %d step costs for a chain of %d: the worker counted none", len(got), len(plan))
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("step costs %v, StepCosts counts %v", got, want)
				}
			}
		})
	}
}
