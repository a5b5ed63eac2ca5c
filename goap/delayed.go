package goap

import (
	"math/bits"

	"github.com/ploy-ai/ploy/internal/intern"
	"github.com/ploy-ai/ploy/internal/pq"
)

// delayedSearch is the two-phase search: A* with duplicate detection
// delayed from generation to expansion, which hands over to the general
// search (the second phase, from the start) when its queue of duplicates
// outgrows its memory. It has two loops: forwardWide over states of
// several words, and backward over partial states; this is the scratch
// space they keep between searches. (One-word states take hashSearch,
// which detects duplicates as they are generated, reading the slots
// ahead, and measured faster: docs/performance.md.)
type delayedSearch struct {
	// The expanded states, the nodes, and the nodes' states, one key
	// width each.
	closedWide intern.Table[struct{}]
	wideNodes  []wideNode
	wideWords  []uint64
	limit      int // maxDelayedNodes, but for tests
}

// maxDelayedNodes sizes the delayed searches' queues: 80 MiB, the room
// for this many entries of 20 bytes.
const maxDelayedNodes = 1 << 22

// entries is how many entries a delayed search may queue, keys words
// wide: 80 MiB (dl.limit entries of 20 bytes), for entries of a link, a
// node and the key.
func (dl *delayedSearch) entries(words int) int { return dl.limit * 20 / (12 + 8*words) }

// settleDelayed is settle for the delayed searches: an entry taken with u
// unmet facts at cost g ends the search if u is 0 (found) or the budget of
// states or work is spent; otherwise the caller expands it. Memory is the
// caller's to test: past its limit it hands over rather than stop.
func settleDelayed[N any, P interface {
	*N
	link() (int32, ActionID)
}](res *Result, dst []ActionID, nodes []N, ni int32, g float64, u int, m *meter, backward bool) bool {
	if u == 0 {
		res.Status, res.Cost, res.Plan = Found, g, appendPath[N, P](dst, nodes, ni, backward)
		return true
	}
	if m.slicer != nil {
		m.slicer.delayedNodes = len(nodes) // what a pause in over holds
	}
	return m.over(res, 0)
}

// handOver ends a fast search that cannot go on (a delayed search whose
// queue outgrew its memory, a one-word search whose node numbers or costs
// would overflow), handing the work it spent to the general search, which
// takes over from the start.
//
// It lets go of the fast searches' storage, and the caller of its own
// nodes (the deferred save keeps nil): the search that takes over may grow
// to the whole memory ceiling by itself, and a planner that kept both
// would hold twice Options.MaxBytes. A planner that hands over is in a
// search of millions of states, so growing that storage again in a later
// search is a small price. What the search held, nodes nodes, is kept for
// Result.Stats.PeakBytes.
func (p *Planner) handOver(dst []ActionID, m *meter, res *Result, nodes int) (Result, bool) {
	p.spent, p.estWork = m.work(res.Expanded, res.Generated), 0
	p.handedPeak = p.held(nodes, nil)
	p.delayed = delayedSearch{limit: p.delayed.limit}
	p.dense.open = pq.Keys{}
	p.hash32, p.hash64 = hashSearch[uint32]{}, hashSearch[uint64]{}
	p.buckets = pq.Buckets{}
	if m.slicer != nil {
		// The search that takes over counts its expansions from 0: it
		// pauses after what is left of this slice.
		m.slicer.left = m.slicer.pauseAt - res.Expanded
		m.slicer.handed += res.Expanded
		m.slicer.delayedNodes = 0 // the search that takes over counts its own
	}
	return Result{Plan: dst}, false
}

// wideNode is a delayedSearch.forwardWide search node; its state is in the words
// arena.
type wideNode struct {
	parent int32
	action ActionID
}

func (n *wideNode) link() (int32, ActionID) { return n.parent, n.action }

