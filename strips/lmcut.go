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
// Its value depends on how ties between supporters are broken. Here, as in
// Fast Downward, facts of equal h_max leave the queue last in, first out,
// and an operator's supporter is the precondition reached last; with it
// A* expands within a few percent of Fast Downward's LM-cut counts on the
// competition instances (blocks-9-0 12 784 against 13 430, visitall
// problem05-full 70 610 against 69 729, termes p01 85 236 against
// 86 357, logistics exactly). First in, first out raises h on some tasks
// and lowers it on others (barman pfile01-001's initial state: 30 against
// 17; blocks-9-0 then expands 13 929).
//
// Costs and h are int64: h is at most the sum of all operator costs, below
// 2^63 for fewer than 2^32 operators of cost at most MaxCost.
//
// An lmCut is not safe for concurrent use; clone gives another that shares
// its relaxation.
type lmCut struct {
	*explorer
	// round numbers the rounds of all estimates: the facts' and the
	// operators' marks hold the round they were last marked in.
	round uint32
	// buf holds a stack of facts, room for every fact, then the cut,
	// room for every operator; cut is the cut's part of it.
	buf, cut []int32
	// With split actions (relaxed.owner), charged marks each action whose
	// cost a cut lowered this round, and lowered lists every operator
	// whose cost it lowered, the cut's and their sharers, for reexplore.
	charged []uint32
	lowered []int32
	// The estimate in progress (see startEstimate): h so far, or dead.
	h    int64
	dead bool
}

// newLMCut returns t's LM-cut estimator; t must be valid.
func newLMCut(t *Task) *lmCut { return newLMCutOn(newRelaxed(t)) }

func newLMCutOn(r *relaxed) *lmCut {
	l := &lmCut{
		explorer: newExplorer(r),
		buf:      make([]int32, r.nfacts+r.nops),
	}
	if r.owner != nil {
		l.charged = make([]uint32, len(r.sharersStart)-1)
		l.lowered = make([]int32, 0, r.nops) // its own, whole, so that bytes does not change
	}
	l.lists = true
	return l
}

// bytes is the memory the estimator holds, its relaxation included.
func (l *lmCut) bytes() int64 {
	b := l.r.bytes() + l.explorer.bytes() + int64(cap(l.buf)+cap(l.charged))*4
	if l.r.owner != nil { // else lowered is the cut, in buf
		b += int64(cap(l.lowered)) * 4
	}
	return b
}

// clone returns an lmCut for the same task with scratch of its own.
func (l *lmCut) clone() *lmCut { return newLMCutOn(l.r) }

// estimate returns LM-cut's h(s), or dead when the relaxation does not
// reach the goal from s.
func (l *lmCut) estimate(s []uint64) (int64, bool) {
	for done := l.startEstimate(s); !done; done = l.stepEstimate() {
	}
	return l.estimateValue()
}

// startEstimate begins the estimate of s with the first exploration and
// reports whether it is already done; stepEstimate then finds one cut a
// call until it reports done, and estimateValue is the result. A search
// goes round by round, so that it can stop within one state's estimate
// when its work reaches its limit: a round costs at most one pass over
// the relaxation, and an estimate may take as many rounds as h is large.
func (l *lmCut) startEstimate(s []uint64) bool {
	l.explore(s, false)
	l.h, l.dead = 0, l.facts[l.r.goal].hmax == inf
	return l.dead || l.facts[l.r.goal].hmax == 0
}

// stepEstimate finds one cut, adds its cost to h and takes it off its
// operators, and reports whether the goal's h_max is then 0.
func (l *lmCut) stepEstimate() bool {
	l.nextRound()
	l.markGoalZone()
	l.findCut()
	m := int64(inf)
	for _, o := range l.cut {
		m = min(m, l.ops[o].cost)
	}
	if m <= 0 || m == inf {
		// Not a landmark, or none: the rounds would not end.
		panic("strips: LM-cut: a cut of no cost or no operators")
	}
	l.h += m
	l.lowerCut(m)
	l.steps += int64(len(l.cut))
	l.reexplore()
	return l.facts[l.r.goal].hmax == 0
}

// lowerCut lowers by m, the cut's least cost, the costs of the cut's
// operators, or with split actions of the actions they belong to, and
// lists the operators whose cost fell for reexplore.
func (l *lmCut) lowerCut(m int64) {
	if l.r.owner != nil {
		l.lowerShared(m)
		return
	}
	for _, o := range l.cut {
		l.ops[o].cost -= m
	}
	l.lowered = l.cut
}

// lowerShared lowers by m the cost of every action with an operator in
// the cut, once however many of its operators the cut holds, and with it
// the cost of all the action's operators (see relaxationOf). The
// operators of one action always cost the same, so m, the cut's least
// cost, is no more than any of theirs.
func (l *lmCut) lowerShared(m int64) {
	r := l.r
	l.lowered = l.lowered[:0]
	for _, o := range l.cut {
		w := r.owner[o]
		if w < 0 { // an axiom costs nothing: never in a cut
			panic("strips: LM-cut: an axiom in a cut")
		}
		if l.charged[w] == l.round {
			continue
		}
		l.charged[w] = l.round
		for _, x := range r.sharers[r.sharersStart[w]:r.sharersStart[w+1]] {
			l.ops[x].cost -= m
			l.lowered = append(l.lowered, x)
		}
		l.steps += int64(r.sharersStart[w+1] - r.sharersStart[w])
	}
}

