package agent

import (
	"fmt"
	"reflect"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// resolverWorld is a resolver agent's world: a resolver.Snapshot of
// integers (booleans 0 or 1) and positions, read into Agent.live by the
// agent's WorldSensor every tick and by its target sensors when a target
// is needed (target), checked as it is read (CheckSnapshot, note) and
// then judged many times: goals and
// actions' conditions with the domain's own compiled conditions
// (Goal.HoldsIn, ConditionsHoldIn), shared by every agent of the domain,
// and steps' boolean effects (BoolEffectsHoldIn); integer effects are
// directions without amounts, which it cannot check.
type resolverWorld struct {
	mover Mover
	cfg   *ResolverConfig // the rest, for SetProfile's checks and the accessors

	// What a tick reads (a tick that asks for a chain included) comes
	// last, next to the Agent's fields that a tick reads: NewResolverAgent
	// puts the world just before the Agent in memory. In a crowd every
	// cache line and page an agent's tick touches is a miss, so a tick
	// reads the agent's own allocation, two small arrays (values and
	// targets) and the domain's tables, which all agents share.
	opt *resolver.Options // a resolve's: the profile (SetProfile's), cfg's limits, distance and context; never changed once made
	// request is what a resolve reads, copied at submit.
	request chainRequest
	domain  *resolver.Domain
	sensor  WorldSensor
	targets []targetSlot     // by TargetID
	goals   []*resolver.Goal // by goal option, as the game gave them at construction: whether it holds
	options []ResolverGoal   // the game's goal options (ResolverConfig.Goals)
	// live is this tick's snapshot (Agent.live points here), inside the
	// agent's own allocation.
	live resolver.Snapshot
}

// targetSlot is one target key's sensor, its last answer and when it was
// sensed: side by side, as sensing reads the one and writes the others.
// Targets are sensed when something needs them (a resolve's snapshot, a
// head check, a walk), at most once a tick, or less often when the game
// says how often an answer can change (ResolverConfig.TargetRefresh).
type targetSlot struct {
	sensor TargetSensor // nil for a target no action the agent can do uses
	where  Where
	// keep is how many ticks an answer stands (1: the tick it was sensed
	// on), or UntilChanged; sensedAt is the tick it was sensed on, and
	// sensed says there is an answer to keep (false until the first
	// sensing, and after TargetChanged).
	keep     int
	sensedAt int
	sensed   bool
	// changed: an answer since the running step began was another target
	// than the one before it (sameTarget), so a walk to it is a walk to a
	// target that is gone.
	changed bool
}

// init takes cfg's goals and target sensors, which cfg.check has checked.
func (w *resolverWorld) init(cfg ResolverConfig) {
	d := cfg.Domain
	*w = resolverWorld{
		cfg:     &cfg,
		options: cfg.Goals,
		mover:   cfg.Mover,
		domain:  d,
		sensor:  cfg.Sensor,
		opt:     &resolver.Options{Profile: cfg.Profile, Limits: cfg.Limits.Or(search.Limits{Budget: int64(cfg.Budget), MaxDepth: int64(cfg.MaxDepth)}), Distance: cfg.Distance, Context: cfg.Context},
		targets: make([]targetSlot, len(d.Targets())),
		goals:   make([]*resolver.Goal, len(cfg.Goals)),
	}
	// The live snapshot's arrays and the request's copies of them are
	// two allocations, not four, each copy beside the array it copies.
	nk, nt := len(d.Keys()), len(d.Targets())
	values := make([]int64, 2*nk)
	targets := make([]resolver.Target, 2*nt)
	w.live = resolver.Snapshot{Values: values[:nk:nk], Targets: targets[:nt:nt]}
	w.request.snap = resolver.Snapshot{Values: values[nk:], Targets: targets[nt:]}
	for i, o := range cfg.Goals {
		w.goals[i] = o.Goal
	}

	for t := range w.targets {
		// A target no action the agent can do uses has no sensor: its
		// answer, nothing, stands for good.
		w.targets[t] = targetSlot{keep: UntilChanged, sensed: true}
	}
	for name, s := range cfg.Targets {
		t, _ := d.Target(name)
		w.targets[t] = targetSlot{sensor: s, keep: max(cfg.TargetRefresh[name], 1)}
		if cfg.TargetRefresh[name] == UntilChanged {
			w.targets[t].keep = UntilChanged
		}
	}
}

// sense reads the world into the live snapshot: keys and position from the
// sensor. Targets are sensed when needed (target), not here: in a colony
// of 600 settlers with ten target keys each, sensing every target every
// tick took half the game's time, and a tick needs one target at most
// (the running step's), a resolve all of them.
func (w *resolverWorld) sense(a *Agent) {
	w.sensor((*ResolverAgent)(a), a.live)
	if err := w.domain.CheckSnapshot(a.live); err != nil {
		panic(fmt.Sprintf("agent %q: after sensing: %v", a.cfg.Name, err))
	}
}

// target returns target key t's answer for this tick: the one it has if
// it still stands (sensed this tick, or within the key's TargetRefresh),
// else the sensor's, which it keeps, writes into the live snapshot and
// checks. A target is read before any behaviour of the tick runs (a
// resolve's snapshot, a head check, a walk), so an answer sensed when
// first needed is the one the tick's start would have seen.
func (w *resolverWorld) target(a *Agent, t resolver.TargetID) *Where {
	s := &w.targets[t]
	if s.sensed && (s.keep == UntilChanged || a.tick-s.sensedAt < s.keep) {
		return &s.where
	}
	where := s.sensor((*ResolverAgent)(a))
	s.changed = s.changed || !sameTarget(&where, &s.where)
	s.where, s.sensed, s.sensedAt = where, true, a.tick
	w.note(a, t)
	return &s.where
}

// sameTarget reports whether two answers of a target sensor are the same
// target: both nothing, one position, or one entity (an entity of a type
// Go cannot compare, or of a value it cannot, is taken to be the same, as
// nothing tells them apart).
// A sensor for something that moves answers with the entity, so that its
// moving is not taken for another target.
func sameTarget(x, y *Where) bool {
	switch {
	case x.Found != y.Found:
		return false
	case !x.Found:
		return true
	case (x.Entity == nil) != (y.Entity == nil):
		return false
	case x.Entity == nil:
		return x.At == y.At
	}
	tx := reflect.TypeOf(x.Entity)
	if tx != reflect.TypeOf(y.Entity) {
		return false
	}
	return !tx.Comparable() || sameEntity(x.Entity, y.Entity)
}

// sameEntity reports whether x == y, two entities of one comparable type;
// such a type may still hold a value == cannot compare (an interface field
// holding a slice), and == panics then: the two are taken to be the same.
// (Asking reflect whether the values compare would make every answer a
// sensor gives escape to the heap: an allocation a sensing.)
func sameEntity(x, y Entity) (same bool) {
	defer func() {
		if recover() != nil {
			same = true
		}
	}()
	return x == y
}

// note writes target key t's answer into the live snapshot, where it is
// now, and checks it.
func (w *resolverWorld) note(a *Agent, t resolver.TargetID) {
	where := &w.targets[t].where
	at := where.Position()
	if where.Found && (at.X-at.X != 0 || at.Y-at.Y != 0) { // not finite
		panic(fmt.Sprintf("agent %q: after sensing: resolver: target %q's position %v is not finite", a.cfg.Name, w.domain.Targets()[t], at))
	}
	a.live.Targets[t] = resolver.Target{At: at, Found: where.Found}
}

// senseTargets brings every target of the live snapshot up to date, for a
// resolve (which reads them all) or, with onlyEveryTick, those sensed
// every tick, for a decision record: sensing a kept answer early for a
// record would change when it is sensed again, and so what the agent
// does, with and without a recording. An entity's position is read again
// even when its answer stands: the answer is the entity, not where it was.
func (w *resolverWorld) senseTargets(a *Agent, onlyEveryTick bool) {
	for t := range w.targets {
		if s := &w.targets[t]; s.sensor == nil || onlyEveryTick && s.keep != 1 {
			continue
		}
		if w.target(a, resolver.TargetID(t)).Entity != nil {
			w.note(a, resolver.TargetID(t))
		}
	}
}

// forget drops target key t's answer: it is sensed again when next needed.
func (w *resolverWorld) forget(t resolver.TargetID) {
	if w.targets[t].sensor != nil {
		w.targets[t].sensed = false
	}
}

// changed is false: a resolver agent neither idles nor is interrupted.
func (w *resolverWorld) changed(*Agent) bool { return false }

// senseAfter reads the keys again after a step's behaviour succeeded. The
// targets are sensed when next needed, on a later tick: nothing reads
// them in between.
func (w *resolverWorld) senseAfter(a *Agent, _ goap.ActionID) { w.sense(a) }

// weighAll reads the game's goal options (its
// ResolverConfig.Goals), so that retuning their When, Utility and
// Priority between ticks is seen, as it is for a GOAP agent's; so do a
// request and the events, for the option's Goal. Whether the goal already
// holds is judged by the goal the option had at construction, as before
// the runtimes were one.
func (w *resolverWorld) weighAll(a *Agent, ws []goalMemory) {
	options, goals := w.options[:len(ws)], w.goals[:len(ws)]
	for i := range options {
		o, m := &options[i], &ws[i]
		st, score := optionApplies, 0.0
		switch {
		case goals[i].HoldsIn(a.live.Values):
			st = optionHolds
		case !o.applies((*ResolverAgent)(a)):
			st = optionWhenFalse
		case m.blockedUntil > a.tick:
			st = optionBlocked
		default:
			score = o.score((*ResolverAgent)(a))
		}
		m.noteWeighed(st, score)
	}
}

func (w *resolverWorld) noteGoals(_ *Agent, notes []optionNote) {
	options := w.options[:len(notes)]
	for i := range options {
		o, n := &options[i], &notes[i]
		n.goal, n.priority = o.Goal.Name(), o.Priority
		if o.Utility != nil {
			n.noteWord |= noteUtility
		}
	}
}

func (w *resolverWorld) optionGoal(_ *Agent, i int) string { return w.options[i].Goal.Name() }

// record: the snapshot the resolve read (the request's copy, taken at
// submit), and each step's share of the chain's cost.
func (w *resolverWorld) record(a *Agent, r *request, plan []goap.ActionID, d *Decision) {
	c := r.chain
	snap := &c.snap
	w.snapshotInto(a, d, snap)
	d.Profile.resolver, d.Limits = c.opt.Profile, limitsOf(c.opt.Limits)
	d.OwnProfile = a.cfg.AgentKind != "" && c.opt.Profile != a.log.kindResolver
	if c.opt.Distance != nil {
		d.Distance = "game"
	}
	if len(plan) == 0 {
		return
	}
	if a.log.lender != nil && c.opt.Distance == nil && !w.domain.HasCostFuncs() {
		// A FlightRecorder's slot: the steps are made when the recording
		// is written, from what the slot keeps (Decision.chain), with no
		// game code to call.
		d.chain = append(d.chain, chainOf(plan)...)
		return
	}
	d.Plan = stepsOf(d.Plan, w.domain, chainOf(plan), snap, *c.opt)
}

// stepsOf appends chain's steps to dst, each with its name and its cost
// in snap under opt: its action's cost plus the way to its target
// (resolver.Domain.StepCosts).
func stepsOf(dst []DecisionStep, d *resolver.Domain, chain []resolver.ActionID, snap *resolver.Snapshot, opt resolver.Options) []DecisionStep {
	// The costs are computed into an array on the stack, big enough for
	// a chain of the resolver's default depth (a longer one's, on the heap).
	var costs [resolver.DefaultMaxDepth]float64
	stepCosts := d.StepCosts(costs[:0], chain, snap, opt)
	for i, act := range chain {
		dst = append(dst, DecisionStep{Action: d.ActionName(act), Cost: stepCosts[i]})
	}
	return dst
}

func (w *resolverWorld) goalName(a *Agent, o *GoalOption) string {
	for i := range a.cfg.Goals {
		if &a.cfg.Goals[i] == o {
			return w.options[i].Goal.Name()
		}
	}
	return ""
}

func (w *resolverWorld) actionName(_ *Agent, act goap.ActionID) string {
	return w.domain.ActionName(resolver.ActionID(act))
}

// holds reports whether action act's conditions all hold in the live
// snapshot.
func (w *resolverWorld) holds(a *Agent, act resolver.ActionID) bool {
	return w.domain.ConditionsHoldIn(act, a.live.Values)
}

// startable: a step begins only if its conditions hold in the live
// snapshot and its target, if it has one, is found.
func (w *resolverWorld) startable(a *Agent, act goap.ActionID) string {
	id := resolver.ActionID(act)
	if !w.holds(a, id) {
		return ReasonPrecondition
	}
	if t := w.domain.ActionTarget(id); t != resolver.NoTarget && !w.target(a, t).Found {
		return ReasonTargetLost
	}
	return ""
}

// effectsHold judges the step's boolean effects only: its integer effects
// are directions without amounts.
func (w *resolverWorld) effectsHold(a *Agent, act goap.ActionID) bool {
	return w.domain.BoolEffectsHoldIn(resolver.ActionID(act), a.live.Values)
}

func (w *resolverWorld) recordLive(a *Agent, d *Decision) {
	w.senseTargets(a, true)
	w.snapshotInto(a, d, a.live)
}

// snapshotInto writes snap as agent a's record d's snapshot: every key's
// value, the agent's position, the targets found. In a FlightRecorder's
// slot, the targets are kept as snap has them, found or not, and named
// when the recording is written (Decision.found).
func (w *resolverWorld) snapshotInto(a *Agent, d *Decision, snap *resolver.Snapshot) {
	d.Snapshot.Resolver, d.Snapshot.Keys, d.Snapshot.At = true, w.domain.KeyNames(), snap.At
	d.Snapshot.Values = append(d.Snapshot.Values, snap.Values...)
	if a.log.lender != nil {
		d.found, d.domain = append(d.found, snap.Targets...), w.domain
		return
	}
	d.Snapshot.Targets = targetsOf(d.Snapshot.Targets, w.domain.Targets(), snap.Targets)
}

// targetsOf appends to dst the targets found of a resolver snapshot's
// targets, each with its name.
func targetsOf(dst []DecisionTarget, names []string, targets []resolver.Target) []DecisionTarget {
	for t, name := range names {
		if tg := &targets[t]; tg.Found {
			dst = append(dst, DecisionTarget{Name: name, At: tg.At})
		}
	}
	return dst
}
