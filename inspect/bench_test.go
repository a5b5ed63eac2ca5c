package inspect_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ploy-ai/ploy/agent"
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

// BenchmarkRecordDecision: what a decision costs the game when the
// inspector is its sink (it keeps a copy in the agent's ring, then passes
// the decision on), against the game's FlightRecorder alone, for a
// battle mage's plan decision.
func BenchmarkRecordDecision(b *testing.B) {
	fr := agent.NewFlightRecorder(1<<10, 1<<30)
	g := newGame(b, 1, 0, inspect.Options{Sink: fr})
	for range 3 {
		g.step()
	}
	var buf bytes.Buffer
	fr.WriteJSONL(&buf, agent.RecordHeader{})
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	var d agent.Decision
	if err := json.Unmarshal(lines[1], &d); err != nil {
		b.Fatal(err)
	}
	b.Run("flight-recorder", func(b *testing.B) {
		own := agent.NewFlightRecorder(1<<10, 1<<30)
		b.ReportAllocs()
		for b.Loop() {
			own.RecordDecision(&d)
		}
	})
	b.Run("inspector-then-flight-recorder", func(b *testing.B) {
		own := agent.NewFlightRecorder(1<<10, 1<<30)
		ins := inspect.New(inspect.Options{Sink: own})
		ins.Watch(g.mages[0])
		b.ReportAllocs()
		for b.Loop() {
			ins.RecordDecision(&d)
		}
	})
}
