package agent_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// panicky is a distance model that panics while failing is set: the
// game's code failing on a queue worker. It is read by the workers only
// between frames' writes, which the queue orders.
type panicky struct{ failing bool }

func (p *panicky) Distance(from, to resolver.Point) float64 {
	if p.failing {
		panic(fmt.Sprintf("the game's distance model failed from %v", from))
	}
	return math.Hypot(to.X-from.X, to.Y-from.Y)
}

// TestAWorkerPanicReachesFrame: a panic on a helper goroutine is raised
// by Frame on the goroutine that called it, where the game (or the C
// library's recover) can catch it; before, it ended the process. The
// queue stays usable for a Frame after it.
func TestAWorkerPanicReachesFrame(t *testing.T) {
	model := &panicky{failing: true}
	fc := newFrameCrowd(t, 64, 2, func(cfg *agent.ResolverConfig) { cfg.Distance = model })
	for range 3 { // every frame, whichever worker meets it first
		fc.submit()
		got := func() (p any) {
			defer func() { p = recover() }()
			fc.q.Frame()
			return nil
		}()
		if s, _ := got.(string); !strings.Contains(s, "the game's distance model failed") {
			t.Fatalf("Frame raised %v, want the distance model's panic", got)
		}
	}
	// Once the model works again, every agent asks again and gets the
	// chain it gets in a crowd whose model never failed.
	model.failing = false
	fc.submit()
	fc.q.Frame()
	control := newFrameCrowd(t, 64, 2, func(cfg *agent.ResolverConfig) { cfg.Distance = &panicky{} })
	control.submit()
	control.q.Frame()
	for i, a := range fc.agents {
		got := fmt.Sprint(a.Chain(), goalName(a.Goal()))
		if want := fmt.Sprint(control.agents[i].Chain(), goalName(control.agents[i].Goal())); got != want {
			t.Fatalf("agent %d after the queue recovered: %s, want %s", i, got, want)
		}
	}
}

func goalName(g *resolver.Goal) string {
	if g == nil {
		return "no goal"
	}
	return g.Name()
}

// TestAWorkerPanicAfterEarlyDeliveries: when a search panics late in a
// frame, the chunks before it may already be delivered (the workers
// deliver as they go): Frame still raises the search's panic, the agents
// served keep their chains, and the others ask again at their next tick.
func TestAWorkerPanicAfterEarlyDeliveries(t *testing.T) {
	const n, failFrom = 64, 48
	failing := &panicky{failing: true}
	made := 0
	fc := newFrameCrowd(t, n, 2, func(cfg *agent.ResolverConfig) {
		cfg.Distance = &panicky{}
		if made >= failFrom {
			cfg.Distance = failing // the last chunks of the batch
		}
		made++
	})
	fc.submit()
	got := func() (p any) {
		defer func() { p = recover() }()
		fc.q.Frame()
		return nil
	}()
	if s, _ := got.(string); !strings.Contains(s, "the game's distance model failed") {
		t.Fatalf("Frame raised %v, want the distance model's panic", got)
	}
	served := 0
	for _, a := range fc.agents {
		served += a.Stats().Plans
	}
	if served == 0 || served > failFrom {
		t.Errorf("%d agents served before the panic, want some of the first %d", served, failFrom)
	}
	failing.failing = false
	fc.submit()
	fc.q.Frame()
	for i, a := range fc.agents {
		if a.Chain() == nil && a.Stats().NoPlan == 0 || a.Stats().Plans < 1 {
			t.Fatalf("agent %d after the queue recovered: chain %v, %+v", i, a.Chain(), a.Stats())
		}
	}
}

