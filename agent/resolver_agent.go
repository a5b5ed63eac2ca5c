package agent

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/ploy-ai/ploy/resolver"
)

// A ResolverAgent is a parallel type to Agent, not a mode of it: Agent's
// facts, preconditions, effects, behaviours and sensor are goap.State and
// goap.ActionID throughout, while a resolver agent reads a
// resolver.Snapshot of integers and positions, walks before it performs,
// and can check only the boolean half of its effects. What the two share
// is reused rather than copied: Status, Event and its kinds, Recorder,
// Policy, the replan reasons, Stats and the Queue.

// Replan reasons of resolver agents, beside the GOAP agent's.
const (
	// ReasonTargetLost: the target sensor no longer finds the running
	// step's target (the wood pile ran out on the way).
	ReasonTargetLost = "target lost"
	// ReasonMoveFailed: the mover could not get to the target.
	ReasonMoveFailed = "move failed"
)

// Entity is something in the game's world whose position may change while
// an agent heads for it: a deer, a companion. The runtime asks for its
// position every tick it moves toward it, on the agent's goroutine.
type Entity interface {
	Position() resolver.Point
}

// Where is what a target sensor found for one target key: nothing (the
// zero Where), a fixed position, or an entity with a position.
type Where struct {
	Found bool
	// At is the target's position, when Entity is nil.
	At resolver.Point
	// Entity, if set, is the target: its position is read every tick.
	Entity Entity
}

// AtPoint is a target found at a fixed position.
func AtPoint(p resolver.Point) Where { return Where{Found: true, At: p} }

// OnEntity is a target found as an entity; a nil entity is not found.
func OnEntity(e Entity) Where {
	if e == nil {
		return Where{}
	}
	return Where{Found: true, Entity: e}
}

// Position returns where the target is now.
func (w Where) Position() resolver.Point {
	if w.Entity != nil {
		return w.Entity.Position()
	}
	return w.At
}

// WorldSensor fills a resolver agent's snapshot of the world: every key's
// value (booleans 0 or 1) and the agent's position. The target sensors
// fill the targets. It runs on the goroutine that ticks the agent, every
// tick and after every step that succeeds, and must not keep s.
type WorldSensor func(a *ResolverAgent, s *resolver.Snapshot)

// TargetSensor resolves one target key for one agent: to a position, to an
// entity with a position, or to nothing. The nearest wood pile, the deer
// it hunts, the item the customer asked for.
type TargetSensor func(a *ResolverAgent) Where

// MoveStatus is what a Mover reports for a tick.
type MoveStatus uint8

const (
	// Moving: on the way, not yet within the stopping distance.
	Moving MoveStatus = iota
	// Arrived: within the stopping distance of the target.
	Arrived
	// MoveFailed: the target cannot be reached (no path, blocked).
	MoveFailed
)

// String names the status as the docs do.
func (s MoveStatus) String() string {
	switch s {
	case Moving:
		return "moving"
	case Arrived:
		return "arrived"
	}
	return "move failed"
}

// Mover is the game's movement stack for one agent. Movement is not an
// action of the domain: the runtime asks the mover to get within an
// action's stopping distance of its target, once per tick.
type Mover interface {
	// MoveToward moves the agent one tick's worth toward target, to stop
	// within stop of it, and reports Arrived if the agent is (now) within
	// stop of it, Moving if it is on its way, MoveFailed if it cannot get
	// there. Called when already within stop, it reports Arrived and does
	// not move.
	MoveToward(target resolver.Point, stop float64) MoveStatus
}

// MoverFunc adapts a function to a Mover.
type MoverFunc func(target resolver.Point, stop float64) MoveStatus

// MoveToward calls f.
func (f MoverFunc) MoveToward(target resolver.Point, stop float64) MoveStatus {
	return f(target, stop)
}

// ResolverBehaviour is the game's code for one action of a resolver
// agent, as Behaviour is for a GOAP agent's: started when the action
// starts (for MoveThenPerform, on arrival), ticked until it succeeds or
// fails, and stopped when it ends or the chain is dropped.
type ResolverBehaviour interface {
	Start(a *ResolverAgent)
	Tick(a *ResolverAgent) Status
	Stop(a *ResolverAgent)
}

