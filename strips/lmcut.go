package strips

// lmCut is Helmert and Domshlak's LM-cut heuristic ("Landmarks, critical
// paths and abstractions: what's the difference anyway?", ICAPS 2009), as
// Fast Downward computes it, over the delete relaxation described at
// relaxed. Each round computes h_max under the residual costs with every
// operator's supporter (a precondition of greatest h_max), marks the goal
// zone (the facts that reach the goal fact backwards by zero-cost edges of
// the justification graph, from a supporter to the operator's effects),
// finds the facts reachable from the state without entering the goal zone
// and takes as the cut the operators that lead from those into the goal
// zone: a disjunctive action landmark. The cut's least cost is added to h
// and taken off each of its operators, and h_max is brought up to date
// incrementally, from the cut operators' effects only. It stops when the
// goal's h_max is 0.
//
// LM-cut is admissible and dominates h_max, but it is not consistent in
// general: h may drop by more than an operator's cost along it.
//
// Costs and h are int64: h is at most the sum of all operator costs, below
// 2^63 for fewer than 2^32 operators of cost at most MaxCost.
//
// An lmCut is not safe for concurrent use; clone gives another that shares
// its relaxation.
type lmCut struct {
	*explorer
	// mark holds a fact's status in the current round: 2*round in the
	// goal zone, 2*round+1 reached before it; anything else neither.
	mark []uint32
	// opMark is round for the operators that add a fact in the goal
	// zone.
	opMark []uint32
	round  uint32
	stack  []int32 // the facts to expand, in marking the zones
	cut    []int32
}

// newLMCut returns t's LM-cut estimator; t must be valid.
func newLMCut(t *Task) *lmCut { return newLMCutOn(newRelaxed(t)) }

func newLMCutOn(r *relaxed) *lmCut {
	l := &lmCut{
		explorer: newExplorer(r),
		mark:     make([]uint32, r.nfacts),
		opMark:   make([]uint32, r.nops),
		stack:    make([]int32, 0, r.nfacts),
		cut:      make([]int32, 0, r.nops),
	}
	l.lists = true
	return l
}

// clone returns an lmCut for the same task with scratch of its own.
func (l *lmCut) clone() *lmCut { return newLMCutOn(l.r) }

// estimate returns LM-cut's h(s), or dead when the relaxation does not
// reach the goal from s.
func (l *lmCut) estimate(s []uint64) (int64, bool) {
	r := l.r
	copy(l.cost, r.cost)
	l.explore(s, false)
	if l.hmax[r.goal] == inf {
		return 0, true
	}
	var h int64
	for l.hmax[r.goal] != 0 {
		if l.round >= 1<<31-1 {
			clear(l.mark)
			clear(l.opMark)
			l.round = 0
		}
		l.round++
		l.markGoalZone()
		l.findCut()
		m := int64(inf)
		for _, o := range l.cut {
			m = min(m, l.cost[o])
		}
		if m <= 0 || m == inf {
			// Not a landmark, or none: the round would not end.
			panic("strips: LM-cut: a cut of no cost or no operators")
		}
		h += m
		for _, o := range l.cut {
			l.cost[o] -= m
		}
		l.reexplore()
	}
	return h, false
}

// markGoalZone marks the goal fact and every fact that reaches it by
// zero-cost edges of the justification graph, backwards: the supporter of
// each reached operator of cost 0 that adds a fact in the zone. All of
// these have h_max at least the goal's, which is not 0, so none is true
// in the state. It marks the operators that add a fact in the zone too.
func (l *lmCut) markGoalZone() {
	r := l.r
	round, zone := l.round, 2*l.round
	mark, opMark := viewU32(l.mark), viewU32(l.opMark)
	cost, supp := view64(l.cost), view32(l.supp)
	addedByStart, addedBy := view32(r.addedByStart), view32(r.addedBy)
	stack := view32(l.stack[:r.nfacts])
	stack.set(0, r.goal)
	top := int32(1)
	mark.set(r.goal, zone)
	for top > 0 {
		top--
		g := stack.at(top)
		for i, end := addedByStart.at(g), addedByStart.at(g+1); i < end; i++ {
			o := addedBy.at(i)
			opMark.set(o, round)
			if p := supp.at(o); cost.at(o) == 0 && p >= 0 && mark.at(p) != zone {
				mark.set(p, zone)
				stack.set(top, p)
				top++
			}
		}
	}
}

