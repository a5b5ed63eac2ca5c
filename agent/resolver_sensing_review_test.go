package agent_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/resolver"
)

// taggedHerd is an entity of a type Go can compare (a struct), holding a
// value it cannot (a slice in an interface field): == on two of them
// panics at run time, though reflect calls the type comparable.
type taggedHerd struct {
	at  *resolver.Point
	tag any
}

func (h taggedHerd) Position() resolver.Point { return *h.at }

// TestResolverEntityHoldingIncomparableValue: a hunt whose target sensor
// answers, each tick, an entity whose type is comparable but whose value
// is not (an interface field holding a slice) goes on as the hunt of an
// incomparable entity does: taken to be the same target, not lost, and no
// panic. Before, the check for "another target" compared the two answers
// with == and panicked ("comparing uncomparable type []string") on the
// walk's second tick.
func TestResolverEntityHoldingIncomparableValue(t *testing.T) {
	c := newCamp(t)
	c.values = map[string]int64{"warmth": 60, "hunger": 70}
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Targets["berries"] = func(*agent.ResolverAgent) agent.Where { return agent.Where{} }
	cfg.Targets["deer"] = func(*agent.ResolverAgent) agent.Where {
		return agent.OnEntity(taggedHerd{at: &c.deer.at, tag: []string{"herd"}})
	}
	a := mustResolverAgent(t, cfg)
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v (events: %s)", r, kinds(&rec))
		}
	}()
	tickResolver(a, 4)
	c.deer.at.X += 0.5 // the deer ambles off: the same entity, moved
	a.Tick()
	got := kinds(&rec)
	if !strings.Contains(got, "step_started(Hunt)") || strings.Contains(got, "target_lost") {
		t.Errorf("events: %s, want the hunt going on, its target not lost", got)
	}
}
