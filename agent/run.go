package agent

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// Replan reasons, as events and statistics report them.
const (
	ReasonStart        = "start"
	ReasonGoalChanged  = "goal changed"
	ReasonPlanDone     = "plan done"
	ReasonPrecondition = "preconditions failed"
	ReasonActionFailed = "action failed"
	ReasonNoEffect     = "effects did not hold"
	ReasonTimeout      = "timeout"
	ReasonNoPlan       = "no plan"
	ReasonStepEnded    = "step ended"
	ReasonProactive    = "proactive"
	ReasonRequested    = "requested"
	ReasonInterruption = "interruption"
	ReasonFactsChanged = "facts changed"
)

// Tick advances the agent by one tick of the game's fixed-step clock: sense,
// choose a goal, plan if needed, run the current step.
func (a *Agent) Tick() {
	a.check()
	a.tick++
	a.world.sense(a)
	if a.pending {
		return // a plan is being resolved on a worker; stand still
	}
	if a.cfg.Tree != nil {
		a.cfg.Tree.Tick(a)
		return
	}
	changed := a.tick == 1 || a.world.changed(a)

	if a.cfg.HTN == nil {
		if g, tally := a.chooseGoal(); g != a.goal {
			a.changeGoal(g, tally)
		}
		if a.goal == nil {
			return // nothing to pursue
		}
	}
	active := a.plan != nil
	switch {
	case a.wantPlan != "":
	case a.cfg.HTN != nil && a.cfg.HTNMode == Interrupt && changed && active:
		a.request(request{kind: interruptRequest, reason: ReasonFactsChanged})
		if a.pending {
			return
		}
	case a.cfg.Policy.Kind == Proactive && active && a.cfg.Policy.Interval > 0 && a.tick-a.lastPlan >= a.cfg.Policy.Interval:
		a.wantPlan = ReasonProactive
	case !active && a.idle && !changed:
		// An empty plan (an HTN's Idle method): nothing to do until the
		// facts change.
	case !active && a.tick >= a.retryAt:
		switch {
		case !a.planned:
			a.wantPlan = ReasonStart
		case a.idle:
			a.wantPlan = ReasonFactsChanged
		case a.done:
			a.wantPlan = ReasonPlanDone
		default:
			a.wantPlan = ReasonNoPlan
		}
	}
	if a.wantPlan != "" {
		reason := a.wantPlan
		a.wantPlan = ""
		if !a.headOnly {
			a.dropPlan()
		}
		a.request(request{kind: planRequest, reason: reason})
		if a.pending {
			return
		}
	}
	a.execute()
}

// changeGoal makes g the agent's goal (nil: none), says so and asks for
// a plan for it; tally is why no option applied, for an event with no
// goal.
func (a *Agent) changeGoal(g *GoalOption, tally noGoalTally) {
	if g == nil && a.log != nil {
		a.recordNoGoal(a.goal)
	}
	e := Event{Kind: GoalChosen}
	if g == nil && a.cfg.OnEvent != nil {
		// Say why the agent has nothing to pursue: its goal is done, or
		// what keeps every option out.
		if tally.satisfied() {
			e.Satisfied = a.goalName()
		}
		e.Why = tally.why()
	}
	a.goal = g
	a.goalSince = uint32(a.tick)
	a.emit(e)
	a.dropPlan()
	if g != nil {
		a.wantPlan = ReasonGoalChanged
		if !a.planned {
			a.wantPlan = ReasonStart
		}
	}
}

// chooseGoal returns the applicable goal option with the highest score:
// its Utility if it has one, else its Priority, ties to the earlier option.
// Options whose goal already holds, whose When is false, or which found no
// plan recently are skipped. The current goal is kept while no other
// scores strictly more, so that equal scores do not flicker, and, with a
// Commitment, while the options that score more are held off by its
// rules. When none applies, tally says why, by option state. An agent
// that records its decisions notes how it weighed each option
// (goalMemory), for the decision the choice may lead to.
func (a *Agent) chooseGoal() (*GoalOption, noGoalTally) {
	switch {
	case a.cfg.Commitment != nil && a.log != nil:
		return chooseCommitted[noting](a)
	case a.cfg.Commitment != nil:
		return chooseCommitted[notNoting](a)
	case a.log != nil:
		return chooseUncommitted[noting](a)
	}
	return chooseUncommitted[notNoting](a)
}

