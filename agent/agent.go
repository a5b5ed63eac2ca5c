// Package agent is ploy's engine-agnostic runtime: it turns plans into
// behaviour. An Agent senses its facts from the world every tick, chooses a
// goal, plans for it (GOAP) or decomposes its root task (HTN), runs the
// plan's actions through behaviours the game registers by action name,
// advances when a step's effects hold, and replans when the plan breaks.
// Every decision is an Event, for a callback and for recording.
//
// There is no game loop here and no ECS: the game calls Tick with its own
// fixed-step clock.
package agent

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// Status is an action behaviour's state after a tick, in behaviour-tree
// words.
type Status uint8

const (
	Running Status = iota // still working: tick again
	Success               // done
	Failure               // could not be done
)

func (s Status) String() string {
	switch s {
	case Running:
		return "running"
	case Success:
		return "success"
	}
	return "failure"
}

// Behaviour is the game's code for one action: started when a step begins,
// ticked until it succeeds or fails, and stopped when it ends or the plan is
// dropped, so that a running action can clean up.
type Behaviour interface {
	Start(a *Agent)
	Tick(a *Agent) Status
	Stop(a *Agent)
}

// Funcs adapts functions to a Behaviour; nil functions do nothing, and a
// nil TickFunc succeeds at once.
type Funcs struct {
	StartFunc func(a *Agent)
	TickFunc  func(a *Agent) Status
	StopFunc  func(a *Agent)
}

// Start calls StartFunc, if set.
func (f Funcs) Start(a *Agent) {
	if f.StartFunc != nil {
		f.StartFunc(a)
	}
}

// Tick calls TickFunc, or succeeds if it is not set.
func (f Funcs) Tick(a *Agent) Status {
	if f.TickFunc == nil {
		return Success
	}
	return f.TickFunc(a)
}

// Stop calls StopFunc, if set.
func (f Funcs) Stop(a *Agent) {
	if f.StopFunc != nil {
		f.StopFunc(a)
	}
}

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

// GoalOption is one goal an agent may pursue.
type GoalOption struct {
	Goal *goap.Goal
	// Priority ranks the options; the highest applicable one wins, ties to
	// the earlier option.
	Priority float64
	// When, if set, must hold for the option to apply ("heal if hurt").
	When func(a *Agent) bool
	// Utility, if set, scores the option instead of Priority: utility
	// scoring for goal choice.
	Utility func(a *Agent) float64
}

// Config describes an agent. Domain and Behaviours are required; an HTN
// agent also sets HTN.
type Config struct {
	// Name identifies the agent in its events and errors; empty means
	// DefaultName.
	Name    string
	Domain  *goap.Domain
	Profile *goap.Profile // capabilities and cost overrides (personality)
	Goals   []GoalOption  // GOAP agents: what to pursue
	HTN     *htn.Domain   // set for an HTN agent
	HTNMode HTNMode
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
	// Budget and MaxDepth bound each GOAP search; MaxSteps each HTN one.
	Budget, MaxDepth, MaxSteps int
	// MaxBytes and MaxWork bound each GOAP search's memory and work, as
	// goap.Options' fields do (0: goap's defaults): a server running
	// agents on domains it was sent holds them lower.
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
	// Tree, if set, makes a behaviour-tree or utility agent: it is ticked
	// every tick instead of planning.
	Tree Node
	// TimePlanning makes the agent measure the wall-clock time of its
	// inline searches in Stats.PlanningTime. Off by default: timings
	// differ between runs, and everything else an agent reports does not.
	TimePlanning bool
	// Data is the game's, for behaviours and sensors.
	Data any
}

// Stats counts what an agent did.
type Stats struct {
	Plans             int // searches or decompositions run
	Replans           int // plans made after the first, for any reason
	ReplanReasons     map[string]int
	Expanded          int // GOAP states (resolver agents: partial chains) expanded, over every plan
	Steps             int // HTN decomposition steps, over every plan
	StepsDone         int
	ActionsFailed     int
	Interruptions     int // HTN plans switched to for a smaller MTR
	TopLevelChanges   int // of those, how many changed the root's method
	InterruptsRefused int
	NoPlan            int
	TreeTicks         int // behaviour-tree nodes and utility options evaluated
	PlanningTime      time.Duration
}

// Agent runs plans for one character. It is driven by Tick from one
// goroutine; its plans may be resolved on others through a Queue.
type Agent struct {
	cfg        Config
	behaviours []Behaviour // by action
	facts      goap.State
	prevFacts  goap.State
	tick       int

	goal     *GoalOption
	leaf     *htnLeaf // the tree's PlanHTN leaf whose plan runs, if any
	plan     []goap.ActionID
	step     int // index of the running (or next) step in plan
	running  bool
	started  int // tick the running step started
	mtr      htn.MTR
	retryAt  int
	lastPlan int
	planned  bool // a plan was ever made for the current goal
	wantPlan string
	pending  bool   // a request is waiting in the queue
	queuedIn *Queue // the queue it waits in
	ticket   uint64 // its ticket there
	// queuedReplan is the waiting plan request's reason, asked again on
	// the next tick if the request is cancelled ("" for an interruption
	// check, which the next change of facts asks again).
	queuedReplan string
	blocked      []int // per goal option: the tick before which it found no plan
	idle         bool  // the last plan was empty: wait for the facts to change
	done         bool  // the last plan ran to its end (rather than finding none)

	own *planners // resolves this agent's requests when there is no queue
	// Buffers reused from plan to plan: the facts a request sees, the plan
	// and MTR a search appends into, and the running plan's storage.
	snapshot   goap.State
	resultPlan []goap.ActionID
	resultMTR  htn.MTR
	planStore  []goap.ActionID

	stats Stats
	// replans counts replans by reason, in the order of replanReasons,
	// until Stats folds them into Stats.ReplanReasons: the map is a few
	// cache lines of its own per agent, and a frame that delivers 20 000
	// replans paid milliseconds for touching them.
	replans [len(replanReasons)]int
}

