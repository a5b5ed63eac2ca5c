package main

import (
	"bytes"
	"testing"
)

// BenchmarkColonyTick600 times one tick of a 600-settler colony on the
// queue (two workers): the world's drift, every settler's tick (sensing,
// goal choice, head checks, walks, behaviours) and the frame that resolves
// what they asked. The colony plays 500 ticks first, so that the timed
// ticks are a game's steady state: the queue, the planners and the
// settlers' buffers grown, raids coming and going.
func BenchmarkColonyTick600(b *testing.B) {
	c, err := newColony(options{agents: 600, ticks: 0, seed: 1, workers: 2}, new(bytes.Buffer))
	if err != nil {
		b.Fatal(err)
	}
	for range 500 {
		c.step()
	}
	b.ReportAllocs()
	for b.Loop() {
		c.step()
	}
}
