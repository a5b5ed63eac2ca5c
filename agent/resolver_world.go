package agent

import (
	"fmt"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// resolverWorld is a resolver agent's world: a resolver.Snapshot of
// integers (booleans 0 or 1) and positions, read every tick by the
// agent's WorldSensor and target sensors into Agent.live, which is
// checked once (CheckSnapshot) and then judged many times: goals and
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

// targetSlot is one target key's sensor and where it found the target
// this tick: side by side, as sensing reads one and writes the other.
type targetSlot struct {
	sensor TargetSensor // nil for a target no action the agent can do uses
	where  Where
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

	for name, s := range cfg.Targets {
		t, _ := d.Target(name)
		w.targets[t].sensor = s
	}
}

// sense reads the world into the live snapshot: keys and position from the
// sensor, targets from the target sensors.
func (w *resolverWorld) sense(a *Agent) {
	w.sensor((*ResolverAgent)(a), a.live)
	for t := range w.targets {
		slot := &w.targets[t]
		where := Where{}
		if slot.sensor != nil {
			where = slot.sensor((*ResolverAgent)(a))
		}
		slot.where = where
		a.live.Targets[t] = resolver.Target{At: where.Position(), Found: where.Found}
	}
	if err := w.domain.CheckSnapshot(a.live); err != nil {
		panic(fmt.Sprintf("agent %q: after sensing: %v", a.cfg.Name, err))
	}
}

// changed is false: a resolver agent neither idles nor is interrupted.
func (w *resolverWorld) changed(*Agent) bool { return false }

func (w *resolverWorld) senseAfter(a *Agent, _ goap.ActionID) { w.sense(a) }

// goalApplies and goalScore read the game's goal options (its
// ResolverConfig.Goals), so that retuning their When, Utility and
// Priority between ticks is seen, as it is for a GOAP agent's; so do a
// request and the events, for the option's Goal. Whether the goal already
// holds is judged by the goal the option had at construction, as before
// the runtimes were one.
func (w *resolverWorld) goalApplies(a *Agent, i int) optionState {
	switch {
	case w.goals[i].HoldsIn(a.live.Values):
		return optionHolds
	case !w.options[i].applies((*ResolverAgent)(a)):
		return optionWhenFalse
	}
	return optionApplies
}

func (w *resolverWorld) goalInfo(_ *Agent, i int) (string, float64, bool) {
	o := &w.options[i]
	return o.Goal.Name(), o.Priority, o.Utility != nil
}

// record: the snapshot the resolve read (the request's copy, taken at
// submit), and each step's share of the chain's cost.
func (w *resolverWorld) record(a *Agent, r *request, plan []goap.ActionID, d *Decision) {
	c := r.chain
	snap := &c.snap
	l := a.log
	w.snapshotInto(a, d, snap)
	d.Profile.resolver, d.Limits = c.opt.Profile, limitsOf(c.opt.Limits)
	d.OwnProfile = a.cfg.AgentKind != "" && c.opt.Profile != a.log.kindResolver
	if c.opt.Distance != nil {
		d.Distance = "game"
	}
	if len(plan) == 0 {
		return
	}
	l.stepCosts = w.domain.StepCosts(l.stepCosts[:0], chainOf(plan), snap, *c.opt)
	for i, act := range plan {
		d.Plan = append(d.Plan, DecisionStep{Action: w.domain.ActionName(resolver.ActionID(act)), Cost: l.stepCosts[i]})
	}
}

func (w *resolverWorld) goalScore(a *Agent, i int) float64 {
	return w.options[i].score((*ResolverAgent)(a))
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
	if t := w.domain.ActionTarget(id); t != resolver.NoTarget && !w.targets[t].where.Found {
		return ReasonTargetLost
	}
	return ""
}

// effectsHold judges the step's boolean effects only: its integer effects
// are directions without amounts.
func (w *resolverWorld) effectsHold(a *Agent, act goap.ActionID) bool {
	return w.domain.BoolEffectsHoldIn(resolver.ActionID(act), a.live.Values)
}

func (w *resolverWorld) recordLive(a *Agent, d *Decision) { w.snapshotInto(a, d, a.live) }

// snapshotInto writes snap as d's snapshot: every key's value, the
// agent's position, the targets found.
func (w *resolverWorld) snapshotInto(a *Agent, d *Decision, snap *resolver.Snapshot) {
	l := a.log
	if l.keyNames == nil {
		for _, k := range w.domain.Keys() {
			l.keyNames = append(l.keyNames, k.Name)
		}
	}
	d.Snapshot.Resolver, d.Snapshot.Keys, d.Snapshot.At = true, l.keyNames, snap.At
	d.Snapshot.Values = append(d.Snapshot.Values, snap.Values...)
	for t, name := range w.domain.Targets() {
		if tg := snap.Targets[t]; tg.Found {
			d.Snapshot.Targets = append(d.Snapshot.Targets, DecisionTarget{Name: name, At: tg.At})
		}
	}
}
