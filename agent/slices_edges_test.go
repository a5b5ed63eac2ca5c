package agent_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/search"
)

// decisionsByAgent keeps each agent's decisions, rendered, without the
// tick the answer reached the agent (a sliced search's comes frames later).
type decisionsByAgent map[string][]string

func (m decisionsByAgent) RecordDecision(d *agent.Decision) {
	c := *d
	c.Tick = 0
	b, err := json.Marshal(&c)
	if err != nil {
		panic(err)
	}
	m[d.Agent] = append(m[d.Agent], string(b))
}

// TestSlicedTracedDecisionsMatchWhole: survivors and battle mages that
// trace their decisions, several searches suspended at once on one
// worker, record with a slice of 1 to 3 exactly the decisions they record
// with none: the same plan, cost and counts, and the same alternatives
// their traced searches turned down (each suspended search keeps its own
// trace, and a found chain is told from a failed one).
func TestSlicedTracedDecisionsMatchWhole(t *testing.T) {
	record := func(slice int) (decisionsByAgent, int) {
		sink := decisionsByAgent{}
		q := agent.NewQueue(1, 3)
		q.SetSlice(slice)
		survivors, _ := resolverCrowd(t, 12, q, nil, 7, func(i int, cfg *agent.ResolverConfig) {
			cfg.Decisions, cfg.TraceDecisions = sink, true
		})
		mages, _ := slicedMages(t, 6, q, rand.New(rand.NewPCG(7, 1)), func(i int, cfg *agent.Config) {
			cfg.Decisions, cfg.TraceDecisions = sink, true
		})
		for _, a := range survivors {
			a.Tick()
		}
		for _, m := range mages {
			m.Tick()
		}
		suspended := 0
		for q.Len() > 0 {
			q.Frame()
			suspended += q.LastFrame().Suspended
		}
		for _, a := range survivors {
			a.Tick()
		}
		for _, m := range mages {
			m.Tick()
		}
		return sink, suspended
	}
	whole, _ := record(0)
	rejected := 0
	for _, ds := range whole {
		var d agent.Decision
		if err := json.Unmarshal([]byte(ds[0]), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Rejected) > 0 {
			rejected++
		}
	}
	if len(whole) < 15 || rejected < 6 {
		t.Fatalf("%d agents recorded, %d with alternatives turned down: too little to compare", len(whole), rejected)
	}
	for _, slice := range []int{1, 2, 3} {
		got, suspended := record(slice)
		if suspended < 5 {
			t.Fatalf("slice %d: %d searches suspended: too few to test", slice, suspended)
		}
		for name, want := range whole {
			if len(got[name]) == 0 || got[name][0] != want[0] {
				t.Errorf("slice %d, %s's first decision:\nsliced %v\nwhole  %s", slice, name, got[name], want[0])
			}
		}
	}
}

// TestSetSliceZeroTurnsSlicingOff: 0, the default, is a slice a game may
// set again to turn slicing off.
func TestSetSliceZeroTurnsSlicingOff(t *testing.T) {
	q := agent.NewQueue(1, 1)
	q.SetSlice(3)
	q.SetSlice(0)
	if q.Slice() != 0 {
		t.Fatalf("after SetSlice(0): Slice %d", q.Slice())
	}
}

// TestWarmSlicedLoneSearchAllocatesNothing: a queue taking one request a
// frame, whose one survivor's searches each span several frames (a
// slice of one chain), allocates nothing once warm: a search that ends in
// a frame where nothing else is suspended is taken back all the same, and
// the worker's reserve of one is used.
func TestWarmSlicedLoneSearchAllocatesNothing(t *testing.T) {
	q := agent.NewQueue(1, 1)
	q.SetSlice(1)
	survivors, _ := resolverCrowd(t, 1, q, nil, 3)
	a := survivors[0]
	frame, ended, suspended := replanEachFrame(a, q)
	for range 50 {
		frame()
	}
	if n := testing.AllocsPerRun(100, frame); n != 0 {
		t.Errorf("%v allocations per frame", n)
	}
	if *ended < 20 || *suspended < 40 {
		t.Errorf("%d searches ended and %d suspended: too few to test", *ended, *suspended)
	}
}

