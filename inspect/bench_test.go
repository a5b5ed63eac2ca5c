package inspect_test

import (
	"testing"

	"github.com/ploy-ai/ploy/inspect"
)

// BenchmarkFrame200: the inspector's Frame for 200 agents, with no client
// about (the cost every game pays for having the inspector: Frame reads no
// agent then, so the agents need not tick) and with one (a page open), as
// the game's frames go: the agents tick between the frames, outside the
// timing.
func BenchmarkFrame200(b *testing.B) {
	for _, tc := range []struct {
		name   string
		client bool
	}{{"no-client", false}, {"one-client", true}} {
		b.Run(tc.name, func(b *testing.B) {
			g := newGame(b, 200, 0, inspect.Options{})
			if tc.client {
				do(g.ins, "GET", "/api/v1/state", "", "", nil)
			}
			tick := 0
			b.ReportAllocs()
			if !tc.client {
				for b.Loop() {
					tick++
					g.ins.Frame(tick)
				}
				return
			}
			for b.Loop() {
				b.StopTimer()
				tick++
				for i, w := range g.worlds {
					if tick%(7+i%5) == 0 && w.Has(g.dead) {
						w.CopyFrom(g.d.Initial())
					}
				}
				for _, m := range g.mages {
					m.Tick()
				}
				if tc.client && tick%1000 == 0 {
					do(g.ins, "GET", "/api/v1/state", "", "", nil) // the page's heartbeat
				}
				b.StartTimer()
				g.ins.Frame(tick)
			}
		})
	}
}
