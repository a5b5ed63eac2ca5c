package agent_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// TestResolverGoalsRetunedAfterConstruction: the game may retune its
// resolver goal options' priorities (and When and Utility) between ticks,
// and goal choice follows, as it does for a GOAP agent's options.
func TestResolverGoalsRetunedAfterConstruction(t *testing.T) {
	c := newCamp(t)
	c.values["hunger"] = 80
	cfg := c.config(nil)
	goals := cfg.Goals // Warm first, then Fed
	a := mustResolverAgent(t, cfg)
	goals[1].Priority = 10
	a.Tick()
	if g := a.Goal(); g == nil || g.Name() != "Fed" {
		t.Fatalf("goal after retuning Fed's priority: %v, want Fed", g)
	}
	goals[1].When = func(*agent.ResolverAgent) bool { return false }
	a.Tick()
	if g := a.Goal(); g == nil || g.Name() != "Warm" {
		t.Fatalf("goal after Fed's When turned false: %v, want Warm", g)
	}
}

// TestZeroResolverAgent: a zero ResolverAgent has no domain, and the
// methods that need one panic saying what to call.
func TestZeroResolverAgent(t *testing.T) {
	var ra agent.ResolverAgent
	if ra.Domain() != nil {
		t.Error("a zero agent's Domain is not nil")
	}
	for name, call := range map[string]func(){"Tick": ra.Tick, "SetProfile": func() { ra.SetProfile(nil) }} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "call agent.NewResolverAgent(config)") {
					t.Errorf("%s on a zero agent: panic %q", name, msg)
				}
			}()
			call()
		}()
	}
}
