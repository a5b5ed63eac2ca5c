// Package agent is ploy's engine-agnostic runtime: it turns plans into
// behaviour. An Agent senses its facts from the world every tick, chooses a
// goal, plans for it (GOAP) or decomposes its root task (HTN), runs the
// plan's actions through behaviours the game registers by action name,
// advances when a step's effects hold, and replans when the plan breaks.
// Every decision is an Event, for a callback and for recording. A
// resolver agent (NewResolverAgent) is the same Agent with the engine
// model's resolver as its planner, a snapshot of the world instead of
// facts, and targets it walks to through the game's Mover.
//
// There is no game loop here and no ECS: the game calls Tick with its own
// fixed-step clock.
package agent

import (
	"math"
	"time"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
)

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

// Agent runs plans for one character: a GOAP or HTN agent made by New, a
// behaviour-tree or utility agent (Config.Tree), or a resolver agent made
// by NewResolverAgent. One tick machine serves them all: it senses, chooses
// a goal, asks its planner for a plan (inline or through a Queue), and runs
// the plan's steps through the game's behaviours. What differs lies behind
// two small interfaces: the planner that answers requests (GOAP's search,
// HTN's decomposition, the resolver's chain search) and the world the agent
// senses and judges its steps in (a GOAP domain's facts, or a resolver
// snapshot with targets to walk to).
//
// It is driven by Tick from one goroutine; its plans may be resolved on
// others through a Queue.
type Agent struct {
	world   world   // what the agent senses, and how it judges its steps
	planner planner // what answers its requests (a tree's PlanHTN leaves ask HTN's)
	tick    int

	// The goal, the plan and its running step: what every tick reads, on
	// as few cache lines as can hold them.
	goal    *GoalOption
	plan    []goap.ActionID
	step    int  // index of the running (or next) step in plan
	started int  // tick the running step began
	running bool // the step has begun: walking to its target or performing
	walking bool // walking to the target before the behaviour starts
	arrived bool // within the target's stopping distance (or no target)
	acted   bool // the behaviour succeeded; waiting to arrive
	planned bool // a plan was ever made for the current goal
	idle    bool // the last plan was empty: wait for the facts to change
	done    bool // the last plan ran to its end (rather than finding none)
	// headOnly marks an agent that commits only to the head of its plan,
	// a resolver agent's chain: its running step goes on while it plans
	// again (and is kept if the new plan starts with it), ends only by its
	// behaviour even if its effects hold sooner (the resolver's integer
	// effects cannot be checked), and an empty plan means its goal holds
	// (the plan is done) rather than that it should idle.
	headOnly bool
	retryAt  int
	lastPlan int
	wantPlan string

	pending bool // a request is waiting in the queue
	// queuedReplan is the waiting plan request's reason (reasonCode),
	// asked again on the next tick if the request is cancelled (none for
	// an interruption check, which the next change of facts asks again).
	// A byte beside pending, not a string: the agent's 1 152 bytes.
	queuedReplan uint8
	// goalSince is the tick the current goal was chosen, modulo 2³², for
	// Commitment.MinTicks: 32 bits fit in the padding after the bytes
	// above, where a whole int would take a resolver agent past its size
	// class.
	goalSince uint32
	queuedIn  *Queue // the queue it waits in
	ticket    uint64 // its ticket there
	// goalMem is what the agent keeps of each goal option between ticks
	// (goalMemory): when it may be chosen again after finding no plan,
	// how goal choice last weighed it (weighAll), and, for an agent that
	// records its decisions, one element more after the options, for the
	// notes of the whole choice (choiceNotes).
	goalMem []goalMemory
	// Buffers reused from plan to plan: the plan and MTR a search appends
	// into.
	resultPlan []goap.ActionID
	resultMTR  htn.MTR
	// What the agent knows of the world: a resolver agent's snapshot, or a
	// GOAP or HTN agent's facts (and last tick's, to see them change) and
	// the copy a request reads.
	live      *resolver.Snapshot
	facts     goap.State
	prevFacts goap.State
	snapshot  goap.State

	// The fields above are what a tick reads (a tick that asks for a plan
	// included), kept together on as few cache lines as hold them: in a
	// crowd, each line an agent's tick touches is a miss. The
	// configuration follows them; a tick reads a few of its fields.
	cfg Config

	planStore  []goap.ActionID // the running plan's storage
	behaviours []Behaviour     // by action
	mtr        htn.MTR
	leaf       *htnLeaf     // the tree's PlanHTN leaf whose plan runs, if any
	own        *planners    // resolves this agent's requests when there is no queue
	log        *decisionLog // set when Config.Decisions is: what a record needs

	stats Stats
	// replans counts replans by reason, in the order of replanReasons,
	// until Stats folds them into Stats.ReplanReasons: the map is a few
	// cache lines of its own per agent, and a frame that delivers 20 000
	// replans paid milliseconds for touching them. int32s: a resolver
	// agent and its world fit the allocator's 1 152-byte size class,
	// where ints took them to 1 280, a tenth slower to tick in a crowd
	// (countReplan folds a count into the map before it overflows).
	replans [len(replanReasons)]int32
}

