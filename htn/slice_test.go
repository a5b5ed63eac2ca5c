package htn_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/goroutines"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
	"github.com/ploy-ai/ploy/search"
)

// sliced decomposes from s as Begin, Continue and Result do, slice steps
// at a time, and checks that every Continue but the last took exactly
// slice steps.
func sliced(t *testing.T, p *htn.Planner, res *htn.Result, s goap.State, opt htn.Options, slice int) error {
	t.Helper()
	p.Begin(s, opt)
	calls := 0
	for !p.Continue(slice) {
		calls++
		if got, want := p.Steps(), calls*slice; got != want {
			t.Fatalf("after %d slices of %d the decomposition took %d steps, want %d", calls, slice, got, want)
		}
		if !p.Suspended() {
			t.Fatal("a paused decomposition is not Suspended")
		}
	}
	if p.Suspended() {
		t.Fatal("an ended decomposition is still Suspended")
	}
	if !p.Continue(slice) {
		t.Fatal("Continue after the end did not report the end")
	}
	return p.Result(res)
}

// TestSlicedDecompositionIsPlans: over random HTN domains, states, step
// and memory caps, and slice sizes, a decomposition run a slice at a time
// gives exactly Plan's result: status, bound, plan, MTR, tasks, steps,
// backtracks, statistics, error and trace.
func TestSlicedDecompositionIsPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	cfg := randdomain.Config{Facts: 6, Actions: 8, MaxPre: 2, MaxEff: 2, MaxCost: 3, Goals: 1, GoalFacts: 1}
	domains := 300
	if testing.Short() {
		domains = 80
	}
	outcomes := map[string]int{}
	var whole, part htn.Result
	var wholeTrace, partTrace htn.Trace
	for i := range domains {
		d := randomHTNDomain(t, r, cfg)
		if d == nil {
			continue
		}
		g := d.GOAP()
		p, q := htn.NewPlanner(d), htn.NewPlanner(d)
		for trial := range 4 {
			s := g.NewState()
			s.Words()[0] = uint64(r.IntN(1 << cfg.Facts))
			opt := htn.Options{MaxSteps: 1 + r.IntN(400)}
			if r.IntN(4) == 0 {
				opt.MaxMemory = 200 + r.IntN(800)
			}
			traced := trial%2 == 1
			slice := 1 + r.IntN(12)
			wopt, popt := opt, opt
			if traced {
				wopt.Trace, popt.Trace = &wholeTrace, &partTrace
			}
			werr := p.Plan(&whole, s, wopt)
			perr := sliced(t, q, &part, s, popt, slice)
			name := fmt.Sprintf("domain %d state %s, %+v, slices of %d", i, g.FormatState(s), opt, slice)
			if fmt.Sprint(werr) != fmt.Sprint(perr) {
				t.Fatalf("%s: error %v, Plan's %v", name, perr, werr)
			}
			if !reflect.DeepEqual(part, whole) && !(len(part.Plan)+len(whole.Plan) == 0 && sameButPlans(part, whole)) {
				t.Fatalf("%s:\nsliced %+v\nPlan   %+v", name, part, whole)
			}
			if traced && !reflect.DeepEqual(partTrace, wholeTrace) {
				t.Fatalf("%s: the sliced trace differs from Plan's", name)
			}
			outcomes[htn.StatusName(whole.Status, whole.Bound)]++
		}
	}
	t.Logf("outcomes: %v", outcomes)
	for _, want := range []string{htn.Found.String(), htn.NoPlan.String(), "step_limit", "memory_limit"} {
		if outcomes[want] == 0 {
			t.Errorf("no decomposition ended %q: the test does not cover it", want)
		}
	}
}

// sameButPlans says whether a and b differ only in their empty lists'
// being nil or not.
func sameButPlans(a, b htn.Result) bool {
	a.Plan, a.MTR, a.Tasks, b.Plan, b.MTR, b.Tasks = nil, nil, nil, nil, nil, nil
	return reflect.DeepEqual(a, b)
}

// TestSlicedDecompositionLooksAtItsContext: a context done between two
// slices stops the decomposition before the next slice's first step, with
// the context's error, as Plan stops on it.
func TestSlicedDecompositionLooksAtItsContext(t *testing.T) {
	d := chooser(t, 20)
	p := htn.NewPlanner(d)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p.Begin(d.GOAP().Initial(), htn.Options{MaxSteps: 1 << 20, Context: ctx})
	if p.Continue(50) || p.Continue(50) {
		t.Fatal("2^20 combinations ended within 100 steps")
	}
	cancel()
	if !p.Continue(50) {
		t.Fatal("a decomposition whose context is done went on")
	}
	var res htn.Result
	err := p.Result(&res)
	if !errors.Is(err, context.Canceled) || res.Status != htn.LimitReached || res.Bound != search.Canceled || res.Steps != 100 {
		t.Fatalf("%v after %d steps, %v; want Canceled after the 100 steps of two slices", res.Status, res.Steps, err)
	}
}

