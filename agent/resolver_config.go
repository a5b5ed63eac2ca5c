package agent

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// WorldSensor fills a resolver agent's snapshot of the world: every key's
// value (booleans 0 or 1) and the agent's position. The target sensors
// fill the targets. It runs on the goroutine that ticks the agent, every
// tick and after every step that succeeds, and must not keep s.
type WorldSensor func(a *ResolverAgent, s *resolver.Snapshot)

// UntilChanged, as a ResolverConfig.TargetRefresh, keeps a target's answer
// until the game says it changed (ResolverAgent.TargetChanged).
const UntilChanged = -1

// ResolverGoal is one goal a resolver agent may pursue, chosen as a GOAP
// agent chooses among its GoalOptions.
type ResolverGoal = GoalOptionFor[*resolver.Goal, *ResolverAgent]

// ResolverConfig describes a resolver agent. Domain, Goals, Behaviours and
// Sensor are required; Targets and Mover as soon as an action the agent
// can do has a target. Name, Queue, OnEvent, Decisions and Data mean what they mean
// in Config.
type ResolverConfig struct {
	Name string
	// AgentKind: see Config.AgentKind (agentfile.ConfigureResolver sets it).
	AgentKind string
	// TraceDecisions: see Config.TraceDecisions.
	TraceDecisions bool
	Domain         *resolver.Domain
	Profile        *resolver.Profile // capabilities and cost overrides
	Goals          []ResolverGoal
	// Commitment, if set, keeps the agent on the goal it chose (see
	// Config.Commitment).
	Commitment *Commitment
	// Behaviours maps action names to the game's code; every action the
	// agent can do needs one.
	Behaviours map[string]ResolverBehaviour
	// Sensor reads the world into the agent's snapshot, every tick.
	Sensor WorldSensor
	// Targets maps each target key of the actions the agent can do to the
	// sensor that resolves it. A target is sensed when the agent needs it
	// (a resolve reads every target, a head check and a walk the step's),
	// at most once a tick.
	Targets map[string]TargetSensor
	// TargetRefresh says, per target key, how often its sensor's answer
	// can change: the answer is kept for that many ticks once sensed
	// (absent, 0 or 1: the tick it was sensed on), or with UntilChanged
	// until the game calls ResolverAgent.TargetChanged (a stockpile that
	// never moves). A kept answer is used as it is: a key that does change
	// sooner than it says is seen late.
	TargetRefresh map[string]int
	// Mover gets the agent to its targets.
	Mover Mover
	// Distance prices the walks between targets; nil means straight
	// lines. With a Queue it is called on worker goroutines, so it must be
	// safe for concurrent use.
	Distance resolver.DistanceModel
	// Policy says when to resolve again. OnBreak and Manual follow the
	// chain's tail, each step checked before it starts; Reactive and
	// Proactive resolve after every step.
	Policy Policy
	// Timeout is how many ticks a step (its walk included) may take before
	// the chain is deemed broken; per action in Timeouts, else
	// DefaultTimeout (0: never).
	Timeouts       map[string]int
	DefaultTimeout int
	// RetryAfter is how many ticks an agent with no chain waits before it
	// resolves again (0: every tick).
	RetryAfter int
	// Limits bound each resolve, as resolver.Options.Limits does (Budget,
	// MaxDepth, MaxWork; 0: the resolver's defaults). A non-zero field
	// wins over the deprecated field of the same name below.
	Limits search.Limits
	// Budget and MaxDepth bound each resolve.
	//
	// Deprecated: use Limits.
	Budget, MaxDepth int
	// Context, if set, stops the agent's resolves once it is done
	// (resolver's Options.Context); a resolve stopped so finds no chain.
	Context   context.Context
	Queue     *Queue
	OnEvent   func(Event)
	Decisions DecisionSink
	Data      any
}