// notNoting and noting compile each goal choice loop twice, one without
// the notes of an agent that records its decisions and one with them:
// the loops test noted[M](), the type argument's size. The language does
// not make that a constant, but gc compiles a generic function once per
// shape of its type arguments, an empty struct and a one-byte one are
// two shapes, and in each the size folds, so the loop without notes has
// none of their code, not even a test (go tool objdump shows it). Were
// it not folded, the loops would only be slower, never wrong. One loop that
// tested whether the agent records cost every agent's tick with
// recording off 1.2 % (crowd) and 2.1 % (colony) more time, measured
// against a build without the notes (benchstat, 20 interleaved rounds),
// and the loop with notes paid for the tests and the registers they took.
type (
	notNoting struct{}
	noting    struct{ _ byte }
)

// noted reports whether M notes the options: whether it has a size
// (folded in each instantiation; TestNotedTellsTheInstantiationsApart).
func noted[M notNoting | noting]() bool {
	var m M
	return unsafe.Sizeof(m) != 0
}

// chooseUncommitted is goal choice without a commitment: the loop of
// before commitment, apart, as the committed loop's extra state cost an
// agent's tick up to a fifth more (BenchmarkAgentTickGoalChoice).
//
// Both loops first have the world weigh every option into the agent's
// goalMem (weighAll), in one call, and then choose from what it wrote,
// with no call in the loop. Weighed in the loop, an option at a time
// (two calls each), the loop saved and reloaded its state around every
// call, since Go keeps no register across one: the colony's goal choice
// took about 100 000 more instructions a tick with recording off, and
// the notes of a recording agent, which kept more state live, about
// 60 000 more again (callgrind, docs/records.md). Now the options' notes
// are what weighAll wrote, and only the choice's own are left to note.
// (Results unnamed: with named ones and the tally a struct, go1.26.8
// -race lost its satisfied flag between here and Tick.)
func chooseUncommitted[M notNoting | noting](a *Agent) (*GoalOption, noGoalTally) {
	goals := a.cfg.Goals
	ws := a.goalMem[:len(goals)]
	a.world.weighAll(a, ws)
	var tally noGoalTally
	bestScore, currentScore, current := 0.0, 0.0, false
	bestAt, currentAt := -1, -1
	for i := range ws {
		w := &ws[i]
		isCurrent := &goals[i] == a.goal
		if isCurrent {
			currentAt = i
		}
		if st := w.state(); st != optionApplies {
			tally.add(st)
			if isCurrent && st == optionHolds {
				tally |= tallySatisfied
			}
			continue
		}
		score := w.score
		if isCurrent {
			currentScore, current = score, true
		}
		if bestAt < 0 || score > bestScore {
			bestScore, bestAt = score, i
		}
	}
	kept := current && currentScore >= bestScore
	if noted[M]() {
		if currentAt >= 0 {
			ws[currentAt].note(notedCurrent)
		}
		chosen := bestAt
		if kept {
			chosen = currentAt
		}
		a.noteChoice(&a.goalMem[len(goals)], chosen, kept)
	}
	if kept {
		return a.goal, tally
	}
	if bestAt < 0 {
		return nil, tally
	}
	return &goals[bestAt], tally
}

// chooseCommitted is goal choice for an agent with a Commitment: an
// option that outscores the current goal is held off by the
// commitment's rules.
func chooseCommitted[M notNoting | noting](a *Agent) (*GoalOption, noGoalTally) {
	goals := a.cfg.Goals
	ws := a.goalMem[:len(goals)]
	a.world.weighAll(a, ws)
	var tally noGoalTally
	bestScore, currentScore, current := 0.0, 0.0, false
	bestAt := -1
	// The current goal's score, which the options are compared with.
	c := a.cfg.Commitment
	committed, at, onGoal, anyHeld := false, -1, 0, false
	var atScore float64
	if a.goal != nil {
		if at = a.goalIndex(); at >= 0 {
			committed, atScore, onGoal = ws[at].state() == optionApplies, ws[at].score, a.onGoal()
		}
	}
	for i := range ws {
		w := &ws[i]
		st := w.state()
		if st != optionApplies {
			tally.add(st)
			if i == at && st == optionHolds {
				tally |= tallySatisfied
			}
			continue
		}
		score := w.score
		if committed && i != at && score > atScore {
			if held := c.holds(i, score, atScore, onGoal, a.running); held != heldNot {
				if noted[M]() {
					w.noteHeld(held)
				}
				anyHeld = true
				continue // the current goal is kept against it
			}
		}
		if i == at {
			currentScore, current = score, true
		}
		if bestAt < 0 || score > bestScore {
			bestScore, bestAt = score, i
		}
	}
	kept := current && currentScore >= bestScore
	if noted[M]() {
		// notes is the choice's own notes, after the options'.
		notes := &a.goalMem[len(goals)]
		notes.blockedUntil, notes.onGoal = at, uint32(onGoal) // at: current
		chosen, set := bestAt, uint8(0)
		if kept {
			chosen, set = at, notedKept
			if anyHeld {
				set |= notedHolding
			}
		}
		// The first tick commitment holds off an option that would have
		// replaced the goal is a decision of its own.
		first := kept && anyHeld && notes.notes()&notedHolding == 0
		a.noteCommitted(notes, chosen, set)
		if first {
			a.recordKept()
		}
	}
	if kept {
		return a.goal, tally
	}
	if bestAt < 0 {
		return nil, tally
	}
	return &goals[bestAt], tally
}

