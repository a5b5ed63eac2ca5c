package goap

import (
	"math/bits"

	"github.com/ploy-ai/ploy/internal/pq"
)

// maxDenseFacts bounds the domains whose states index a dense table
// directly (2^12 slots of 16 bytes, in L1 and L2) instead of a hash table.
const maxDenseFacts = 12

// denseSlot is what forwardSmall knows of one state.
type denseSlot struct {
	g     float64
	head  int32 // its live node
	epoch uint32
}

// smallNode is a forwardWord search node: the state itself, not an id.
type smallNode struct {
	g      float64
	state  uint64
	parent int32
	action ActionID
	dead   bool
}

// forwardWord is forward for the common case of a domain of at most 64
// facts searched with the goal-count or blind heuristic, no depth limit and
// no trace. States are single words kept in the nodes themselves, and a
// domain of at most maxDenseFacts facts indexes a dense table with them, so
// that there is no hashing and no probing at all. It makes the same nodes in
// the same order as forward (successors in action order, ties on f to the
// older node), so results are identical; a test checks that they are, on
// random domains.
func (p *Planner) forwardWord(dst []ActionID, start uint64, goal *Goal, prof *Profile, heur Heuristic, budget int) Result {
	d := p.d
	useDense := len(d.facts) <= maxDenseFacts
	var dense []denseSlot
	var ep uint32
	if useDense {
		if len(p.dense) != 1<<len(d.facts) {
			p.dense = make([]denseSlot, 1<<len(d.facts))
			p.denseEpoch = 0
		}
		p.denseEpoch++
		if p.denseEpoch == 0 {
			clear(p.dense)
			p.denseEpoch = 1
		}
		ep = p.denseEpoch
		dense = p.dense
	} else {
		p.tab.Reset(1)
	}
	key := p.cur[:1]
	gm, gv := goal.cond.mask[0], goal.cond.value[0]
	byUnmet := p.countTable(goal.cond.Len(), goal.fixMax, prof.minCost)
	if heur == Blind {
		clear(byUnmet)
	}
	costs := prof.costs
	capable := prof.capable
	one := d.one

	nodes := append(p.small[:0], smallNode{state: start, parent: -1, action: NoAction})
	if useDense {
		dense[start] = denseSlot{g: 0, head: 0, epoch: ep}
	} else {
		key[0] = start
		_, in, _ := p.tab.Intern(key)
		*in = stateInfo{g: 0, head: 0}
	}
	p.open.Reset()
	p.open.Push(pq.Entry{F: byUnmet[bits.OnesCount64((start^gv)&gm)], Node: 0})
	res := Result{Plan: dst}
	defer func() { p.small = nodes }()

	for p.open.Len() > 0 {
		e := p.open.Pop()
		n := nodes[e.Node]
		if n.dead {
			continue
		}
		s := n.state
		if s&gm == gv {
			res.Status = Found
			res.Cost = n.g
			start := len(dst)
			for i := e.Node; nodes[i].action != NoAction; i = nodes[i].parent {
				dst = append(dst, nodes[i].action)
			}
			reverse(dst[start:])
			res.Plan = dst
			return res
		}
		if res.Expanded >= budget {
			res.Status = BudgetExhausted
			return res
		}
		res.Expanded++
		for ai := range one {
			m := &one[ai]
			if s&m.preMask != m.preValue || capable[ai>>6]&(1<<(uint(ai)&63)) == 0 {
				continue
			}
			ns := s&^m.effMask | m.effValue
			if ns == s {
				continue
			}
			c := &costs[ai]
			g := c.value
			if c.kind != costConst {
				key[0] = s
				g = c.at(key)
			}
			g += n.g
			res.Generated++
			idx := int32(len(nodes))
			if useDense {
				slot := &dense[ns]
				if slot.epoch == ep {
					if slot.g <= g {
						continue
					}
					nodes[slot.head].dead = true
				}
				*slot = denseSlot{g: g, head: idx, epoch: ep}
			} else {
				key[0] = ns
				_, in, added := p.tab.Intern(key)
				if !added {
					if in.g <= g {
						continue
					}
					nodes[in.head].dead = true
				}
				*in = stateInfo{g: g, head: idx}
			}
			nodes = append(nodes, smallNode{g: g, state: ns, parent: e.Node, action: ActionID(ai)})
			p.open.Push(pq.Entry{F: g + byUnmet[bits.OnesCount64((ns^gv)&gm)], Node: idx})
		}
	}
	res.Status = NoPlan
	return res
}

func reverse(s []ActionID) {
	for a, b := 0, len(s)-1; a < b; a, b = a+1, b-1 {
		s[a], s[b] = s[b], s[a]
	}
}
