package agent

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/search"
)

// Sensor recomputes an agent's facts from the world, every tick and after
// every step that succeeds: the game's mapping from continuous factors ("in
// range is distance ≤ 12 m") to facts. It writes into facts, which holds
// the previous values (the domain's initial facts, the first time).
type Sensor func(a *Agent, facts goap.State)

// PolicyKind says when an agent thinks again.
type PolicyKind uint8

const (
	// OnBreak replans when the plan breaks: the next step's preconditions
	// are false, an action fails or times out, the goal changes, or there
	// is no plan. The battle mage's GOAP agent in the arena does this.
	OnBreak PolicyKind = iota
	// Reactive also replans whenever a step ends: only the head of a plan
	// is committed, and the rest is planned again from the world the head
	// leaves.
	Reactive
	// Proactive is Reactive, and also replans every Interval ticks, so
	// that a better plan can be found.
	Proactive
	// Manual replans only when the game calls RequestReplan, or when there
	// is no plan (else an agent would stand there for ever).
	Manual
)

// Policy is a replan policy.
type Policy struct {
	Kind     PolicyKind
	Interval int // ticks, for Proactive
}

// HTNMode says how an HTN agent reacts to change.
type HTNMode uint8

const (
	// ReplanOnBreak decomposes again only when the plan breaks.
	ReplanOnBreak HTNMode = iota
	// Interrupt also decomposes again whenever the facts change, and
	// switches only to a plan with a smaller MTR, that is one from
	// higher-priority methods.
	Interrupt
)

// GoalOption is one goal a GOAP agent may pursue.
type GoalOption = GoalOptionFor[*goap.Goal, *Agent]

// GoalOptionFor is one goal of type G an agent seen as A may pursue:
// GoalOption for a GOAP agent, ResolverGoal for a resolver agent. Goal
// choice is the same for both. On each goal choice every option is
// weighed, in the options' order, before one is chosen: When is called
// for an option whose goal does not hold yet, and Utility for one that
// applies and is not waiting to retry after finding no plan.
type GoalOptionFor[G, A any] struct {
	Goal G
	// Priority ranks the options; the highest applicable one wins, ties to
	// the earlier option.
	Priority float64
	// When, if set, must hold for the option to apply ("heal if hurt").
	When func(a A) bool
	// Utility, if set, scores the option instead of Priority: utility
	// scoring for goal choice.
	Utility func(a A) float64
}

// applies reports whether the option's When, if it has one, holds for a.
func (o *GoalOptionFor[G, A]) applies(a A) bool { return o.When == nil || o.When(a) }

// score is the option's Utility for a, or its Priority without one.
func (o *GoalOptionFor[G, A]) score(a A) float64 {
	if o.Utility != nil {
		return o.Utility(a)
	}
	return o.Priority
}