// forwardWide is Planner.forward for states of several words, when every
// cost is a whole number, or one once scaled by a power of two (a
// personality's 1.5): the searches of domains of more than 64 facts with
// no depth limit, no trace and the goal-count, GoalCost or blind estimate.
// It delays duplicate detection to expansion. Every successor is queued
// without a look at the state table; a state enters the table, a set,
// when it is first taken from the open list, and a later entry for it is
// skipped. Its estimates are consistent, so the first entry taken for a
// state has the state's least cost; scaled costs are whole, so f = g + h
// is exact and entries of equal f and h leave the bucketed open list in
// the order they were made, the older first: it expands the same states
// in the same order as forward. Nodes do not store g: f is the entry's
// bucket and h a function of the state, so g = f - h, exactly, in units
// of 1/costScale. The successors' states are kept in one flat arena, W
// words each, beside their nodes; the set of expanded states is an intern
// table. It returns false, handing over to forward, which then makes the
// same search from the start, once its queue would take more memory than
// dl.entries allows.
func (dl *delayedSearch) forwardWide(p *Planner, dst []ActionID, start []uint64, goal *Goal, prof *Profile) (Result, bool) {
	d := p.d
	W := d.words
	var m meter
	p.meter(&m, wideNodeBytes+32*W, 0, len(d.actions), len(d.actions)*W, W+1)
	dl.closedWide.Reset(W)
	gm, gv := goal.cond.mask, goal.cond.value
	scale := prof.costScale
	costs := prof.costs
	masks := d.masks
	app := p.applicable
	cur := p.cur[:W]
	limit := min(dl.entries(W), m.nodeCap)
	chained := len(p.chain.goals) > 0 // GoalCost: the count raised by chains

	nodes := append(dl.wideNodes[:0], wideNode{parent: -1, action: NoAction})
	words := append(dl.wideWords[:0], start...)
	open := &p.buckets
	open.Reset()
	res := Result{Plan: dst}
	h0 := max(p.wholeEstimate(start, gm, gv), 0) // a dead start is expanded, as forward does
	open.Push(h0, h0, 0)
	defer func() { dl.wideNodes, dl.wideWords = nodes, words }()

	var sink uint64
	defer func() { p.sink += sink }()
	for open.Len() > 0 {
		f, ni := open.Pop()
		if next := open.Peek(); next >= 0 {
			sink += words[int(next)*W] // read ahead: see pq.Buckets.Peek
		}
		copy(cur, words[int(ni)*W:])
		if _, _, added := dl.closedWide.Intern(cur); !added {
			continue // taken before, at no greater cost
		}
		u := unmet(cur, gm, gv)
		g := f - max(p.wholeEstimate(cur, gm, gv), 0) // only the start can be dead
		if settleDelayed(&res, dst, nodes, ni, float64(g)/scale, u, &m, false) {
			return res, true
		}
		if len(nodes) > limit {
			size := len(nodes)
			nodes, words = nil, nil // kept by nothing: see handOver
			return p.handOver(dst, &m, &res, size)
		}
		res.Expanded++
		words = reserve(words, len(d.actions)*W)
		d.applicableWide(cur, app)
		for k, word := range app {
			word &= prof.capable[k]
			for word != 0 {
				ai := k<<6 | bits.TrailingZeros64(word)
				word &= word - 1
				eff := masks[ai*4*W+2*W : (ai+1)*4*W]
				changed := uint64(0)
				for w := 0; w < W; w++ {
					nw := cur[w]&^eff[w] | eff[W+w]
					words = append(words, nw)
					changed |= nw ^ cur[w]
				}
				if changed == 0 {
					words = words[:len(words)-W]
					continue
				}
				c := &costs[ai]
				cost := c.value
				if c.kind != costConst {
					cost = c.at(cur) // bucketed costs: a rule list, not a Func
					p.estWork += len(c.rules) * W
				}
				res.Generated++
				next := words[len(words)-W:]
				hc := p.hOf[unmet(next, gm, gv)]
				h := hc
				if chained {
					if h = p.wholeEstimate(next, gm, gv); h < 0 {
						words = words[:len(words)-W]
						continue // a dead end
					}
				}
				idx := int32(len(nodes))
				nodes = append(nodes, wideNode{parent: ni, action: ActionID(ai)})
				open.Push(g+int(cost*scale)+h, hc, idx)
			}
		}
	}
	res.Status = NoPlan
	return res, true
}

// wholeEstimate is wholeWordEstimate for states of several words.
func (p *Planner) wholeEstimate(s, gm, gv []uint64) int {
	ch := &p.chain
	h, work := chainAt(ch, p.d.masks, ch.ubW, ch.achW, ch.grpW, wholeInf, s, p.hOf[unmet(s, gm, gv)])
	p.estWork += work
	if h >= wholeInf {
		return -1
	}
	return h
}

