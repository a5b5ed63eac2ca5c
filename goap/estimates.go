package goap

import "slices"

// estimateCacheSlots is how many sets of estimate tables a planner keeps
// besides the ones it is using: with them, an agent that cycles through
// up to four goals (or profiles, or heuristics) finds each one's tables
// made, instead of rebuilding them at every change of goal. Each set is
// as large as the tables of one search (see estimateTables), so the
// planner holds at most this many more.
const estimateCacheSlots = 3

// estimateTables is one set of a search's estimate tables and what they
// were made for. The planner's own fields (byUnmet, hOf and its copy
// hOfWord, chain, levels, worstEstimate, est, estEpoch and dense.table)
// are the set in use; the cache's slots hold the others, and a change of
// key swaps the two, so that the search code reads the planner's fields
// as it always has.
type estimateTables struct {
	key   estimateKey
	start []uint64 // the start, when the tables depend on it (backward GoalCost)
	epoch uint32   // the estimate epoch the tables were made in
	// resets is the cache's count of search-epoch resets when the set was
	// put away (see estimateCache.resets).
	resets uint32
	used   uint64 // when the set was last in use, for least-recently-used eviction

	byUnmet       []float64
	hOf           []int // the planner's hOfWord is copied from it
	chain         chainBound
	levels        achieverLevels
	worstEstimate int
	// dense is denseSearch.forward's table: its slots keep each state's
	// estimate under these tables (valid where a slot's hEpoch is epoch),
	// which is most of what a first plan for a goal pays for on the
	// battle mage.
	dense []wholeSlot
}

// estimateCache is a planner's kept estimate tables.
type estimateCache struct {
	slots [estimateCacheSlots]estimateTables
	clock uint64 // counts the changes of key, for estimateTables.used
	// issued is the last estimate epoch handed out: every set of tables
	// made gets a new one, so that a dense table's slot made under
	// another set never reads as valid.
	issued uint32
	// start is the start the tables in use were made for, when they
	// depend on it.
	start []uint64
	// searchEpoch is denseSearch.forward's epoch as the last search found
	// it; resets counts the times it went back (a wrap, or a new table),
	// after which the g values in a table put away may read as current:
	// such a table is cleared when it comes back into use.
	searchEpoch uint32
	resets      uint32
}

// estimatesDependOnStart reports whether a search's estimate tables depend
// on its start: backward GoalCost groups the facts the start gets wrong.
func estimatesDependOnStart(opt Options) bool {
	return opt.Search == Backward && opt.Heuristic == GoalCost
}

// useCachedEstimates makes the tables for key (and start, when they depend
// on it) the planner's, from the cache, and reports whether it had them;
// if not, the tables in use are put away and the planner is left with the
// least recently used slot's storage, to build the new tables in.
func (p *Planner) useCachedEstimates(key estimateKey, start []uint64, startBound bool) bool {
	c := &p.estimates
	if p.dense.epoch < c.searchEpoch {
		c.resets++
	}
	c.searchEpoch = p.dense.epoch
	if p.est == key && (!startBound || slices.Equal(c.start, start)) {
		return true
	}
	c.clock++
	victim := 0
	for i := range c.slots {
		s := &c.slots[i]
		if s.key == key && (!startBound || slices.Equal(s.start, start)) {
			p.swapEstimates(s)
			return true
		}
		if s.lastUse() < c.slots[victim].lastUse() {
			victim = i
		}
	}
	if p.est.goal != nil {
		// Building in place would lose the tables in use. (Without a key
		// they are only storage, perhaps Reserve's, which the new tables
		// reuse.)
		p.swapEstimates(&c.slots[victim])
	}
	return false
}

// lastUse is when s was last in use, 0 if it holds no tables (never used,
// or put away while the planner's were made for no search): such a slot is
// taken first.
func (s *estimateTables) lastUse() uint64 {
	if s.key.goal == nil {
		return 0
	}
	return s.used
}

// swapEstimates swaps the tables in use with slot s: s keeps those the
// planner was using, stamped as used now, and the planner takes s's.
func (p *Planner) swapEstimates(s *estimateTables) {
	c := &p.estimates
	p.est, s.key = s.key, p.est
	c.start, s.start = s.start, c.start
	p.estEpoch, s.epoch = s.epoch, p.estEpoch
	p.byUnmet, s.byUnmet = s.byUnmet, p.byUnmet
	p.hOf, s.hOf = s.hOf, p.hOf
	copy(p.hOfWord[:], p.hOf) // a copy of the entries in use costs less than a swap of all 65
	p.chain, s.chain = s.chain, p.chain
	p.levels, s.levels = s.levels, p.levels
	p.worstEstimate, s.worstEstimate = s.worstEstimate, p.worstEstimate
	p.dense.table, s.dense = s.dense, p.dense.table
	incoming := s.resets
	s.resets, s.used = c.resets, c.clock
	if n := len(s.dense); n > 0 && len(p.dense.table) != n {
		// A slot not yet used has no table: denseSearch.forward would make
		// one and restart its epoch, making the tables put away look
		// current. A zero slot is valid in no epoch.
		p.dense.table = make([]wholeSlot, n)
	} else if incoming != c.resets {
		// The search epoch went back while the table was put away: its
		// slots' epochs may come round again. Zero slots are valid in none.
		clear(p.dense.table)
	}
}

// newEstimateEpoch hands out the estimate epoch of a new set of tables.
// After 2^32 of them the numbers come round: every dense table's kept
// estimates are then forgotten, and the cache's slots emptied, since
// their epochs could be handed out again.
func (p *Planner) newEstimateEpoch() { p.estEpoch = p.issueEstimateEpoch() }

// issueEstimateEpoch returns a new estimate epoch, forgetting every kept
// estimate when the numbers come round (newEstimateEpoch).
func (p *Planner) issueEstimateEpoch() uint32 {
	c := &p.estimates
	c.issued++
	if c.issued == 0 {
		for i := range p.dense.table {
			p.dense.table[i].hEpoch = 0
		}
		for i := range c.slots {
			s := &c.slots[i]
			for j := range s.dense {
				s.dense[j].hEpoch = 0
			}
			s.key, s.used = estimateKey{}, 0
		}
		c.issued = 1
	}
	return c.issued
}

// ForgetStateEstimates forgets the estimates of single states the planner
// kept from its earlier searches (domains of at most 12 facts keep them:
// see Planner), keeping its estimate tables: the next searches make them
// again. A search's results, Work included, never depend on it: a kept
// estimate counts the work it took to make, so that a search counts the
// Work a planner that never searched would, and a work limit stops it
// alike, whatever the planner searched before (until December 2026 a
// kept estimate counted none, and a game that ran searches on whichever
// planner was free called this before each).
func (p *Planner) ForgetStateEstimates() {
	p.enter()
	defer p.busy.Store(false)
	p.newEstimateEpoch()
	for i := range p.estimates.slots {
		if s := &p.estimates.slots[i]; s.key.goal != nil {
			s.epoch = p.issueEstimateEpoch()
		}
	}
}
