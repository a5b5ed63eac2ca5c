package goap

import (
	"math"

	"github.com/ploy-ai/ploy/internal/pq"
)

// backward is A* by regression, over partial states: the facts that must
// hold before the rest of the plan, as (mask, value). It starts from the
// goal, regresses it through each action that sets a needed fact and undoes
// none, and stops when the start state meets the partial state taken from
// the open list. State-dependent costs stay exact because each action is
// regressed once per mutually exclusive cost case, with the case's facts
// added to its preconditions: the step's cost is then known whatever the
// rest of the state holds.
func (p *Planner) backward(dst []ActionID, start []uint64, goal *Goal, prof *Profile, opt Options) Result {
	d := p.d
	W := d.words
	tr := opt.Trace
	// An expansion tests every action's relevance and regresses every case
	// of the relevant ones, each over keys of 2W words.
	nActions, nCases := len(d.actions), len(prof.cases)
	var m meter
	p.meter(&m, generalNodeBytes+32*W, 0, nCases, (nActions+nCases)*2*W, 2*W+1)
	m.inPlanner()
	if tr != nil {
		m.traced(nActions+nCases, nCases, 2*W)
	}
	limitDepth := opt.MaxDepth > 0
	unit := prof.minCost
	per := prof.maxEffects
	if opt.Heuristic == HMax {
		p.estWork += prof.relaxed.fill(p.dist, start, len(d.facts))
	}
	estimate := func(mask, value []uint64) float64 {
		switch opt.Heuristic {
		case Blind:
			return 0
		case HMax:
			return max(conditionMax(p.dist, mask, value), countBound(unmet(start, mask, value), per, unit))
		case GoalCost:
			c, work := levelAt(&p.levels, p.levels.cost, start, mask, value)
			p.estWork += work
			return max(c, countBound(unmet(start, mask, value), per, unit))
		}
		return countBound(unmet(start, mask, value), per, unit)
	}

	p.reset(2 * W)
	res := Result{Plan: dst}
	cur := p.cur[:2*W]
	next := p.next[:2*W]
	copy(cur[:W], goal.cond.mask)
	copy(cur[W:], goal.cond.value)
	id, in, added := p.tab.Intern(cur)
	p.addNode(id, in, added, node{parent: -1, action: NoAction}, limitDepth)
	h0 := estimate(cur[:W], cur[W:])
	if tr != nil {
		tr.addNode(cur, -1, NoAction, 0, h0, 0)
	}
	if !math.IsInf(h0, 1) {
		p.open.Push(pq.Entry{F: h0, H: h0, Node: 0})
	}
	depthPruned := false

	for p.open.Len() > 0 {
		e := p.open.Pop()
		n := p.nodes[e.Node]
		if n.dead {
			continue
		}
		copy(cur, p.tab.Key(n.state))
		mask, value := cur[:W], cur[W:]
		if p.settle(&res, dst, e.Node, n.g, holds(start, mask, value), true, &m, tr) {
			return res
		}
		depth := n.depth + 1
		for ai := range d.actions {
			a := ActionID(ai)
			act := &d.actions[ai]
			if prof.capable[ai>>6]&(1<<(uint(ai)&63)) == 0 {
				if tr != nil {
					tr.addEdge(a, NotCapable, -1)
				}
				continue
			}
			serves, undoes := act.relevance(mask, value)
			if undoes != 0 {
				if tr != nil {
					tr.addEdge(a, Conflicts, -1)
				}
				continue
			}
			if serves == 0 {
				if tr != nil {
					tr.addEdge(a, Irrelevant, -1)
				}
				continue
			}
			for _, c := range prof.cases[prof.caseOf[ai]:prof.caseOf[ai+1]] {
				clash, changed := act.regress(&c, mask, value, next)
				if clash != 0 {
					if tr != nil {
						tr.addEdge(a, Inconsistent, -1)
					}
					continue
				}
				if changed == 0 {
					if tr != nil {
						tr.addEdge(a, NoOp, -1)
					}
					continue
				}
				if limitDepth && int(depth) > opt.MaxDepth {
					depthPruned = true
					if tr != nil {
						tr.addEdge(a, TooDeep, -1)
					}
					continue
				}
				g := n.g + c.cost
				res.Generated++
				id, in, added := p.tab.Intern(next)
				idx := p.addNode(id, in, added, node{g: g, parent: e.Node, action: a, depth: depth}, limitDepth)
				if idx < 0 {
					if tr != nil {
						tr.addEdge(a, NotCheaper, -1)
					}
					continue
				}
				h := estimate(next[:W], next[W:])
				if tr != nil {
					tr.addNode(next, e.Node, a, g, h, depth)
					tr.addEdge(a, Generated, idx)
				}
				if math.IsInf(h, 1) {
					p.nodes[idx].dead = true
					continue
				}
				p.open.Push(pq.Entry{F: g + h, H: h, Node: idx})
			}
		}
	}
	res.Status = NoPlan
	if depthPruned {
		res.Status, res.Bound = LimitReached, BoundDepth
	}
	return res
}

// relevance tells how the action bears on the partial state (mask, value):
// the needed facts its effects set as needed (serves) and those they set
// otherwise (undoes). Regression goes through actions that serve and undo
// nothing.
func (a *action) relevance(mask, value []uint64) (serves, undoes uint64) {
	for w := range mask {
		touched := a.effMask[w] & mask[w]
		diff := a.effValue[w] ^ value[w]
		serves |= touched &^ diff
		undoes |= touched & diff
	}
	return serves, undoes
}

// regress writes into next (mask, then value) what must hold before the
// action, under cost case c, for (mask, value) to hold after it: the needed
// facts it does not set, plus the case's. It reports a clash between those
// (no such state) and whether anything changed.
func (a *action) regress(c *costCase, mask, value, next []uint64) (clash, changed uint64) {
	W := len(mask)
	for w := range mask {
		keepM := mask[w] &^ a.effMask[w]
		keepV := value[w] &^ a.effMask[w]
		clash |= (keepV ^ c.value[w]) & keepM & c.mask[w]
		nm := keepM | c.mask[w]
		nv := keepV | c.value[w]
		next[w], next[W+w] = nm, nv
		changed |= (nm ^ mask[w]) | (nv ^ value[w])
	}
	return clash, changed
}