// Config describes an agent. Domain and Behaviours are required; an HTN
// agent also sets HTN.
type Config struct {
	// Name identifies the agent in its events and errors; empty means
	// DefaultName.
	Name string
	// AgentKind names the agent kind of a domain file's agents: section
	// the agent was configured from (agentfile.Configure sets it), for its
	// decision records: a replay weighs the goal options as that kind
	// does. Empty for an agent configured in Go.
	AgentKind string
	Domain    *goap.Domain
	Profile   *goap.Profile // capabilities and cost overrides (personality)
	Goals     []GoalOption  // GOAP agents: what to pursue
	// Commitment, if set, keeps the agent on the goal it chose: a margin
	// another option must beat it by, a minimum time on it, and the
	// running step finished first, with exempt goals that interrupt
	// anyway. Nil (or zero) is goal choice without commitment. A pointer,
	// not a value, because every Agent holds its Config: 48 more bytes
	// would take a resolver agent past its allocation size class.
	Commitment *Commitment
	HTN        *htn.Domain // set for an HTN agent
	// HTNRoot, if set, is the compound task an HTN agent decomposes
	// instead of the HTN's root.
	HTNRoot string
	// Behaviours maps action names to the game's code; every action the
	// agent can do needs one.
	Behaviours map[string]Behaviour
	// Sensor, if set, recomputes the facts from the world. Without one,
	// the agent's facts are its own model, never the world's: they start
	// from the domain's initial facts and change only by the effects of
	// its steps that succeed, which it then takes as done. That suits a
	// test or a turn-based game whose behaviours always do what their
	// actions say; a world that changes by itself needs a sensor.
	Sensor Sensor
	Policy Policy
	// Timeout is how many ticks a step may run before the plan is deemed
	// broken; per action in Timeouts, else DefaultTimeout (0: never).
	Timeouts       map[string]int
	DefaultTimeout int
	// RetryAfter is how many ticks an agent with no plan waits before it
	// plans again (0: every tick).
	RetryAfter int
	// Limits bound each search and decomposition, as the planners'
	// Options.Limits do: Budget, MaxDepth and MaxWork a GOAP search,
	// MaxSteps an HTN decomposition, MaxBytes the memory of either (0:
	// the planner's default). A server running agents on domains it was
	// sent holds them lower. A non-zero field wins over the deprecated
	// field of the same name below.
	Limits search.Limits
	// Budget and MaxDepth bound each GOAP search; MaxSteps each HTN one.
	//
	// Deprecated: use Limits.
	Budget, MaxDepth, MaxSteps int
	// MaxBytes and MaxWork bound each search's memory and work.
	//
	// Deprecated: use Limits. (MaxBytes bounded GOAP searches only; as
	// Limits.MaxBytes it bounds HTN decompositions too.)
	MaxBytes, MaxWork int
	// Context, if set, stops the agent's searches and decompositions once
	// it is done (goap's and htn's Options.Context): a server running an
	// agent for a request whose client has gone, or whose time is up,
	// stops its work within microseconds. A search stopped so is a search
	// that found no plan (a NoPlanFound event, the agent idles).
	Context context.Context
	// Queue, if set, resolves this agent's plans on worker goroutines.
	Queue *Queue
	// OnEvent, if set, receives every decision.
	OnEvent func(Event)
	// Decisions, if set, receives a record of every plan the agent asks
	// for: the snapshot the search read, the goal options as weighed, the
	// plan with each step's cost, the outcome and its counts
	// (docs/records.md). Nil, the default, costs nothing.
	Decisions DecisionSink
	// Tree, if set, makes a behaviour-tree or utility agent: it is ticked
	// every tick instead of planning.
	Tree Node
	// TimePlanning makes the agent measure the wall-clock time of its
	// inline searches in Stats.PlanningTime. Off by default: timings
	// differ between runs, and everything else an agent reports does not.
	TimePlanning bool
	// TraceDecisions records, with each decision, what its search turned
	// down and why (Decision.Rejected): the trace level of recording, for
	// the agents a designer is looking at (SetTraceDecisions turns it on
	// and off). Without Decisions it does nothing.
	TraceDecisions bool
	// HTNMode says how an HTN agent reacts to change. It sits among the
	// flags, not beside HTN: a byte beside bytes takes no padding, and
	// every Agent holds a Config.
	HTNMode HTNMode
	// Data is the game's, for behaviours and sensors.
	Data any
}

