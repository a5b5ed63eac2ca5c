package agent_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// BenchmarkCrowdTick600Decisions measures what recording decisions costs
// a game: 600 survivors resolving through a queue of two workers; one
// iteration is one game tick of every agent and the frame that resolves
// what they asked. perTick is how many agents ask for a new chain each
// tick (staggered, each in turn), and so how many decisions a tick makes
// (the decisions/tick metric counts them): 60 is a tenth of the crowd
// every tick, a heavy load; 20 is the colony's rate (examples/colony:
// 19 359 decisions of 200 settlers in 3 000 ticks, 0.032 per settler and
// tick, 19 for 600, before a walk's lost target was resolved again for;
// 25 431 now, 25 for 600). The survivors all have the domain's own
// profile: with the crowd's third profile, which cannot warm up, 200 of
// them would fail their Warm goal every other tick, about 100 decisions a
// tick more than perTick says. decisions=off records nothing (the
// default); decisions=summary records every decision in one
// FlightRecorder of 2 000 decisions, which the warm-up fills, so that the
// timed ticks are a game's steady state: the ring's slots reused.
func BenchmarkCrowdTick600Decisions(b *testing.B) {
	for _, perTick := range []int{60, 20} {
		for _, level := range []string{"off", "summary"} {
			b.Run(fmt.Sprintf("perTick=%d/decisions=%s", perTick, level), func(b *testing.B) {
				with := []func(*agent.ResolverConfig){func(c *agent.ResolverConfig) { c.Profile = nil }}
				var fr *agent.FlightRecorder
				if level == "summary" {
					fr = agent.NewFlightRecorder(2000, 64<<20)
					with = append(with, func(c *agent.ResolverConfig) { c.Decisions = fr })
				}
				fc := newFrameCrowd(b, 600, 2, with...)
				every := 600 / perTick
				tick := 0
				step := func() {
					for i, a := range fc.agents {
						if (tick+i)%every == 0 {
							a.RequestReplan()
						}
						a.Tick()
					}
					fc.q.Frame()
					tick++
				}
				for range 3 * every { // the queue, the planners and the recorder's ring grow here
					step()
				}
				for range 2000 / perTick {
					step()
				}
				decided := func() int64 {
					if fr == nil {
						return 0
					}
					held, dropped := fr.Len()
					return int64(held) + dropped
				}
				before := decided()
				b.ReportAllocs()
				for b.Loop() {
					step()
				}
				if fr != nil {
					b.ReportMetric(float64(decided()-before)/float64(b.N), "decisions/tick")
				}
			})
		}
	}
}
