package agent_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// recovered runs f and returns what it panicked with, as text.
func recovered(f func()) (r string) {
	defer func() { r = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}

// Nil or zero agents and queues say what to call instead of dereferencing
// nil (or, for a zero Agent, doing nothing at every tick).
func TestZeroAgentsAndQueuesSayWhatToCall(t *testing.T) {
	var zero agent.Agent
	var none *agent.Agent
	var zeroR agent.ResolverAgent
	var zeroQ agent.Queue
	var noQ *agent.Queue
	const (
		wantAgent    = "agent: Agent not made by agent.New: a nil or zero Agent has no domain; call agent.New(config)"
		wantResolver = "agent: ResolverAgent not made by agent.NewResolverAgent: a nil or zero ResolverAgent has no domain; call agent.NewResolverAgent(config)"
		wantQueue    = "agent: Queue not made by NewQueue: a nil or zero Queue has no workers; call agent.NewQueue(workers, perFrame)"
	)
	for _, c := range []struct {
		name string
		call func()
		want string
	}{
		{"zero Agent Tick", func() { zero.Tick() }, wantAgent},
		{"nil Agent Tick", func() { none.Tick() }, wantAgent},
		{"zero Agent Reserve", func() { zero.Reserve(10) }, wantAgent},
		{"zero ResolverAgent Tick", func() { zeroR.Tick() }, wantResolver},
		{"nil ResolverAgent Tick", func() { (*agent.ResolverAgent)(nil).Tick() }, wantResolver},
		{"zero Queue Frame", func() { zeroQ.Frame() }, wantQueue},
		{"zero Queue Frame again", func() { zeroQ.Frame() }, wantQueue},
		{"nil Queue Frame", func() { noQ.Frame() }, wantQueue},
		{"zero Queue Reserve", func() { zeroQ.Reserve(nil, 10) }, wantQueue},
	} {
		if r := recovered(c.call); r != c.want {
			t.Errorf("%s: recovered %s, want %q", c.name, r, c.want)
		}
	}
}
