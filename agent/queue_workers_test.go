package agent_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// TestQueueWorkersStopStepsInOrder: the queue's workers deliver results
// while others still search, but never one whose delivery runs the game's
// code. Here that code is a behaviour's Stop: survivors perform a step
// that runs for ever and resolve again every frame; the first 240 keep
// their step (their chains start with it), the rest find wood every other
// frame, and their new chain, which starts by lighting the fire, stops
// the gathering they were doing. Each Stop checks that every
// survivor before it has this frame's chain and none after it has, as if
// one worker had delivered them in order. Run it with -race: the early
// deliveries run beside the searches.
func TestQueueWorkersStopStepsInOrder(t *testing.T) {
	const n, steady = 400, 240
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	warmth, _ := d.Key("warmth")
	hunger, _ := d.Key("hunger")
	hasWood, _ := d.Key("has_wood")
	for _, workers := range []int{2, 4} {
		q := agent.NewQueue(workers, n)
		agents := make([]*agent.ResolverAgent, n)
		frame, stops := 0, 0
		stop := func(a *agent.ResolverAgent) {
			stops++
			self := a.Data().(int)
			for j, b := range agents {
				// Plans counts the chains delivered: frame of them once
				// this frame's is, frame-1 before.
				want := frame - 1
				if j <= self {
					want = frame
				}
				if got := b.Stats().Plans; got != want {
					t.Fatalf("%d workers, frame %d: survivor %d's Stop sees survivor %d with %d chains, want %d", workers, frame, self, j, got, want)
				}
			}
		}
		behaviours := map[string]agent.ResolverBehaviour{}
		for id := range d.NumActions() {
			behaviours[d.ActionName(resolver.ActionID(id))] = agent.ResolverFuncs{
				TickFunc: func(*agent.ResolverAgent) agent.Status { return agent.Running },
				StopFunc: stop,
			}
		}
		targets := map[string]agent.TargetSensor{}
		for name, at := range map[string]resolver.Point{"fireplace": {Y: 2}, "wood_north": {Y: 10}, "wood_south": {Y: -4}, "berries": {X: 5}, "deer": {X: 2}} {
			targets[name] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(at) }
		}
		for i := range agents {
			cfg := agent.ResolverConfig{
				Name:       fmt.Sprint("s", i),
				Domain:     d,
				Goals:      []agent.ResolverGoal{{Goal: d.Goal("Warm"), Priority: 1}, {Goal: d.Goal("Fed"), Priority: 0.5}},
				Behaviours: behaviours,
				// Cold and fed, so Warm's chain: for the changeable ones,
				// with wood in odd frames (the chain lights the fire
				// first), without in even ones (it gathers wood first).
				Sensor: func(_ *agent.ResolverAgent, s *resolver.Snapshot) {
					s.Values[warmth], s.Values[hunger], s.Values[hasWood] = 10, 20, 0
					if i >= steady && frame%2 == 1 {
						s.Values[hasWood] = 1
					}
				},
				Targets: targets,
				Mover:   agent.MoverFunc(func(resolver.Point, float64) agent.MoveStatus { return agent.Arrived }),
				Queue:   q,
				Data:    i,
			}

			agents[i] = mustResolverAgent(t, cfg)
		}
		for range 10 {
			frame++
			for _, a := range agents {
				// The first tick asks for a chain; each later frame's
				// first starts the head of the chain delivered in the
				// last, and its second asks again.
				a.Tick()
				if frame > 1 {
					a.RequestReplan()
					a.Tick()
				}
			}
			if got := q.Frame(); got != n {
				t.Fatalf("%d workers: a frame resolved %d, want %d", workers, got, n)
			}
		}
		// The changeable survivors stopped their gathering in every odd
		// frame but the first; the steady ones never stopped.
		if want := (n - steady) * 4; stops != want {
			t.Errorf("%d workers: %d steps stopped, want %d", workers, stops, want)
		}
		for i, a := range agents[:steady] {
			if _, ok := a.Current(); !ok || a.Stats().Replans != 9 {
				t.Fatalf("%d workers: steady survivor %d: running %v, %+v", workers, i, ok, a.Stats())
			}
		}
	}
}

// TestQueueWorkersRecordAsOne: a crowd of survivors who record into one
// FlightRecorder, listen to their own events or do neither, mixed so that
// a frame's chunks of each kind alternate, gives the same recording and
// the same events on 1, 2 and 4 workers, run after run: a recorder shared
// by agents is written in submission order whichever worker delivers.
// Run it with -race.
func TestQueueWorkersRecordAsOne(t *testing.T) {
	const n = 600
	record := func(workers int) (decisions, events []byte) {
		recorder := agent.NewFlightRecorder(100_000, 256<<20)
		var rec agent.Recorder
		q := agent.NewQueue(workers, n)
		survivors, camps := resolverCrowd(t, n, q, &rec, 5, func(i int, cfg *agent.ResolverConfig) {
			// Runs of 50 recorded survivors among as many quiet ones
			// (chunks are 4 to 64 requests), and listeners in the last
			// sixth only, so that most of a frame is delivered early.
			cfg.OnEvent = nil
			if (i/50)%2 == 1 {
				cfg.Decisions = recorder
			}
			if i >= n*5/6 && i%4 == 0 {
				cfg.OnEvent = rec.Record
			}
		})
		for tick := range 24 {
			if tick == 9 {
				for i := 0; i < n; i += 7 {
					camps[i].piles["wood_south"].logs = 0
				}
			}
			for _, a := range survivors {
				a.Tick()
			}
			q.Frame()
		}
		var dec, ev bytes.Buffer
		if err := recorder.WriteJSONL(&dec, agent.RecordHeader{Domain: "survivor"}); err != nil {
			t.Fatal(err)
		}
		rec.WriteJSONL(&ev)
		return dec.Bytes(), ev.Bytes()
	}
	oneDecisions, oneEvents := record(1)
	if lines := bytes.Count(oneDecisions, []byte("\n")); lines < n/2 {
		t.Fatalf("one worker: %d lines recorded, want a decision per recorded survivor at least", lines)
	}
	if len(oneEvents) == 0 {
		t.Fatal("one worker: no events")
	}
	for _, workers := range []int{2, 4, 2, 4} {
		decisions, events := record(workers)
		if !bytes.Equal(decisions, oneDecisions) {
			t.Errorf("%d workers: the recording differs from one worker's at line %d", workers, firstDifferentLine(decisions, oneDecisions))
		}
		if !bytes.Equal(events, oneEvents) {
			t.Errorf("%d workers: the events differ from one worker's at line %d", workers, firstDifferentLine(events, oneEvents))
		}
	}
}