// TestAbandonedDecompositionEnds: Abandon, Begin and Plan each drop a
// suspended decomposition (its coroutine ends), and the planner then
// decomposes as a new one would.
func TestAbandonedDecompositionEnds(t *testing.T) {
	d := chooser(t, 12)
	p, fresh := htn.NewPlanner(d), htn.NewPlanner(d)
	s := d.GOAP().Initial()
	opt := htn.Options{MaxSteps: 3000}
	var want, got htn.Result
	wantErr := fresh.Plan(&want, s, opt)
	for _, drop := range []string{"Abandon", "Begin", "Plan"} {
		p.Begin(s, opt)
		if p.Continue(7) {
			t.Fatal("ended within 7 steps")
		}
		var err error
		switch drop {
		case "Abandon":
			p.Abandon()
			if p.Suspended() || p.Steps() != 7 {
				t.Fatalf("after Abandon: Suspended %v", p.Suspended())
			}
			err = p.Plan(&got, s, opt)
		case "Begin":
			err = sliced(t, p, &got, s, opt, 100)
		case "Plan":
			err = p.Plan(&got, s, opt)
		}
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got.Plan, want.Plan) || got.Steps != want.Steps || got.Status != want.Status {
			t.Fatalf("after %s: %v %d steps %v; a fresh planner: %v %d steps %v", drop, got.Status, got.Steps, err, want.Status, want.Steps, wantErr)
		}
	}
}

// TestSliceMisuse: Continue without Begin, a slice below one step and
// Result before the end panic, saying what to do.
func TestSliceMisuse(t *testing.T) {
	d := chooser(t, 4)
	p := htn.NewPlanner(d)
	panics := func(name, want string, f func()) {
		t.Helper()
		defer func() {
			if msg := fmt.Sprint(recover()); !strings.Contains(msg, want) {
				t.Errorf("%s: panic %q, want one saying %q", name, msg, want)
			}
		}()
		f()
	}
	panics("Continue", "call Begin first", func() { p.Continue(1) })
	panics("Result", "call Continue until it returns true", func() { p.Result(new(htn.Result)) })
	p.Begin(d.GOAP().Initial(), htn.Options{})
	panics("Continue(0)", "at least one step", func() { p.Continue(0) })
	panics("Result", "call Continue until it returns true", func() { p.Result(new(htn.Result)) })
	panics("Root", "not a compound task", func() { p.Begin(d.GOAP().Initial(), htn.Options{Root: 99, HasRoot: true}) })
	panics("state", "htn:", func() { p.Begin(goap.StateFromWords(make([]uint64, 3)), htn.Options{}) })
}

// chooser is a domain whose root makes n choices of two methods and then
// needs a fact nothing sets: 2^n combinations to backtrack through.
func chooser(t *testing.T, n int) *htn.Domain {
	t.Helper()
	g := oneAction(t)
	subtasks := []string{}
	for range n {
		subtasks = append(subtasks, "Choose")
	}
	d, err := htn.NewDomain(g, htn.Spec{Root: "Root", Tasks: []htn.TaskSpec{
		{Name: "Root", Methods: []htn.MethodSpec{{Name: "all", Subtasks: append(subtasks, "Never")}}},
		{Name: "Choose", Methods: []htn.MethodSpec{{Name: "one"}, {Name: "other"}}},
		{Name: "Never", Methods: []htn.MethodSpec{{Name: "if_a", Conditions: map[string]bool{"a": true}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestADroppedPlannerEndsItsCoroutine: a planner keeps the coroutine of
// its sliced decompositions from one to the next, and a planner the game
// drops, its last decomposition ended, abandoned or panicked, is
// collected and its coroutine ends.
func TestADroppedPlannerEndsItsCoroutine(t *testing.T) {
	d := chooser(t, 6)
	s := d.GOAP().Initial()
	base := goroutines.Settled(0)
	var collected atomic.Int32
	func() {
		for i := range 30 {
			p := htn.NewPlanner(d)
			runtime.AddCleanup(p, func(*atomic.Int32) { collected.Add(1) }, &collected)
			var res htn.Result
			for range 5 {
				sliced(t, p, &res, s, htn.Options{}, 10)
			}
			switch i % 3 {
			case 1: // dropped with a decomposition suspended, abandoned by Plan
				p.Begin(s, htn.Options{})
				p.Continue(1)
				p.Plan(&res, s, htn.Options{})
			case 2: // dropped after a decomposition that panicked
				armed := true
				p.Begin(s, htn.Options{Context: panicky{context.Background(), &armed}})
				func() {
					defer func() {
						if recover() == nil {
							t.Fatal("the context's panic did not come out of Continue")
						}
					}()
					p.Continue(1)
				}()
			}
		}
		if now := runtime.NumGoroutine(); now > base+30 || now < base+10 {
			t.Fatalf("30 planners that sliced decompositions: %d goroutines, %d before; want one parked coroutine a planner", now, base)
		}
	}()
	if now := goroutines.Settled(base); now > base {
		t.Fatalf("%d goroutines after the planners were dropped, %d before: their coroutines live on", now, base)
	}
	goroutines.Collected(func() bool { return collected.Load() == 30 })
	if n := collected.Load(); n != 30 {
		t.Fatalf("%d of the 30 dropped planners were collected", n)
	}
}
