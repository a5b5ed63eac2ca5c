package main

import (
	"bytes"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/race"
)

// BenchmarkColonyTick600 times one tick of a 600-settler colony on the
// queue (two workers): the world's drift, every settler's tick (sensing,
// goal choice, head checks, walks, behaviours) and the frame that resolves
// what they asked. The colony plays 500 ticks first, so that the timed
// ticks are a game's steady state: the queue, the planners and the
// settlers' buffers grown, raids coming and going. docs/runtime.md quotes
// its figures.
func BenchmarkColonyTick600(b *testing.B) {
	c := warmColony(b, 2, 500)
	b.ReportAllocs()
	for b.Loop() {
		c.step()
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