// replanReasons are the reasons an Agent counts without its map.
var replanReasons = [...]string{ReasonStart, ReasonGoalChanged, ReasonPlanDone, ReasonPrecondition, ReasonActionFailed, ReasonNoEffect, ReasonTimeout, ReasonNoPlan, ReasonStepEnded, ReasonProactive, ReasonRequested, ReasonInterruption, ReasonFactsChanged}

// countReplan counts a replan for reason.
func (a *Agent) countReplan(reason string) {
	for i := range replanReasons {
		if replanReasons[i] == reason {
			a.replans[i]++
			return
		}
	}
	a.stats.ReplanReasons[reason]++
}

// DefaultName is the name of an agent whose Config has none, in its events.
const DefaultName = "agent"

// New checks cfg and returns an agent whose facts are the domain's initial
// facts until its first tick senses them (or, with no sensor, for good:
// see Config.Sensor).
func New(cfg Config) (*Agent, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Name == "" {
		cfg.Name = DefaultName
	}
	a := &Agent{
		cfg:        cfg,
		behaviours: make([]Behaviour, cfg.Domain.NumActions()),
		facts:      cfg.Domain.Initial(),
		prevFacts:  cfg.Domain.Initial(),
		stats:      Stats{ReplanReasons: map[string]int{}},
	}
	for name, b := range cfg.Behaviours {
		id, _ := cfg.Domain.ActionByName(name)
		a.behaviours[id] = b
	}
	return a, nil
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
	return nil
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

// Name returns the agent's name.
func (a *Agent) Name() string { return a.cfg.Name }

// Data returns the game's data given in Config.
func (a *Agent) Data() any { return a.cfg.Data }

// Facts returns the agent's current facts (read-only to callers).
func (a *Agent) Facts() goap.State { return a.facts }

// Domain returns the agent's GOAP domain.
func (a *Agent) Domain() *goap.Domain { return a.cfg.Domain }

// Now returns the current tick.
func (a *Agent) Now() int { return a.tick }

// Plan returns the current plan (its head running or next at Step).
func (a *Agent) Plan() []goap.ActionID { return a.plan }

// Step returns the index of the current step in Plan.
func (a *Agent) Step() int { return a.step }

// Current returns the running action, if any.
func (a *Agent) Current() (goap.ActionID, bool) {
	if !a.running {
		return goap.NoAction, false
	}
	return a.plan[a.step], true
}

// Goal returns the goal being pursued, or nil.
func (a *Agent) Goal() *goap.Goal {
	if a.goal == nil {
		return nil
	}
	return a.goal.Goal
}

// MTR returns the running HTN plan's method traversal record.
func (a *Agent) MTR() htn.MTR { return a.mtr }

// Stats returns what the agent has done so far.
func (a *Agent) Stats() Stats {
	for i, n := range a.replans {
		if n != 0 {
			a.stats.ReplanReasons[replanReasons[i]] += n
			a.replans[i] = 0
		}
	}
	return a.stats
}

// Reserve readies the agent's own planner, which plans when it has no
// queue, for searches that generate up to successors states (see
// Queue.Reserve): its first plan then runs as fast as a warm one.
func (a *Agent) Reserve(successors int) {
	a.check()
	if a.own == nil {
		a.own = &planners{}
	}
	a.own.goapFor(a.cfg.Domain).Reserve(successors)
}

// check panics, saying what to call, on a nil or zero Agent, which has no
// domain: its Tick would otherwise do nothing, silently, for ever.
func (a *Agent) check() {
	if a == nil || a.cfg.Domain == nil {
		panic("agent: Agent not made by agent.New: a nil or zero Agent has no domain; call agent.New(config)")
	}
}

// RequestReplan asks for a new plan on the next tick (the Manual policy's
// trigger; it works under every policy).
func (a *Agent) RequestReplan() { a.wantPlan = "requested" }

// SetProfile changes the agent's capabilities and costs from the next plan
// on: a guard who is wounded, a woodcutter whose walks to the trees have
// changed. The running plan is kept.
func (a *Agent) SetProfile(p *goap.Profile) { a.cfg.Profile = p }

// unknownAction says that a what (behaviour, timeout) names no action of
// the domain, with the closest name if one is close.
func unknownAction(what, name string, actions []string) string {
	msg := fmt.Sprintf("%s for unknown action %q", what, name)
	if s := suggest.Closest(name, actions); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg
}
