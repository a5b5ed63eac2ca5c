package strips

import (
	"fmt"
	"slices"
)

// The two ADL features a ground task keeps rather than compiles away:
// conditional effects, which compiled into plain operators would need an
// operator per subset of an action's effect conditions, and derived
// predicates (PDDL's axioms), which compiled away would need every action
// to recompute them. Everything else ADL adds (or, imply, exists, forall)
// a grounder turns into these and plain STRIPS.

// CondEffect is one conditional effect of an operator: when Cond holds and
// CondNot does not in the state the operator is applied to, Add and Del
// take effect with the operator's own. Conditions read the state before
// the operator, and every delete, conditional or not, comes before every
// add: an atom one effect adds and another deletes is added, as PDDL says.
type CondEffect struct {
	Cond, CondNot []Fact
	Add, Del      []Fact
}

// Axiom derives its Head in every state where Body holds and BodyNot does
// not. A fact some axiom derives is a derived fact: false unless an axiom
// derives it, never added or deleted by an operator, and not in Init.
//
// Axioms are stratified: every axiom with a given head has the same Layer,
// a body fact that is derived is of the head's layer or a lower one, and
// a BodyNot fact that is derived is of a lower layer. A state's derived
// facts are computed layer by layer, each to its fixpoint, so a negated
// derived fact is read only once it is final.
type Axiom struct {
	Head          Fact
	Body, BodyNot []Fact
	Layer         int32
}

// HasConditionalEffects says whether any of t's operators has a
// conditional effect.
func (t *Task) HasConditionalEffects() bool {
	for i := range t.Ops {
		if len(t.Ops[i].Effects) > 0 {
			return true
		}
	}
	return false
}

// validateADL checks t's conditional effects and axioms; check tests one
// fact list as Validate does.
func (t *Task) validateADL(check func(what string, l []Fact) error) error {
	for i := range t.Ops {
		o := &t.Ops[i]
		for j := range o.Effects {
			e := &o.Effects[j]
			for _, l := range []struct {
				what string
				l    []Fact
			}{{"condition", e.Cond}, {"negative condition", e.CondNot}, {"adds", e.Add}, {"deletes", e.Del}} {
				if err := check(fmt.Sprintf("operator %d %s effect %d %s", i, o.Name, j+1, l.what), l.l); err != nil {
					return err
				}
			}
		}
	}
	if len(t.Axioms) == 0 {
		return nil
	}
	// The layer of each derived fact, -1 for a fact no axiom derives.
	layer := make([]int32, len(t.Facts))
	for i := range layer {
		layer[i] = -1
	}
	for i := range t.Axioms {
		a := &t.Axioms[i]
		if a.Head < 0 || int(a.Head) >= len(t.Facts) {
			return fmt.Errorf("strips: axiom %d: head %d out of range (the task has %d facts)", i+1, a.Head, len(t.Facts))
		}
		if a.Layer < 0 {
			return fmt.Errorf("strips: axiom %d for %s: layer %d is negative", i+1, t.Facts[a.Head], a.Layer)
		}
		if l := layer[a.Head]; l >= 0 && l != a.Layer {
			return fmt.Errorf("strips: axiom %d for %s: layer %d, but another axiom for it has layer %d", i+1, t.Facts[a.Head], a.Layer, l)
		}
		layer[a.Head] = a.Layer
	}
	for i := range t.Axioms {
		a := &t.Axioms[i]
		if err := check(fmt.Sprintf("axiom %d for %s body", i+1, t.Facts[a.Head]), a.Body); err != nil {
			return err
		}
		if err := check(fmt.Sprintf("axiom %d for %s negative body", i+1, t.Facts[a.Head]), a.BodyNot); err != nil {
			return err
		}
		for _, f := range a.Body {
			if layer[f] > a.Layer {
				return fmt.Errorf("strips: axiom %d for %s (layer %d) reads %s of the higher layer %d", i+1, t.Facts[a.Head], a.Layer, t.Facts[f], layer[f])
			}
		}
		for _, f := range a.BodyNot {
			if layer[f] >= a.Layer {
				return fmt.Errorf("strips: axiom %d for %s (layer %d) reads the negation of %s of layer %d: a negated derived fact must be of a lower layer", i+1, t.Facts[a.Head], a.Layer, t.Facts[f], layer[f])
			}
		}
	}
	derived := func(where string, l []Fact) error {
		for _, f := range l {
			if layer[f] >= 0 {
				return fmt.Errorf("strips: %s the derived fact %s: only axioms make derived facts true", where, t.Facts[f])
			}
		}
		return nil
	}
	if err := derived("init holds", t.Init); err != nil {
		return err
	}
	for i := range t.Ops {
		o := &t.Ops[i]
		if err := derived(fmt.Sprintf("operator %d %s adds", i, o.Name), o.Add); err != nil {
			return err
		}
		if err := derived(fmt.Sprintf("operator %d %s deletes", i, o.Name), o.Del); err != nil {
			return err
		}
		for j := range o.Effects {
			if err := derived(fmt.Sprintf("operator %d %s effect %d adds", i, o.Name, j+1), o.Effects[j].Add); err != nil {
				return err
			}
			if err := derived(fmt.Sprintf("operator %d %s effect %d deletes", i, o.Name, j+1), o.Effects[j].Del); err != nil {
				return err
			}
		}
	}
	return nil
}

