package goap

import (
	"math"
	"math/bits"

	"github.com/ploy-ai/ploy/internal/pq"
)

// maxDenseFacts bounds the domains whose states index a dense table
// directly (2^12 slots of 16 bytes, in L1 and L2) instead of a hash table.
const maxDenseFacts = 12

// denseSlot is the cheapest known cost of one state, valid in its epoch.
type denseSlot struct {
	g     float64
	epoch uint32
}

// smallNode is a forwardWord search node: the state itself, not an id.
type smallNode struct {
	g      float64
	state  uint64
	parent int32
	action ActionID
}

// forwardWord is forward for the common case of a domain of at most 64
// facts searched with the goal-count or blind heuristic, no depth limit and
// no trace (forwardLazy takes those over maxDenseFacts with whole, or
// scaled, costs).
// States are single words kept in the nodes themselves; a domain of at most
// maxDenseFacts facts indexes a dense table with them, so that there is no
// hashing at all, and a larger one a 16-byte-slot hash map whose probe
// compares the key in the slot itself. A node is stale when a cheaper path
// to its state is known, which is checked when it is taken from the open
// list, as textbook A* does. It makes the same nodes in the same order as
// forward (successors in action order, ties on f to the lesser h or count, then to
// the older node), so
// results are identical; a test checks that they are, on random domains.
func (p *Planner) forwardWord(dst []ActionID, start uint64, goal *Goal, prof *Profile) Result {
	d := p.d
	useDense := len(d.facts) <= maxDenseFacts
	m := p.meter(wordNodeBytes, 0, len(d.actions), len(d.actions), 2)
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
		dense[start] = denseSlot{g: 0, epoch: ep}
	} else {
		p.words.reset()
		p.words.insert(start).g = negZero // 0, but not an empty slot
	}
	gm, gv := goal.cond.mask[0], goal.cond.value[0]
	byUnmet := p.byUnmet
	costs := prof.costs
	capable := prof.capable
	allCapable := prof.allCapable
	one := d.one
	app := p.applicable
	key := p.cur[:1]

	nodes := append(p.small[:0], smallNode{state: start, parent: -1, action: NoAction})
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
	defer func() { p.small = nodes }()

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
			best = p.words.find(s).g
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
					slot := p.words.insert(ns)
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
				nodes = append(nodes, smallNode{g: g, state: ns, parent: e.Node, action: ActionID(ai)})
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

func (n *smallNode) link() (int32, ActionID) { return n.parent, n.action }

// appendPath appends the actions on the path from the search's root to
// node i, following the nodes' parent links, in plan order: a forward
// search's links run from the goal back to the start, so they are reversed;
// a backward search's run from the start toward the goal, in plan order
// already.
func appendPath[N any, P interface {
	*N
	link() (int32, ActionID)
}](dst []ActionID, nodes []N, i int32, backward bool) []ActionID {
	start := len(dst)
	for {
		parent, a := P(&nodes[i]).link()
		if a == NoAction {
			break
		}
		dst, i = append(dst, a), parent
	}
	if !backward {
		reverse(dst[start:])
	}
	return dst
}

func reverse(s []ActionID) {
	for a, b := 0, len(s)-1; a < b; a, b = a+1, b-1 {
		s[a], s[b] = s[b], s[a]
	}
}

// negZero is -0.0: equal to 0 in every comparison, but with bits that are
// not all zero, so that the start state's slot does not read as empty.
var negZero = math.Copysign(0, -1)

// wordSlot is a one-word state and its cheapest known cost. A slot whose
// cost has all bits zero is empty: costs are positive, and the start state,
// at cost 0, is stored as negZero.
type wordSlot struct {
	key uint64
	g   float64
}

// wordMap maps one-word states to their cheapest known cost, with linear
// probing at a load of at most a half. It is emptied by clearing the slots
// it used, which costs what the search that filled them cost.
type wordMap struct {
	slots []wordSlot
	used  []uint32 // indices of the filled slots
	shift uint
}

func (m *wordMap) reset() {
	if m.slots == nil {
		m.slots = make([]wordSlot, 1<<10)
		m.shift = 64 - 10
	}
	for _, i := range m.used {
		m.slots[i] = wordSlot{}
	}
	m.used = m.used[:0]
}

func (m *wordMap) index(key uint64) uint64 { return wordHash(key) >> m.shift }

// wordHash mixes a one-word state's bits into the top bits, which index
// the tables.
func wordHash(key uint64) uint64 { return (key ^ key>>29) * 0x9e3779b97f4a7c15 }

// find returns key's slot, which must be present.
func (m *wordMap) find(key uint64) *wordSlot {
	mask := uint64(len(m.slots) - 1)
	for i := m.index(key); ; i = (i + 1) & mask {
		if s := &m.slots[i]; s.key == key && math.Float64bits(s.g) != 0 {
			return s
		}
	}
}