// findCut marks the facts the state reaches in the justification graph
// without entering the goal zone and collects in l.cut the operators that
// lead from them into it. Each of these costs more than 0, or its
// supporter would be in the goal zone.
func (l *lmCut) findCut() {
	r := l.r
	round, before := l.round, 2*l.round+1
	mark, opMark := viewU32(l.mark), viewU32(l.opMark)
	suppHead, suppNext := view32(l.suppHead), view32(l.suppNext)
	effStart, eff := view32(r.effStart), view32(r.eff)
	// An operator has one supporter, expanded once, so it is cut once at
	// most. Every fact is pushed once at most, and one is popped before
	// an effect is written past the top, so nfacts is room enough. The
	// marking is branch-free: which effects are new is what a branch
	// would mispredict on.
	cut := view32(l.cut[:r.nops])
	stack := view32(l.stack[:r.nfacts])
	var ncut, top int32
	for _, f := range l.init {
		mark.set(f, before)
		stack.set(top, f)
		top++
	}
	for top > 0 {
		top--
		f := stack.at(top)
		for o := suppHead.at(f); o >= 0; o = suppNext.at(o) {
			if opMark.at(o) == round {
				cut.set(ncut, o)
				ncut++
				continue
			}
			for i, end := effStart.at(o), effStart.at(o+1); i < end; i++ {
				g := eff.at(i)
				stack.set(top, g)
				top += b2i(mark.at(g) != before)
				mark.set(g, before)
			}
		}
	}
	l.cut = l.cut[:ncut]
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// reexplore brings h_max and the supporters up to date after the cut's
// operators got cheaper: only h_max values that fall need recomputing, and
// they fall from the cut's effects on, in order of their new values.
func (l *lmCut) reexplore() {
	r := l.r
	hmax, cost, suppCost := view64(l.hmax), view64(l.cost), view64(l.suppCost)
	preStart, pre := view32(r.preStart), view32(r.pre)
	effStart, eff := view32(r.effStart), view32(r.eff)
	suppHead, suppNext := view32(l.suppHead), view32(l.suppNext)
	// The queue needs its last key at most every key pushed.
	least := int64(inf)
	for _, o := range l.cut {
		least = min(least, suppCost.at(o)+cost.at(o))
	}
	l.reset(least)
	for _, o := range l.cut {
		c := suppCost.at(o) + cost.at(o)
		for i, end := effStart.at(o), effStart.at(o+1); i < end; i++ {
			if g := eff.at(i); c < hmax.at(g) {
				l.lower(g, c)
			}
		}
	}
	for l.queued > 0 {
		f := l.pop()
		k := hmax.at(f)
		for o, next := suppHead.at(f), int32(0); o >= 0; o = next {
			next = suppNext.at(o)
			old := suppCost.at(o)
			if old <= k {
				continue
			}
			// f got cheaper: the supporter is now the precondition of
			// greatest h_max, f unless another is dearer. None is dearer
			// than old, the greatest before, and one as dear ends the
			// search.
			best, bestCost := f, k
			for i, end := preStart.at(o), preStart.at(o+1); i < end; i++ {
				p := pre.at(i)
				if h := hmax.at(p); h > bestCost {
					best, bestCost = p, h
					if h == old {
						break
					}
				}
			}
			if best != f {
				l.unsupport(o)
				l.support(o, best, bestCost)
			} else {
				suppCost.set(o, bestCost)
			}
			if bestCost == old {
				continue
			}
			c := bestCost + cost.at(o)
			for i, end := effStart.at(o), effStart.at(o+1); i < end; i++ {
				if g := eff.at(i); c < hmax.at(g) {
					l.lower(g, c)
				}
			}
		}
	}
}
