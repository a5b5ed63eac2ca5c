package agent

import (
	"fmt"
	"math"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/search"
)

// Node is a behaviour-tree node, built for one agent (nodes keep their
// running state). An agent whose Config has a Tree ticks it every tick
// instead of planning; the tree's Action leaves run the same registered
// behaviours a plan runs, so one behaviour works in a tree, a utility
// selector and a plan alike.
type Node interface {
	// Tick runs the node for one tick.
	Tick(a *Agent) Status
	// Halt stops the node if it is running (a higher-priority branch took
	// over), so that a running action can clean up.
	Halt(a *Agent)
}

// checked is a node that New can check against the agent's domain: the
// package's nodes name actions, facts and goals of the domain they were
// built over, and one from another domain would index the wrong action or
// fact. Nodes a game writes itself are not checked.
type checked interface {
	check(d *goap.Domain) error
}

func checkNodes(d *goap.Domain, nodes []Node) error {
	for _, n := range nodes {
		if c, ok := n.(checked); ok {
			if err := c.check(d); err != nil {
				return err
			}
		}
	}
	return nil
}

// builtOver says whether a node built over domain built may run in an
// agent of domain d, and if not, what is wrong.
func builtOver(node string, built, d *goap.Domain) error {
	if built == d {
		return nil
	}
	return fmt.Errorf("the tree's %s was built over %s", node, otherDomain(built, d))
}

type sequence struct {
	children []Node
	current  int
}

// Sequence runs its children in order and succeeds when all have; it fails
// as soon as one fails. A running child is resumed on the next tick.
func Sequence(children ...Node) Node { return &sequence{children: children} }

func (s *sequence) Tick(a *Agent) Status {
	a.stats.TreeTicks++
	for s.current < len(s.children) {
		switch s.children[s.current].Tick(a) {
		case Running:
			return Running
		case Failure:
			s.current = 0
			return Failure
		}
		s.current++
	}
	s.current = 0
	return Success
}

func (s *sequence) check(d *goap.Domain) error { return checkNodes(d, s.children) }

func (s *sequence) Halt(a *Agent) {
	if s.current < len(s.children) {
		s.children[s.current].Halt(a)
	}
	s.current = 0
}

type selector struct {
	children []Node
	running  int // the child that returned Running last tick, or -1
}

// Selector tries its children in order every tick and returns the first
// that does not fail. It checks conditions only now, not down the branch:
// the behaviour tree's fallback, without the lookahead of an HTN. When an
// earlier child takes over from a running later one, the later one is
// halted.
func Selector(children ...Node) Node { return &selector{children: children, running: -1} }

func (s *selector) Tick(a *Agent) Status {
	a.stats.TreeTicks++
	for i, c := range s.children {
		st := c.Tick(a)
		if st == Failure {
			continue
		}
		if s.running >= 0 && s.running != i {
			s.children[s.running].Halt(a)
		}
		s.running = -1
		if st == Running {
			s.running = i
		}
		return st
	}
	if s.running >= 0 {
		s.children[s.running].Halt(a)
		s.running = -1
	}
	return Failure
}

func (s *selector) check(d *goap.Domain) error { return checkNodes(d, s.children) }

func (s *selector) Halt(a *Agent) {
	if s.running >= 0 {
		s.children[s.running].Halt(a)
		s.running = -1
	}
}

type condition struct {
	holds func(a *Agent) bool
	// domain and fact, for FactIs: the domain the fact was looked up in
	domain *goap.Domain
	fact   string
}

// Condition succeeds when check holds and fails otherwise.
func Condition(check func(a *Agent) bool) Node { return condition{holds: check} }

// FactIs is a Condition on one fact of the agent's facts.
func FactIs(d *goap.Domain, fact string, value bool) Node {
	f, ok := d.Fact(fact)
	if !ok {
		panic("agent: FactIs: unknown fact " + fact)
	}
	return condition{holds: func(a *Agent) bool { return a.facts.Has(f) == value }, domain: d, fact: fact}
}

func (c condition) check(d *goap.Domain) error {
	if c.domain == nil {
		return nil
	}
	return builtOver(fmt.Sprintf("FactIs(%q)", c.fact), c.domain, d)
}

func (c condition) Tick(a *Agent) Status {
	a.stats.TreeTicks++
	if c.holds(a) {
		return Success
	}
	return Failure
}