// firstDifferentLine returns the number, from 1, of the first line where
// a and b differ.
func firstDifferentLine(a, b []byte) int {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(al), len(bl)) {
		if !bytes.Equal(al[i], bl[i]) {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}

// TestGoapQueueWorkersRecordAsOne: battle mages recording their decisions
// through a queue whose searches run whole, on whichever worker's planner
// is free, record the same on 1, 2 and 4 workers, their searches' work
// included: a planner's kept state estimates count the work they took
// (before they did, 2 workers recorded work 104 where 1 worker recorded
// 167 for the same search).
func TestGoapQueueWorkersRecordAsOne(t *testing.T) {
	record := func(workers int) []byte {
		recorder := agent.NewFlightRecorder(100_000, 256<<20)
		q := agent.NewQueue(workers, 60)
		mages, _ := slicedMages(t, 240, q, rand.New(rand.NewPCG(7, 7)), func(i int, cfg *agent.Config) {
			cfg.Limits = search.Limits{Budget: int64(4 + i%40)}
			cfg.Decisions = recorder
		})
		for range 40 {
			for _, a := range mages {
				a.Tick()
			}
			q.Frame()
		}
		for q.Len() > 0 {
			q.Frame()
		}
		var dec bytes.Buffer
		recorder.WriteJSONL(&dec, agent.RecordHeader{Domain: "battle_mage"})
		return dec.Bytes()
	}
	one := record(1)
	for _, w := range []int{2, 4} {
		if r := record(w); !bytes.Equal(r, one) {
			l := firstDifferentLine(r, one)
			t.Errorf("%d workers differ at line %d:\n%s\n%s", w, l, lineOf(r, l), lineOf(one, l))
		}
	}
}

// TestMinShareKeepsSmallFramesOnFewerWorkers: a queue's frame runs on at
// most n / share of its workers (SetMinShare), at least one; the default
// share, 1, wakes every worker for a frame of as many requests; and the
// agents get the same plans whichever the share. LastFrame says how many
// workers each frame ran on.
func TestMinShareKeepsSmallFramesOnFewerWorkers(t *testing.T) {
	const n = 100
	run := func(share int) ([][]goap.ActionID, int) {
		q := agent.NewQueue(4, n)
		if share > 0 {
			q.SetMinShare(share)
		}
		mages, _ := crowd(t, n, q, nil)
		for _, a := range mages {
			a.Tick()
		}
		if got := q.Frame(); got != n {
			t.Fatalf("share %d: a frame resolved %d, want %d", share, got, n)
		}
		var plans [][]goap.ActionID
		for _, a := range mages {
			plans = append(plans, slices.Clone(a.Plan()))
		}
		return plans, q.LastFrame().Workers
	}
	want, workers := run(0)
	if workers != 4 {
		t.Fatalf("default share: %d requests ran on %d of 4 workers, want 4", n, workers)
	}
	for _, c := range []struct{ share, workers int }{{1, 4}, {25, 4}, {26, 3}, {50, 2}, {51, 1}, {64, 1}, {1000, 1}} {
		plans, workers := run(c.share)
		if workers != c.workers {
			t.Errorf("share %d: %d requests ran on %d of 4 workers, want %d", c.share, n, workers, c.workers)
		}
		if !reflect.DeepEqual(plans, want) {
			t.Errorf("share %d: the agents' plans differ from the default share's", c.share)
		}
	}
	// The default wakes every worker for a frame of as many requests.
	few := agent.NewQueue(4, 4)
	fewMages, _ := crowd(t, 4, few, nil)
	for _, a := range fewMages {
		a.Tick()
	}
	if few.Frame(); few.LastFrame().Workers != 4 {
		t.Errorf("default share: 4 requests ran on %d of 4 workers, want 4", few.LastFrame().Workers)
	}
	q := agent.NewQueue(2, 1)
	if q.Frame(); q.LastFrame().Workers != 1 {
		t.Errorf("an empty frame ran on %d workers, want 1", q.LastFrame().Workers)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "SetMinShare(0)") {
			t.Errorf("SetMinShare(0) panicked with %v; want a message naming the call", r)
		}
	}()
	q.SetMinShare(0)
}