// insert returns key's slot, claiming an empty one (g == 0) if key is new.
func (m *wordMap) insert(key uint64) *wordSlot {
	if 2*(len(m.used)+1) > len(m.slots) {
		m.grow()
	}
	mask := uint64(len(m.slots) - 1)
	i := m.index(key)
	for {
		s := &m.slots[i]
		if math.Float64bits(s.g) == 0 {
			s.key = key
			m.used = append(m.used, uint32(i))
			return s
		}
		if s.key == key {
			return s
		}
		i = (i + 1) & mask
	}
}

func (m *wordMap) grow() {
	old := m.slots
	m.slots = make([]wordSlot, 2*len(old))
	m.shift--
	m.used = m.used[:0]
	mask := uint64(len(m.slots) - 1)
	for _, s := range old {
		if math.Float64bits(s.g) == 0 {
			continue
		}
		i := m.index(s.key)
		for math.Float64bits(m.slots[i].g) != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
		m.used = append(m.used, uint32(i))
	}
}

// wholeSlot is what forwardDense knows of one state: its cheapest known
// cost in the profile's scaled units, valid in the search's epoch, and its
// estimate, valid while the goal, profile and heuristic stay those it was
// made for (the planner's estimate epoch): an agent replanning a goal in a
// domain this small soon finds every estimate it needs already made.
type wholeSlot struct {
	g, h          int32
	epoch, hEpoch uint32
}

// denseNode is a forwardDense search node.
type denseNode struct {
	g      int32
	state  uint32
	parent int32
	action ActionID
}

func (n *denseNode) link() (int32, ActionID) { return n.parent, n.action }

// forwardDense is forwardWord for its commonest case, the battle mage's: at
// most maxDenseFacts facts, every cost whole once scaled, the goal-count,
// GoalCost or blind estimate, no depth limit and no trace. Costs, g and
// estimates are integers in the profile's scaled units, constant costs come
// from a table, states index an 8-byte slot directly, and nodes are 16
// bytes: no conversion between floating point and integers in the loop. It
// makes the same nodes in the same order as forwardWord, so results are
// identical (TestWordSearchMatchesGeneral).
//
// Its open list is a binary heap of keys packing (f, h, node), the
// buckets' order: with at most 2^12 states whose costs are at most
// maxBucketCost, g stays under 2^22 and h under 2^14, so that one integer
// comparison orders two entries. It returns false, for forwardWord to make
// the search from the start, should its nodes outgrow their 27 bits (a
// memory ceiling above 8 GiB and millions of actions).
func (p *Planner) forwardDense(dst []ActionID, start uint64, goal *Goal, prof *Profile) (Result, bool) {
	d := p.d
	m := p.meter(denseNodeBytes, 0, len(d.actions), len(d.actions), 2)
	if len(p.denseWhole) != 1<<len(d.facts) {
		p.denseWhole = make([]wholeSlot, 1<<len(d.facts))
		p.wholeEpoch = 0
	}
	p.wholeEpoch++
	if p.wholeEpoch == 0 {
		clear(p.denseWhole)
		p.wholeEpoch = 1
	}
	ep := p.wholeEpoch
	dense := p.denseWhole[:1<<len(d.facts)]
	dense[start].g, dense[start].epoch = 0, ep
	hep := p.estEpoch
	gm, gv := goal.cond.mask[0], goal.cond.value[0]
	hOf := &p.hOfWord
	scale := prof.costScale
	whole, rules, ruleOf := prof.wholeCost, prof.wholeRules, prof.wholeRuleOf
	capable, allCapable := prof.capable, prof.allCapable
	one := d.one
	app := p.applicable

	nodes := append(p.denseNodes[:0], denseNode{state: uint32(start), parent: -1, action: NoAction})
	open := &p.keys
	open.Reset()
	h0 := max(p.wholeWordEstimate(hOf, start, gm, gv), 0) // a dead start is expanded, as forward does
	open.Push(denseKey(h0, h0, 0))
	res := Result{Plan: dst}
	defer func() { p.denseNodes = nodes }()

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
		if len(nodes) > denseNodeMask-len(d.actions) {
			return p.handOver(dst, &m, &res)
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
					for _, r := range rules[ruleOf[ai]:ruleOf[ai+1]] {
						if s&r.mask == r.value {
							cost = r.cost
							break
						}
					}
				}
				g := n.g + cost
				res.Generated++
				slot := &dense[ns]
				if slot.epoch == ep && slot.g <= g {
					continue
				}
				slot.g, slot.epoch = g, ep
				if slot.hEpoch != hep {
					slot.h, slot.hEpoch = int32(p.wholeWordEstimate(hOf, ns, gm, gv)), hep
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

// denseKey packs forwardDense's open-list order: f, then h, then node.
func denseKey(f, h int, node int32) uint64 {
	return uint64(f)<<(denseHBits+denseNodeBits) | uint64(h)<<denseNodeBits | uint64(node)
}

const (
	denseNodeBits = 27
	denseHBits    = 14
	denseNodeMask = 1<<denseNodeBits - 1
)

// reserve makes room for n keys, touching the memory, and empties the map.
func (m *wordMap) reserve(n int) {
	if m.slots != nil {
		m.reset()
	}
	m.slots, m.shift, m.used = reserveTable(m.slots, m.shift, m.used, n)
}
