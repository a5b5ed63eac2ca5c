package goap

import (
	"math/bits"

	"github.com/ploy-ai/ploy/search"
)

// reserveChainWork bounds the words Reserve reads building GoalCost's
// chains for the domain's goals: a few milliseconds.
const reserveChainWork = 1 << 24

// Reserve makes room in the planner for a search that generates up to n
// successors (Result.Generated of a typical search is the figure to pass),
// so that the search grows nothing: a new planner's first large search
// otherwise pays for growing its arena and for the operating system's first
// touch of every page, and runs several times slower than the same search
// on a warm planner. Reserve allocates at once and writes the memory once.
// It sizes the search the zero Options make with the domain's own costs
// (the other searches still grow what they need), for n up to what the
// default memory ceiling allows that search (a larger n reserves that
// much; n of 0 or less, room for the start alone). A fast search that
// outgrows its own limit and hands over to the general search lets go of
// what Reserve made for it (see Bytes).
func (p *Planner) Reserve(n int) {
	p.enter()
	defer p.busy.Store(false)
	p.abandon() // Reserve rewrites the arena a suspended search holds
	d := p.d
	W := d.words
	whole := d.base.costScale > 0
	perNode := generalNodeBytes + 16*W // the paths' bytes per node, as their meters count them
	switch {
	case W == 1 && len(d.facts) <= maxDenseFacts && whole:
		perNode = denseNodeBytes
	case W == 1 && whole && len(d.facts) <= 32:
		perNode = p.hash32.nodeBytes()
	case W == 1 && whole:
		perNode = p.hash64.nodeBytes()
	case W == 1:
		perNode = wordNodeBytes
	case whole:
		perNode = wideNodeBytes + 32*W
	}
	n = min(max(n, 0), search.DefaultMaxBytes/perNode) + 1 // and the start's node
	// The estimate tables: the goal count's, GoalCost's chains for each of
	// the domain's goals (made once, so that they grow to the largest),
	// backward's groups (up to 64 costs), and an expansion's successors.
	p.byUnmet = reserveTouched(p.byUnmet, len(d.facts)+1)
	p.hOf = reserveTouched(p.hOf, len(d.facts)+1)
	// Each build reads every action's slot and its goal's achievers'
	// preconditions, so building all of a large domain's goals would cost
	// goals × actions × words: stop at reserveChainWork, past which a
	// later goal's first search may still grow the chains.
	spent := 0
	for _, g := range d.goals {
		if spent >= reserveChainWork {
			break
		}
		p.chain.build(d, g, d.base)
		spent += 2*len(d.actions) + len(p.chain.achs)*W + p.chain.worst
	}
	groups := min(len(d.facts), 64) + 1
	p.levels.off = reserveTouched(p.levels.off, groups+1)
	p.levels.word = reserveTouched(p.levels.word, groups*W)
	p.levels.mask = reserveTouched(p.levels.mask, groups*W)
	p.levels.cost = reserveTouched(p.levels.cost, groups)
	p.levels.whole = reserveTouched(p.levels.whole, groups)
	p.est = estimateKey{} // the tables are not made for any search now
	p.succ = reserveTouched(p.succ, len(d.actions))
	p.succWords = reserveTouched(p.succWords, len(d.actions)*W)
	switch {
	case W == 1 && len(d.facts) <= maxDenseFacts && whole:
		if len(p.dense.table) != 1<<len(d.facts) {
			p.dense.table = make([]wholeSlot, 1<<len(d.facts))
			p.dense.epoch = 0
		}
		p.dense.nodes = reserveTouched(p.dense.nodes, n)
		p.dense.open.Reserve(n)
	case W == 1 && whole && len(d.facts) <= 32:
		p.hash32.reserve(n, len(d.actions))
		p.buckets.Reserve(n)
	case W == 1 && whole:
		p.hash64.reserve(n, len(d.actions))
		p.buckets.Reserve(n)
	case W == 1: // fractional costs: wordSearch.forward, on a heap
		p.word.nodes = reserveTouched(p.word.nodes, n)
		p.open.Reserve(n)
		if len(d.facts) > maxDenseFacts {
			p.word.table.reserve(n)
		} else if len(p.word.dense) != 1<<len(d.facts) {
			p.word.dense = make([]denseSlot, 1<<len(d.facts))
			p.word.epoch = 0
		}
	case whole:
		p.delayed.wideNodes = reserveTouched(p.delayed.wideNodes, n)
		p.delayed.wideWords = reserveTouched(p.delayed.wideWords, (n+len(d.actions))*W) // an expansion reserves room for every action
		p.buckets.Reserve(n)
		p.delayed.closedWide.Reserve(W, n)
	default:
		p.nodes = reserveTouched(p.nodes, n)
		p.open.Reserve(n)
		p.tab.Reserve(W, n)
	}
}

// reserveTouched returns s emptied, with a capacity of at least n whose
// memory has been written once.
func reserveTouched[E any](s []E, n int) []E {
	if cap(s) < n {
		s = make([]E, n)
		clear(s)
	}
	return s[:0]
}

// reserveTable returns a linear-probing table's slots and shift, replaced
// by a touched table for n keys if they are smaller, and its list of used
// slots with room for n.
func reserveTable[S any](slots []S, shift uint, used []uint32, n int) ([]S, uint, []uint32) {
	before := len(slots)
	if slots, shift = reserveSlots(slots, shift, n); len(slots) != before {
		used = nil // a new table: the old list's memory goes with the old one
	}
	return slots, shift, reserveTouched(used, n)
}

// reserveSlots returns a linear-probing table's slots and shift, replaced
// by a touched table for n keys if they are smaller.
func reserveSlots[S any](slots []S, shift uint, n int) ([]S, uint) {
	if size, sh := tableSize(n); len(slots) < size {
		slots, shift = make([]S, size), sh
		clear(slots)
	}
	return slots, shift
}

// tableSize returns the slots of a linear-probing table that holds n keys
// at a load of at most a half (at least 1024), and the shift that takes a
// hash's top bits to index it.
func tableSize(n int) (size int, shift uint) {
	size = 1 << 10
	for size < 2*n {
		size *= 2
	}
	return size, 64 - uint(bits.TrailingZeros(uint(size)))
}
