package agent

import "github.com/ploy-ai/ploy/goap"

// world is how an agent knows the world and judges its steps against it:
// a GOAP domain's facts (factsWorld, for GOAP, HTN and tree agents) or a
// resolver domain's snapshot, with targets the agent walks to
// (resolverWorld). The tick machine asks it everything that depends on
// which.
type world interface {
	// sense reads the world at the start of a tick.
	sense(a *Agent)
	// changed reports whether this tick's sensing changed what the agent
	// knows (for HTN interruptions and idling).
	changed(a *Agent) bool
	// senseAfter reads the world again after step act's behaviour
	// succeeded.
	senseAfter(a *Agent, act goap.ActionID)
	// snapshot copies what a planner reads of the world and the goal, so
	// that it can plan on another goroutine: the facts and the GOAP goal,
	// or a resolver agent's chain request. The copy is the agent's
	// buffer, untouched while it waits.
	snapshot(a *Agent) (goap.State, *goap.Goal, *chainRequest)
	// weighAll weighs each of the agent's goal options, in order, into
	// ws (its goalMem, one element an option): whether it is one to pursue
	// now (optionApplies: its goal does not hold yet, its When, the
	// game's, does, and it has found a plan lately) or why not, and its
	// Utility or Priority (the game's) when it applies, else 0. One call
	// for all the options, not one or two each: goal choice weighs every
	// option of every agent on every tick, and Go saves a loop's every
	// live register around each call it makes (chooseUncommitted).
	weighAll(a *Agent, ws []goalMemory)
	// noteGoals writes into each of a record's option notes, one per goal
	// option in order, its goal's name, its Priority as it is now and
	// whether a Utility scores it (noteUtility): one call for all the
	// options, not one each.
	noteGoals(a *Agent, notes []optionNote)
	// optionGoal names goal option i's goal.
	optionGoal(a *Agent, i int) string
	// record writes what a decision record shows of request r's world and
	// of the plan it found: the snapshot the search read, and each step's
	// cost.
	record(a *Agent, r *request, plan []goap.ActionID, d *Decision)
	// recordLive writes what the agent knows now as d's snapshot, for a
	// decision that is no search's (a goal or a utility choice).
	recordLive(a *Agent, d *Decision)
	// goalName names goal option o, for events.
	goalName(a *Agent, o *GoalOption) string
	// actionName names action act, for events and timeouts.
	actionName(a *Agent, act goap.ActionID) string
	// startable returns why step act cannot begin now, or "" if it can.
	startable(a *Agent, act goap.ActionID) string
	// begin sets off for step act's target, if it has one: it clears
	// a.arrived, and sets a.walking if the behaviour waits for arrival.
	begin(a *Agent, act goap.ActionID)
	// move takes the agent a tick toward step act's target, if it has
	// one, and reports whether the step goes on this tick (false: it
	// broke, or it is walking still).
	move(a *Agent, act goap.ActionID) bool
	// effectsHold reports whether step act's effects hold (those that the
	// world can check).
	effectsHold(a *Agent, act goap.ActionID) bool
}

// factsWorld is a GOAP domain's facts, sensed by Config.Sensor (or, with
// none, changed only by the agent's own steps). Its steps have no targets.
type factsWorld struct{}

func (factsWorld) sense(a *Agent) {
	a.prevFacts.CopyFrom(a.facts)
	if a.cfg.Sensor != nil {
		a.cfg.Sensor(a, a.facts)
	}
}

func (factsWorld) changed(a *Agent) bool { return !a.facts.Equal(a.prevFacts) }

// senseAfter recomputes the facts after act's behaviour succeeded: the world
// has changed under it. With no sensor the agent's facts are its own
// model, and the action did what it says.
func (factsWorld) senseAfter(a *Agent, act goap.ActionID) {
	if a.cfg.Sensor == nil {
		a.cfg.Domain.Apply(act, a.facts)
		return
	}
	a.cfg.Sensor(a, a.facts)
}

