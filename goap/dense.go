package goap

import (
	"math"
	"math/bits"

	"github.com/ploy-ai/ploy/internal/pq"
)

// denseSearch is the search over the dense states of a domain of at most
// maxDenseFacts facts with whole (scaled) costs, with the scratch space
// it keeps between searches.
type denseSearch struct {
	table []wholeSlot
	epoch uint32 // table's current epoch
	nodes []denseNode
	open  pq.Keys
}

// wholeSlot is what denseSearch.forward knows of one state: its cheapest known
// cost in the profile's scaled units, valid in the search's epoch, and its
// estimate, valid while the goal, profile and heuristic stay those it was
// made for (the planner's estimate epoch): an agent replanning a goal in a
// domain this small soon finds every estimate it needs already made.
// hWork is the work making the estimate took, which a search that finds
// it made counts again: a search's Work is then the same whatever the
// planner searched before, as are the searches a work limit stops (on a
// queue, whichever worker's planner runs it).
type wholeSlot struct {
	g, h          int32
	epoch, hEpoch uint32
	hWork         uint32
}

// denseNode is a denseSearch.forward search node.
type denseNode struct {
	g      int32
	state  uint32
	parent int32
	action ActionID
}

func (n *denseNode) link() (int32, ActionID) { return n.parent, n.action }

// forward is wordSearch.forward for its commonest case, the battle mage's: at
// most maxDenseFacts facts, every cost whole once scaled, the goal-count,
// GoalCost or blind estimate, no depth limit and no trace. Costs, g and
// estimates are integers in the profile's scaled units, constant costs come
// from a table, states index an 8-byte slot directly, and nodes are 16
// bytes: no conversion between floating point and integers in the loop. It
// makes the same nodes in the same order as wordSearch.forward, so results are
// identical (TestWordSearchMatchesGeneral).
//
// Its open list is a binary heap of keys packing (f, h, node), the
// buckets' order: with at most 2^12 states whose costs are at most
// maxBucketCost, g stays under 2^22 and h under 2^14, so that one integer
// comparison orders two entries. It returns false, for wordSearch.forward to make
// the search from the start, should its nodes outgrow their 27 bits (a
// memory ceiling above 8 GiB and millions of actions).
func (ds *denseSearch) forward(p *Planner, dst []ActionID, start uint64, goal *Goal, prof *Profile) (Result, bool) {
	d := p.d
	var m meter
	p.meter(&m, denseNodeBytes, 0, len(d.actions), len(d.actions), 2)
	if len(ds.table) != 1<<len(d.facts) {
		ds.table = make([]wholeSlot, 1<<len(d.facts))
		ds.epoch = 0
	}
	ds.epoch++
	if ds.epoch == 0 {
		clear(ds.table)
		ds.epoch = 1
	}
	ep := ds.epoch
	dense := ds.table[:1<<len(d.facts)]
	dense[start].g, dense[start].epoch = 0, ep
	hep := p.estEpoch
	gm, gv := goal.cond.mask[0], goal.cond.value[0]
	hOf := &p.hOfWord
	scale := prof.costScale
	whole, rules, ruleOf := prof.wholeCost, prof.wholeRules, prof.wholeRuleOf
	capable, allCapable := prof.capable, prof.allCapable
	one := d.one
	app := p.applicable

	nodes := append(ds.nodes[:0], denseNode{state: uint32(start), parent: -1, action: NoAction})
	open := &ds.open
	open.Reset()
	h0 := max(p.wholeWordEstimate(hOf, start, gm, gv), 0) // a dead start is expanded, as forward does
	open.Push(denseKey(h0, h0, 0))
	res := Result{Plan: dst}
	defer func() { ds.nodes = nodes }()
	handAt := p.wordNodes - len(d.actions) // the node numbers' bits are full

	for open.Len() > 0 {
		ni := int32(open.Pop() & denseNodeMask)
		n := nodes[ni]
		s := uint64(n.state)
		if n.g > dense[s].g {
			continue // a cheaper path to this state was found after this entry
		}
		if s&gm == gv {
			res.Status, res.Cost, res.Plan = Found, float64(n.g)/scale, appendPath(dst, nodes, ni, false)
			return res, true
		}
		if m.over(&res, len(nodes)) {
			return res, true
		}
		if len(nodes) > handAt {
			size := len(nodes)
			nodes = nil // kept by nothing: see handOver
			return p.handOver(dst, &m, &res, size)
		}
		res.Expanded++
		d.applicableWord(s, app)
		for k, word := range app {
			if !allCapable {
				word &= capable[k]
			}
			for word != 0 {
				ai := k<<6 | bits.TrailingZeros64(word)
				word &= word - 1
				a := &one[ai]
				ns := s&^a.effMask | a.effValue
				if ns == s {
					continue
				}
				cost := whole[ai]
				if cost < 0 { // a rule list, the last rule met by every state
					p.estWork += len(prof.costs[ai].rules)
					cost = ruleCost(s, rules[ruleOf[ai]:ruleOf[ai+1]])
				}
				g := n.g + cost
				res.Generated++
				slot := &dense[ns]
				if slot.epoch == ep && slot.g <= g {
					continue
				}
				slot.g, slot.epoch = g, ep
				if slot.hEpoch != hep {
					before := p.estWork
					slot.h, slot.hEpoch = int32(p.wholeWordEstimate(hOf, ns, gm, gv)), hep
					slot.hWork = uint32(min(uint64(p.estWork-before), math.MaxUint32))
				} else {
					p.estWork += int(slot.hWork)
				}
				h := int(slot.h)
				if h < 0 {
					continue // a dead end
				}
				idx := int32(len(nodes))
				nodes = append(nodes, denseNode{g: g, state: uint32(ns), parent: ni, action: ActionID(ai)})
				open.Push(denseKey(int(g)+h, hOf[bits.OnesCount64((ns^gv)&gm)], idx))
			}
		}
	}
	res.Status = NoPlan
	return res, true
}

// denseKey packs denseSearch.forward's open-list order: f, then h, then node.
func denseKey(f, h int, node int32) uint64 {
	return uint64(f)<<(denseHBits+denseNodeBits) | uint64(h)<<denseNodeBits | uint64(node)
}

const (
	denseNodeBits = 27
	denseHBits    = 14
	denseNodeMask = 1<<denseNodeBits - 1
)