// check returns what is wrong with cfg, the first problem in a fixed order
// so that the same mistake always gets the same message.
func (cfg *Config) check() error {
	d := cfg.Domain
	if d == nil {
		return cfg.errorf("no domain")
	}
	if cfg.HTN != nil && cfg.HTN.GOAP() != d {
		return cfg.errorf("the HTN is over another GOAP domain")
	}
	if cfg.HTNRoot != "" {
		t, ok := htn.Task(0), false
		if cfg.HTN != nil {
			t, ok = cfg.HTN.TaskByName(cfg.HTNRoot)
		}
		if !ok || t.IsPrimitive() {
			return cfg.errorf("HTNRoot %q is no compound task of the agent's HTN", cfg.HTNRoot)
		}
	}
	if cfg.Profile != nil && cfg.Profile.Domain() != d {
		return cfg.errorf("the profile was made for %s", otherDomain(cfg.Profile.Domain(), d))
	}
	var actions []string
	for id := range d.NumActions() {
		actions = append(actions, d.ActionName(goap.ActionID(id)))
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Behaviours)) {
		if _, ok := d.ActionByName(name); !ok {
			return cfg.errorf("%s", unknownAction("behaviour", name, actions))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Timeouts)) {
		if _, ok := d.ActionByName(name); !ok {
			return cfg.errorf("%s", unknownAction("timeout", name, actions))
		}
		if t := cfg.Timeouts[name]; t < 0 {
			return cfg.errorf("Timeouts[%q] is %d: want 0 (never) or more ticks", name, t)
		}
	}
	for _, n := range []struct {
		name  string
		value int
	}{{"Budget", cfg.Budget}, {"MaxDepth", cfg.MaxDepth}, {"MaxSteps", cfg.MaxSteps}, {"MaxBytes", cfg.MaxBytes}, {"MaxWork", cfg.MaxWork}, {"DefaultTimeout", cfg.DefaultTimeout}, {"RetryAfter", cfg.RetryAfter}, {"Policy.Interval", cfg.Policy.Interval}} {
		if n.value < 0 {
			return cfg.errorf("%s is %d: want 0 (the default) or more", n.name, n.value)
		}
	}
	if err := checkLimits(cfg.Limits, cfg.errorf); err != nil {
		return err
	}
	if cfg.Policy.Kind > Manual {
		return cfg.errorf("unknown Policy.Kind %d", cfg.Policy.Kind)
	}
	if cfg.Policy.Kind == Proactive && cfg.Policy.Interval == 0 {
		return cfg.errorf("a Proactive policy needs an Interval (ticks between replans)")
	}
	if cfg.HTNMode > Interrupt {
		return cfg.errorf("unknown HTNMode %d", cfg.HTNMode)
	}
	for id, name := range actions {
		capable := cfg.Profile == nil || cfg.Profile.Capable(goap.ActionID(id))
		if cfg.Behaviours[name] == nil && capable {
			return cfg.errorf("no behaviour for action %q", name)
		}
	}
	if cfg.Tree != nil {
		if err := checkNodes(d, []Node{cfg.Tree}); err != nil {
			return cfg.errorf("%v", err)
		}
		if err := checkHTNLeaves(cfg.Tree, cfg.HTN); err != nil {
			return cfg.errorf("%v", err)
		}
	}
	if cfg.HTN == nil && cfg.Tree == nil && len(cfg.Goals) == 0 {
		return cfg.errorf("a GOAP agent needs goals")
	}
	for i, o := range cfg.Goals {
		switch {
		case o.Goal == nil:
			return cfg.errorf("Goals[%d] has no goal", i)
		case o.Goal.Domain() != d:
			return cfg.errorf("Goals[%d] (%q) was made for %s: make goals with the agent's domain", i, o.Goal.Name(), otherDomain(o.Goal.Domain(), d))
		}
	}
	kind := ""
	switch {
	case cfg.Tree != nil:
		kind = "a tree agent"
	case cfg.HTN != nil:
		kind = "an HTN agent"
	}
	return cfg.Commitment.check(goapGoalNames(cfg.Goals), kind, cfg.errorf)
}

// goapGoalNames names a GOAP agent's goal options, in order.
func goapGoalNames(options []GoalOption) []string {
	names := make([]string, len(options))
	for i, o := range options {
		names[i] = o.Goal.Name()
	}
	return names
}

// errorf prefixes a configuration error with the agent's name, if it has
// one.
func (cfg *Config) errorf(format string, args ...any) error {
	if cfg.Name == "" {
		return fmt.Errorf("agent: "+format, args...)
	}
	return fmt.Errorf("agent %q: "+format, append([]any{cfg.Name}, args...)...)
}

// otherDomain describes domain other, which is not the agent's own.
func otherDomain(other, own *goap.Domain) string {
	if other.Name() == own.Name() {
		return fmt.Sprintf("another domain than the agent's (both named %q, but built separately)", own.Name())
	}
	return fmt.Sprintf("domain %q, not the agent's %q", other.Name(), own.Name())
}

// unknownAction says that a what (behaviour, timeout) names no action of
// the domain, with the closest name if one is close.
func unknownAction(what, name string, actions []string) string {
	msg := fmt.Sprintf("%s for unknown action %q", what, name)
	if s := suggest.Closest(name, actions); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg
}

// checkLimits refuses a negative limit, naming it.
func checkLimits(l search.Limits, errorf func(string, ...any) error) error {
	for _, n := range []struct {
		name  string
		value int64
	}{{"Budget", l.Budget}, {"MaxDepth", l.MaxDepth}, {"MaxWork", l.MaxWork}, {"MaxBytes", l.MaxBytes}, {"MaxSteps", l.MaxSteps}} {
		if n.value < 0 {
			return errorf("Limits.%s is %d: want 0 (the default) or more", n.name, n.value)
		}
	}
	return nil
}

// limitsOf is cfg's limits: Limits, each zero field taken from the
// deprecated fields.
func (cfg *Config) limitsOf() search.Limits {
	return cfg.Limits.Or(search.Limits{Budget: int64(cfg.Budget), MaxDepth: int64(cfg.MaxDepth), MaxSteps: int64(cfg.MaxSteps), MaxBytes: int64(cfg.MaxBytes), MaxWork: int64(cfg.MaxWork)})
}