func (condition) Halt(*Agent) {}

type actionLeaf struct {
	domain  *goap.Domain
	name    string
	id      goap.ActionID
	running bool
}

// Action runs the agent's registered behaviour for the named action: it
// fails at once if the action's preconditions do not hold, then starts the
// behaviour and ticks it until it succeeds or fails.
func Action(d *goap.Domain, name string) Node {
	id, ok := d.ActionByName(name)
	if !ok {
		panic("agent: Action: unknown action " + name)
	}
	return &actionLeaf{domain: d, name: name, id: id}
}

func (l *actionLeaf) check(d *goap.Domain) error {
	return builtOver(fmt.Sprintf("Action(%q)", l.name), l.domain, d)
}

func (l *actionLeaf) Tick(a *Agent) Status {
	a.stats.TreeTicks++
	beh := a.behaviours[l.id]
	if !l.running {
		if !a.cfg.Domain.Applicable(l.id, a.facts) {
			return Failure
		}
		l.running = true
		a.emit(Event{Kind: StepStarted, Action: l.name})
		beh.Start(a)
	}
	st := beh.Tick(a)
	if st == Running {
		return Running
	}
	beh.Stop(a)
	l.running = false
	if st == Success {
		a.world.senseAfter(a, l.id) // the world has changed under the behaviour
		a.stats.StepsDone++
		a.emit(Event{Kind: StepDone, Action: l.name})
	} else {
		a.stats.ActionsFailed++
		a.emit(Event{Kind: ActionFailed, Action: l.name, Reason: ReasonActionFailed})
	}
	return st
}

func (l *actionLeaf) Halt(a *Agent) {
	if l.running {
		a.behaviours[l.id].Stop(a)
		l.running = false
	}
}

type goapLeaf struct {
	option  GoalOption
	waiting bool // its request is in the agent's queue
	retryAt int  // after no plan, the tick from which it plans again
}

// Plan is a leaf that pursues a GOAP goal with the agent's planner and
// executor: it succeeds when the goal holds, fails when there is no plan,
// and runs the plan, replanning when it breaks, in between. It is seed
// 001's hybrid: a tree for the structure, a planner in the combat leaf.
func Plan(goal *goap.Goal) Node {
	if goal == nil {
		panic("agent: Plan: nil goal")
	}
	return &goapLeaf{option: GoalOption{Goal: goal}}
}

func (l *goapLeaf) Tick(a *Agent) Status {
	if l.option.Goal.Holds(a.facts) {
		l.Halt(a)
		return Success
	}
	if a.tick < l.retryAt {
		return Failure
	}
	if l.waiting {
		// The queue has answered (the agent does not tick its tree while a
		// request is pending). No plan: the answer cleared the goal.
		l.waiting = false
		if a.goal != &l.option {
			return l.noPlan(a)
		}
	}
	if a.goal != &l.option {
		a.dropPlan()
		a.leaf = nil
		a.goal = &l.option
		a.emit(Event{Kind: GoalChosen})
	}
	if a.plan == nil || a.wantPlan != "" {
		reason := a.wantPlan
		if reason == "" {
			reason = ReasonStart
		}
		a.wantPlan = ""
		a.dropPlan()
		a.request(request{kind: planRequest, reason: reason})
		if a.pending {
			l.waiting = true
			return Running
		}
		if a.plan == nil {
			a.goal = nil
			return l.noPlan(a)
		}
	}
	a.execute()
	if l.option.Goal.Holds(a.facts) {
		l.Halt(a)
		return Success
	}
	return Running
}

// noPlan fails, and keeps failing without planning until the retry.
func (l *goapLeaf) noPlan(a *Agent) Status {
	l.retryAt = a.tick + max(a.cfg.RetryAfter, 1)
	return Failure
}

func (l *goapLeaf) check(d *goap.Domain) error {
	return builtOver(fmt.Sprintf("Plan(%q)", l.option.Goal.Name()), l.option.Goal.Domain(), d)
}

func (l *goapLeaf) Halt(a *Agent) {
	l.waiting = false
	if a.goal == &l.option {
		a.dropPlan()
		a.goal = nil
	}
}

// UtilityOption scores one action for a utility selector.
type UtilityOption struct {
	Action string
	Score  func(a *Agent) float64
}