// noGoalTally counts goal options by why they did not apply, 20 bits
// for each optionState that is not optionApplies (optionHolds in the
// lowest, saturating), and says in its top bit whether the current goal
// was one that holds. One word,
// so that goal choice returns it in a register: a struct cost every
// tick's goal choice a few percent.
type noGoalTally uint64

const (
	tallyBits      = 20
	tallyMax       = 1<<tallyBits - 1
	tallySatisfied = noGoalTally(1) << 63
)

// add counts an option in state st.
func (t *noGoalTally) add(st optionState) {
	if t.count(st) < tallyMax {
		*t += 1 << (tallyBits * (uint(st) - 1))
	}
}

// count is how many options were in state st.
func (t noGoalTally) count(st optionState) int {
	return int(t>>(tallyBits*(uint(st)-1))) & tallyMax
}

// satisfied says whether the current goal was one that holds.
func (t noGoalTally) satisfied() bool { return t&tallySatisfied != 0 }

// why says why no goal option applied, for a goal_chosen event with no
// goal.
func (t noGoalTally) why() string {
	var parts []string
	for _, s := range []struct {
		st       optionState
		one, few string
	}{
		{optionHolds, "1 goal holds", "%d goals hold"},
		{optionWhenFalse, "1 option's when is false", "%d options' whens are false"},
		{optionBlocked, "1 option found no plan and waits to plan again", "%d options found no plan and wait to plan again"},
	} {
		switch n := t.count(s.st); {
		case n == 1:
			parts = append(parts, s.one)
		case n > 1:
			parts = append(parts, fmt.Sprintf(s.few, n))
		}
	}
	return "no goal option applies: " + strings.Join(parts, ", ")
}

// goalIndex returns the index of the current goal among the agent's goal
// options, or -1 (no goal, or a tree leaf's own).
func (a *Agent) goalIndex() int {
	for i := range a.cfg.Goals {
		if &a.cfg.Goals[i] == a.goal {
			return i
		}
	}
	return -1
}

func (a *Agent) goalName() string {
	if a.goal == nil {
		return ""
	}
	return a.world.goalName(a, a.goal)
}

func (a *Agent) emit(e Event) {
	if a.cfg.OnEvent == nil {
		return
	}
	e.Tick = a.tick
	e.Agent = a.cfg.Name
	// The event's own copy: the MTR is the agent's result buffer, which
	// the next decomposition overwrites, and a listener may keep events.
	e.MTR = slices.Clone(e.MTR)
	if e.Goal == "" {
		e.Goal = a.goalName()
	}
	a.cfg.OnEvent(e)
}

// actionNames names a plan's actions for an event; nil when nobody listens,
// so that an unobserved agent allocates nothing for its events.
func (a *Agent) actionNames(plan []goap.ActionID) []string {
	if a.cfg.OnEvent == nil {
		return nil
	}
	out := make([]string, len(plan))
	for i, id := range plan {
		out[i] = a.world.actionName(a, id)
	}
	return out
}

// dropPlan stops the running step's behaviour, if it started, and forgets
// the plan.
func (a *Agent) dropPlan() {
	if a.running && !a.walking {
		a.behaviours[a.plan[a.step]].Stop(a)
	}
	a.running, a.walking = false, false
	a.plan = nil
	a.step = 0
}