// TestWarmSlicedLoneGoapSearchAllocatesNothing is
// TestWarmSlicedLoneSearchAllocatesNothing for a battle mage's GOAP
// searches, a slice of one state each frame: once warm the frames
// allocate only what goap.Planner.Begin does as each search begins (its
// coroutine), measured here on a planner of the queue's own.
func TestWarmSlicedLoneGoapSearchAllocatesNothing(t *testing.T) {
	q := agent.NewQueue(1, 1)
	q.SetSlice(1)
	mages, _ := slicedMages(t, 1, q, rand.New(rand.NewPCG(1, 1)), func(i int, cfg *agent.Config) {
		cfg.Limits = search.Limits{Budget: 100}
	})
	a := mages[0]
	frame, ended, suspended := replanEachFrame(a, q)
	for range 50 {
		frame()
	}
	d := a.Domain()
	gp := goap.NewPlanner(d)
	perSearch := testing.AllocsPerRun(20, func() {
		gp.Begin(nil, d.Initial(), d.Goal("Kill"), goap.Options{})
		for !gp.Continue(1) {
		}
		gp.Result()
	})
	const frames = 100
	began := *ended
	allocs := testing.AllocsPerRun(1, func() {
		for range frames {
			frame()
		}
	})
	began = *ended - began + 1 // the search under way as the frames began
	t.Logf("%d frames, %d searches begun: %v allocations, %v a search on a planner", frames, began, allocs, perSearch)
	if allocs > perSearch*float64(began) {
		t.Errorf("%d frames beginning %d searches allocated %v times; Begin allocates %v times a search", frames, began, allocs, perSearch)
	}
	if *ended < 20 || *suspended < 80 {
		t.Errorf("%d searches ended and %d suspended: too few to test", *ended, *suspended)
	}
}

// TestSlicedCancelDropsOnlyItsOwnSearch: cancelling one of several
// suspended searches, not the first carried, drops that one: every other
// survivor is answered once the line drains, and the cancelled one is not.
func TestSlicedCancelDropsOnlyItsOwnSearch(t *testing.T) {
	q := agent.NewQueue(1, 8)
	q.SetSlice(1)
	survivors, _ := resolverCrowd(t, 6, q, nil, 5)
	asked := tickAsking(q, survivors)
	q.Frame()
	if n, _ := q.Suspended(); n != len(asked) || n < 3 {
		t.Fatalf("%d searches suspended after a frame of one chain each; want the %d asked (3 at least)", n, len(asked))
	}
	cancelled := asked[1]
	if !q.Cancel(cancelled) {
		t.Fatal("Cancel found no request of a suspended search")
	}
	for q.Len() > 0 {
		q.Frame()
	}
	for _, a := range survivors {
		a.Tick() // takes its answer
	}
	for i, a := range asked {
		st := a.Stats()
		answered := st.Plans+st.NoPlan > 0
		if answered != (a != cancelled) {
			t.Errorf("survivor %d (cancelled: %v): %d plans, %d without", i, a == cancelled, st.Plans, st.NoPlan)
		}
	}
}

// TestSlicedCancelAndAskAgainDuringDelivery: an agent cancelled while
// Frame delivers, whose search the frame suspended, that asks again at
// once waits with its new request only: its old search is dropped, not
// carried beside it.
func TestSlicedCancelAndAskAgainDuringDelivery(t *testing.T) {
	q := agent.NewQueue(1, 16)
	q.SetSlice(1)
	survivors, _ := resolverCrowd(t, 6, q, nil, 5)
	target := firstOf(tickAsking(q, survivors))
	asked := q.Len()
	again := 0
	mage := mageEndingAtOnce(t, q, func() {
		if q.Cancel(target) {
			target.Tick()
			again++
		}
	})
	mage.Tick()
	q.Frame()
	if again != 1 || target == nil {
		t.Fatalf("the target was cancelled and asked again %d times", again)
	}
	if n, _ := q.Suspended(); n != asked-1 || q.Len() != asked {
		t.Fatalf("%d searches suspended, %d waiting; want the %d others' suspended and the target's new request waiting", n, q.Len(), asked-1)
	}
}