// TestAWorkerPanicWithdrawsSuspendedSearches: on a queue whose searches
// span frames, a search that panics late in a frame leaves behind agents
// served early, agents whose searches reached their slice (in chunks the
// workers delivered early as well as later ones) and agents not reached:
// every one not served asks again at its next tick, a suspended one too,
// and is then answered as in a crowd whose model never failed.
func TestAWorkerPanicWithdrawsSuspendedSearches(t *testing.T) {
	const n, failFrom, slice = 64, 48, 2
	sliced := func(fc *frameCrowd) *frameCrowd { fc.q.SetSlice(slice); return fc }
	drain := func(fc *frameCrowd) {
		for fc.q.Len() > 0 {
			fc.q.Frame()
		}
	}
	control := sliced(newFrameCrowd(t, n, 2, func(cfg *agent.ResolverConfig) { cfg.Distance = &panicky{} }))
	control.submit()
	control.q.Frame()
	suspendedEarly := 0 // among the agents before the failing ones
	for _, a := range control.agents[:failFrom] {
		if a.Stats().Plans == 0 {
			suspendedEarly++
		}
	}
	t.Logf("control, first frame: %+v, %d of the first %d suspended", control.q.LastFrame(), suspendedEarly, failFrom)
	if suspendedEarly == 0 || control.q.LastFrame().Ended == 0 {
		t.Fatalf("%+v, %d of the first %d suspended: the slice suspends nothing or everything", control.q.LastFrame(), suspendedEarly, failFrom)
	}
	drain(control)

	failing := &panicky{failing: true}
	made := 0
	fc := sliced(newFrameCrowd(t, n, 2, func(cfg *agent.ResolverConfig) {
		cfg.Distance = &panicky{}
		if made >= failFrom {
			cfg.Distance = failing
		}
		made++
	}))
	fc.submit()
	got := func() (p any) {
		defer func() { p = recover() }()
		fc.q.Frame()
		return nil
	}()
	if s, _ := got.(string); !strings.Contains(s, "the game's distance model failed") {
		t.Fatalf("Frame raised %v, want the distance model's panic", got)
	}
	if searches, _ := fc.q.Suspended(); searches != 0 || fc.q.Len() != 0 {
		t.Fatalf("after the panic: %d searches suspended, %d waiting; want none", searches, fc.q.Len())
	}
	failing.failing = false
	fc.submit()
	drain(fc)
	for i, a := range fc.agents {
		got := fmt.Sprint(a.Chain(), goalName(a.Goal()))
		if want := fmt.Sprint(control.agents[i].Chain(), goalName(control.agents[i].Goal())); got != want || a.Stats().Plans == 0 {
			t.Fatalf("agent %d after the queue recovered: %s (%d answers), want %s", i, got, a.Stats().Plans, want)
		}
	}
}

// TestAWorkerPanicWithdrawsSuspendedGoapSearches is
// TestAWorkerPanicWithdrawsSuspendedSearches for battle mages: a slice of
// 2 states (Kill takes 7) suspends every mage's search in the first frame;
// in a later frame, as the searches go on, a cost function of the game's
// panics in the last mages' searches. Frame raises that panic, no search
// stays suspended or waiting (their planners let go), and once the cost
// function mends, the mages ask again and are answered as a queue that
// never failed answered them.
func TestAWorkerPanicWithdrawsSuspendedGoapSearches(t *testing.T) {
	const n, failFrom, slice = 48, 36, 2
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	failing := false
	mages := func(q *agent.Queue) []*agent.Agent {
		var out []*agent.Agent
		for i := range n {
			cost := goap.Func(1, func(goap.State) float64 {
				if failing && i >= failFrom {
					panic("the game's cost function failed")
				}
				return 1
			})
			prof, err := d.NewProfile(goap.ProfileSpec{Costs: map[string]goap.Cost{"Recharge": cost}})
			if err != nil {
				t.Fatal(err)
			}
			w := &toy{d: d, world: d.Initial(), duration: map[string]int{}, fail: map[string]bool{}, left: map[*agent.Agent]int{}}
			cfg := goapConfig(w, d, nil)
			cfg.Name = fmt.Sprintf("mage%02d", i)
			cfg.Profile, cfg.Queue = prof, q
			a, err := agent.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, a)
		}
		return out
	}
	newQueue := func() *agent.Queue {
		q := agent.NewQueue(2, n)
		q.SetSlice(slice)
		return q
	}
	tickAll := func(agents []*agent.Agent) {
		for _, a := range agents {
			a.Tick()
		}
	}
	cq := newQueue()
	control := mages(cq)
	tickAll(control)
	for cq.Len() > 0 {
		cq.Frame()
	}

	base := settledCount()
	q := newQueue()
	agents := mages(q)
	tickAll(agents)
	q.Frame()
	if st := q.LastFrame(); st.Suspended != n {
		t.Fatalf("first frame %+v: want all %d searches suspended", st, n)
	}
	failing = true
	got := func() (p any) {
		defer func() { p = recover() }()
		for q.Len() > 0 {
			q.Frame()
		}
		return nil
	}()
	if s, _ := got.(string); !strings.Contains(s, "the game's cost function failed") {
		t.Fatalf("Frame raised %v, want the cost function's panic", got)
	}
	if searches, _ := q.Suspended(); searches != 0 || q.Len() != 0 {
		t.Fatalf("after the panic: %d searches suspended, %d waiting; want none", searches, q.Len())
	}
	failing = false
	tickAll(agents)
	for q.Len() > 0 {
		q.Frame()
	}
	for i, a := range agents {
		if got, want := fmt.Sprint(a.Plan()), fmt.Sprint(control[i].Plan()); got != want || a.Stats().Plans == 0 {
			t.Fatalf("mage %d after the queue recovered: %s (%d answers), want %s", i, got, a.Stats().Plans, want)
		}
	}
	// A suspended GOAP search runs in a coroutine, which holds its
	// planner: a withdrawn search left suspended rather than abandoned
	// would keep the planner and its coroutine alive for good. Once the
	// queue and its agents are dropped, every planner's coroutine ends
	// with the planner.
	q, agents = nil, nil
	if now := settledCount(); now > base {
		t.Fatalf("%d goroutines once the queue was dropped, %d before it: the withdrawn searches' coroutines live on", now, base)
	}
}