// execute runs the current step: start it if it can begin on the live
// world (only the head of a plan is committed), take the agent to its
// target if it has one (see resolverWorld.move), tick its behaviour, and
// advance when its effects hold.
func (a *Agent) execute() {
	for a.plan != nil && a.step < len(a.plan) {
		act := a.plan[a.step]
		if !a.running {
			if reason := a.world.startable(a, act); reason != "" {
				a.breakPlan(act, reason)
				return
			}
			a.running, a.started, a.acted = true, a.tick, false
			a.arrived, a.walking = true, false
			a.world.begin(a, act)
			if !a.walking {
				a.startBehaviour(act)
			}
		} else if !a.headOnly && a.world.effectsHold(a, act) {
			a.finishStep()
			continue
		}
		if !a.world.move(a, act) {
			return
		}
		if !a.acted {
			switch a.behaviours[act].Tick(a) {
			case Running:
				a.checkTimeout(act)
				return
			case Failure:
				a.breakPlan(act, ReasonActionFailed)
				return
			}
			a.acted = true
		}
		if !a.arrived {
			a.checkTimeout(act) // done, but not yet within the stopping distance
			return
		}
		// Success: the world has changed under the behaviour, so sense it
		// again before judging the step by its effects.
		a.world.senseAfter(a, act)
		if !a.world.effectsHold(a, act) {
			a.breakPlan(act, ReasonNoEffect)
			return
		}
		a.finishStep()
		return // one step per tick at most: the next starts on the next tick
	}
}

// startBehaviour starts step act's behaviour.
func (a *Agent) startBehaviour(act goap.ActionID) {
	a.emit(Event{Kind: StepStarted, Action: a.world.actionName(a, act)})
	a.behaviours[act].Start(a)
}

// breakPlan records that step act broke the plan for reason, drops the
// plan and asks for a new one. A step that never started (its
// preconditions failed, its target was lost) is not counted as a failed
// action.
func (a *Agent) breakPlan(act goap.ActionID, reason string) {
	a.emit(Event{Kind: ActionFailed, Action: a.world.actionName(a, act), Reason: reason})
	if reason != ReasonPrecondition && reason != ReasonTargetLost {
		a.stats.ActionsFailed++
	}
	a.dropPlan()
	a.wantPlan = reason
}

// checkTimeout breaks the plan if step act has run for its timeout.
func (a *Agent) checkTimeout(act goap.ActionID) {
	if t := a.timeout(act); t > 0 && a.tick-a.started >= t {
		a.breakPlan(act, ReasonTimeout)
	}
}

func (a *Agent) timeout(act goap.ActionID) int {
	if t, ok := a.cfg.Timeouts[a.world.actionName(a, act)]; ok {
		return t
	}
	return a.cfg.DefaultTimeout
}

// finishStep ends the running step and advances; at the plan's end the
// agent chooses again, and under Reactive and Proactive it replans after
// every step.
func (a *Agent) finishStep() {
	act := a.plan[a.step]
	a.behaviours[act].Stop(a)
	a.running, a.walking = false, false
	a.stats.StepsDone++
	a.emit(Event{Kind: StepDone, Action: a.world.actionName(a, act)})
	a.step++
	if a.step >= len(a.plan) {
		a.emit(Event{Kind: PlanDone})
		a.plan = nil
		a.step = 0
		a.done = true
		return
	}
	if k := a.cfg.Policy.Kind; k == Reactive || k == Proactive {
		a.wantPlan = ReasonStepEnded
	}
}

// keeps reports whether adopting plan keeps the running step going: the
// plan starts with it.
func (a *Agent) keeps(plan []goap.ActionID) bool {
	return a.running && len(plan) > 0 && a.plan[a.step] == plan[0]
}

// adopt makes a resolved plan the agent's, keeping the running step going
// (its walk included) if the new plan starts with it.
func (a *Agent) adopt(plan []goap.ActionID, mtr htn.MTR) {
	if !a.keeps(plan) {
		a.dropPlan()
	}
	a.planStore = append(a.planStore[:0], plan...)
	a.plan = a.planStore
	a.step = 0
	a.mtr = append(a.mtr[:0], mtr...)
	a.lastPlan = a.tick
	a.planned = true
	a.done = false
	a.idle = len(a.plan) == 0 && !a.headOnly
	if len(a.plan) == 0 {
		a.emit(Event{Kind: PlanDone})
		a.plan = nil
		a.done = a.headOnly // a resolver's empty chain: the goal held
	}
}
