package agent

import (
	"fmt"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// resolverWorld is a resolver agent's world: a resolver.Snapshot of
// integers (booleans 0 or 1) and positions, read every tick by the
// agent's WorldSensor and target sensors into Agent.live. Its actions'
// conditions and boolean effects are compiled against the domain's keys,
// to be judged every tick without a snapshot check; its integer effects
// are directions without amounts, which it cannot check.
type resolverWorld struct {
	// What a tick reads (a tick that asks for a chain included) comes
	// first, on as few cache lines as hold it (see Agent's fields).
	domain  *resolver.Domain
	sensor  WorldSensor
	targets []TargetSensor   // by TargetID
	where   []Where          // by TargetID, this tick
	goals   []goalConds      // by goal option
	opt     resolver.Options // a resolve's: the profile (SetProfile's), cfg's limits, distance and context
	// request is what a resolve reads, copied at submit.
	request chainRequest

	conds [][]keyCond // by action: its conditions
	sets  [][]keyCond // by action: its boolean effects, as conditions
	mover Mover
	cfg   *ResolverConfig // the rest, for SetProfile's checks and the accessors
}

// goalConds is a goal option's goal and its conditions, compiled.
type goalConds struct {
	goal  *resolver.Goal
	conds []keyCond
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

func allHold(cs []keyCond, values []int64) bool {
	for _, c := range cs {
		if !c.holds(values) {
			return false
		}
	}
	return true
}

// init compiles cfg's actions, goals and target sensors, which cfg.check
// has checked.
func (w *resolverWorld) init(cfg ResolverConfig) {
	d := cfg.Domain
	*w = resolverWorld{
		cfg:     &cfg,
		mover:   cfg.Mover,
		domain:  d,
		sensor:  cfg.Sensor,
		opt:     resolver.Options{Profile: cfg.Profile, Budget: cfg.Budget, MaxDepth: cfg.MaxDepth, Distance: cfg.Distance, Context: cfg.Context},
		conds:   make([][]keyCond, d.NumActions()),
		sets:    make([][]keyCond, d.NumActions()),
		targets: make([]TargetSensor, len(d.Targets())),
		where:   make([]Where, len(d.Targets())),
	}
	w.request.snap = *d.NewSnapshot()
	for id := range d.NumActions() {
		act := resolver.ActionID(id)
		for _, c := range d.Conditions(act) {
			k, _ := d.Key(c.Key)
			w.conds[id] = append(w.conds[id], keyCond{key: k, op: c.Op, value: c.Value})
		}
		for _, e := range d.Effects(act) {
			k, _ := d.Key(e.Key)
			switch e.Dir {
			case resolver.SetTrue:
				w.sets[id] = append(w.sets[id], keyCond{key: k, op: resolver.Is, value: 1})
			case resolver.SetFalse:
				w.sets[id] = append(w.sets[id], keyCond{key: k, op: resolver.Is, value: 0})
			}
		}
	}
	for _, o := range cfg.Goals {
		var cs []keyCond
		for _, c := range o.Goal.Conditions() {
			k, _ := d.Key(c.Key)
			cs = append(cs, keyCond{key: k, op: c.Op, value: c.Value})
		}
		w.goals = append(w.goals, goalConds{goal: o.Goal, conds: cs})
	}
	for name, s := range cfg.Targets {
		t, _ := d.Target(name)
		w.targets[t] = s
	}
}

// sense reads the world into the live snapshot: keys and position from the
// sensor, targets from the target sensors.
func (w *resolverWorld) sense(a *Agent) {
	w.sensor((*ResolverAgent)(a), a.live)
	for t, ts := range w.targets {
		where := Where{}
		if ts != nil {
			where = ts((*ResolverAgent)(a))
		}
		w.where[t] = where
		a.live.Targets[t] = resolver.Target{At: where.Position(), Found: where.Found}
	}
	if err := w.domain.CheckSnapshot(a.live); err != nil {
		panic(fmt.Sprintf("agent %q: after sensing: %v", a.cfg.Name, err))
	}
}

// changed is false: a resolver agent neither idles nor is interrupted.
func (w *resolverWorld) changed(*Agent) bool { return false }

func (w *resolverWorld) senseAfter(a *Agent, _ goap.ActionID) { w.sense(a) }

func (w *resolverWorld) goalHolds(a *Agent, i int) bool {
	return allHold(w.goals[i].conds, a.live.Values)
}

func (w *resolverWorld) goalName(a *Agent, o *GoalOption) string {
	for i := range a.cfg.Goals {
		if &a.cfg.Goals[i] == o {
			return w.goals[i].goal.Name()
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
	return allHold(w.conds[act], a.live.Values)
}

// startable: a step begins only if its conditions hold in the live
// snapshot and its target, if it has one, is found.
func (w *resolverWorld) startable(a *Agent, act goap.ActionID) string {
	id := resolver.ActionID(act)
	if !w.holds(a, id) {
		return ReasonPrecondition
	}
	if t := w.domain.ActionTarget(id); t != resolver.NoTarget && !w.where[t].Found {
		return ReasonTargetLost
	}
	return ""
}

// effectsHold judges the step's boolean effects only: its integer effects
// are directions without amounts.
func (w *resolverWorld) effectsHold(a *Agent, act goap.ActionID) bool {
	return allHold(w.sets[act], a.live.Values)
}
