package goap

import (
	"math"
	"math/bits"
	"unsafe"
)

// stateWord is the integer a hashSearch keeps a state in: 32 bits for a
// domain of at most 32 facts, so that its table slots take 12 bytes
// instead of 16 and more of them share each cache line, 64 otherwise.
type stateWord interface{ uint32 | uint64 }

// hashSearch is the forward search over one-word states of more than
// maxDenseFacts facts with whole (scaled) costs, the goal count, GoalCost
// or blind estimate, no depth limit and no trace: denseSearch.forward with
// a hash table in place of the dense one, and the scratch space it keeps
// between searches.
//
// It detects duplicates as successors are generated, so that only a
// cheaper path to a state makes a node and an open-list entry (a
// random domain of 64 actions generates about twelve successors per
// expansion, most of them states already reached). What made that costly
// is the lookup per successor, a cache miss once the table outgrows the
// cache; so an expansion first lists its successors, then reads each one's
// slot (the processor waits for all those misses at once), then probes.
// A node made stale by a cheaper one is marked so when the cheaper one is
// made, so that taking a node from the open list reads the node alone and
// not its state's slot.
//
// Its open list is the planner's buckets: f and h are whole, and a push
// or a pop touches a few words where a heap's walks log n levels, most of
// them cache misses on a large search.
//
// It makes the same nodes in the same order as wordSearch.forward, so
// results are identical (TestWordSearchMatchesGeneral): successors in
// action order, ties on f to the lesser goal-count estimate, then to the
// older node. Should its nodes outgrow the 27 bits denseSearch.forward
// gives them too (a memory ceiling above 8 GiB), it returns false, for
// wordSearch.forward to make the search from the start.
type hashSearch[K stateWord] struct {
	slots  []hashSlot[K]
	filled int    // slots of this search
	shift  uint   // 64 - log2(len(slots))
	base   uint32 // marks at most this are slots of earlier searches: empty
	top    uint32 // the greatest mark written, the next search's base
	nodes  []hashNode[K]
	succ   []hashSucc[K] // an expansion's successors
	sink   uint32        // keeps the slot reads observable
}

// hashSlot is what a hashSearch knows of a state: its mark, which is the
// search's base plus one plus the cheapest known cost (costs are positive,
// so only the start has cost 0), and the node of that cost, -1 for a dead
// end.
//
// A slot whose mark is at most the base is empty. So a search empties the
// table by raising the base past every mark written before it, instead of
// writing the slots the last search filled: on a table larger than the
// cache, those writes went to memory and were read back from it by the next
// search. A table is cleared whole only when the last search's greatest mark
// reaches 2^31, so the base stays below 2^31 and base plus one plus cost
// fits in a mark: a cost stays below 2^31 because forward hands over to
// the general search before a node's cost passes MaxInt32-maxBucketCost,
// and no step costs more than maxBucketCost.
type hashSlot[K stateWord] struct {
	key  K
	mark uint32
	node int32
}

// hashNode is a hashSearch search node; g is -1 once a cheaper node of the
// same state exists.
type hashNode[K stateWord] struct {
	state  K
	g      int32
	parent int32
	action ActionID
}

func (n *hashNode[K]) link() (int32, ActionID) { return n.parent, n.action }

// hashSucc is a successor between an expansion's passes: its state, cost,
// action and the slot its probe starts at.
type hashSucc[K stateWord] struct {
	state  K
	g      int32
	action ActionID
	slot   uint32
}

// hashTouchSlots is the table size from which reading the successors'
// slots ahead pays: below it the table sits in the cache, where reset
// puts it.
const hashTouchSlots = 1 << 15

// nodeBytes is what the meter counts per node: the node, its bucket link
// and a share of the buckets' groups, twice each (slices grow by
// doubling), and a table slot at the table's least load (a quarter, once
// grown).
func (hs *hashSearch[K]) nodeBytes() int {
	return 2*int(unsafe.Sizeof(hashNode[K]{})) + 2*(4+bucketGroupBytes) + 4*int(unsafe.Sizeof(hashSlot[K]{}))
}

// reset empties the table by raising the base past the last search's
// marks (top, written when forward returns), clearing it whole once they
// reach 2^31.
func (hs *hashSearch[K]) reset() {
	if hs.slots == nil {
		hs.slots = make([]hashSlot[K], 1<<10)
		hs.shift = 64 - 10
	}
	if hs.top >= 1<<31 {
		clear(hs.slots)
		hs.top = 0
	}
	hs.base, hs.filled = hs.top, 0
	// A table small enough for the cache is read through, in order, so
	// that the search's probes find it there rather than each waiting for
	// memory after whatever ran since the last search. (Clearing the last
	// search's slots one by one did this as a side effect: without either,
	// the 32-fact random set's default searches took 4 % longer.) Larger
	// tables have their slots read ahead by the search itself.
	if len(hs.slots) < hashTouchSlots {
		sink := hs.sink
		for i := 0; i < len(hs.slots); i += 4 { // 4 slots: at most a cache line
			sink += hs.slots[i].mark
		}
		hs.sink = sink
	}
}

// reserve makes room for n nodes and states and for an expansion of
// actions successors, touching the memory, and empties the table.
func (hs *hashSearch[K]) reserve(n, actions int) {
	if hs.slots != nil {
		hs.reset()
	}
	// The last expansion may make room for every action's successor.
	hs.slots, hs.shift = reserveSlots(hs.slots, hs.shift, n+actions)
	hs.nodes = reserveTouched(hs.nodes, n)
	hs.succ = reserveTouched(hs.succ, actions)
}

