package agent_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
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
