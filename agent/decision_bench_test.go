package agent_test

import (
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// BenchmarkCrowdTick600Decisions measures what recording decisions costs
// a game: 600 survivors resolving through a queue of two workers, a tenth
// of them asking for a new chain each tick (each agent every tenth tick,
// staggered); one iteration is one game tick of every agent and the frame
// that resolves what they asked. decisions=off records nothing (the
// default); decisions=summary records every decision in one
// FlightRecorder of 2 000 decisions, which the warm-up fills, so that the
// timed ticks are a game's steady state: the ring's slots reused.
func BenchmarkCrowdTick600Decisions(b *testing.B) {
	for _, level := range []string{"off", "summary"} {
		b.Run("decisions="+level, func(b *testing.B) {
			var with []func(*agent.ResolverConfig)
			if level == "summary" {
				fr := agent.NewFlightRecorder(2000, 64<<20)
				with = append(with, func(c *agent.ResolverConfig) { c.Decisions = fr })
			}
			fc := newFrameCrowd(b, 600, 2, with...)
			tick := 0
			step := func() {
				for i, a := range fc.agents {
					if (tick+i)%10 == 0 {
						a.RequestReplan()
					}
					a.Tick()
				}
				fc.q.Frame()
				tick++
			}
			for range 60 { // the queue, the planners and the recorder's ring grow here
				step()
			}
			b.ReportAllocs()
			for b.Loop() {
				step()
			}
		})
	}
}