// ResolverFuncs adapts functions to a ResolverBehaviour; nil functions do
// nothing, and a nil TickFunc succeeds at once.
type ResolverFuncs struct {
	StartFunc func(a *ResolverAgent)
	TickFunc  func(a *ResolverAgent) Status
	StopFunc  func(a *ResolverAgent)
}

// Start calls StartFunc, if set.
func (f ResolverFuncs) Start(a *ResolverAgent) {
	if f.StartFunc != nil {
		f.StartFunc(a)
	}
}

// Tick calls TickFunc, or succeeds if it is not set.
func (f ResolverFuncs) Tick(a *ResolverAgent) Status {
	if f.TickFunc == nil {
		return Success
	}
	return f.TickFunc(a)
}

// Stop calls StopFunc, if set.
func (f ResolverFuncs) Stop(a *ResolverAgent) {
	if f.StopFunc != nil {
		f.StopFunc(a)
	}
}

// ResolverGoal is one goal a resolver agent may pursue, chosen as a GOAP
// agent chooses among its GoalOptions.
type ResolverGoal struct {
	Goal *resolver.Goal
	// Priority ranks the options; the highest applicable one wins, ties to
	// the earlier option.
	Priority float64
	// When, if set, must hold for the option to apply.
	When func(a *ResolverAgent) bool
	// Utility, if set, scores the option instead of Priority.
	Utility func(a *ResolverAgent) float64
}

// ResolverConfig describes a resolver agent. Domain, Goals, Behaviours and
// Sensor are required; Targets and Mover as soon as an action the agent
// can do has a target.
type ResolverConfig struct {
	// Name identifies the agent in its events and errors; empty means
	// DefaultName.
	Name    string
	Domain  *resolver.Domain
	Profile *resolver.Profile // capabilities and cost overrides
	Goals   []ResolverGoal
	// Behaviours maps action names to the game's code; every action the
	// agent can do needs one.
	Behaviours map[string]ResolverBehaviour
	// Sensor reads the world into the agent's snapshot, every tick.
	Sensor WorldSensor
	// Targets maps each target key of the actions the agent can do to the
	// sensor that resolves it.
	Targets map[string]TargetSensor
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
	// Budget and MaxDepth bound each resolve (0: the resolver's defaults).
	Budget, MaxDepth int
	// Context, if set, stops the agent's resolves once it is done
	// (resolver's Options.Context); a resolve stopped so finds no chain.
	Context context.Context
	// Queue, if set, resolves this agent's chains on worker goroutines.
	Queue *Queue
	// OnEvent, if set, receives every decision.
	OnEvent func(Event)
	// Data is the game's, for behaviours and sensors.
	Data any
}

// keyCond is a condition compiled against the domain's keys.
type keyCond struct {
	key   resolver.KeyID
	op    resolver.Op
	value int64
}

func (c keyCond) holds(v []int64) bool {
	x := v[c.key]
	switch c.op {
	case resolver.Is:
		return x == c.value
	case resolver.Greater:
		return x > c.value
	case resolver.AtLeast:
		return x >= c.value
	case resolver.Less:
		return x < c.value
	}
	return x <= c.value
}

