package main

import (
	"bytes"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/internal/testkit/cputime"
	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/resolver"
)

// BenchmarkColonyTick600 times one tick of a 600-settler colony on the
// queue (two workers): the world's drift, every settler's tick (sensing,
// goal choice, head checks, walks, behaviours) and the frame that resolves
// what they asked. The colony plays 500 ticks first, so that the timed
// ticks are a game's steady state: the queue, the planners and the
// settlers' buffers grown, raids coming and going. docs/runtime.md quotes
// its figures.
//
// On a shared machine the time a tick takes is mostly waiting for a CPU;
// cpu-ns/tick, the CPU time the process used (every thread's, the queue's
// workers and the collector included) per tick, moves far less with the
// load.
func BenchmarkColonyTick600(b *testing.B) {
	c := warmColony(b, 2, 500)
	b.ReportAllocs()
	cpu0, ok := cputime.Process()
	ticks := 0
	for b.Loop() {
		c.step()
		ticks++
	}
	if cpu1, _ := cputime.Process(); ok && ticks > 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(ticks), "cpu-ns/tick")
	}
}

// BenchmarkColonyTick600Decisions is BenchmarkColonyTick600 recording
// nothing (decisions=off, the default) and recording every decision at
// summary level into a FlightRecorder of 20 000 decisions
// (decisions=summary; the 1 000 ticks of warm-up fill it, about 42 a tick for 600 settlers,
// so that the timed ticks reuse its slots, as a long game's do): what
// recording costs a game's tick, its world and its settlers' behaviour
// included (docs/records.md; agent.BenchmarkCrowdTick600Decisions
// measures it against the runtime's own work alone).
func BenchmarkColonyTick600Decisions(b *testing.B) {
	for _, level := range []string{"off", "summary"} {
		b.Run("decisions="+level, func(b *testing.B) {
			o := options{agents: 600, seed: 1, workers: 2}
			if level == "summary" {
				o.record, o.recordBound = "unwritten", 20000
			}
			c, err := newColony(o, new(bytes.Buffer))
			if err != nil {
				b.Fatal(err)
			}
			for range 1000 {
				c.step()
			}
			decided := func() int64 {
				if c.flight == nil {
					return 0
				}
				held, dropped := c.flight.Len()
				return int64(held) + dropped
			}
			before := decided()
			b.ReportAllocs()
			for b.Loop() {
				c.step()
			}
			if c.flight != nil {
				b.ReportMetric(float64(decided()-before)/float64(b.N), "decisions/tick")
			}
		})
	}
}

// warmColony returns a 600-settler colony on a queue of workers that has
// played ticks.
func warmColony(t testing.TB, workers, ticks int) *colony {
	c, err := newColony(options{agents: 600, seed: 1, workers: workers}, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	for range ticks {
		c.step()
	}
	return c
}

// TestColonyTickAllocatesNothing: once warm, a 600-settler colony's ticks
// (sensing, goal choice, resolves on the queue, walks and behaviours)
// allocate nothing: not one allocation in 300 ticks, counted exactly (one
// run of 300 ticks, not an average that rounds a few down to 0). One
// worker, so that the count does not depend on which worker's resolver
// meets the largest search first. The race detector allocates for its
// own bookkeeping: .ci/run runs this test without it.
func TestColonyTickAllocatesNothing(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates; .ci/run runs this test without it")
	}
	c := warmColony(t, 1, 500)
	if n := testing.AllocsPerRun(1, func() {
		for range 300 {
			c.step()
		}
	}); n != 0 {
		t.Errorf("300 warm ticks of 600 settlers allocated %.0f times, want 0", n)
	}
}

// TestFixedPlacesSensedOnceDecideTheSame: the stockpile, the beds, the
// refuge and the armory, sensed once (agent.UntilChanged), give the same
// game, decision for decision, as sensed whenever a resolve needs them:
// an answer that does not change, kept, changes nothing.
func TestFixedPlacesSensedOnceDecideTheSame(t *testing.T) {
	game := func(everyTick bool) (string, []byte) {
		o := short
		o.record, o.senseFixedEveryTick = "-", everyTick
		c := played(t, o)
		var summary, rec bytes.Buffer
		c.summary(&summary)
		if err := c.flight.WriteJSONL(&rec, agent.RecordHeader{Domain: domainFile}); err != nil {
			t.Fatal(err)
		}
		return summary.String(), rec.Bytes()
	}
	once, onceRec := game(false)
	every, everyRec := game(true)
	if once != every || !bytes.Equal(onceRec, everyRec) {
		t.Errorf("sensed once:\n%s\nsensed when needed:\n%s(recordings equal: %v)", once, every, bytes.Equal(onceRec, everyRec))
	}
	if len(onceRec) < 1000 {
		t.Fatalf("a recording of %d bytes: nothing was decided", len(onceRec))
	}
}

// TestWalksAreNotRedirected: a settler walks to the site it set off for,
// or stops. Tick by tick, a settler still walking to the same step has
// the same target as on the tick before (the places that move, the deer
// and the raiders, aside): a site emptied under its feet ends the walk
// (target_lost) rather than turning it toward another site, as a dry
// well once did for 45 ticks, on a chain priced for the first.
func TestWalksAreNotRedirected(t *testing.T) {
	c, err := newColony(short, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	d := c.domain
	moving := map[string]bool{"game": true, "raiders": true}
	type walk struct {
		action resolver.ActionID
		at     resolver.Point
	}
	walks := make([]walk, len(c.settlers))
	walking := make([]bool, len(c.settlers))
	checked := 0
	for range 600 {
		c.step()
		for i, s := range c.settlers {
			act, ok := s.agent.Current()
			if !ok || !s.agent.Moving() {
				walking[i] = false
				continue
			}
			tg := d.ActionTarget(act)
			if tg == resolver.NoTarget || moving[d.Targets()[tg]] {
				walking[i] = false
				continue
			}
			at := s.agent.Snapshot().Targets[tg].At
			if walking[i] && walks[i].action == act {
				checked++
				if walks[i].at != at {
					t.Fatalf("tick %d: %s walking to %s's %s turned from %v to %v", c.tick, s.name, d.ActionName(act), d.Targets()[tg], walks[i].at, at)
				}
			}
			walks[i], walking[i] = walk{act, at}, true
		}
	}
	if checked < 1000 {
		t.Fatalf("%d ticks of walks checked: the settlers hardly walk", checked)
	}
}
