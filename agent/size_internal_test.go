package agent

import (
	"testing"
	"unsafe"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// TestResolverAgentFitsItsSizeClass: a resolver agent and its world are
// one allocation of at most 1 152 bytes, Go's size class below 1 280. In
// a crowd of 10 000 the next class made submitting a tenth slower (more
// pages and cache lines per agent), with no other change; a field added
// to Agent, Config or resolverWorld must find its bytes elsewhere.
func TestResolverAgentFitsItsSizeClass(t *testing.T) {
	if n := unsafe.Sizeof(resolverAgentMemory{}); n > 1152 {
		t.Errorf("a resolver agent takes %d bytes, past the 1 152-byte size class", n)
	}
}

// TestResolverAgentPreallocates: what a game's ticks would otherwise grow
// one agent at a time, long after the start, is made with the agent: the
// goal options' no-chain ticks (grown at an agent's first goal with no
// chain) and the two plan buffers, for chains of the resolver's default
// depth (grown at its first long chain). A colony's first no-chain for
// some settler comes after a thousand ticks.
func TestResolverAgentPreallocates(t *testing.T) {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	behaviours := map[string]ResolverBehaviour{}
	targets := map[string]TargetSensor{}
	for id := range d.NumActions() {
		behaviours[d.ActionName(resolver.ActionID(id))] = ResolverFuncs{}
	}
	for _, name := range d.Targets() {
		targets[name] = func(*ResolverAgent) Where { return Where{} }
	}
	ra, err := NewResolverAgent(ResolverConfig{
		Domain: d, Behaviours: behaviours, Targets: targets, Mover: MoverFunc(func(resolver.Point, float64) MoveStatus { return Arrived }),
		Sensor: func(*ResolverAgent, *resolver.Snapshot) {},
		Goals:  []ResolverGoal{{Goal: d.Goal("Warm")}, {Goal: d.Goal("Fed")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a := ra.Agent()
	if len(a.goalMem) != 2 || cap(a.resultPlan) != resolver.DefaultMaxDepth || cap(a.planStore) != resolver.DefaultMaxDepth {
		t.Errorf("blocked %d, plan buffers of %d and %d: want 2, and %d each", len(a.goalMem), cap(a.resultPlan), cap(a.planStore), resolver.DefaultMaxDepth)
	}
}

// TestResolverAgentPlanBuffersFollowMaxDepth: the plan buffers hold a
// chain of the agent's own MaxDepth when it is below the resolver's
// default (no memory for chains it can never resolve), and of the default
// when it is above (a rare deep chain grows them once, rather than every
// agent paying for it up front).
func TestResolverAgentPlanBuffersFollowMaxDepth(t *testing.T) {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	behaviours := map[string]ResolverBehaviour{}
	targets := map[string]TargetSensor{}
	for id := range d.NumActions() {
		behaviours[d.ActionName(resolver.ActionID(id))] = ResolverFuncs{}
	}
	for _, name := range d.Targets() {
		targets[name] = func(*ResolverAgent) Where { return Where{} }
	}
	for _, tc := range []struct{ maxDepth, want int }{
		{3, 3},
		{resolver.DefaultMaxDepth, resolver.DefaultMaxDepth},
		{3 * resolver.DefaultMaxDepth, resolver.DefaultMaxDepth},
	} {
		ra, err := NewResolverAgent(ResolverConfig{
			Domain: d, Behaviours: behaviours, Targets: targets, Mover: MoverFunc(func(resolver.Point, float64) MoveStatus { return Arrived }),
			Sensor: func(*ResolverAgent, *resolver.Snapshot) {}, MaxDepth: tc.maxDepth,
			Goals: []ResolverGoal{{Goal: d.Goal("Warm")}},
		})
		if err != nil {
			t.Fatal(err)
		}
		a := ra.Agent()
		if cap(a.resultPlan) != tc.want || cap(a.planStore) != tc.want {
			t.Errorf("MaxDepth %d: plan buffers of %d and %d, want %d each", tc.maxDepth, cap(a.resultPlan), cap(a.planStore), tc.want)
		}
	}
}
