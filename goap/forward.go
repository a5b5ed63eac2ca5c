package goap

import (
	"math"
	"math/bits"

	"github.com/ploy-ai/ploy/internal/intern"
	"github.com/ploy-ai/ploy/internal/pq"
)

// successor is a state an expansion produced, waiting to be interned.
type successor struct {
	action ActionID
	edge   int32 // its trace edge, when tracing
	cost   float64
	hash   uint64
}

// forward is textbook A* over whole states: the best g per state, stale
// open-list entries skipped, the goal tested when a state is taken from the
// open list, and ties on f going to the state with the least estimate h
// (the one believed nearest the goal; under GoalCost, its goal-count part),
// then to the state generated first.
//
// An expansion runs in passes. The first finds the applicable actions, into
// a bitmask, by the fail table's lookups or by testing every action with no
// branch per action to mispredict; the second applies the applicable ones
// and hashes the successors; a tight third loop touches each successor's slot in the state
// table, so that on a search too large for the cache the processor waits
// for all of those misses at once; the last interns and queues them.
func (p *Planner) forward(dst []ActionID, start []uint64, goal *Goal, prof *Profile, opt Options) Result {
	d := p.d
	W := d.words
	tr := opt.Trace
	limitDepth := opt.MaxDepth > 0
	gm, gv := goal.cond.mask, goal.cond.value
	unit := prof.minCost
	per := goal.mostFixed()
	heur := opt.Heuristic
	nActions := len(d.actions)
	var m meter
	p.meter(&m, generalNodeBytes+16*W, nActions*(successorBytes+16*W), nActions, nActions*W, W+1)
	m.inPlanner()
	if tr != nil {
		m.traced(nActions, nActions, W)
	}

	p.reset(W)
	res := Result{Plan: dst}
	id, in, added := p.tab.Intern(start)
	p.addNode(id, in, added, node{parent: -1, action: NoAction}, limitDepth)
	p.relaxWork = 0
	h0 := p.forwardEstimate(heur, prof, start, gm, gv, per, unit)
	p.estWork, p.relaxWork = p.estWork+p.relaxWork, 0
	if tr != nil {
		tr.addNode(start, -1, NoAction, 0, h0, 0)
	}
	p.open.Push(pq.Entry{F: h0, H: h0, Node: 0})
	cur := p.cur[:W]
	depthPruned := false
	var sink uint64
	masks := d.masks
	costs := prof.costs
	app := p.applicable[:len(prof.capable)]
	clear(app)
	byUnmet := p.byUnmet

	for p.open.Len() > 0 {
		e := p.open.Pop()
		n := p.nodes[e.Node]
		if n.dead {
			continue // a cheaper path to this state was found after this entry
		}
		copy(cur, p.tab.Key(n.state))
		if p.settle(&res, dst, e.Node, n.g, holds(cur, gm, gv), false, &m, tr) {
			p.sink += sink
			return res
		}
		depth := n.depth + 1
		tooDeep := limitDepth && int(depth) > opt.MaxDepth

		// Pass 1: which actions apply.
		if W == 1 {
			d.applicableWord(cur[0], app)
		} else {
			d.applicableWide(cur, app)
		}
		// Pass 2: apply them, in action order.
		succ := p.succ[:0]
		words := p.succWords[:0]
		for k, word := range app {
			capable := prof.capable[k]
			todo := word & capable
			if tr != nil {
				todo = ^uint64(0) // visit every action, to record its fate
				if rest := nActions - k*64; rest < 64 {
					todo = 1<<uint(rest) - 1
				}
			}
			for todo != 0 {
				b := bits.TrailingZeros64(todo)
				todo &= todo - 1
				ai := k*64 + b
				a := ActionID(ai)
				if capable&(1<<b) == 0 {
					tr.addEdge(a, NotCapable, -1) // only reached when tracing
					continue
				}
				if word&(1<<b) == 0 {
					tr.addEdge(a, PreconditionsUnmet, -1)
					continue
				}
				changed := uint64(0)
				if W == 1 {
					m := &d.one[ai]
					nw := cur[0]&^m.effMask | m.effValue
					words = append(words, nw)
					changed = nw ^ cur[0]
				} else {
					m := masks[ai*4*W+2*W : (ai+1)*4*W]
					for w := 0; w < W; w++ {
						nw := cur[w]&^m[w] | m[W+w]
						words = append(words, nw)
						changed |= nw ^ cur[w]
					}
				}
				if changed == 0 || tooDeep {
					words = words[:len(words)-W]
					depthPruned = depthPruned || changed != 0
					if tr != nil {
						r := NoOp
						if changed != 0 {
							r = TooDeep
						}
						tr.addEdge(a, r, -1)
					}
					continue
				}
				edge := int32(-1)
				if tr != nil {
					edge = int32(len(tr.Edges))
					tr.addEdge(a, Generated, -1) // settled in pass 4
				}
				c := &costs[ai]
				cost := c.value
				if c.kind != costConst {
					cost = c.at(cur)
					p.estWork += len(c.rules) * W
				}
				succ = append(succ, successor{action: a, edge: edge, cost: cost, hash: intern.Hash(words[len(words)-W:])})
			}
		}
		p.succ, p.succWords = succ, words
		// Pass 3: touch the successors' slots, once the table outgrows the
		// cache (below that, touching only costs time).
		if p.tab.Slots() >= touchSlots {
			for k := range succ {
				sink += p.tab.Touch(succ[k].hash)
			}
		}
		// Pass 4: intern and queue.
		for k := range succ {
			s := &succ[k]
			next := words[k*W : (k+1)*W]
			g := n.g + s.cost
			res.Generated++
			id, in, added := p.tab.InternHashed(next, s.hash)
			idx := p.addNode(id, in, added, node{g: g, parent: e.Node, action: s.action, depth: depth}, limitDepth)
			if idx < 0 {
				if tr != nil {
					tr.Edges[s.edge].Reason = NotCheaper
				}
				continue
			}
			var h float64
			switch heur {
			case GoalCount:
				h = byUnmet[unmet(next, gm, gv)]
			case GoalCost:
				ch := &p.chain
				var work int
				h, work = chainAt(ch, d.masks, ch.ub, ch.achCost, ch.grpCost, math.Inf(1), next, byUnmet[unmet(next, gm, gv)])
				p.estWork += work
			default:
				h = p.forwardEstimate(heur, prof, next, gm, gv, per, unit)
				// A relaxation per successor, its passes unknown in
				// advance: counted as done, and the limit tested each time,
				// so that no expansion runs far past it.
				p.estWork, p.relaxWork = p.estWork+p.relaxWork, 0
				if w := m.work(res.Expanded, res.Generated); w > m.maxWork {
					res.Status, res.Bound = LimitReached, BoundWork
					p.sink += sink
					return res
				} else if w > m.nextCheck && m.canceled(&res, w) {
					p.sink += sink
					return res
				}
			}
			if tr != nil {
				tr.addNode(next, e.Node, s.action, g, h, depth)
				tr.Edges[s.edge].Node = idx
			}
			if math.IsInf(h, 1) {
				p.nodes[idx].dead = true // the relaxation proves the goal unreachable from here
				continue
			}
			hc := h
			if heur == GoalCost {
				hc = byUnmet[unmet(next, gm, gv)]
			}
			p.open.Push(pq.Entry{F: g + h, H: hc, Node: idx})
		}
	}
	p.sink = sink
	res.Status = NoPlan
	if depthPruned {
		res.Status, res.Bound = LimitReached, BoundDepth
	}
	return res
}

// touchSlots is the table size from which pass 3 pays: 16-byte-and-up slots
// past a few hundred kilobytes no longer sit in a core's L2.
const touchSlots = 1 << 15

// isZero is 1 if x is 0 and 0 otherwise, without a branch.
func isZero(x uint64) uint64 { return ((x | -x) >> 63) ^ 1 }

// forwardEstimate is the heuristic's estimate for state s.
func (p *Planner) forwardEstimate(heur Heuristic, prof *Profile, s, gm, gv []uint64, per int, unit float64) float64 {
	switch heur {
	case Blind:
		return 0
	case HMax:
		p.relaxWork += prof.relaxed.fill(p.dist, s, len(p.d.facts))
		return max(conditionMax(p.dist, gm, gv), countBound(unmet(s, gm, gv), per, unit))
	case GoalCost:
		ch := &p.chain
		h, work := chainAt(ch, p.d.masks, ch.ub, ch.achCost, ch.grpCost, math.Inf(1), s, countBound(unmet(s, gm, gv), per, unit))
		p.estWork += work
		return h
	}
	return countBound(unmet(s, gm, gv), per, unit)
}
