package htn_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/goroutines"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
	"github.com/ploy-ai/ploy/search"
)

// TestReviewSlicedCallsBound counts Continue calls over random domains:
// a decomposition of step cap B in slices of n ends within ⌈B / n⌉ calls,
// and one that ends exactly at a slice's end (its steps a multiple of n)
// ends in that slice's call, never in an extra call that takes no step.
func TestReviewSlicedCallsBound(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 36))
	cfg := randdomain.Config{Facts: 6, Actions: 8, MaxPre: 2, MaxEff: 2, MaxCost: 3, Goals: 1, GoalFacts: 1}
	atEnd := map[string]int{}
	for range 300 {
		gspec := randdomain.Spec(r, cfg)
		g, err := goap.NewDomain(gspec)
		if err != nil {
			t.Fatal(err)
		}
		d, err := htn.NewDomain(g, randomHTN(r, gspec))
		if err != nil {
			continue
		}
		p := htn.NewPlanner(d)
		for range 4 {
			s := g.NewState()
			s.Words()[0] = uint64(r.IntN(1 << cfg.Facts))
			B := 1 + r.IntN(60)
			n := 1 + r.IntN(6)
			p.Begin(s, htn.Options{MaxSteps: B})
			calls := 1
			for !p.Continue(n) {
				calls++
			}
			var res htn.Result
			_ = p.Result(&res)
			if bound := (B + n - 1) / n; calls > bound {
				t.Fatalf("B %d n %d: %d calls, past ⌈B/n⌉ = %d (%v after %d steps)", B, n, calls, bound, htn.StatusName(res.Status, res.Bound), res.Steps)
			}
			if res.Steps > 0 && res.Steps%n == 0 {
				if calls != res.Steps/n {
					t.Fatalf("ended at a slice's end after %d steps in slices of %d, in %d calls", res.Steps, n, calls)
				}
				atEnd[htn.StatusName(res.Status, res.Bound)]++
			}
		}
	}
	t.Logf("ended exactly at a slice's end, by outcome: %v", atEnd)
	if atEnd["found"] == 0 || atEnd["no_plan"] == 0 || atEnd["step_limit"] == 0 {
		t.Fatalf("not every outcome met at a slice's end: %v", atEnd)
	}
}

// panicky is a context whose Err panics once armed.
type panicky struct {
	context.Context
	armed *bool
}

func (c panicky) Err() error {
	if *c.armed {
		panic("review: context panicked")
	}
	return nil
}

func (panicky) Done() <-chan struct{}       { return nil }
func (panicky) Deadline() (time.Time, bool) { return time.Time{}, false }

// TestReviewPanicInSliceEndsIt: a panic in a sliced decomposition comes out
// of Continue, ends the decomposition and its coroutine, and the planner
// decomposes afterwards as a new one.
func TestReviewPanicInSliceEndsIt(t *testing.T) {
	d := chooser(t, 12)
	s := d.GOAP().Initial()
	base := runtime.NumGoroutine()
	p, fresh := htn.NewPlanner(d), htn.NewPlanner(d)
	armed := false
	p.Begin(s, htn.Options{MaxSteps: 3000, Context: panicky{context.Background(), &armed}})
	if p.Continue(10) {
		t.Fatal("ended within 10 steps")
	}
	armed = true
	func() {
		defer func() {
			if v := fmt.Sprint(recover()); !strings.Contains(v, "review: context panicked") {
				t.Fatalf("recovered %q", v)
			}
		}()
		p.Continue(10)
	}()
	if p.Suspended() {
		t.Fatal("suspended after a panic")
	}
	settle(t, base)
	var got, want htn.Result
	werr := fresh.Plan(&want, s, htn.Options{MaxSteps: 3000})
	gerr := p.Plan(&got, s, htn.Options{MaxSteps: 3000})
	if fmt.Sprint(werr) != fmt.Sprint(gerr) || got.Steps != want.Steps {
		t.Fatalf("after a panic: %v %d steps, fresh %v %d", gerr, got.Steps, werr, want.Steps)
	}
}

