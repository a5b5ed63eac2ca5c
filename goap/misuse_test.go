package goap_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// panicOf runs f and returns what it panicked with, or nil.
func panicOf(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

const sharedMessage = "goap: Planner used by two goroutines at once; make one Planner per goroutine (they can share the Domain)"

// A Planner shared by two goroutines is caught, as agent.Queue catches a
// shared queue: the call that comes second panics saying so, before it
// touches anything, and the first finishes with the right plan. The
// overlap is made certain, not left to timing: the first search's Go cost
// function stops it mid-search until the second call has panicked.
func TestPlannerSharedByTwoGoroutinesPanics(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	d := mustDomain(t, goap.Spec{
		Name:  "shared",
		Facts: []string{"a", "b"},
		Actions: []goap.ActionSpec{
			{Name: "Slow", Effects: map[string]bool{"a": true}, Cost: goap.Func(1, func(goap.State) float64 {
				// Only the first call waits, so that a second search
				// the planner failed to refuse runs through (and the
				// test fails) rather than waits for ever.
				if calls.Add(1) == 1 {
					close(started)
					<-release
				}
				return 2
			})},
			{Name: "Then", Preconditions: map[string]bool{"a": true}, Effects: map[string]bool{"b": true}, Cost: goap.Const(3)},
		},
		Goals: []goap.GoalSpec{{Name: "B", Conditions: map[string]bool{"b": true}}},
	})
	p := goap.NewPlanner(d)
	type outcome struct {
		res goap.Result
		err error
		r   any
	}
	first := make(chan outcome)
	go func() {
		var o outcome
		o.r = panicOf(func() { o.res, o.err = p.Plan(nil, d.Initial(), d.Goal("B"), goap.Options{}) })
		first <- o
	}()
	<-started // the first search is inside Plan, in the cost function
	for name, call := range map[string]func(){
		"Plan":    func() { p.Plan(nil, d.Initial(), d.Goal("B"), goap.Options{}) },
		"Reserve": func() { p.Reserve(100) },
	} {
		if r := panicOf(call); r != sharedMessage {
			t.Errorf("%s during another goroutine's Plan: recovered %v, want %q", name, r, sharedMessage)
		}
	}
	close(release)
	o := <-first
	if o.r != nil || o.err != nil || o.res.Status != goap.Found || o.res.Cost != 5 || len(o.res.Plan) != 2 || d.ActionName(o.res.Plan[0]) != "Slow" || d.ActionName(o.res.Plan[1]) != "Then" {
		t.Fatalf("the first search: %+v, err %v, panic %v; want Slow, Then at cost 5", o.res, o.err, o.r)
	}
	// Once it is done, the planner is free again, for any goroutine.
	if res, err := p.Plan(nil, d.Initial(), d.Goal("B"), goap.Options{}); err != nil || res.Cost != 5 {
		t.Errorf("after: %+v %v", res, err)
	}
}

// A call that panics on misuse (here a goal of another domain) frees the planner: the panic is the
// caller's to recover, and the planner stays usable.
func TestPlannerFreeAfterAMisusePanic(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	other := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	if r := panicOf(func() { p.Plan(nil, d.Initial(), other.Goal("Kill"), goap.Options{}) }); r == nil || r == sharedMessage {
		t.Fatalf("a state of another domain: recovered %v, want the misuse panic", r)
	}
	if res, err := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{}); err != nil || res.Status != goap.Found {
		t.Errorf("after a recovered misuse: %v %v", res.Status, err)
	}
}

// A nil or zero Planner says what to call instead of dereferencing nil.
func TestZeroPlannerSaysWhatToCall(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	const want = "goap: Planner not made by NewPlanner: a nil or zero Planner has no domain; call goap.NewPlanner(domain)"
	var zero goap.Planner
	var nilPlanner *goap.Planner
	for name, call := range map[string]func(){
		"zero Plan":    func() { zero.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{}) },
		"nil Plan":     func() { nilPlanner.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{}) },
		"zero Reserve": func() { zero.Reserve(10) },
		"nil Reserve":  func() { nilPlanner.Reserve(10) },
		"zero Domain":  func() { zero.Domain() },
		"nil Domain":   func() { nilPlanner.Domain() },
	} {
		if r := panicOf(call); fmt.Sprint(r) != want {
			t.Errorf("%s: recovered %v, want %q", name, r, want)
		}
	}
}
