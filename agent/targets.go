package agent

import (
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// A resolver agent's steps may happen at targets: the nearest wood pile,
// the deer it hunts. Its target sensors find them when the agent needs
// them (a resolve, a head check, a walk), at most once a tick, and the
// game's Mover takes it there before (or while) the step's behaviour runs.

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

// TargetSensor resolves one target key for one agent: to a position, to an
// entity with a position, or to nothing. The nearest wood pile, the deer
// it hunts, the item the customer asked for. It is called when the agent
// needs the key, at most once a tick (ResolverConfig.TargetRefresh: less
// often), on the goroutine that ticks the agent. An answer other than the
// last (another position, another entity, or nothing) while the agent
// walks to the key's target ends the walk: the target is lost. Something
// that moves is an entity (OnEntity), so that its moving is not taken for
// another target.
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

// Why a target_lost event says a step's target is lost.
const (
	// LostNotFound: the target sensor finds nothing now.
	LostNotFound = "not found"
	// LostAnotherTarget: the target sensor now finds another target (a
	// position or an entity other than the one the step set off for):
	// the nearest well ran dry and the next nearest is the answer.
	LostAnotherTarget = "another target"
)

// lose ends step act, whose target t is lost (found elsewhere or not at
// all): a target_lost event, and the chain broken for ReasonTargetLost,
// so that the agent resolves again, its chain priced from where the
// targets are now, rather than walking on toward another one.
func (w *resolverWorld) lose(a *Agent, act goap.ActionID, t resolver.TargetID, found bool) {
	if a.cfg.OnEvent != nil {
		why := LostNotFound
		if found {
			why = LostAnotherTarget
		}
		a.emit(Event{Kind: TargetLost, Action: w.domain.ActionName(resolver.ActionID(act)), Target: w.domain.Targets()[t], Reason: why})
	}
	a.breakPlan(act, ReasonTargetLost)
}

// begin sets off for step act's target, if it has one: the agent walks
// first for a MoveThenPerform action, and performs on the way for a
// PerformWhileMoving one.
func (w *resolverWorld) begin(a *Agent, act goap.ActionID) {
	d, id := w.domain, resolver.ActionID(act)
	t := d.ActionTarget(id)
	if t == resolver.NoTarget {
		return
	}
	a.arrived = false
	a.walking = d.MoveMode(id) == resolver.MoveThenPerform
	// The target the head check found is the one the step goes to: a
	// later answer that is another target means this one is gone.
	w.targets[t].changed = false
	a.emit(Event{Kind: MoveStarted, Action: d.ActionName(id)})
}

// move asks the mover to take the agent a tick toward step act's target,
// as its move mode says:
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
// A target lost on the way (the sensor finds nothing, or another target
// than the one the step set off for) ends the step with a target_lost
// event (ReasonTargetLost), and a move that fails ends it too
// (ReasonMoveFailed). It reports whether the step goes on
// this tick.
func (w *resolverWorld) move(a *Agent, act goap.ActionID) bool {
	d, id := w.domain, resolver.ActionID(act)
	t := d.ActionTarget(id)
	if t == resolver.NoTarget || a.arrived && d.MoveMode(id) != resolver.PerformWhileMoving {
		return true
	}
	where := w.target(a, t)
	if !where.Found || w.targets[t].changed {
		w.lose(a, act, t, where.Found)
		return false
	}
	if a.walking && a.tick > a.started && !w.holds(a, id) {
		a.breakPlan(act, ReasonPrecondition)
		return false
	}
	switch w.mover.MoveToward(where.Position(), d.StoppingDistance(id)) {
	case MoveFailed:
		a.breakPlan(act, ReasonMoveFailed)
		return false
	case Moving:
		a.arrived = false
		if a.walking {
			a.checkTimeout(act)
			return false
		}
	case Arrived:
		if !a.arrived {
			a.emit(Event{Kind: TargetReached, Action: d.ActionName(id)})
		}
		a.arrived = true
		if a.walking {
			a.walking = false
			a.startBehaviour(act)
		}
	}
	return true
}