// ResolverAgent runs chains from a resolver.Domain for one character: it
// senses a snapshot of the world every tick, chooses a goal, resolves a
// chain for it (inline or through a Queue), walks to each step's target
// through the game's Mover and runs the step's behaviour. Only the head
// of a chain is committed: its conditions are checked against the live
// snapshot before it starts, and under Reactive and Proactive policies the
// next resolve plans from the world the head left.
//
// It is driven by Tick from one goroutine; its chains may be resolved on
// others through a Queue.
type ResolverAgent struct {
	cfg        ResolverConfig
	behaviours []ResolverBehaviour // by action
	conds      [][]keyCond         // by action: its conditions
	sets       [][]keyCond         // by action: its boolean effects, as conditions
	goalConds  [][]keyCond         // by goal option: its goal's conditions
	targets    []TargetSensor      // by TargetID
	live       *resolver.Snapshot  // this tick's snapshot
	where      []Where             // by TargetID, this tick
	tick       int

	goal       *ResolverGoal
	chain      []resolver.ActionID
	chainStore []resolver.ActionID
	step       int
	running    bool // the step has begun: walking or performing
	moving     bool // walking before a MoveThenPerform action starts
	arrived    bool // within the stopping distance (or no target)
	performed  bool // the behaviour succeeded; waiting to arrive
	started    int  // tick the step began
	retryAt    int
	lastPlan   int
	planned    bool
	done       bool
	wantPlan   string
	blocked    []int

	pending      bool
	queuedIn     *Queue
	ticket       uint64
	queuedReplan string
	job          resolveJob
	own          *planners

	stats Stats
}

// resolveJob is a resolver agent's request: the snapshot read at submit,
// the goal and options, and the result a worker writes. The agent touches
// none of it while the request waits.
type resolveJob struct {
	owner  *ResolverAgent
	reason string
	snap   resolver.Snapshot
	goal   *resolver.Goal
	opt    resolver.Options
	chain  []resolver.ActionID
	res    resolver.Result
	err    error
}

// run resolves the job with p's resolver for its domain: it reads only the
// job, so it may run on any goroutine.
func (j *resolveJob) run(p *planners) {
	r := cached(&p.resolvers, j.goal.Domain(), resolver.NewResolver)
	j.res, j.err = r.Resolve(j.chain[:0], &j.snap, j.goal, j.opt)
	j.chain = j.res.Chain
}