// ApplyTo writes into dst the state o leads to from src: src's facts, then
// o's deletes and the deletes of its conditional effects whose conditions
// hold in src, then the adds likewise. dst and src are the same length and
// must not overlap. It does not derive: see Task.Derive.
func (o *Op) ApplyTo(dst, src []uint64) {
	copy(dst, src)
	for _, f := range o.Del {
		dst[f/64] &^= 1 << (f % 64)
	}
	for i := range o.Effects {
		if e := &o.Effects[i]; e.holds(src) {
			for _, f := range e.Del {
				dst[f/64] &^= 1 << (f % 64)
			}
		}
	}
	for _, f := range o.Add {
		dst[f/64] |= 1 << (f % 64)
	}
	for i := range o.Effects {
		if e := &o.Effects[i]; e.holds(src) {
			for _, f := range e.Add {
				dst[f/64] |= 1 << (f % 64)
			}
		}
	}
}

// holds says whether e's conditions hold in s.
func (e *CondEffect) holds(s []uint64) bool {
	return allHold(s, e.Cond) && noneHold(s, e.CondNot)
}

func allHold(s []uint64, l []Fact) bool {
	for _, f := range l {
		if !Has(s, f) {
			return false
		}
	}
	return true
}

func noneHold(s []uint64, l []Fact) bool {
	for _, f := range l {
		if Has(s, f) {
			return false
		}
	}
	return true
}

// deriver computes a state's derived facts from its axioms, in time
// linear in the axioms' size: layer by layer, an axiom waits for the
// number of its same-layer body facts not yet derived, and fires when
// that count reaches zero and the rest of its body (basic facts and lower
// layers, final by then) holds. It keeps its scratch between states: one
// per search, not safe for concurrent use.
type deriver struct {
	derived []uint64 // mask of the derived facts
	// layers[i] is the range of axiom indices (in order) of the i-th
	// layer present; axioms are sorted by layer.
	layers []int32
	axioms []axiomRule
	// waitersOf[f] lists the axioms (indices into axioms) that wait for
	// derived fact f of their own layer: waiters[waitStart[f]:waitStart[f+1]].
	waitStart, waiters []int32
	count              []int32 // per axiom: same-layer body facts not yet true
	queue              []Fact
}

type axiomRule struct {
	head      Fact
	layer     int32
	same      int32  // how many body facts are derived facts of its layer
	rest, not []Fact // the body facts not of its layer, and BodyNot
}

// newDeriver prepares to derive t's facts; t must be valid. It returns
// nil for a task without axioms.
func newDeriver(t *Task) *deriver {
	if len(t.Axioms) == 0 {
		return nil
	}
	d := &deriver{derived: make([]uint64, max(t.Words(), 1))}
	layer := make([]int32, len(t.Facts))
	for i := range layer {
		layer[i] = -1
	}
	for _, a := range t.Axioms {
		layer[a.Head] = a.Layer
		d.derived[a.Head/64] |= 1 << (a.Head % 64)
	}
	order := make([]int32, len(t.Axioms))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return int(t.Axioms[a].Layer - t.Axioms[b].Layer) })
	d.waitStart = make([]int32, len(t.Facts)+1)
	for k, i := range order {
		a := &t.Axioms[i]
		r := axiomRule{head: a.Head, layer: a.Layer, not: a.BodyNot}
		for _, f := range a.Body {
			if layer[f] == a.Layer {
				r.same++
				d.waitStart[f+1]++
			} else {
				r.rest = append(r.rest, f)
			}
		}
		if k == 0 || a.Layer != d.axioms[k-1].layer {
			d.layers = append(d.layers, int32(k))
		}
		d.axioms = append(d.axioms, r)
	}
	d.layers = append(d.layers, int32(len(d.axioms)))
	for f := range t.Facts {
		d.waitStart[f+1] += d.waitStart[f]
	}
	d.waiters = make([]int32, d.waitStart[len(t.Facts)])
	fill := slices.Clone(d.waitStart[:len(t.Facts)])
	for k, i := range order {
		a := &t.Axioms[i]
		for _, f := range a.Body {
			if layer[f] == a.Layer {
				d.waiters[fill[f]] = int32(k)
				fill[f]++
			}
		}
	}
	d.count = make([]int32, len(d.axioms))
	return d
}