// backward is Planner.backward with duplicate detection delayed to expansion, as
// delayedSearch.forwardWide does it, over partial states of 2W words (mask, then
// value): for whole (scaled) costs, the goal-count or blind estimate (both
// consistent in regression too: an action serves at most maxEffects facts),
// no depth limit and no trace. It regresses in the same order as backward,
// so it makes the same search, and returns false, handing over, once its
// queue would take more memory than dl.entries allows.
func (dl *delayedSearch) backward(p *Planner, dst []ActionID, start []uint64, goal *Goal, prof *Profile) (Result, bool) {
	d := p.d
	W := d.words
	nActions, nCases := len(d.actions), len(prof.cases)
	var m meter
	p.meter(&m, wideNodeBytes+64*W, 0, nCases, (nActions+nCases)*2*W, 2*W+1)
	dl.closedWide.Reset(2 * W)
	hOf := p.hOf
	scale := prof.costScale
	cases, caseOf := prof.cases, prof.caseOf
	cur := p.cur[:2*W]
	limit := min(dl.entries(2*W), m.nodeCap)

	nodes := append(dl.wideNodes[:0], wideNode{parent: -1, action: NoAction})
	words := append(append(dl.wideWords[:0], goal.cond.mask...), goal.cond.value...)
	open := &p.buckets
	open.Reset()
	lv := &p.levels
	res := Result{Plan: dst}
	// Kept even when the search ends at once: Plan counts the memory held
	// from dl.wideNodes, which must not be the last search's.
	defer func() { dl.wideNodes, dl.wideWords = nodes, words }()
	h0 := backwardEstimate(hOf, lv, &p.estWork, start, goal.cond.mask, goal.cond.value)
	if h0 < 0 {
		res.Status = NoPlan // the goal needs a fact nothing sets: backward queues nothing
		return res, true
	}
	open.Push(h0, h0, 0)

	for open.Len() > 0 {
		f, ni := open.Pop()
		copy(cur, words[int(ni)*2*W:])
		if _, _, added := dl.closedWide.Intern(cur); !added {
			continue // taken before, at no greater cost
		}
		mask, value := cur[:W], cur[W:]
		u := unmet(start, mask, value)
		g := f - backwardEstimate(hOf, lv, &p.estWork, start, mask, value)
		if settleDelayed(&res, dst, nodes, ni, float64(g)/scale, u, &m, true) {
			return res, true
		}
		if len(nodes) > limit {
			size := len(nodes)
			nodes, words = nil, nil // kept by nothing: see handOver
			return p.handOver(dst, &m, &res, size)
		}
		res.Expanded++
		words = reserve(words, nCases*2*W)
		for ai := range d.actions {
			if prof.capable[ai>>6]&(1<<(uint(ai)&63)) == 0 {
				continue
			}
			act := &d.actions[ai]
			if serves, undoes := act.relevance(mask, value); undoes != 0 || serves == 0 {
				continue
			}
			for _, c := range cases[caseOf[ai]:caseOf[ai+1]] {
				base := len(words)
				words = append(words, cur...)
				next := words[base:]
				if clash, changed := act.regress(&c, mask, value, next); clash != 0 || changed == 0 {
					words = words[:base]
					continue
				}
				res.Generated++
				h := backwardEstimate(hOf, lv, &p.estWork, start, next[:W], next[W:])
				if h < 0 {
					words = words[:base]
					continue // a dead end
				}
				idx := int32(len(nodes))
				nodes = append(nodes, wideNode{parent: ni, action: ActionID(ai)})
				open.Push(g+int(c.cost*scale)+h, h, idx)
			}
		}
	}
	res.Status = NoPlan
	return res, true
}

// backwardEstimate is the estimate of partial state (mask, value) from
// start, in scaled units: the goal count, raised by GoalCost's groups of
// the literals start gets wrong; -1 for a dead end.
func backwardEstimate(hOf []int, lv *achieverLevels, estWork *int, s, mask, value []uint64) int {
	h := hOf[unmet(s, mask, value)]
	if len(lv.whole) > 0 {
		c, work := levelAt(lv, lv.whole, s, mask, value)
		*estWork += work
		if c < 0 {
			return -1
		} else if c > h {
			return c
		}
	}
	return h
}