// estimateValue is the estimate startEstimate began, once done.
func (l *lmCut) estimateValue() (int64, bool) {
	if l.dead {
		return 0, true
	}
	return l.h, false
}

// nextRound starts a round, whose marks no fact or operator has yet.
func (l *lmCut) nextRound() {
	if l.round >= 1<<31-1 {
		for i := range l.facts {
			l.facts[i].mark = 0
		}
		for i := range l.edges {
			l.edges[i].mark = 0
		}
		clear(l.charged)
		l.round = 0
	}
	l.round++
}

// markGoalZone marks the goal fact and every fact that reaches it by
// zero-cost edges of the justification graph, backwards: the supporter of
// each reached operator of cost 0 that adds a fact in the zone. All of
// these have h_max at least the goal's, which is not 0, so none is true
// in the state. It marks the operators that add a fact in the zone too.
func (l *lmCut) markGoalZone() {
	round, zone := l.round, 2*l.round
	ev, ov, fv := l.ev, l.ov, l.fv
	addedByStart, addedBy := view32(l.r.addedByStart), view32(l.r.addedBy)
	stack := view32(l.buf)
	stack.set(0, l.r.goal)
	top := int32(1)
	fv.at(l.r.goal).mark = zone
	var steps int64
	for top > 0 {
		top--
		g := stack.at(top)
		steps += int64(addedByStart.at(g+1)-addedByStart.at(g)) + 1
		for i, end := addedByStart.at(g), addedByStart.at(g+1); i < end; i++ {
			o := addedBy.at(i)
			ev.at(o).mark = round
			if op := ov.at(o); op.cost == 0 && op.supp >= 0 {
				if ps := fv.at(op.supp); ps.mark != zone {
					ps.mark = zone
					stack.set(top, op.supp)
					top++
				}
			}
		}
	}
	l.steps += steps
}

// findCut marks the facts the state reaches in the justification graph
// without entering the goal zone and collects in l.cut the operators that
// lead from them into it. Each of these costs more than 0, or its
// supporter would be in the goal zone.
func (l *lmCut) findCut() {
	round := l.round
	ev, fv, lit := l.ev, l.fv, l.lit
	// An operator has one supporter, expanded once, so it is cut once at
	// most. Every fact is pushed once at most, so the stack never reaches
	// the cut. (Pushing every effect and moving the top by whether it is
	// new, without a branch, is slower: the top then waits for each
	// effect's mark.)
	buf := view32(l.buf)
	top, ncut := int32(0), l.r.nfacts
	steps := int64(len(l.init))
	for _, f := range l.init {
		fv.at(f).mark = 2*round + 1
		buf.set(top, f)
		top++
	}
	for top > 0 {
		top--
		for o := fv.at(buf.at(top)).head; o >= 0; {
			oe := ev.at(o)
			steps++
			if oe.mark == round {
				buf.set(ncut, o)
				ncut++
			} else {
				for i, end := oe.eff, oe.end; i < end; i++ {
					g := lit.at(i)
					if gs := fv.at(g); gs.mark != 2*round+1 {
						gs.mark = 2*round + 1
						buf.set(top, g)
						top++
						steps++
					}
				}
			}
			o = oe.next
		}
	}
	l.cut = l.buf[l.r.nfacts:ncut]
	l.steps += steps
}

// reexplore brings h_max and the supporters up to date after the cut's
// operators got cheaper: only h_max values that fall need recomputing, and
// they fall from the cut's effects on, in order of their new values.
func (l *lmCut) reexplore() {
	ev, ov, fv, lit := l.ev, l.ov, l.fv, l.lit
	// The queue needs its last key at most every key pushed.
	// The operators whose cost fell: the cut's, and with split actions
	// their sharers, of which only those reached can lower anything.
	least := int64(inf)
	for _, o := range l.lowered {
		if op := ov.at(o); op.supp >= 0 {
			least = min(least, op.suppCost+op.cost)
		}
	}
	l.reset(least)
	for _, o := range l.lowered {
		op, oe := ov.at(o), ev.at(o)
		if op.supp < 0 {
			continue
		}
		c := op.suppCost + op.cost
		for i, end := oe.eff, oe.end; i < end; i++ {
			if g := lit.at(i); c < fv.at(g).hmax {
				l.lower(g, c)
			}
		}
	}
	var steps int64
	for l.queued > 0 {
		f := l.pop()
		k := fv.at(f).hmax
		steps++
		for o := fv.at(f).head; o >= 0; {
			oe := ev.at(o)
			steps++
			next := oe.next
			op := ov.at(o)
			if old := op.suppCost; old > k {
				// f got cheaper: the supporter is now the precondition
				// of greatest h_max, f unless another is dearer. None is
				// dearer than old, the greatest before, and one as dear
				// ends the search.
				best, bestCost := f, k
				for i, end := op.pre, oe.eff; i < end; i++ {
					p := lit.at(i)
					if h := fv.at(p).hmax; h > bestCost {
						best, bestCost = p, h
						if h == old {
							break
						}
					}
				}
				if best != f {
					l.resupport(o, best, bestCost)
				} else {
					op.suppCost = bestCost
				}
				if bestCost != old {
					c := bestCost + op.cost
					for i, end := oe.eff, oe.end; i < end; i++ {
						if g := lit.at(i); c < fv.at(g).hmax {
							l.lower(g, c)
						}
					}
				}
			}
			o = next
		}
	}
	l.steps += steps
}