// derive sets s's derived facts to those its basic facts and the axioms
// derive, and returns the work done: the axioms and body facts looked at.
func (d *deriver) derive(s []uint64) (work int64) {
	for i, m := range d.derived {
		s[i] &^= m
	}
	for l := 0; l+1 < len(d.layers); l++ {
		d.queue = d.queue[:0]
		for k := d.layers[l]; k < d.layers[l+1]; k++ {
			r := &d.axioms[k]
			work += int64(1 + len(r.rest) + len(r.not))
			// An axiom whose other conditions fail never fires this
			// state: it waits for more facts than can come.
			if !allHold(s, r.rest) || !noneHold(s, r.not) {
				d.count[k] = -1
				continue
			}
			d.count[k] = r.same
			if r.same == 0 {
				d.fire(s, r.head)
			}
		}
		for len(d.queue) > 0 {
			f := d.queue[len(d.queue)-1]
			d.queue = d.queue[:len(d.queue)-1]
			for _, k := range d.waiters[d.waitStart[f]:d.waitStart[f+1]] {
				work++
				if d.count[k] > 0 {
					d.count[k]--
					if d.count[k] == 0 {
						d.fire(s, d.axioms[k].head)
					}
				}
			}
		}
	}
	return work
}

// fire makes derived fact f true, queueing it for the axioms that wait for
// it the first time.
func (d *deriver) fire(s []uint64, f Fact) {
	if !Has(s, f) {
		s[f/64] |= 1 << (f % 64)
		d.queue = append(d.queue, f)
	}
}

// Derive sets s's derived facts to those t's axioms derive from its other
// facts; with no axioms it does nothing. It allocates: a search keeps its
// own deriver instead.
func (t *Task) Derive(s []uint64) {
	if d := newDeriver(t); d != nil {
		d.derive(s)
	}
}

// relaxationOf is the plain STRIPS task whose delete relaxation h_max and
// LM-cut explore for t: t itself, and owner nil, when it has no
// conditional effects and no axioms. Otherwise each conditional effect
// becomes an operator of its own, its conditions added to the operator's
// preconditions and at the operator's cost; each axiom an operator of cost
// 0 that adds its head; and a negated derived fact is dropped from every
// condition. Dropping a condition and splitting effects only let the
// relaxation do more, so h_max stays admissible. owner[i] is the task
// operator the relaxation's operator i comes from, -1 for an axiom.
//
// LM-cut stays admissible only if the operators split from one action
// share its cost: a plan pays for the action once, however many of its
// effects it uses. Its cuts charge an owner once and lower all its
// operators' costs together (lmCut.stepEstimate). Each cut is still a
// landmark of the actions: a plan's image in the relaxation uses, for each
// step, the action's own operator and those of the effects it triggered,
// so it crosses every cut with one of its actions.
func relaxationOf(t *Task) (r *Task, owner []int32) {
	if len(t.Axioms) == 0 && !t.HasConditionalEffects() {
		return t, nil
	}
	derived := make([]bool, len(t.Facts))
	for _, a := range t.Axioms {
		derived[a.Head] = true
	}
	basic := func(l []Fact) []Fact {
		var out []Fact
		for _, f := range l {
			if !derived[f] {
				out = append(out, f)
			}
		}
		return out
	}
	r = &Task{Name: t.Name, Facts: t.Facts, Init: t.Init, Goal: t.Goal, GoalNot: basic(t.GoalNot)}
	for i := range t.Ops {
		o := &t.Ops[i]
		r.Ops = append(r.Ops, Op{Name: o.Name, Pre: o.Pre, PreNot: basic(o.PreNot), Add: o.Add, Del: o.Del, Cost: o.Cost})
		owner = append(owner, int32(i))
		for _, e := range o.Effects {
			r.Ops = append(r.Ops, Op{Name: o.Name, Pre: union(o.Pre, e.Cond), PreNot: basic(union(o.PreNot, e.CondNot)),
				Add: e.Add, Del: e.Del, Cost: o.Cost})
			owner = append(owner, int32(i))
		}
	}
	for _, a := range t.Axioms {
		r.Ops = append(r.Ops, Op{Name: "(axiom " + t.Facts[a.Head] + ")", Pre: a.Body, PreNot: basic(a.BodyNot), Add: []Fact{a.Head}})
		owner = append(owner, -1)
	}
	return r, owner
}

// union merges two sorted, duplicate-free fact lists.
func union(a, b []Fact) []Fact {
	out := make([]Fact, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
