package agent

import (
	"fmt"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// ResolverAgent is an Agent whose planner is a resolver (the engine
// model's): the same runtime, tick machine, policies, goal choice, events
// and Queue, seen through accessors typed for a resolver.Domain. It senses
// a resolver.Snapshot of integers and positions (its keys every tick, its
// targets when it needs them), chooses a goal, resolves a chain for it (inline or through a Queue), walks to each
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

// resolverAgentMemory is a resolver agent and its world, one allocation,
// the world's fields a tick reads just before the Agent's. Its size
// decides the allocator's size class, and so how many agents share a page
// in a crowd: TestResolverAgentFitsItsSizeClass holds it within 1 152
// bytes (1 280, the next class, made a 10 000-agent crowd's ticks a tenth
// slower).
type resolverAgentMemory struct {
	resolver resolverWorld
	Agent
}

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
	// The agent and its world are one allocation, side by side in memory,
	// the world's fields that a tick reads just before the Agent's: a
	// tick reads both.
	both := &resolverAgentMemory{}
	both.resolver.init(cfg)
	a := &both.Agent
	*a = Agent{
		cfg: Config{
			Name: cfg.Name, AgentKind: cfg.AgentKind, Policy: cfg.Policy, Timeouts: cfg.Timeouts, DefaultTimeout: cfg.DefaultTimeout,
			RetryAfter: cfg.RetryAfter, Queue: cfg.Queue, OnEvent: cfg.OnEvent, Decisions: cfg.Decisions, Data: cfg.Data,
			Commitment: cfg.Commitment.compiled(resolverGoalNames(cfg.Goals)),
		},
		world:      &both.resolver,
		planner:    resolverPlanner{},
		behaviours: make([]Behaviour, d.NumActions()),
		live:       &both.resolver.live,
		headOnly:   true,
		stats:      Stats{ReplanReasons: map[string]int{}},
	}
	// The adapters are one allocation, not one per action.
	adapters := make([]resolverBehaviour, d.NumActions())
	for id := range d.NumActions() {
		if b := cfg.Behaviours[d.ActionName(resolver.ActionID(id))]; b != nil {
			adapters[id].b = b
			a.behaviours[id] = &adapters[id]
		}
	}
	// Goal choice walks a.cfg.Goals for the options' count and identity
	// (a.goal points at one); the world reads the game's options
	// themselves (weighAll). The GOAP Goal is nil.
	a.cfg.Goals = make([]GoalOption, len(cfg.Goals))
	// What a game's ticks would otherwise grow one agent at a time, long
	// after the start (the first goal with no chain, the first long
	// chain), made now: a warm colony's tick allocates nothing
	// (TestColonyTickAllocatesNothing). The plan buffers hold a chain of
	// the resolver's default depth; a deeper one grows them once.
	a.goalMem = goalMemFor(len(cfg.Goals), cfg.Decisions)
	a.setDecisions(cfg.Decisions, cfg.TraceDecisions)
	if a.log != nil {
		a.log.kindResolver = cfg.Profile
	}
	depth := int(both.resolver.opt.Limits.MaxDepth)
	if depth <= 0 || depth > resolver.DefaultMaxDepth {
		depth = resolver.DefaultMaxDepth
	}
	plans := make([]goap.ActionID, 2*depth)
	a.resultPlan, a.planStore = plans[:0:depth], plans[depth:depth]
	return (*ResolverAgent)(a), nil
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
// it (read-only to callers): the keys and position of this tick, and each
// target as last sensed (targets are sensed when the agent needs them).
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
	// A new Options, not a change to the old: a request that waits in a
	// queue keeps the one it was made with.
	opt := *w.opt
	opt.Profile = p
	w.cfg.Profile, w.opt = p, &opt
}

// TargetChanged tells the agent that target key name's answer may have
// changed: it is sensed again the next time the agent needs it, whatever
// its TargetRefresh (the way to refresh an UntilChanged target: the
// stockpile moved). It returns an error for a name that is no target key
// of the agent's domain.
func (a *ResolverAgent) TargetChanged(name string) error {
	a.check()
	w := a.resolverWorld()
	t, ok := w.domain.Target(name)
	if !ok {
		return fmt.Errorf("agent %q: TargetChanged(%q): no such target key (targets: %v)", a.cfg.Name, name, w.domain.Targets())
	}
	w.forget(t)
	return nil
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