// TestReviewDroppedDecompositionsLeaveNoGoroutine: Abandon, Begin and Plan
// on a suspended decomposition each end it (Begin starting another,
// abandoned in turn), and once the planners are dropped no coroutine is
// left: Abandon ends a planner's at once, a collected planner's ends with
// it.
func TestReviewDroppedDecompositionsLeaveNoGoroutine(t *testing.T) {
	d := chooser(t, 12)
	s := d.GOAP().Initial()
	base := goroutines.Settled(0)
	var res htn.Result
	for _, drop := range []string{"Abandon", "Begin", "Plan"} {
		func() {
			ps := make([]*htn.Planner, 20)
			for i := range ps {
				ps[i] = htn.NewPlanner(d)
				ps[i].Begin(s, htn.Options{MaxSteps: 3000})
				ps[i].Continue(5)
			}
			if runtime.NumGoroutine() < base+len(ps) {
				t.Fatalf("%d goroutines, %d before: no coroutine per suspended decomposition", runtime.NumGoroutine(), base)
			}
			for _, p := range ps {
				switch drop {
				case "Abandon":
					p.Abandon()
				case "Begin":
					p.Begin(s, htn.Options{MaxSteps: 3000})
					if p.Steps() != 0 || !p.Suspended() {
						t.Fatalf("a new Begin: %d steps, suspended %v", p.Steps(), p.Suspended())
					}
					// A planner dropped with a decomposition under way
					// holds its coroutine, which holds the planner: a
					// game abandons what it no longer wants.
					p.Abandon()
				case "Plan":
					_ = p.Plan(&res, s, htn.Options{MaxSteps: 3000})
					if p.Suspended() {
						t.Fatal("Plan left the decomposition suspended")
					}
				}
			}
		}()
		settle(t, base)
	}
}

// settle fails the test unless the goroutine count comes back to base.
func settle(t *testing.T, base int) {
	t.Helper()
	if now := goroutines.Settled(base); now > base {
		t.Fatalf("%d goroutines, %d before", now, base)
	}
}

// TestReviewAbandonedTraceSaysStepLimit: a traced decomposition that is
// abandoned never reached its step cap: its Trace says it was canceled,
// after the steps it took, as an abandoned GOAP search's does.
func TestReviewAbandonedTraceSaysStepLimit(t *testing.T) {
	d := chooser(t, 12)
	p := htn.NewPlanner(d)
	var tr htn.Trace
	p.Begin(d.GOAP().Initial(), htn.Options{MaxSteps: 3000, Trace: &tr})
	if p.Continue(7) {
		t.Fatal("ended within 7 steps")
	}
	p.Abandon()
	if tr.Status != htn.LimitReached || tr.Bound != search.Canceled || tr.StepsTaken != 7 {
		t.Errorf("an abandoned decomposition's trace says %s after %d of its 3000 steps; want canceled after 7", htn.StatusName(tr.Status, tr.Bound), tr.StepsTaken)
	}
}

// TestReviewSlicedWithRootProfileContext is TestSlicedDecompositionIsPlans
// with what it leaves out: a random root (HasRoot), a profile that makes
// an action incapable, and a context that is never done.
func TestReviewSlicedWithRootProfileContext(t *testing.T) {
	r := rand.New(rand.NewPCG(36, 36))
	cfg := randdomain.Config{Facts: 6, Actions: 8, MaxPre: 2, MaxEff: 2, MaxCost: 3, Goals: 1, GoalFacts: 1}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var whole, part htn.Result
	for range 150 {
		gspec := randdomain.Spec(r, cfg)
		g, err := goap.NewDomain(gspec)
		if err != nil {
			t.Fatal(err)
		}
		hspec := randomHTN(r, gspec)
		d, err := htn.NewDomain(g, hspec)
		if err != nil {
			continue
		}
		prof, err := g.NewProfile(goap.ProfileSpec{Incapable: []string{gspec.Actions[r.IntN(len(gspec.Actions))].Name}})
		if err != nil {
			t.Fatal(err)
		}
		p, q := htn.NewPlanner(d), htn.NewPlanner(d)
		for range 4 {
			s := g.NewState()
			s.Words()[0] = uint64(r.IntN(1 << cfg.Facts))
			root, _ := d.TaskByName(hspec.Tasks[r.IntN(len(hspec.Tasks))].Name)
			opt := htn.Options{MaxSteps: 1 + r.IntN(3000), Root: root, HasRoot: true, Profile: prof, Context: ctx}
			n := 1 + r.IntN(12)
			werr := p.Plan(&whole, s, opt)
			q.Begin(s, opt)
			for !q.Continue(n) {
			}
			perr := q.Result(&part)
			if fmt.Sprint(werr) != fmt.Sprint(perr) || !sameButPlans(part, whole) || fmt.Sprint(part.Plan, part.MTR, part.Tasks) != fmt.Sprint(whole.Plan, whole.MTR, whole.Tasks) {
				t.Fatalf("slices of %d, %+v:\nsliced %+v %v\nPlan   %+v %v", n, opt, part, perr, whole, werr)
			}
		}
	}
}