type utility struct {
	domain  *goap.Domain
	options []UtilityOption
	ids     []goap.ActionID
	margin  float64
	current int // running option, or -1
	// scores are this tick's, NaN for an option that did not apply: kept
	// only for an agent that records its decisions.
	scores []float64
}

// Utility is a utility selector over actions: every tick it scores the
// options whose preconditions hold and runs the best; a running action
// keeps going unless another scores more than margin above it (hysteresis,
// so that near-equal scores do not flicker). It succeeds when an action
// completes and fails when no option applies.
func Utility(d *goap.Domain, margin float64, options ...UtilityOption) Node {
	u := &utility{domain: d, options: options, margin: margin, current: -1}
	for _, o := range options {
		id, ok := d.ActionByName(o.Action)
		if !ok {
			panic("agent: Utility: unknown action " + o.Action)
		}
		u.ids = append(u.ids, id)
	}
	return u
}

func (u *utility) Tick(a *Agent) Status {
	best, bestScore := -1, 0.0
	currentScore := 0.0
	if a.log != nil {
		u.scores = u.scores[:0]
	}
	for i, o := range u.options {
		if i != u.current && !a.cfg.Domain.Applicable(u.ids[i], a.facts) {
			if a.log != nil {
				u.scores = append(u.scores, math.NaN())
			}
			continue
		}
		s := o.Score(a)
		if a.log != nil {
			u.scores = append(u.scores, s)
		}
		a.stats.TreeTicks++
		if i == u.current {
			currentScore = s
		}
		if best < 0 || s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return Failure
	}
	if u.current >= 0 && best != u.current && bestScore <= currentScore+u.margin {
		best = u.current
	}
	running := u.current // Halt forgets it; the record names it
	if u.current >= 0 && best != u.current {
		u.Halt(a)
	}
	beh := a.behaviours[u.ids[best]]
	name := u.options[best].Action
	if u.current != best {
		if a.log != nil {
			u.record(a, best, running)
		}
		u.current = best
		a.emit(Event{Kind: StepStarted, Action: name})
		beh.Start(a)
	}
	st := beh.Tick(a)
	if st == Running {
		return Running
	}
	beh.Stop(a)
	u.current = -1
	if st == Success {
		a.world.senseAfter(a, u.ids[best])
		a.stats.StepsDone++
		a.emit(Event{Kind: StepDone, Action: name})
	} else {
		a.stats.ActionsFailed++
		a.emit(Event{Kind: ActionFailed, Action: name, Reason: ReasonActionFailed})
	}
	return st
}

func (u *utility) check(d *goap.Domain) error { return builtOver("Utility", u.domain, d) }

func (u *utility) Halt(a *Agent) {
	if u.current >= 0 {
		a.behaviours[u.ids[u.current]].Stop(a)
		u.current = -1
	}
}

// record records the selector's choice of option best, which starts now
// (a choice that keeps the running action is no new decision): every
// option with its score, or why it did not apply, on the agent's facts.
// running is the option that was running (-1 for none), which best
// preempts.
func (u *utility) record(a *Agent, best, running int) {
	d := a.startRecord()
	a.blank(d, "choice")
	d.Reason, d.Status = "utility", search.Found.String()
	d.Margin = u.margin
	if running >= 0 {
		d.Current = u.options[running].Action
	}
	for i, o := range u.options {
		g := GoalScore{Goal: o.Action, Utility: true, Chosen: i == best, Current: i == running}
		s := u.scores[i]
		switch {
		case math.IsNaN(s) && !a.cfg.Domain.Applicable(u.ids[i], a.facts):
			g.Why = "preconditions unmet"
		case math.IsNaN(s):
			g.Why = "score is not a number"
		case i == best:
			g.Score, g.Why = finite(s), "highest score"
		case i == running:
			g.Score, g.Why = finite(s), "the running action, outscored by more than the margin"
		default:
			g.Score, g.Why = finite(s), "lower score"
		}
		d.Options = append(d.Options, g)
	}
	id := u.ids[best]
	d.Plan = append(d.Plan, DecisionStep{Action: u.options[best].Action, Cost: a.cfg.Domain.CostIn(id, a.facts)})
	d.Cost = d.Plan[0].Cost
	a.world.recordLive(a, d)
	a.finishRecord(d)
}