// deliver hands a resolved job to its agent on the goroutine that calls
// Frame, unless the request was cancelled.
func (j *resolveJob) deliver(q *Queue, ticket uint64) {
	a := j.owner
	if a.pending && a.queuedIn == q && a.ticket == ticket {
		a.queuedIn = nil
		a.apply()
	}
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
	a := &ResolverAgent{
		cfg:        cfg,
		behaviours: make([]ResolverBehaviour, d.NumActions()),
		conds:      make([][]keyCond, d.NumActions()),
		sets:       make([][]keyCond, d.NumActions()),
		targets:    make([]TargetSensor, len(d.Targets())),
		live:       d.NewSnapshot(),
		where:      make([]Where, len(d.Targets())),
		stats:      Stats{ReplanReasons: map[string]int{}},
	}
	a.job.owner = a
	a.job.snap = *d.NewSnapshot()
	for id := range d.NumActions() {
		act := resolver.ActionID(id)
		a.behaviours[id] = cfg.Behaviours[d.ActionName(act)]
		for _, c := range d.Conditions(act) {
			k, _ := d.Key(c.Key)
			a.conds[id] = append(a.conds[id], keyCond{key: k, op: c.Op, value: c.Value})
		}
		for _, e := range d.Effects(act) {
			k, _ := d.Key(e.Key)
			switch e.Dir {
			case resolver.SetTrue:
				a.sets[id] = append(a.sets[id], keyCond{key: k, op: resolver.Is, value: 1})
			case resolver.SetFalse:
				a.sets[id] = append(a.sets[id], keyCond{key: k, op: resolver.Is, value: 0})
			}
		}
	}
	for _, o := range cfg.Goals {
		var cs []keyCond
		for _, c := range o.Goal.Conditions() {
			k, _ := d.Key(c.Key)
			cs = append(cs, keyCond{key: k, op: c.Op, value: c.Value})
		}
		a.goalConds = append(a.goalConds, cs)
	}
	for name, s := range cfg.Targets {
		t, _ := d.Target(name)
		a.targets[t] = s
	}
	return a, nil
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
	for _, n := range []struct {
		name  string
		value int
	}{{"Budget", cfg.Budget}, {"MaxDepth", cfg.MaxDepth}, {"DefaultTimeout", cfg.DefaultTimeout}, {"RetryAfter", cfg.RetryAfter}, {"Policy.Interval", cfg.Policy.Interval}} {
		if n.value < 0 {
			return errorf("%s is %d: want 0 (the default) or more", n.name, n.value)
		}
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
	return nil
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

// Name returns the agent's name.
func (a *ResolverAgent) Name() string { return a.cfg.Name }

// Data returns the game's data given in ResolverConfig.
func (a *ResolverAgent) Data() any { return a.cfg.Data }

// Domain returns the agent's domain.
func (a *ResolverAgent) Domain() *resolver.Domain { return a.cfg.Domain }

// Snapshot returns this tick's snapshot of the world, as the sensors read
// it (read-only to callers).
func (a *ResolverAgent) Snapshot() *resolver.Snapshot { return a.live }

// Now returns the current tick.
func (a *ResolverAgent) Now() int { return a.tick }

// Chain returns the current chain, head at Step; the steps after it are
// advisory.
func (a *ResolverAgent) Chain() []resolver.ActionID { return a.chain }

// Step returns the index of the current step in Chain.
func (a *ResolverAgent) Step() int { return a.step }

// Current returns the step under way (walking to its target or
// performing), if any.
func (a *ResolverAgent) Current() (resolver.ActionID, bool) {
	if !a.running {
		return resolver.NoAction, false
	}
	return a.chain[a.step], true
}

// Moving reports whether the agent is walking to a MoveThenPerform step's
// target, its behaviour not yet started.
func (a *ResolverAgent) Moving() bool { return a.running && a.moving }

// Goal returns the goal being pursued, or nil.
func (a *ResolverAgent) Goal() *resolver.Goal {
	if a.goal == nil {
		return nil
	}
	return a.goal.Goal
}

// Stats returns what the agent has done so far. Expanded counts the
// partial chains its resolves expanded.
func (a *ResolverAgent) Stats() Stats { return a.stats }

// RequestReplan asks for a new chain on the next tick (the Manual policy's
// trigger; it works under every policy). A running step goes on if the
// new chain starts with it.
func (a *ResolverAgent) RequestReplan() { a.wantPlan = ReasonRequested }

// SetProfile changes the agent's capabilities and costs from the next
// resolve on; the running step is kept. The profile must be of the
// agent's domain, and the agent must have behaviours (and target sensors
// and a mover) for every action it makes capable: SetProfile panics,
// naming what is missing, rather than the agent failing later on a nil
// behaviour.
func (a *ResolverAgent) SetProfile(p *resolver.Profile) {
	if p != nil && p.Domain() != a.cfg.Domain {
		panic(fmt.Sprintf("agent %q: SetProfile with a profile of another domain", a.cfg.Name))
	}
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("agent %q: SetProfile: "+format, append([]any{a.cfg.Name}, args...)...)
	}
	if err := a.cfg.checkCapable(p, errorf); err != nil {
		panic(err.Error())
	}
	a.cfg.Profile = p
}

func (a *ResolverAgent) withdraw(q *Queue) (uint64, bool) {
	if !a.pending || a.queuedIn != q {
		return 0, false
	}
	a.pending, a.queuedIn = false, nil
	a.wantPlan = a.queuedReplan
	return a.ticket, true
}

func (a *ResolverAgent) detach(q *Queue) {
	if a.cfg.Queue == q {
		a.cfg.Queue = nil
	}
}

// Tick advances the agent by one tick of the game's fixed-step clock:
// sense, choose a goal, resolve if the policy says so, run the current
// step.
func (a *ResolverAgent) Tick() {
	if a == nil || a.cfg.Domain == nil {
		panic("agent: ResolverAgent not made by agent.NewResolverAgent: a nil or zero ResolverAgent has no domain; call agent.NewResolverAgent(config)")
	}
	a.tick++
	a.sense()
	if a.pending {
		return // a chain is being resolved on a worker; stand still
	}
	if g := a.chooseGoal(); g != a.goal {
		a.goal = g
		a.emit(Event{Kind: GoalChosen, Goal: a.goalName()})
		a.dropPlan()
		if g != nil {
			a.wantPlan = ReasonGoalChanged
			if !a.planned {
				a.wantPlan = ReasonStart
			}
		}
	}
	if a.goal == nil {
		return
	}
	active := a.chain != nil
	switch {
	case a.wantPlan != "":
	case a.cfg.Policy.Kind == Proactive && active && a.tick-a.lastPlan >= a.cfg.Policy.Interval:
		a.wantPlan = ReasonProactive
	case !active && a.tick >= a.retryAt:
		switch {
		case !a.planned:
			a.wantPlan = ReasonStart
		case a.done:
			a.wantPlan = ReasonPlanDone
		default:
			a.wantPlan = ReasonNoPlan
		}
	}
	if a.wantPlan != "" {
		reason := a.wantPlan
		a.wantPlan = ""
		a.request(reason)
		if a.pending {
			return
		}
	}
	a.execute()
}

// sense reads the world into the live snapshot: keys and position from the
// sensor, targets from the target sensors.
func (a *ResolverAgent) sense() {
	a.cfg.Sensor(a, a.live)
	for t, ts := range a.targets {
		w := Where{}
		if ts != nil {
			w = ts(a)
		}
		a.where[t] = w
		a.live.Targets[t] = resolver.Target{At: w.Position(), Found: w.Found}
	}
	if err := a.cfg.Domain.CheckSnapshot(a.live); err != nil {
		panic(fmt.Sprintf("agent %q: after sensing: %v", a.cfg.Name, err))
	}
}

// chooseGoal is Agent.chooseGoal over ResolverGoals: the applicable option
// with the highest score, ties to the earlier, the current goal kept while
// no other scores strictly more.
func (a *ResolverAgent) chooseGoal() *ResolverGoal {
	var best *ResolverGoal
	bestScore, currentScore, current := 0.0, 0.0, false
	for i := range a.cfg.Goals {
		o := &a.cfg.Goals[i]
		if allHold(a.goalConds[i], a.live.Values) || (o.When != nil && !o.When(a)) || (i < len(a.blocked) && a.blocked[i] > a.tick) {
			continue
		}
		score := o.Priority
		if o.Utility != nil {
			score = o.Utility(a)
		}
		if o == a.goal {
			currentScore, current = score, true
		}
		if best == nil || score > bestScore {
			best, bestScore = o, score
		}
	}
	if current && currentScore >= bestScore {
		return a.goal
	}
	return best
}

func (a *ResolverAgent) goalName() string {
	if a.goal == nil {
		return ""
	}
	return a.goal.Goal.Name()
}

func (a *ResolverAgent) emit(e Event) {
	if a.cfg.OnEvent == nil {
		return
	}
	e.Tick = a.tick
	e.Agent = a.cfg.Name
	if e.Goal == "" {
		e.Goal = a.goalName()
	}
	a.cfg.OnEvent(e)
}

// request copies the live snapshot into the job and resolves it: inline,
// or through the queue.
func (a *ResolverAgent) request(reason string) {
	j := &a.job
	j.reason = reason
	j.snap.At = a.live.At
	copy(j.snap.Values, a.live.Values)
	copy(j.snap.Targets, a.live.Targets)
	j.goal = a.goal.Goal
	j.opt = resolver.Options{Profile: a.cfg.Profile, Budget: a.cfg.Budget, MaxDepth: a.cfg.MaxDepth, Distance: a.cfg.Distance, Context: a.cfg.Context}
	if q := a.cfg.Queue; q != nil {
		a.ticket = q.submit(request{job: j})
		a.pending, a.queuedIn = true, q
		a.queuedReplan = reason
		return
	}
	if a.own == nil {
		a.own = &planners{}
	}
	j.run(a.own)
	a.apply()
}

// apply takes the job's result on the agent's goroutine.
func (a *ResolverAgent) apply() {
	j := &a.job
	a.pending = false
	a.stats.Plans++
	a.stats.Expanded += j.res.Expanded
	if a.planned {
		a.stats.Replans++
		a.stats.ReplanReasons[j.reason]++
		a.emit(Event{Kind: Replanned, Reason: j.reason})
	}
	if j.res.Status != resolver.Found {
		a.dropPlan()
		a.stats.NoPlan++
		a.planned = true
		a.done = false
		a.retryAt = a.tick + a.cfg.RetryAfter
		reason := "no plan"
		if j.err != nil {
			reason = "search limit"
		}
		a.emit(Event{Kind: NoPlanFound, Reason: reason, Expanded: j.res.Expanded})
		// Let goal choice pass over this goal until the retry.
		for i := range a.cfg.Goals {
			if &a.cfg.Goals[i] == a.goal {
				for len(a.blocked) < len(a.cfg.Goals) {
					a.blocked = append(a.blocked, 0)
				}
				a.blocked[i] = a.tick + max(a.cfg.RetryAfter, 1)
			}
		}
		a.goal = nil
		return
	}
	a.emit(Event{Kind: PlanMade, Plan: a.actionNames(j.chain), Cost: j.res.Cost, Expanded: j.res.Expanded})
	a.adopt(j.chain)
}

// actionNames names a chain's actions for an event; nil when nobody
// listens, so that an unobserved agent allocates nothing for its events.
func (a *ResolverAgent) actionNames(chain []resolver.ActionID) []string {
	if a.cfg.OnEvent == nil {
		return nil
	}
	out := make([]string, len(chain))
	for i, id := range chain {
		out[i] = a.cfg.Domain.ActionName(id)
	}
	return out
}

// adopt makes a resolved chain the agent's, keeping the running step
// going (its walk included) if the new chain starts with it.
func (a *ResolverAgent) adopt(chain []resolver.ActionID) {
	keep := a.running && len(chain) > 0 && a.chain[a.step] == chain[0]
	if !keep {
		a.dropPlan()
	}
	a.chainStore = append(a.chainStore[:0], chain...)
	a.chain = a.chainStore
	a.step = 0
	a.lastPlan = a.tick
	a.planned = true
	a.done = false
	if len(a.chain) == 0 { // the goal held in the snapshot
		a.emit(Event{Kind: PlanDone})
		a.chain = nil
		a.done = true
	}
}

// dropPlan stops the running step's behaviour, if it started, and forgets
// the chain.
func (a *ResolverAgent) dropPlan() {
	if a.running && !a.moving {
		a.behaviours[a.chain[a.step]].Stop(a)
	}
	a.running, a.moving = false, false
	a.chain = nil
	a.step = 0
}

// holds reports whether action act's conditions all hold in the live
// snapshot.
func (a *ResolverAgent) holds(act resolver.ActionID) bool {
	return allHold(a.conds[act], a.live.Values)
}

func allHold(cs []keyCond, values []int64) bool {
	for _, c := range cs {
		if !c.holds(values) {
			return false
		}
	}
	return true
}

// execute runs the current step for one tick. A step begins only if its
// conditions hold in the live snapshot and its target is found; with a
// target, the mover takes the agent there as the move mode says:
//
//   - MoveThenPerform: the agent walks (the behaviour not started; the
//     conditions and the target checked again every tick of the walk)
//     until the mover reports Arrived, then the behaviour starts, on the
//     same tick.
//   - PerformWhileMoving: the behaviour starts at once, and the mover is
//     asked every tick until the step ends; the step completes on the
//     first tick on which the behaviour has succeeded and the mover
//     reports Arrived.
//
// A target lost on the way ends the step (ReasonTargetLost), as does a
// move that fails (ReasonMoveFailed). When the behaviour has succeeded
// (and the agent arrived), the world is sensed again and the action's
// boolean effects must hold; its integer effects are directions without
// amounts, which the runtime cannot check.
func (a *ResolverAgent) execute() {
	if a.chain == nil || a.step >= len(a.chain) {
		return
	}
	d := a.cfg.Domain
	act := a.chain[a.step]
	beh := a.behaviours[act]
	t := d.ActionTarget(act)
	if !a.running {
		if !a.holds(act) {
			a.breakPlan(act, ReasonPrecondition)
			return
		}
		if t != resolver.NoTarget && !a.where[t].Found {
			a.breakPlan(act, ReasonTargetLost)
			return
		}
		a.running, a.started, a.performed = true, a.tick, false
		a.arrived = t == resolver.NoTarget
		a.moving = t != resolver.NoTarget && d.MoveMode(act) == resolver.MoveThenPerform
		if t != resolver.NoTarget {
			a.emit(Event{Kind: MoveStarted, Action: d.ActionName(act)})
		}
		if !a.moving {
			a.emit(Event{Kind: StepStarted, Action: d.ActionName(act)})
			beh.Start(a)
		}
	}
	if t != resolver.NoTarget && !a.arrived || d.MoveMode(act) == resolver.PerformWhileMoving && t != resolver.NoTarget {
		w := a.where[t]
		if !w.Found {
			a.breakPlan(act, ReasonTargetLost)
			return
		}
		if a.moving && a.tick > a.started && !a.holds(act) {
			a.breakPlan(act, ReasonPrecondition)
			return
		}
		switch a.cfg.Mover.MoveToward(w.Position(), d.StoppingDistance(act)) {
		case MoveFailed:
			a.breakPlan(act, ReasonMoveFailed)
			return
		case Moving:
			a.arrived = false
			if a.moving {
				a.checkTimeout(act)
				return
			}
		case Arrived:
			if !a.arrived {
				a.emit(Event{Kind: TargetReached, Action: d.ActionName(act)})
			}
			a.arrived = true
			if a.moving {
				a.moving = false
				a.emit(Event{Kind: StepStarted, Action: d.ActionName(act)})
				beh.Start(a)
			}
		}
	}
	if !a.performed {
		switch beh.Tick(a) {
		case Running:
			a.checkTimeout(act)
			return
		case Failure:
			a.breakPlan(act, ReasonActionFailed)
			return
		}
		a.performed = true
	}
	if !a.arrived {
		a.checkTimeout(act) // done, but not yet within the stopping distance
		return
	}
	// The world has changed under the behaviour: sense it again before
	// judging the step by its effects.
	a.sense()
	if !allHold(a.sets[act], a.live.Values) {
		a.breakPlan(act, ReasonNoEffect)
		return
	}
	a.finishStep(act)
}

func (a *ResolverAgent) checkTimeout(act resolver.ActionID) {
	to := a.cfg.DefaultTimeout
	if t, ok := a.cfg.Timeouts[a.cfg.Domain.ActionName(act)]; ok {
		to = t
	}
	if to > 0 && a.tick-a.started >= to {
		a.breakPlan(act, ReasonTimeout)
	}
}

// breakPlan records that step act broke the chain for reason, drops the
// chain and asks for a new one. A step that never started (its conditions
// failed, its target was lost) is not counted as a failed action.
func (a *ResolverAgent) breakPlan(act resolver.ActionID, reason string) {
	a.emit(Event{Kind: ActionFailed, Action: a.cfg.Domain.ActionName(act), Reason: reason})
	if reason != ReasonPrecondition && reason != ReasonTargetLost {
		a.stats.ActionsFailed++
	}
	a.dropPlan()
	a.wantPlan = reason
}

// finishStep ends the step and advances; at the chain's end the agent
// chooses again, and under Reactive and Proactive it resolves after every
// step.
func (a *ResolverAgent) finishStep(act resolver.ActionID) {
	a.behaviours[act].Stop(a)
	a.running, a.moving = false, false
	a.stats.StepsDone++
	a.emit(Event{Kind: StepDone, Action: a.cfg.Domain.ActionName(act)})
	a.step++
	if a.step >= len(a.chain) {
		a.emit(Event{Kind: PlanDone})
		a.chain = nil
		a.step = 0
		a.done = true
		return
	}
	if k := a.cfg.Policy.Kind; k == Reactive || k == Proactive {
		a.wantPlan = ReasonStepEnded
	}
}
