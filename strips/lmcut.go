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
	mark  []uint32
	round uint32
	stack []int32 // the facts to expand, in marking the zones
	cut   []int32
}

// newLMCut returns t's LM-cut estimator; t must be valid.
func newLMCut(t *Task) *lmCut { return newLMCutOn(newRelaxed(t)) }

func newLMCutOn(r *relaxed) *lmCut {
	l := &lmCut{
		explorer: newExplorer(r),
		mark:     make([]uint32, r.nfacts),
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
// in the state.
func (l *lmCut) markGoalZone() {
	r := l.r
	zone := 2 * l.round
	mark, cost, supp := l.mark, l.cost, l.supp
	addedByStart, addedBy := r.addedByStart, r.addedBy
	stack := append(l.stack[:0], r.goal)
	mark[r.goal] = zone
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, o := range addedBy[addedByStart[g]:addedByStart[g+1]] {
			if p := supp[o]; cost[o] == 0 && p >= 0 && mark[p] != zone {
				mark[p] = zone
				stack = append(stack, p)
			}
		}
	}
	l.stack = stack
}

// findCut marks the facts the state reaches in the justification graph
// without entering the goal zone and collects in l.cut the operators that
// lead from them into it. Each of these costs more than 0, or its
// supporter would be in the goal zone.
func (l *lmCut) findCut() {
	r := l.r
	zone, before := 2*l.round, 2*l.round+1
	mark, suppHead, suppNext := l.mark, l.suppHead, l.suppNext
	effStart, eff := r.effStart, r.eff
	cut := l.cut[:0]
	// Every fact is pushed once at most, and one is popped before an
	// effect is written past the top, so nfacts is room enough. The
	// marking is branch-free: which effects are new is what a branch
	// would mispredict on.
	stack := l.stack[:r.nfacts]
	top := 0
	for _, f := range l.init {
		mark[f] = before
		stack[top] = f
		top++
	}
	for top > 0 {
		top--
		f := stack[top]
		for o := suppHead[f]; o >= 0; o = suppNext[o] {
			effs := eff[effStart[o]:effStart[o+1]]
			inZone := 0
			for _, g := range effs {
				inZone |= b2i(mark[g] == zone)
			}
			if inZone != 0 {
				cut = append(cut, o)
				continue
			}
			for _, g := range effs {
				stack[top] = g
				top += b2i(mark[g] != before)
				mark[g] = before
			}
		}
	}
	l.cut = cut
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
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
	hmax, cost, suppCost := l.hmax, l.cost, l.suppCost
	preStart, pre := r.preStart, r.pre
	effStart, eff := r.effStart, r.eff
	suppHead, suppNext := l.suppHead, l.suppNext
	// The radix heap needs its last key at most every key pushed.
	least := int64(inf)
	for _, o := range l.cut {
		least = min(least, suppCost[o]+cost[o])
	}
	l.reset(least)
	for _, o := range l.cut {
		c := suppCost[o] + cost[o]
		for _, g := range eff[effStart[o]:effStart[o+1]] {
			if c < hmax[g] {
				l.lower(g, c)
			}
		}
	}
	for l.queued > 0 {
		f := l.pop()
		k := hmax[f]
		for o, next := suppHead[f], int32(0); o >= 0; o = next {
			next = suppNext[o]
			if suppCost[o] <= k {
				continue
			}
			// f got cheaper: the supporter is now the precondition of
			// greatest h_max, f unless another is dearer.
			old := suppCost[o]
			best, bestCost := f, k
			for _, p := range pre[preStart[o]:preStart[o+1]] {
				if hmax[p] > bestCost {
					best, bestCost = p, hmax[p]
				}
			}
			if best != f {
				l.unsupport(o)
				l.support(o, best, bestCost)
			} else {
				suppCost[o] = bestCost
			}
			if bestCost == old {
				continue
			}
			c := bestCost + cost[o]
			for _, g := range eff[effStart[o]:effStart[o+1]] {
				if c < hmax[g] {
					l.lower(g, c)
				}
			}
		}
	}
}
