package agent

import (
	"fmt"

	"github.com/ploy-ai/ploy/resolver"
)

// ResolverAgent is an Agent whose planner is a resolver (the engine
// model's): the same runtime, tick machine, policies, goal choice, events
// and Queue, seen through accessors typed for a resolver.Domain. It senses
// a resolver.Snapshot of integers and positions every tick, chooses a
// goal, resolves a chain for it (inline or through a Queue), walks to each
// step's target through the game's Mover and runs the step's behaviour.
// Only the head of a chain is committed: its conditions are checked
// against the live snapshot before it starts, a running step goes on
// while the agent resolves again (and is kept if the new chain starts with
// it), and under Reactive and Proactive policies the next resolve plans
// from the world the head left.
//
// A *ResolverAgent converts to its *Agent and back; Agent returns it. It
// is driven by Tick from one goroutine; its chains may be resolved on
// others through a Queue.
type ResolverAgent Agent

// NewResolverAgent checks cfg and returns an agent that senses the world
// on its first tick.
func NewResolverAgent(cfg ResolverConfig) (*ResolverAgent, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Name == "" {
		cfg.Name = DefaultName
	}
	d := cfg.Domain
	// The agent and its world are one allocation, side by side in memory:
	// a tick reads both.
	both := &struct {
		Agent
		resolver resolverWorld
	}{}
	both.resolver.init(cfg)
	a := &both.Agent
	*a = Agent{
		cfg: Config{
			Name: cfg.Name, Policy: cfg.Policy, Timeouts: cfg.Timeouts, DefaultTimeout: cfg.DefaultTimeout,
			RetryAfter: cfg.RetryAfter, Queue: cfg.Queue, OnEvent: cfg.OnEvent, Data: cfg.Data,
		},
		world:      &both.resolver,
		planner:    resolverPlanner{},
		behaviours: make([]Behaviour, d.NumActions()),
		live:       d.NewSnapshot(),
		headOnly:   true,
		stats:      Stats{ReplanReasons: map[string]int{}},
	}
	for id := range d.NumActions() {
		if b := cfg.Behaviours[d.ActionName(resolver.ActionID(id))]; b != nil {
			a.behaviours[id] = resolverBehaviour{b}
		}
	}
	liveGoals(a, both.resolver.cfg.Goals)
	return (*ResolverAgent)(a), nil
}

// liveGoals makes the goal options goal choice sees read the game's
// resolver goal options (ResolverConfig.Goals) at each choice, as they did
// before the two runtimes were one: the game may retune a priority, When
// or Utility between ticks. Each option's When and Utility are wrappers,
// made once, that read the game's option of the moment (its Priority when
// it has no Utility), given the agent as a *ResolverAgent; no tick copies
// anything. The GOAP Goal is nil; the resolver goal is the world's, by
// index.
func liveGoals(a *Agent, src []ResolverGoal) {
	a.cfg.Goals = make([]GoalOption, len(src))
	for i := range src {
		a.cfg.Goals[i] = GoalOption{
			When: func(a *Agent) bool {
				when := src[i].When
				return when == nil || when((*ResolverAgent)(a))
			},
			Utility: func(a *Agent) float64 {
				if utility := src[i].Utility; utility != nil {
					return utility((*ResolverAgent)(a))
				}
				return src[i].Priority
			},
		}
	}
}

// Agent returns the agent as the runtime's Agent.
func (a *ResolverAgent) Agent() *Agent { return (*Agent)(a) }

// resolverWorld returns the agent's world, a resolver's.
func (a *ResolverAgent) resolverWorld() *resolverWorld { return a.Agent().world.(*resolverWorld) }

// Name returns the agent's name.
func (a *ResolverAgent) Name() string { return a.cfg.Name }

// Data returns the game's data given in ResolverConfig.
func (a *ResolverAgent) Data() any { return a.cfg.Data }

// Domain returns the agent's domain (nil for a zero ResolverAgent).
func (a *ResolverAgent) Domain() *resolver.Domain {
	if a.world == nil {
		return nil
	}
	return a.resolverWorld().cfg.Domain
}

// Snapshot returns this tick's snapshot of the world, as the sensors read
// it (read-only to callers).
func (a *ResolverAgent) Snapshot() *resolver.Snapshot { return a.live }

// Now returns the current tick.
func (a *ResolverAgent) Now() int { return a.tick }

// Chain returns the current chain, head at Step; the steps after it are
// advisory.
func (a *ResolverAgent) Chain() []resolver.ActionID { return chainOf(a.plan) }

// Step returns the index of the current step in Chain.
func (a *ResolverAgent) Step() int { return a.step }

// Current returns the step under way (walking to its target or
// performing), if any.
func (a *ResolverAgent) Current() (resolver.ActionID, bool) {
	if !a.running {
		return resolver.NoAction, false
	}
	return resolver.ActionID(a.plan[a.step]), true
}

// Moving reports whether the agent is walking to a MoveThenPerform step's
// target, its behaviour not yet started.
func (a *ResolverAgent) Moving() bool { return a.running && a.walking }

// Goal returns the goal being pursued, or nil.
func (a *ResolverAgent) Goal() *resolver.Goal {
	if i := a.Agent().goalIndex(); i >= 0 {
		return a.resolverWorld().cfg.Goals[i].Goal
	}
	return nil
}

// Stats returns what the agent has done so far. Expanded counts the
// partial chains its resolves expanded.
func (a *ResolverAgent) Stats() Stats { return a.Agent().Stats() }

// RequestReplan asks for a new chain on the next tick (the Manual policy's
// trigger; it works under every policy). A running step goes on if the
// new chain starts with it.
func (a *ResolverAgent) RequestReplan() { a.Agent().RequestReplan() }

// SetProfile changes the agent's capabilities and costs from the next
// resolve on; the running step is kept. The profile must be of the
// agent's domain, and the agent must have behaviours (and target sensors
// and a mover) for every action it makes capable: SetProfile panics,
// naming what is missing, rather than the agent failing later on a nil
// behaviour.
func (a *ResolverAgent) SetProfile(p *resolver.Profile) {
	a.check()
	w := a.resolverWorld()
	if p != nil && p.Domain() != w.cfg.Domain {
		panic(fmt.Sprintf("agent %q: SetProfile with a profile of another domain", a.cfg.Name))
	}
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("agent %q: SetProfile: "+format, append([]any{a.cfg.Name}, args...)...)
	}
	if err := w.cfg.checkCapable(p, errorf); err != nil {
		panic(err.Error())
	}
	w.cfg.Profile, w.opt.Profile = p, p
}

// Tick advances the agent by one tick of the game's fixed-step clock:
// sense, choose a goal, resolve if the policy says so, run the current
// step (Agent.Tick).
func (a *ResolverAgent) Tick() {
	a.check()
	a.Agent().Tick()
}

// check panics, saying what to call, on a nil or zero ResolverAgent.
func (a *ResolverAgent) check() {
	if a == nil || a.world == nil {
		panic("agent: ResolverAgent not made by agent.NewResolverAgent: a nil or zero ResolverAgent has no domain; call agent.NewResolverAgent(config)")
	}
}

func (a *ResolverAgent) withdraw(q *Queue) (uint64, bool) { return a.Agent().withdraw(q) }

func (a *ResolverAgent) detach(q *Queue) { a.Agent().detach(q) }