// room grows the table so that n more states keep its load at most a half.
func (hs *hashSearch[K]) room(n int) {
	if 2*(hs.filled+n) <= len(hs.slots) {
		return
	}
	old := hs.slots
	size := 2 * len(old)
	for 2*(hs.filled+n) > size {
		size *= 2
	}
	// The new table is all zeros, empty under any base, and the filled
	// slots keep their marks.
	hs.slots = make([]hashSlot[K], size)
	hs.shift = 64 - uint(bits.TrailingZeros(uint(size)))
	mask := uint64(size - 1)
	base := hs.base
	for _, s := range old {
		if s.mark <= base {
			continue
		}
		i := wordHash(uint64(s.key)) >> hs.shift
		for hs.slots[i].mark > base {
			i = (i + 1) & mask
		}
		hs.slots[i] = s
	}
}

// slot returns key's slot, probing from i, claiming an empty one (mark at
// most the base) if key is new; the claimed slot's mark is left for the
// caller to write. The table must have room (hashSearch.room).
func (hs *hashSearch[K]) slot(key K, i uint64) *hashSlot[K] {
	mask := uint64(len(hs.slots) - 1)
	base := hs.base
	for {
		s := &hs.slots[i]
		if s.mark <= base {
			s.key = key
			hs.filled++
			return s
		}
		if s.key == key {
			return s
		}
		i = (i + 1) & mask
	}
}

func (hs *hashSearch[K]) forward(p *Planner, dst []ActionID, start K, goal *Goal, prof *Profile) (Result, bool) {
	d := p.d
	succBytes := len(d.actions) * int(unsafe.Sizeof(hashSucc[K]{}))
	var m meter
	p.meter(&m, hs.nodeBytes(), succBytes, len(d.actions), len(d.actions), 2)
	gm, gv := goal.cond.mask[0], goal.cond.value[0]
	hOf := &p.hOfWord
	hs.reset()
	scale := prof.costScale
	whole, rules, ruleOf := prof.wholeCost, prof.wholeRules, prof.wholeRuleOf
	capable, allCapable := prof.capable, prof.allCapable
	one := d.one
	app := p.applicable
	chained := len(p.chain.goals) > 0 // GoalCost: the count raised by chains

	nodes := append(hs.nodes[:0], hashNode[K]{state: start, parent: -1, action: NoAction})
	succ := hs.succ
	defer func() { hs.nodes, hs.succ = nodes, succ }()
	hs.room(1)
	// A slot's mark is base1 plus its cost; top is the greatest mark yet.
	base := hs.base
	base1 := base + 1
	top := base1
	defer func() { hs.top = top }()
	first := hs.slot(start, wordHash(uint64(start))>>hs.shift)
	first.mark, first.node = base1, 0
	open := &p.buckets
	open.Reset()
	h0 := max(p.wholeWordEstimate(hOf, uint64(start), gm, gv), 0) // a dead start is expanded, as forward does
	open.Push(h0, h0, 0)
	res := Result{Plan: dst}
	handAt := p.wordNodes - len(d.actions) // the node numbers' bits are full

	for open.Len() > 0 {
		_, ni := open.Pop()
		n := nodes[ni]
		if n.g < 0 {
			continue // a cheaper path to this state was found after this entry
		}
		s := uint64(n.state)
		if s&gm == gv {
			res.Status, res.Cost, res.Plan = Found, float64(n.g)/scale, appendPath(dst, nodes, ni, false)
			return res, true
		}
		if m.over(&res, len(nodes)) {
			return res, true
		}
		// Nodes are numbered and costs summed in int32: a search that
		// could pass either hands over to the general search, which
		// starts again with neither bound.
		if len(nodes) > handAt || n.g > math.MaxInt32-maxBucketCost {
			size := len(nodes)
			nodes, succ = nil, nil // kept by nothing: see handOver
			return p.handOver(dst, &m, &res, size)
		}
		res.Expanded++
		// Pass 1: the successors, in action order.
		d.applicableWord(s, app)
		succ = succ[:0]
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
				succ = append(succ, hashSucc[K]{state: K(ns), g: n.g + int32(cost), action: ActionID(ai)})
			}
		}
		res.Generated += len(succ)
		// Pass 2: where each probe starts, and on a table past the cache a
		// read of that slot, all before the first probe.
		hs.room(len(succ))
		slots, shift := hs.slots, hs.shift
		if len(slots) >= hashTouchSlots {
			sink := hs.sink
			for i := range succ {
				at := wordHash(uint64(succ[i].state)) >> shift
				succ[i].slot = uint32(at)
				sink += slots[at].mark
			}
			hs.sink = sink
		} else {
			for i := range succ {
				succ[i].slot = uint32(wordHash(uint64(succ[i].state)) >> shift)
			}
		}
		// Pass 3: keep the cheaper paths.
		for i := range succ {
			sc := &succ[i]
			sl := hs.slot(sc.state, uint64(sc.slot))
			mark := base1 + uint32(sc.g)
			if sl.mark > base {
				if sl.mark <= mark {
					continue
				}
				if sl.node >= 0 {
					nodes[sl.node].g = -1 // its open-list entry is now stale
				}
			}
			top = max(top, mark)
			sl.mark, sl.node = mark, -1
			ns := uint64(sc.state)
			hc := hOf[bits.OnesCount64((ns^gv)&gm)]
			h := hc
			if chained {
				if h = p.wholeWordEstimate(hOf, ns, gm, gv); h < 0 {
					continue // a dead end
				}
			}
			idx := int32(len(nodes))
			sl.node = idx
			nodes = append(nodes, hashNode[K]{state: sc.state, g: sc.g, parent: ni, action: sc.action})
			open.Push(int(sc.g)+h, hc, idx)
		}
	}
	res.Status = NoPlan
	return res, true
}
