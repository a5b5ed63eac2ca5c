package strips

import (
	"fmt"
	"slices"
)

// Fact is a dense fact index: fact f is bit f%64 of word f/64 of a state.
type Fact int32

// MaxCost is the most one operator may cost. Plans sum their costs in int64,
// so no plan of fewer than 2^32 steps can overflow.
const MaxCost = 1 << 31

// MaxOps is the most operators a task may have: a search packs an
// operator's index in 28 bits of a word.
const MaxOps = 1<<28 - 1

// Task is a ground STRIPS task: facts, operators over them with positive
// and negative preconditions, add and delete effects and whole-number
// costs, an initial state and a goal of positive and negative literals.
// Validate checks it; a search validates the task it is given.
type Task struct {
	Name  string
	Facts []string // names, such as "(at ball1 rooma)"
	Init  []Fact   // the facts true initially; the rest are false
	// Goal must hold and GoalNot must not, in a goal state.
	Goal, GoalNot []Fact
	Ops           []Op
	// Axioms derive facts from the others in every state (see Axiom);
	// none in a STRIPS task.
	Axioms []Axiom
}

// Op is a ground operator. Its fact lists are sorted and free of
// duplicates, and Add and Del are disjoint: PDDL applies deletes before
// adds, so an atom both added and deleted is added.
type Op struct {
	Name string // as an IPC plan line writes it: "(pick ball1 rooma left)"
	// Pre must hold and PreNot must not for the operator to apply.
	Pre, PreNot []Fact
	Add, Del    []Fact
	Cost        int64
	// Effects are its conditional effects (see CondEffect); none in a
	// STRIPS task.
	Effects []CondEffect
}

// Words returns the number of 64-bit words in one of t's states.
func (t *Task) Words() int { return (len(t.Facts) + 63) / 64 }

// Validate checks that every fact index is in range, every list sorted and
// free of duplicates, Add and Del disjoint and every cost in [0, MaxCost].
// It names the first offending operator or list.
func (t *Task) Validate() error {
	n := len(t.Facts)
	if len(t.Ops) > MaxOps {
		return fmt.Errorf("strips: %d operators, more than the limit of %d", len(t.Ops), MaxOps)
	}
	check := func(what string, l []Fact) error {
		for i, f := range l {
			if f < 0 || int(f) >= n {
				return fmt.Errorf("strips: %s: fact %d out of range (the task has %d facts)", what, f, n)
			}
			if i > 0 && l[i-1] >= f {
				return fmt.Errorf("strips: %s: facts not sorted and distinct at %d", what, i)
			}
		}
		return nil
	}
	for _, l := range []struct {
		what string
		l    []Fact
	}{{"init", t.Init}, {"goal", t.Goal}, {"negative goal", t.GoalNot}} {
		if err := check(l.what, l.l); err != nil {
			return err
		}
	}
	for i := range t.Ops {
		o := &t.Ops[i]
		for _, l := range []struct {
			what string
			l    []Fact
		}{{"preconditions", o.Pre}, {"negative preconditions", o.PreNot}, {"adds", o.Add}, {"deletes", o.Del}} {
			if err := check(fmt.Sprintf("operator %d %s %s", i, o.Name, l.what), l.l); err != nil {
				return err
			}
		}
		for _, f := range o.Add {
			if _, found := slices.BinarySearch(o.Del, f); found {
				return fmt.Errorf("strips: operator %d %s both adds and deletes %s", i, o.Name, t.Facts[f])
			}
		}
		if o.Cost < 0 || o.Cost > MaxCost {
			return fmt.Errorf("strips: operator %d %s costs %d, outside [0, %d]", i, o.Name, o.Cost, int64(MaxCost))
		}
	}
	return t.validateADL(check)
}

// InitialState returns t's initial state as bits, Words() words long:
// Init's facts and the facts the axioms derive from them.
func (t *Task) InitialState() []uint64 {
	s := make([]uint64, t.Words())
	for _, f := range t.Init {
		s[f/64] |= 1 << (f % 64)
	}
	t.Derive(s)
	return s
}

// Has says whether fact f holds in state s.
func Has(s []uint64, f Fact) bool { return s[f/64]>>(f%64)&1 != 0 }

// Applicable says whether o applies in s.
func (o *Op) Applicable(s []uint64) bool {
	for _, f := range o.Pre {
		if !Has(s, f) {
			return false
		}
	}
	for _, f := range o.PreNot {
		if Has(s, f) {
			return false
		}
	}
	return true
}

// Apply applies o's effects to s in place, deletes first. An operator with
// conditional effects reads their conditions in s as it was: Apply then
// allocates a copy of s, which ApplyTo, given one, does not. It does not
// derive: see Task.Derive.
func (o *Op) Apply(s []uint64) {
	if len(o.Effects) > 0 {
		o.ApplyTo(s, slices.Clone(s))
		return
	}
	for _, f := range o.Del {
		s[f/64] &^= 1 << (f % 64)
	}
	for _, f := range o.Add {
		s[f/64] |= 1 << (f % 64)
	}
}

// IsGoal says whether s satisfies t's goal.
func (t *Task) IsGoal(s []uint64) bool {
	for _, f := range t.Goal {
		if !Has(s, f) {
			return false
		}
	}
	for _, f := range t.GoalNot {
		if Has(s, f) {
			return false
		}
	}
	return true
}

// Replay applies plan, a list of operator indices, from the initial state
// and returns its cost: an error names the first step whose operator does
// not apply, or says the goal does not hold at the end.
func (t *Task) Replay(plan []int32) (int64, error) {
	s := t.InitialState()
	d := newDeriver(t)
	var cost int64
	for i, a := range plan {
		if a < 0 || int(a) >= len(t.Ops) {
			return 0, fmt.Errorf("strips: step %d: operator %d out of range", i+1, a)
		}
		o := &t.Ops[a]
		if !o.Applicable(s) {
			return 0, fmt.Errorf("strips: step %d: %s does not apply", i+1, o.Name)
		}
		next := make([]uint64, len(s))
		o.ApplyTo(next, s)
		s = next
		if d != nil {
			d.derive(s)
		}
		cost += o.Cost
	}
	if !t.IsGoal(s) {
		return 0, fmt.Errorf("strips: the goal does not hold after the plan's %d steps", len(plan))
	}
	return cost, nil
}