// replanReasons are the reasons an Agent counts without its map.
var replanReasons = [...]string{ReasonStart, ReasonGoalChanged, ReasonPlanDone, ReasonPrecondition, ReasonActionFailed, ReasonNoEffect, ReasonTimeout, ReasonNoPlan, ReasonStepEnded, ReasonProactive, ReasonRequested, ReasonInterruption, ReasonFactsChanged, ReasonTargetLost}

// reasonCode is 1 + reason's index in replanReasons, 0 for none (or a
// reason not there, which no request has).
func reasonCode(reason string) uint8 {
	for i := range replanReasons {
		if replanReasons[i] == reason {
			return uint8(i + 1)
		}
	}
	return 0
}

// reasonOf is the reason reasonCode gave code, "" for 0.
func reasonOf(code uint8) string {
	if code == 0 {
		return ""
	}
	return replanReasons[code-1]
}

// countReplan counts a replan for reason.
func (a *Agent) countReplan(reason string) {
	for i := range replanReasons {
		if replanReasons[i] == reason {
			if a.replans[i] == math.MaxInt32 {
				a.stats.ReplanReasons[reason] += int(a.replans[i])
				a.replans[i] = 0
			}
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
	// The limits in force, once: a plan request reads only Limits.
	cfg.Limits = cfg.limitsOf()
	// The agent's own copy, which the game cannot change under it.
	cfg.Commitment = cfg.Commitment.compiled(goapGoalNames(cfg.Goals))
	a := &Agent{
		cfg:        cfg,
		world:      factsWorld{},
		planner:    goapPlanner{},
		behaviours: make([]Behaviour, cfg.Domain.NumActions()),
		facts:      cfg.Domain.Initial(),
		prevFacts:  cfg.Domain.Initial(),
		stats:      Stats{ReplanReasons: map[string]int{}},
	}
	if cfg.HTN != nil && cfg.Tree == nil {
		a.planner = htnPlanner{}
	}
	// Goal choice weighs the options into it every tick (weighAll).
	a.goalMem = goalMemFor(len(cfg.Goals), cfg.Decisions)
	a.setDecisions(cfg.Decisions, cfg.TraceDecisions)
	if a.log != nil {
		a.log.kindGOAP = cfg.Profile
	}
	for name, b := range cfg.Behaviours {
		id, _ := cfg.Domain.ActionByName(name)
		a.behaviours[id] = b
	}
	return a, nil
}

// Name returns the agent's name.
func (a *Agent) Name() string { return a.cfg.Name }

// Data returns the game's data given in Config.
func (a *Agent) Data() any { return a.cfg.Data }

// Kind returns the agent's kind as its decision records name it: "goap",
// "htn", "tree" (a behaviour-tree or utility agent) or "resolver". A tool
// that watches agents of every kind (package inspect) reads it to know
// which accessors apply.
func (a *Agent) Kind() string {
	a.check()
	return a.kind()
}

// Facts returns the agent's current facts (read-only to callers); a
// resolver agent has none (see ResolverAgent.Snapshot).
func (a *Agent) Facts() goap.State { return a.facts }

// Domain returns the agent's GOAP domain; nil for a resolver agent (see
// ResolverAgent.Domain).
func (a *Agent) Domain() *goap.Domain { return a.cfg.Domain }

// Now returns the current tick.
func (a *Agent) Now() int { return a.tick }

// Plan returns the current plan (its head running or next at Step); a
// resolver agent's chain is ResolverAgent.Chain.
func (a *Agent) Plan() []goap.ActionID { return a.plan }

// Step returns the index of the current step in Plan.
func (a *Agent) Step() int { return a.step }

// Current returns the running action, if any (a resolver agent's is
// ResolverAgent.Current).
func (a *Agent) Current() (goap.ActionID, bool) {
	if !a.running {
		return goap.NoAction, false
	}
	return a.plan[a.step], true
}

// Goal returns the GOAP goal being pursued, or nil (a resolver agent's is
// ResolverAgent.Goal).
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
			a.stats.ReplanReasons[replanReasons[i]] += int(n)
			a.replans[i] = 0
		}
	}
	return a.stats
}

// Reserve readies the agent's own GOAP planner, which plans when it has
// no queue, for searches that generate up to successors states (see
// Queue.Reserve): its first plan then runs as fast as a warm one. A
// resolver agent has no GOAP planner to ready.
func (a *Agent) Reserve(successors int) {
	a.check()
	if a.cfg.Domain == nil {
		return
	}
	if a.own == nil {
		a.own = &planners{}
	}
	a.own.goapFor(a.cfg.Domain).Reserve(successors)
}

// check panics, saying what to call, on a nil or zero Agent, which has no
// world: its Tick would otherwise do nothing, silently, for ever.
func (a *Agent) check() {
	if a == nil || a.world == nil {
		panic("agent: Agent not made by agent.New: a nil or zero Agent has no domain; call agent.New(config)")
	}
}

// RequestReplan asks for a new plan on the next tick (the Manual policy's
// trigger; it works under every policy).
func (a *Agent) RequestReplan() { a.wantPlan = ReasonRequested }

// SetProfile changes the agent's capabilities and costs from the next plan
// on: a guard who is wounded, a woodcutter whose walks to the trees have
// changed. The running plan is kept.
func (a *Agent) SetProfile(p *goap.Profile) { a.cfg.Profile = p }
