package pddl

import (
	"encoding/binary"
	"math"
)

// typedStage counts the instantiations by type.
func (g *grounder) typedStage() Stage {
	st := Stage{Name: "typed"}
	for i, pr := range g.preds {
		if g.static[i] {
			continue
		}
		n := int64(1)
		for _, prm := range pr.Params {
			n = satMul(n, g.typeCount(prm))
		}
		st.Facts = satAdd(st.Facts, n)
	}
	// Each schema counts with its own parameters: an ADL action's
	// existential ones too, and each schema its disjunctive split made,
	// as the static stage counts them.
	for _, s := range g.schemas {
		if s.kind != kindAction {
			continue
		}
		n := int64(1)
		for _, prm := range s.params {
			n = satMul(n, g.typeCount(prm))
		}
		st.Actions = satAdd(st.Actions, n)
	}
	return st
}

// staticStage counts the instantiations whose static preconditions and
// equalities hold, and the fluent atoms they mention, within MaxCountWork
// steps.
func (g *grounder) staticStage() Stage {
	st := Stage{Name: "static"}
	unknown := Stage{"static", math.MaxInt64, math.MaxInt64}
	plans := make([]*plan, len(g.schemas))
	counts := make([]int64, len(g.schemas))
	j := &joiner{g: g, count: true, limit: g.lim.counts}
	for i, s := range g.schemas {
		if s.dead || s.kind != kindAction {
			continue
		}
		plans[i] = g.compilePlan(s, -1, false)
		j.s, j.pl, j.b, j.n = s, plans[i], make([]int32, len(s.ranges)), 0
		if err := j.run(0); err != nil {
			return unknown
		}
		counts[i] = j.n
		st.Actions = satAdd(st.Actions, j.n)
	}
	if st.Actions > int64(g.lim.actions) {
		st.Facts = math.MaxInt64 // not worth enumerating: reachability will likely fail
		return st
	}
	// The fluent atoms mentioned: each is enumerated at the step that
	// binds its parameters, or where the free enumerations start (a
	// binding there extends to an instance), so that the enumeration
	// stops short of the instances themselves.
	// Atoms seen, by predicate: keyed as the predicate's relation keys
	// them, packed or as bytes.
	seen := make([]map[uint64]struct{}, len(g.rels))
	seenWide := map[string]struct{}{}
	nseen := 0
	var key []byte
	args := make([]int32, 0, 8)
	j.count, j.work = false, 0
	j.visit = func(atoms []lit) error {
		for _, a := range atoms {
			args = args[:0]
			for _, t := range a.args {
				args = append(args, j.val(t))
			}
			if r := g.rels[a.pred]; r.set != nil {
				m := seen[a.pred]
				if m == nil {
					m = map[uint64]struct{}{}
					seen[a.pred] = m
				}
				k := r.packed(args)
				if _, ok := m[k]; ok {
					continue
				}
				m[k] = struct{}{}
			} else {
				key = binary.LittleEndian.AppendUint32(key[:0], uint32(a.pred))
				key = appendKey(key, args)
				if _, ok := seenWide[string(key)]; ok {
					continue
				}
				seenWide[string(key)] = struct{}{}
			}
			if nseen++; nseen > g.lim.facts {
				return errWork{}
			}
		}
		return nil
	}
	for i, s := range g.schemas {
		if s.dead || s.kind != kindAction || counts[i] == 0 {
			continue
		}
		pl := plans[i]
		j.s, j.pl, j.b = s, pl, make([]int32, len(s.ranges))
		j.atomsAt, j.stopAt = make([][]lit, len(pl.steps)+1), 0
		for _, l := range [][]lit{s.posFluent, s.negFluent, s.add, s.del} {
			for _, a := range l {
				at := pl.tailStart
				for _, t := range a.args {
					if t.isVar() {
						at = max(at, pl.boundAt[t]+1)
					}
				}
				j.atomsAt[at] = append(j.atomsAt[at], a)
				j.stopAt = max(j.stopAt, at)
			}
		}
		if err := j.run(0); err != nil {
			st.Facts = math.MaxInt64
			return st
		}
	}
	st.Facts = int64(nseen)
	return st
}

// reach runs the relaxed reachability analysis: every ground action whose
// positive fluent preconditions are reached (and static ones and
// equalities hold) is found, once, when the last of its preconditions is
// processed, and its add effects reached.
func (g *grounder) reach() error {
	for _, at := range g.p.Init {
		pi, args, _ := g.groundAtom(at) // checked in setup
		if !g.static[pi] {
			if err := g.reachAtom(pi, args); err != nil {
				return err
			}
		}
	}
	g.nInit = len(g.facts)
	// Triggers: the plans of each fluent predicate.
	type trig struct {
		s  *schema
		pl *plan
	}
	byPred := make([][]trig, len(g.rels))
	j := &joiner{g: g, limit: g.lim.joinWork}
	j.emit = func(b []int32) error { return g.emit(j.s, b) }
	for _, s := range g.schemas {
		if s.dead {
			continue
		}
		for _, pl := range s.plans {
			if pl.trigger < 0 {
				j.s, j.pl, j.b, j.trig = s, pl, make([]int32, len(s.ranges)), nil
				if err := j.run(0); err != nil {
					return g.joinErr(s, err)
				}
				continue
			}
			p := s.posFluent[pl.trigger].pred
			byPred[p] = append(byPred[p], trig{s, pl})
		}
	}
	bufs := make([][]int32, len(g.schemas))
	for _, s := range g.schemas {
		bufs[s.idx] = make([]int32, len(s.ranges))
	}
	for next := 0; next < len(g.facts); next++ {
		f := g.facts[next]
		r := g.rels[f.pred]
		r.done++
		tup := r.tuple(f.tuple)
		for _, t := range byPred[f.pred] {
			j.s, j.pl, j.b, j.trig = t.s, t.pl, bufs[t.s.idx], r
			j.work++
			if !j.unify(&t.pl.steps[0], tup) || !j.checks(&t.pl.steps[0]) {
				continue
			}
			if err := j.run(1); err != nil {
				return g.joinErr(t.s, err)
			}
		}
	}
	g.work = j.work
	return nil
}

func (g *grounder) joinErr(s *schema, err error) error {
	if _, ok := err.(errWork); ok {
		return g.fail(s.pos, "grounding %s takes more than %d steps (pddl.MaxJoinWork): its preconditions bind its parameters too loosely", s.what, g.lim.joinWork)
	}
	return err
}

// reachAtom reaches a fluent atom, queueing it if new.
func (g *grounder) reachAtom(pi int32, args []int32) error {
	r := g.rels[pi]
	i, isNew := r.insert(args)
	if !isNew {
		return nil
	}
	if len(g.facts) >= g.lim.facts {
		return g.fail(g.preds[pi].Pos, "more than %d ground atoms are reachable (pddl.MaxGroundFacts), of predicate %q among others", g.lim.facts, g.preds[pi].Name)
	}
	r.facts = append(r.facts, int32(len(g.facts)))
	g.facts = append(g.facts, reachedFact{pi, i})
	g.size += 48 + 8*int64(len(args)) + int64(len(g.preds[pi].Name)) + g.namesSize(args)
	if g.size > g.lim.size {
		return g.fail(g.preds[pi].Pos, "the ground atoms and actions take more than %s (pddl.MaxGroundSize), at %d atoms of predicate %q among others",
			bytesString(g.lim.size), len(r.facts), g.preds[pi].Name)
	}
	return nil
}