func (factsWorld) snapshot(a *Agent) (goap.State, *goap.Goal, *chainRequest) {
	if a.snapshot.Words() == nil {
		a.snapshot = a.facts.Clone()
	}
	a.snapshot.CopyFrom(a.facts)
	var goal *goap.Goal
	if a.goal != nil {
		goal = a.goal.Goal
	}
	return a.snapshot, goal, nil
}

// weighAll weighs by the rule resolverWorld.weighAll weighs by, in the
// same order: holds, When, blocked, then the score. Shared as a generic
// method of GoalOptionFor, it was not inlined (gc does not inline a
// shaped instantiation there) and cost the off tick 3 % more
// instructions (crowd 709 142 → 729 653, colony 1 839 488 → 1 903 905,
// callgrind). TestGoalChoiceWeighsTheOptionsInOrder holds both to the
// order.
func (factsWorld) weighAll(a *Agent, ws []goalMemory) {
	goals := a.cfg.Goals[:len(ws)]
	for i := range goals {
		o, w := &goals[i], &ws[i]
		st, score := optionApplies, 0.0
		switch {
		case o.Goal.Holds(a.facts):
			st = optionHolds
		case !o.applies(a):
			st = optionWhenFalse
		case w.blockedUntil > a.tick:
			st = optionBlocked
		default:
			score = o.score(a)
		}
		w.noteWeighed(st, score)
	}
}

func (factsWorld) noteGoals(a *Agent, notes []optionNote) {
	goals := a.cfg.Goals[:len(notes)]
	for i := range goals {
		o, n := &goals[i], &notes[i]
		n.goal, n.priority = o.Goal.Name(), o.Priority
		if o.Utility != nil {
			n.noteWord |= noteUtility
		}
	}
}

func (factsWorld) optionGoal(a *Agent, i int) string { return a.cfg.Goals[i].Goal.Name() }

// record: the true facts the search started from, and each step's cost
// in the state it runs in (costs may depend on the state).
func (factsWorld) record(a *Agent, r *request, plan []goap.ActionID, d *Decision) {
	dom := a.cfg.Domain
	d.Profile.goap, d.Limits = a.cfg.Profile, limitsOf(a.cfg.Limits)
	d.OwnProfile = a.cfg.AgentKind != "" && a.cfg.Profile != a.log.kindGOAP
	factsInto(d, dom, r.facts)
	if len(plan) == 0 {
		return
	}
	if a.log.state.Words() == nil {
		a.log.state = r.facts.Clone()
	}
	s := a.log.state
	s.CopyFrom(r.facts)
	for _, act := range plan {
		c := dom.CostIn(act, s)
		if p := a.cfg.Profile; p != nil {
			c = p.CostIn(act, s)
		}
		d.Plan = append(d.Plan, DecisionStep{Action: dom.ActionName(act), Cost: c})
		dom.Apply(act, s)
	}
}

func (factsWorld) goalName(_ *Agent, o *GoalOption) string { return o.Goal.Name() }

func (factsWorld) actionName(a *Agent, act goap.ActionID) string {
	return a.cfg.Domain.ActionName(act)
}

func (factsWorld) startable(a *Agent, act goap.ActionID) string {
	if !a.cfg.Domain.Applicable(act, a.facts) {
		return ReasonPrecondition
	}
	return ""
}

func (factsWorld) begin(*Agent, goap.ActionID) {}

func (factsWorld) move(*Agent, goap.ActionID) bool { return true }

func (factsWorld) effectsHold(a *Agent, act goap.ActionID) bool {
	return a.cfg.Domain.Effects(act).Holds(a.facts)
}

func (factsWorld) recordLive(a *Agent, d *Decision) { factsInto(d, a.cfg.Domain, a.facts) }

// factsInto writes the facts true in s as d's snapshot.
func factsInto(d *Decision, dom *goap.Domain, s goap.State) {
	for f := range dom.NumFacts() {
		if s.Has(goap.Fact(f)) {
			d.Snapshot.Facts = append(d.Snapshot.Facts, dom.FactName(goap.Fact(f)))
		}
	}
}
