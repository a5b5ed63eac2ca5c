package goap

import (
	"math"
	"math/bits"

	"github.com/ploy-ai/ploy/internal/pq"
)

// wordSearch is the search over one-word states (domains of at most 64
// facts), with the scratch space it keeps between searches.
type wordSearch struct {
	dense []denseSlot // the dense table, for at most maxDenseFacts facts
	epoch uint32      // dense's current epoch
	nodes []wordNode
	table wordMap // the hash map, for more facts
}

// maxDenseFacts bounds the domains whose states index a dense table
// directly (2^12 slots of 16 bytes, in L1 and L2) instead of a hash table.
const maxDenseFacts = 12

// denseSlot is the cheapest known cost of one state, valid in its epoch.
type denseSlot struct {
	g     float64
	epoch uint32
}

// wordNode is a wordSearch.forward search node: the state itself, not an id.
type wordNode struct {
	g      float64
	state  uint64
	parent int32
	action ActionID
}

func (n *wordNode) link() (int32, ActionID) { return n.parent, n.action }

// forward is the general forward search (Planner.forward) for the
// common case of a domain of at most 64 facts, searched with any estimate
// but HMax (the goal count, GoalCost, which adds its chain bound to the
// count, or blind), no depth limit and no trace; with whole (or scaled)
// costs, denseSearch.forward and hashSearch.forward take it over first.
// States are single words kept in the nodes themselves; a domain of at most
// maxDenseFacts facts indexes a dense table with them, so that there is no
// hashing at all, and a larger one a 16-byte-slot hash map whose probe
// compares the key in the slot itself. A node is stale when a cheaper path
// to its state is known, which is checked when it is taken from the open
// list. It makes the same nodes in the same order as Planner.forward
// (successors in action order, ties on f to the lesser h or count, then to
// the older node), so results are identical; a test checks that they are,
// on random domains.
func (ws *wordSearch) forward(p *Planner, dst []ActionID, start uint64, goal *Goal, prof *Profile) Result {
	d := p.d
	useDense := len(d.facts) <= maxDenseFacts
	var m meter
	p.meter(&m, wordNodeBytes, 0, len(d.actions), len(d.actions), 2)
	var dense []denseSlot
	var ep uint32
	if useDense {
		if len(ws.dense) != 1<<len(d.facts) {
			ws.dense = make([]denseSlot, 1<<len(d.facts))
			ws.epoch = 0
		}
		ws.epoch++
		if ws.epoch == 0 {
			clear(ws.dense)
			ws.epoch = 1
		}
		ep = ws.epoch
		dense = ws.dense
		dense[start] = denseSlot{g: 0, epoch: ep}
	} else {
		ws.table.reset()
		ws.table.insert(start).g = negZero // 0, but not an empty slot
	}
	gm, gv := goal.cond.mask[0], goal.cond.value[0]
	byUnmet := p.byUnmet
	costs := prof.costs
	capable := prof.capable
	allCapable := prof.allCapable
	one := d.one
	app := p.applicable
	key := p.cur[:1]

	nodes := append(ws.nodes[:0], wordNode{state: start, parent: -1, action: NoAction})
	// Whole costs (once scaled) make whole f values: a bucketed open list
	// then gives the heap's exact order at a fraction of its cost.
	scale := prof.costScale
	buckets := scale > 0
	res := Result{Plan: dst}
	f0 := p.wordEstimate(byUnmet, start, gm, gv)
	if math.IsInf(f0, 1) {
		f0 = 0 // a dead end, expanded as forward expands it: it makes only dead ends
	}
	if buckets {
		p.buckets.Reset()
		p.buckets.Push(int(f0*scale), int(f0*scale), 0)
	} else {
		p.open.Reset()
		p.open.Push(pq.Entry{F: f0, H: f0, Node: 0})
	}
	defer func() { ws.nodes = nodes }()

	for {
		var e pq.Entry
		switch {
		case buckets && p.buckets.Len() > 0:
			_, e.Node = p.buckets.Pop()
		case !buckets && p.open.Len() > 0:
			e = p.open.Pop()
		default:
			res.Status = NoPlan
			return res
		}
		n := nodes[e.Node]
		s := n.state
		var best float64
		if useDense {
			best = dense[s].g
		} else {
			best = ws.table.find(s).g
		}
		if n.g > best {
			continue // a cheaper path to this state was found after this entry
		}
		if s&gm == gv {
			res.Status, res.Cost, res.Plan = Found, n.g, appendPath(dst, nodes, e.Node, false)
			return res
		}
		if m.over(&res, len(nodes)) {
			return res
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
				m := &one[ai]
				ns := s&^m.effMask | m.effValue
				if ns == s {
					continue
				}
				c := &costs[ai]
				g := c.value
				if c.kind != costConst {
					key[0] = s
					g = c.at(key)
					p.estWork += len(c.rules)
				}
				g += n.g
				res.Generated++
				if useDense {
					slot := &dense[ns]
					if slot.epoch == ep && slot.g <= g {
						continue
					}
					*slot = denseSlot{g: g, epoch: ep}
				} else {
					slot := ws.table.insert(ns)
					if math.Float64bits(slot.g) != 0 && slot.g <= g {
						continue
					}
					slot.g = g
				}
				h := p.wordEstimate(byUnmet, ns, gm, gv)
				if math.IsInf(h, 1) {
					continue // a dead end
				}
				idx := int32(len(nodes))
				nodes = append(nodes, wordNode{g: g, state: ns, parent: e.Node, action: ActionID(ai)})
				f := g + h
				if buckets {
					p.buckets.Push(int(f*scale), int(byUnmet[bits.OnesCount64((ns^gv)&gm)]*scale), idx)
				} else {
					p.open.Push(pq.Entry{F: f, H: byUnmet[bits.OnesCount64((ns^gv)&gm)], Node: idx})
				}
			}
		}
	}
}

// wordEstimate is the estimate of one-word state s against the goal
// (gm, gv): the goal count, raised by GoalCost's chains (empty for the
// other heuristics); +Inf for a dead end.
func (p *Planner) wordEstimate(byUnmet []float64, s, gm, gv uint64) float64 {
	ch := &p.chain
	h, work := chainAtWord(ch, p.d.masks, ch.ub, ch.achCost, ch.grpCost, math.Inf(1), s, byUnmet[bits.OnesCount64((s^gv)&gm)])
	p.estWork += work
	return h
}

// wholeWordEstimate is wordEstimate in the profile's scaled units, -1 for a
// dead end.
func (p *Planner) wholeWordEstimate(hOf *[65]int, s, gm, gv uint64) int {
	ch := &p.chain
	h, work := chainAtWord(ch, p.d.masks, ch.ubW, ch.achW, ch.grpW, wholeInf, s, hOf[bits.OnesCount64((s^gv)&gm)])
	p.estWork += work
	if h >= wholeInf {
		return -1
	}
	return h
}

// negZero is -0.0: equal to 0 in every comparison, but with bits that are
// not all zero, so that the start state's slot does not read as empty.
var negZero = math.Copysign(0, -1)