// check returns what is wrong with cfg, the first problem in a fixed order.
func (cfg *ResolverConfig) check() error {
	d := cfg.Domain
	errorf := func(format string, args ...any) error {
		if cfg.Name == "" {
			return fmt.Errorf("agent: "+format, args...)
		}
		return fmt.Errorf("agent %q: "+format, append([]any{cfg.Name}, args...)...)
	}
	if d == nil {
		return errorf("no domain")
	}
	if cfg.Profile != nil && cfg.Profile.Domain() != d {
		return errorf("the profile was made for another domain than the agent's %q", d.Name())
	}
	if cfg.Sensor == nil {
		return errorf("no sensor: a resolver agent reads the world into its snapshot through its Sensor")
	}
	var actions []string
	for id := range d.NumActions() {
		actions = append(actions, d.ActionName(resolver.ActionID(id)))
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Behaviours)) {
		if _, ok := d.ActionByName(name); !ok {
			return errorf("%s", unknownAction("behaviour", name, actions))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Timeouts)) {
		if _, ok := d.ActionByName(name); !ok {
			return errorf("%s", unknownAction("timeout", name, actions))
		}
		if t := cfg.Timeouts[name]; t < 0 {
			return errorf("Timeouts[%q] is %d: want 0 (never) or more ticks", name, t)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Targets)) {
		if _, ok := d.Target(name); !ok {
			msg := fmt.Sprintf("target sensor for %q, which no action targets", name)
			if len(d.Targets()) > 0 {
				msg += fmt.Sprintf(" (targets: %v)", d.Targets())
			}
			return errorf("%s", msg)
		}
		if cfg.Targets[name] == nil {
			return errorf("Targets[%q] is nil", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.TargetRefresh)) {
		if cfg.Targets[name] == nil {
			return errorf("TargetRefresh[%q]: no target sensor for it in Targets", name)
		}
		if n := cfg.TargetRefresh[name]; n < UntilChanged {
			return errorf("TargetRefresh[%q] is %d: want ticks (0 or 1: every tick) or agent.UntilChanged (%d)", name, n, UntilChanged)
		}
	}
	for _, n := range []struct {
		name  string
		value int
	}{{"Budget", cfg.Budget}, {"MaxDepth", cfg.MaxDepth}, {"DefaultTimeout", cfg.DefaultTimeout}, {"RetryAfter", cfg.RetryAfter}, {"Policy.Interval", cfg.Policy.Interval}} {
		if n.value < 0 {
			return errorf("%s is %d: want 0 (the default) or more", n.name, n.value)
		}
	}
	if err := checkLimits(cfg.Limits, errorf); err != nil {
		return err
	}
	if cfg.Policy.Kind > Manual {
		return errorf("unknown Policy.Kind %d", cfg.Policy.Kind)
	}
	if cfg.Policy.Kind == Proactive && cfg.Policy.Interval == 0 {
		return errorf("a Proactive policy needs an Interval (ticks between replans)")
	}
	if err := cfg.checkCapable(cfg.Profile, errorf); err != nil {
		return err
	}
	if len(cfg.Goals) == 0 {
		return errorf("a resolver agent needs goals")
	}
	for i, o := range cfg.Goals {
		switch {
		case o.Goal == nil:
			return errorf("Goals[%d] has no goal", i)
		case o.Goal.Domain() != d:
			return errorf("Goals[%d] (%q) was made for another domain than the agent's %q: make goals with the agent's domain", i, o.Goal.Name(), d.Name())
		}
	}
	return cfg.Commitment.check(resolverGoalNames(cfg.Goals), "", errorf)
}

// resolverGoalNames names a resolver agent's goal options, in order.
func resolverGoalNames(options []ResolverGoal) []string {
	names := make([]string, len(options))
	for i, o := range options {
		names[i] = o.Goal.Name()
	}
	return names
}

// checkCapable returns what is missing for an agent with profile p to
// run every action p makes it capable of: a behaviour, and for an action
// at a target, a target sensor and a mover.
func (cfg *ResolverConfig) checkCapable(p *resolver.Profile, errorf func(string, ...any) error) error {
	d := cfg.Domain
	for id := range d.NumActions() {
		act := resolver.ActionID(id)
		name := d.ActionName(act)
		if p != nil && !p.Capable(act) {
			continue
		}
		if cfg.Behaviours[name] == nil {
			return errorf("no behaviour for action %q", name)
		}
		t := d.ActionTarget(act)
		if t == resolver.NoTarget {
			continue
		}
		target := d.Targets()[t]
		if cfg.Targets[target] == nil {
			return errorf("no target sensor for %q, the target of action %q", target, name)
		}
		if cfg.Mover == nil {
			return errorf("no mover, and action %q happens at target %q", name, target)
		}
	}
	return nil
}
