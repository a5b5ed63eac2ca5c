package strips

import (
	"fmt"
	"math"
	"sync"

	"github.com/ploy-ai/ploy/internal/memlimit"
	"github.com/ploy-ai/ploy/search"
)

// Heuristic chooses A*'s estimate of the remaining cost. Each is
// admissible, so every plan a search returns is a cheapest one.
type Heuristic uint8

const (
	// Portfolio runs two A* searches side by side, one with LMCut and one
	// with Blind, each on its own goroutine: LM-cut expands far fewer
	// states on most tasks, but on some (openstacks, where most actions
	// are free, or barman) it prunes too little to pay for its estimates,
	// and blind search ends first. Both are optimal, so the answer is.
	// Which one answers is decided by counted work (successors made,
	// states expanded and the estimates' steps), never by time: the one
	// that ends needing less, LM-cut on a tie; the other runs only until
	// its work passes that, and while both search neither gets more than
	// 4 chunks of work (65 536 units) ahead of the other. So the same task
	// gives the same plan and statistics whatever the scheduling,
	// GOMAXPROCS=1 included. Each
	// search may hold half of MaxBytes; one that needs more waits until
	// the other ends, and takes the whole if the other gave up. With two
	// free cores it takes about as long as the slower of the two up to the
	// answer's work (at most 1.3 times the better search on the
	// competition instances); on one, the sum of the two. The default.
	Portfolio Heuristic = iota
	// LMCut is Helmert and Domshlak's landmark-cut heuristic: it finds
	// disjoint sets of operators (cuts) every relaxed plan must use one
	// of, and sums their cheapest costs. Admissible, not consistent in
	// general (the search reopens states when it finds them cheaper); it
	// dominates HMax.
	LMCut
	// HMax is Bonet and Geffner's h_max: the cost of the dearest goal
	// fact in the delete relaxation. Admissible and consistent.
	HMax
	// Blind estimates 0 for a goal state and the cheapest operator's cost
	// for any other, as Fast Downward's blind heuristic does: admissible
	// and consistent, and 0 everywhere when some operator is free.
	Blind
)

func (h Heuristic) String() string {
	switch h {
	case Portfolio:
		return "portfolio"
	case LMCut:
		return "lmcut"
	case HMax:
		return "hmax"
	case Blind:
		return "blind"
	}
	return "heuristic(?)"
}

// ParseHeuristic returns the heuristic String names.
func ParseHeuristic(name string) (Heuristic, error) {
	for _, h := range []Heuristic{Portfolio, LMCut, HMax, Blind} {
		if h.String() == name {
			return h, nil
		}
	}
	return 0, fmt.Errorf("strips: unknown heuristic %q (portfolio, lmcut, hmax or blind)", name)
}

// Status is how a search ended: search.Status, shared by every planner.
// Its zero value is NotSearched.
type Status = search.Status

// Bound names the limit that stopped a search: search.Bytes,
// search.Budget (Options.MaxExpansions) or search.Work.
type Bound = search.Bound

const (
	// NotSearched: the search did not run, and its error says why (an
	// invalid task, an unknown heuristic). The zero Status.
	NotSearched = search.NotSearched
	// Found: Result.Plan is a cheapest plan.
	Found = search.Found
	// NoPlan: every state reachable from the start was expanded or proved
	// a dead end, and none meets the goal: the task is unsolvable.
	NoPlan = search.NoPlan
	// LimitReached: a limit stopped the search first; Result.Bound says
	// which: search.Bytes (going on would take its memory past
	// Options.MaxBytes), search.Budget (Options.MaxExpansions states were
	// expanded) or search.Work (its counted work reached Options.MaxWork).
	LimitReached = search.LimitReached

	// Deprecated: Unsolvable is NoPlan.
	Unsolvable = search.NoPlan
	// Deprecated: OutOfMemory is LimitReached with Result.Bound
	// search.Bytes.
	OutOfMemory = search.LimitReached
	// Deprecated: OutOfExpansions is LimitReached with Result.Bound
	// search.Budget.
	OutOfExpansions = search.LimitReached
	// Deprecated: OutOfWork is LimitReached with Result.Bound search.Work.
	OutOfWork = search.LimitReached
)

// StatusName returns the words ploy's pddl command gives a search's
// outcome, as it has since before the shared search.Status: "not
// searched", "found", "unsolvable", "out of memory", "out of expansions"
// or "out of work".
func StatusName(s Status, b Bound) string {
	switch s {
	case NotSearched:
		return "not searched"
	case NoPlan:
		return "unsolvable"
	case LimitReached:
		switch b {
		case search.Bytes:
			return "out of memory"
		case search.Budget:
			return "out of expansions"
		case search.Work:
			return "out of work"
		}
	}
	return s.String()
}

// ErrOutOfMemory, ErrOutOfExpansions and ErrOutOfWork are what a search
// that ran out returns with its Result matches, for errors.Is; each
// matches search.ErrLimit too. The error itself has the sentinel's text
// and wraps a *search.LimitError (see Searcher.Search).
var (
	ErrOutOfMemory     = search.LimitSentinel("strips: the search reached its memory limit")
	ErrOutOfExpansions = search.LimitSentinel("strips: the search reached its expansion limit")
	ErrOutOfWork       = search.LimitSentinel("strips: the search reached its work limit")
)

// DefaultMaxBytes is the most memory a search whose Options leave
// MaxBytes zero holds: search.DefaultMaxBytes, 256 MiB of states, state
// table, open list, search information and estimator (about 5 million
// states of up to 64 facts); less where the process may use less (see
// AvailableBytes). It was 4 GiB before every planner shared one default;
// ploy's pddl command still passes 4 GiB.
//
// Deprecated: use search.DefaultMaxBytes.
const DefaultMaxBytes = search.DefaultMaxBytes

// AvailableBytes returns the most a search may hold in this process
// without the process running out of memory, as its limits tell (the
// cgroup's memory limit, RLIMIT_AS, GOMEMLIMIT and physical memory, each
// less the Go runtime's overhead: see internal/memlimit), and the limit
// that decides it; (0, "") when none is known. A search holds at most this
// whatever its Options.MaxBytes, so that it ends OutOfMemory rather than
// with the runtime's fatal error.
func AvailableBytes() (int64, string) {
	a := available()
	return a.bytes, a.by
}

var available = sync.OnceValue(func() struct {
	bytes int64
	by    string
} {
	b, by := memlimit.Read().SearchBytes()
	return struct {
		bytes int64
		by    string
	}{b, by}
})

// EffectiveMaxBytes returns the memory limit a search given maxBytes holds to:
// maxBytes, or search.DefaultMaxBytes when it is 0 or less, lowered to
// AvailableBytes.
func EffectiveMaxBytes(maxBytes int64) int64 {
	if maxBytes <= 0 {
		maxBytes = search.DefaultMaxBytes
	}
	if a, _ := AvailableBytes(); a > 0 {
		maxBytes = min(maxBytes, a)
	}
	return maxBytes
}

// Options configure a search. The zero Options run the Portfolio within
// search.DefaultMaxBytes.
type Options struct {
	Heuristic Heuristic
	// Limits bound the search:
	//
	//   - MaxBytes: the memory the search holds (search.DefaultMaxBytes if
	//     0; at most AvailableBytes either way).
	//   - Budget: the states expanded (no bound but memory if 0).
	//   - MaxWork: the search's counted work (no bound if 0): states
	//     expanded, successors generated, and the estimates' steps, 32 to
	//     a unit (each fact or operator an exploration looks at, and each
	//     one it resets). It is checked between successors and between an
	//     LM-cut estimate's rounds, so a search passes it by one round or
	//     one exploration (a pass over the relaxation) at most.
	//
	// MaxDepth and MaxSteps do not apply. A non-zero field here wins over
	// the deprecated field of the same meaning below.
	Limits search.Limits
	// Deprecated: use Limits.MaxBytes, which wins when both are set.
	MaxBytes int64
	// Deprecated: use Limits.Budget, which wins when both are set.
	MaxExpansions int64
	// Deprecated: use Limits.MaxWork, which wins when both are set.
	MaxWork int64
	// Trace, if not nil, records the search's expansions (see Trace); nil
	// costs nothing. A Portfolio search refuses it.
	Trace *Trace
	// OnExpand, if set, is called for every state expanded, in order, with
	// the state itself: a stream, where Trace is a record. A Portfolio
	// search cannot be traced: it refuses OnExpand.
	OnExpand func(Expansion)
	// Progress, if set, is called as the search goes deeper (see
	// Progress), a Portfolio's two searches included, one call at a time.
	Progress func(Progress)
}

// Expansion describes one expanded state to Options.OnExpand.
type Expansion struct {
	N     int64    // 1 for the first state expanded
	State []uint64 // read-only, valid only during the call
	G, H  int64
	// Op is the operator that reached the state on its cheapest known
	// path, -1 for the start; Reopened says it was expanded before, at
	// a greater g.
	Op       int32
	Reopened bool
}

// Result is a search's outcome and statistics.
type Result struct {
	Status Status
	// Bound is the limit that stopped the search when Status is
	// LimitReached, search.NoBound otherwise.
	Bound Bound
	// Heuristic is the search's, or in a Portfolio the one whose search
	// answered; the statistics below are that search's.
	Heuristic Heuristic
	Plan      []int32 // operator indices, start to goal
	Cost      int64
	// InitialH is the heuristic's estimate of the start state.
	InitialH int64
	// Expanded counts states expanded (reopened ones again), Generated
	// successors made, Evaluated heuristic estimates, Reopened states
	// expanded again at a smaller g, DeadEnds states the heuristic proved
	// hopeless, and States the distinct states stored.
	Expanded, Generated, Evaluated, Reopened, DeadEnds, States int64
	// Bytes is the memory the search held at its end.
	Bytes int64
	// Stats are the counts every planner shares, of the search whose
	// statistics these are: Expanded and Generated as above; Work the
	// units counted against Limits.MaxWork; PeakBytes the same as Bytes
	// (a search's memory only grows); Depth the plan's length when
	// Found, 0 otherwise.
	Stats search.Stats
}

// withLimits returns opt with its deprecated limit fields set to the
// limits in force (Limits winning, by search.Limits.Or), which the search
// code reads.
func (opt Options) withLimits() Options {
	lim := opt.Limits.Or(search.Limits{Budget: opt.MaxExpansions, MaxBytes: opt.MaxBytes, MaxWork: opt.MaxWork})
	opt.MaxExpansions, opt.MaxBytes, opt.MaxWork = lim.Budget, lim.MaxBytes, lim.MaxWork
	return opt
}

// blind is Fast Downward's blind heuristic.
type blind struct {
	t       *Task
	minCost int64
}

func (b *blind) estimate(s []uint64) (int64, bool) {
	if b.t.IsGoal(s) {
		return 0, false
	}
	return b.minCost, false
}

// pageWords is about the size of a page of the state store, in words
// (1 MiB): pages keep growth from copying (and briefly doubling)
// gigabytes of states, and are small enough that a search with a few MiB
// to spend, or of states of a hundred thousand facts, still gets one.
const pageWords = 1 << 17

// Searcher runs A* searches on one task, keeping its memory between
// searches. It is not safe for concurrent use. Make one with NewSearcher:
// Search panics, saying so, on a nil or zero Searcher.
type Searcher struct {
	t     *Task
	words int
	succ  successors

	lmcut *lmCut
	hmax  *hMax
	blind blind
	// derive computes successors' derived facts; nil for a task without
	// axioms.
	derive *deriver
	// effectWork is each operator's work in applying its conditional
	// effects, their conditions read and their facts written, 32 steps
	// to a unit as the estimators count; nil for a task without them.
	effectWork []int64
	// progressF is the highest f expanded, for Options.Progress.
	progressF int64

	// The state registry: state i's record is in pages[i>>pageBits], rec
	// words long: the state's bits, then g, h, and its parent, operator
	// and flags packed in one word (see meta), so that the state and what
	// the search knows of it share a cache line or two.
	pages    [][]uint64
	rec      int
	pageBits int // log2 of the states per page
	// table is an open-addressing hash set of the stored states: each slot
	// holds the state's hash's top 32 bits (a fingerprint, so that most
	// probes need not read the state) over its id + 1, and 0 when empty.
	// The slot a state hashes to is taken from the fingerprint too (see
	// slotOf), so that growing the table reads no state.
	table []uint64
	n     int32 // states stored

	open    openList
	entries []int32 // the state each open-list entry stands for
	succs   []int32
	// batch holds the successors of the state being expanded, hashes
	// their hashes; touched keeps the loads that bring them into the
	// cache from being optimised away.
	batch, hashes []uint64
	touched       uint64

	// twin is a Portfolio's second search.
	twin *Searcher
	// moreMemory, in a Portfolio's search, is asked when growing would
	// pass maxBytes; true means it raised maxBytes (see portfolioRace.moreMemory).
	moreMemory func() bool

	// The search in progress.
	est      estimator
	pausable pausable // est, if it can pause
	estBytes int64    // the memory est holds
	opt      Options
	maxBytes int64
	res      Result
	done     bool
	work     int64 // successors generated, states expanded, estimate work
	// Where advance stopped (see phaseStart): in phaseExpand, the state
	// being expanded, its g, and the next of its successors (s.succs) to
	// handle; estimating says that successor's (or in phaseStart, the
	// start's) estimate is under way.
	phase      int
	expID      int32
	expG       int64
	expNext    int
	estimating bool
}

// A record's meta word: the parent's id in the low 32 bits (all ones for
// the start), the operator that reached the state from it in the next 28
// (so tasks have at most MaxOps operators), and three flags.
const (
	metaOpShift = 32
	metaOpMask  = 1<<28 - 1
	flagClosed  = 1 << 60
	// flagExpanded: expanded at some g, so a later expansion reopens it.
	flagExpanded = 1 << 61
	flagDead     = 1 << 62
)

func meta(parent, op int32, flags uint64) uint64 {
	return uint64(uint32(parent)) | uint64(op&metaOpMask)<<metaOpShift | flags
}

func metaParent(m uint64) int32 { return int32(uint32(m)) }
func metaOp(m uint64) int32 {
	op := int32(m >> metaOpShift & metaOpMask)
	if op == metaOpMask {
		return -1
	}
	return op
}

// NewSearcher validates t and prepares to search it.
func NewSearcher(t *Task) (*Searcher, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return newSearcher(t, newSuccessors(t)), nil
}

// newSearcher makes a searcher of a valid task with its successor
// generator, which searchers of one task may share.
func newSearcher(t *Task, succ successors) *Searcher {
	s := &Searcher{t: t, words: max(t.Words(), 1), succ: succ}
	s.rec = s.words + 3
	for 2<<s.pageBits*s.rec <= pageWords {
		s.pageBits++
	}
	s.blind = blind{t: t, minCost: minCost(t)}
	s.derive = newDeriver(t)
	if t.HasConditionalEffects() {
		s.effectWork = make([]int64, len(t.Ops))
		for i := range t.Ops {
			var steps int64
			for j := range t.Ops[i].Effects {
				e := &t.Ops[i].Effects[j]
				steps += 1 + int64(len(e.Cond)+len(e.CondNot)+len(e.Add)+len(e.Del))
			}
			s.effectWork[i] = (steps + 31) / 32
		}
	}
	return s
}

// Search plans t optimally with opt; see also Searcher.Search.
func Search(t *Task, opt Options) (Result, error) {
	s, err := NewSearcher(t)
	if err != nil {
		return Result{}, err
	}
	return s.Search(opt)
}

func (s *Searcher) estimator(h Heuristic) (estimator, error) {
	switch h {
	case LMCut:
		if s.lmcut == nil {
			s.lmcut = newLMCut(s.t)
		}
		return s.lmcut, nil
	case HMax:
		if s.hmax == nil {
			s.hmax = newHMax(s.t)
		}
		return s.hmax, nil
	case Blind:
		return &s.blind, nil
	}
	return nil, fmt.Errorf("strips: unknown heuristic %d", h)
}

// record returns stored state id's record.
func (s *Searcher) record(id int32) []uint64 {
	p := s.pages[id>>s.pageBits]
	off := int(id&(1<<s.pageBits-1)) * s.rec
	return p[off : off+s.rec : off+s.rec]
}

// state returns the bits of stored state id.
func (s *Searcher) state(id int32) []uint64 { return s.record(id)[:s.words] }

// hashState mixes a state's words, each through a multiply, and the sum
// through splitmix64's finalizer, so that the low bits (the table index)
// and the high ones (the fingerprint) both depend on every fact.
func hashState(w []uint64) uint64 {
	h := uint64(len(w))
	for _, x := range w {
		h = (h ^ x) * 0x9E3779B97F4A7C15
		h ^= h >> 29
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

func equalState(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lookup returns the id of the stored state equal to w, or -1, and the
// table slot where it is or would go, and its hash.
func (s *Searcher) lookup(w []uint64) (int32, int, uint64) {
	return s.lookupHashed(w, hashState(w))
}

// lookupHashed is lookup given w's hash.
func (s *Searcher) lookupHashed(w []uint64, h uint64) (int32, int, uint64) {
	mask := len(s.table) - 1
	fp := h &^ (1<<32 - 1)
	for i := slotOf(h, mask); ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			return -1, i, h
		}
		if e&^(1<<32-1) == fp {
			if id := int32(uint32(e)) - 1; equalState(s.state(id), w) {
				return id, i, h
			}
		}
	}
}

// bytes is the memory the search holds, as the limit counts it.
func (s *Searcher) bytes() int64 {
	n := int64(len(s.pages))<<s.pageBits*int64(s.rec)*8 + s.open.Bytes() +
		int64(cap(s.batch)+cap(s.hashes))*8 +
		int64(len(s.table))*8 +
		int64(cap(s.entries)+cap(s.succs))*4 + s.estBytes
	if s.opt.Trace != nil {
		n += s.opt.Trace.bytes()
	}
	return n
}

// grow makes room for one more open-list entry and, if newState, one more
// state, doubling the table when it would be more than half full; it
// reports false, changing nothing, when that would pass maxBytes.
func (s *Searcher) grow(maxBytes int64, newState bool) bool {
	need := int64(0)
	if len(s.entries) == cap(s.entries) {
		need += int64(max(cap(s.entries), 1024)) * 8
	}
	if newState {
		if int(s.n)>>s.pageBits >= len(s.pages) {
			need += 1 << s.pageBits * int64(s.rec) * 8
		}
		if s.full() {
			need += int64(len(s.table)) * 8 * 2
		}
		if s.n == math.MaxInt32-1 {
			return false
		}
	}
	if need > 0 && s.bytes()+need > maxBytes || len(s.entries) == math.MaxInt32 {
		return false
	}
	if newState {
		if int(s.n)>>s.pageBits >= len(s.pages) {
			s.pages = append(s.pages, make([]uint64, 1<<s.pageBits*s.rec))
		}
		if s.full() {
			s.rehash(2 * len(s.table))
		}
	}
	return true
}

// room is grow within the search's memory limit, which a Portfolio may
// raise when it runs out (see portfolioRace.moreMemory).
func (s *Searcher) room(newState bool) bool {
	for !s.grow(s.maxBytes, newState) {
		if s.moreMemory == nil || !s.moreMemory() {
			return false
		}
	}
	return true
}

// batchSize is the most successors made and hashed together: enough to
// overlap their cache misses, and a bounded buffer however many operators
// apply.
const batchSize = 64

// successors applies each operator of ops to cur, into s.batch, and
// hashes each result into s.hashes. Then it reads, for each, the table
// slot it hashes to, and the record a matching fingerprint there names:
// loads that do not depend on each other, so that their cache misses
// overlap instead of coming one after another as the lookups would make
// them.
func (s *Searcher) successors(cur []uint64, ops []int32) {
	w, k := s.words, len(ops)
	if cap(s.batch) < batchSize*w {
		s.batch = make([]uint64, batchSize*w)
		s.hashes = make([]uint64, batchSize)
	}
	s.batch, s.hashes = s.batch[:k*w], s.hashes[:k]
	for j, a := range ops {
		next := s.batch[j*w : (j+1)*w : (j+1)*w]
		if o := &s.t.Ops[a]; len(o.Effects) == 0 {
			copy(next, cur)
			o.Apply(next)
		} else {
			o.ApplyTo(next, cur)
			s.work += s.effectWork[a]
		}
		if s.derive != nil {
			s.work += (s.derive.derive(next) + 31) / 32
		}
		s.hashes[j] = hashState(next)
	}
	mask := len(s.table) - 1
	var touch uint64
	for _, h := range s.hashes {
		touch += s.table[slotOf(h, mask)]
	}
	for _, h := range s.hashes {
		if e := s.table[slotOf(h, mask)]; e != 0 && e&^(1<<32-1) == h&^(1<<32-1) {
			touch += s.record(int32(uint32(e)) - 1)[0]
		}
	}
	s.touched = touch
}

// full says whether one more state would take the table past three
// quarters full.
func (s *Searcher) full() bool { return 4*(int(s.n)+1) > 3*len(s.table) }

// rehash moves the table's entries to a new one of size slots. Each
// entry's slot comes from its fingerprint, so no state is read; and the old
// table is read in order, so that the new one is written nearly in order
// too, at the two places each old slot's entries go.
func (s *Searcher) rehash(size int) {
	old := s.table
	s.table = make([]uint64, size)
	mask := size - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := slotOf(e, mask)
		for s.table[i] != 0 {
			i = (i + 1) & mask
		}
		s.table[i] = e
	}
}

// slotOf is the table slot of a hash, or of an entry, which keeps its
// hash's top 32 bits: a table has at most 2^32 slots.
func slotOf(h uint64, mask int) int { return int(h>>32) & mask }

// store adds w, of hash h, as a new state at table slot, with its g, h
// and meta word, and returns its record.
func (s *Searcher) store(w []uint64, slot int, hash uint64, g, h int64, m uint64) []uint64 {
	id := s.n
	s.n++
	r := s.record(id)
	copy(r, w)
	r[s.words], r[s.words+1], r[s.words+2] = uint64(g), uint64(h), m
	s.table[slot] = hash&^(1<<32-1) | uint64(id+1)
	return r
}

func (s *Searcher) reset() {
	clear(s.table)
	if len(s.table) == 0 {
		s.table = make([]uint64, 1024)
	}
	s.entries = s.entries[:0]
	s.n = 0
	s.open.Reset()
}

// push queues state id, of record r, at f = g + h.
func (s *Searcher) push(id int32, r []uint64) {
	g, h := int64(r[s.words]), int64(r[s.words+1])
	s.open.Push(g+h, h, int32(len(s.entries)))
	s.entries = append(s.entries, id)
}

// Search runs A* from the task's initial state. Its error is nil when the
// search found a plan or proved there is none, ErrOutOfMemory or
// ErrOutOfExpansions when it ran out; the Result holds the statistics
// either way.
func (s *Searcher) Search(opt Options) (Result, error) {
	if s == nil || s.t == nil {
		// A misuse, not an outcome: panic like Go's maps, saying what
		// to call, rather than dereference nil somewhere inside.
		panic("strips: Searcher not made by NewSearcher: a nil or zero Searcher has no task; call strips.NewSearcher(task)")
	}
	opt = opt.withLimits()
	if opt.Heuristic == Portfolio {
		return s.portfolio(opt)
	}
	if err := s.begin(opt); err != nil {
		return Result{}, err
	}
	for !s.advance(math.MaxInt64) {
	}
	return s.result()
}

// begin starts a search, which advance then runs.
func (s *Searcher) begin(opt Options) error {
	est, err := s.estimator(opt.Heuristic)
	if err != nil {
		return err
	}
	s.est, s.opt, s.maxBytes = est, opt, EffectiveMaxBytes(opt.MaxBytes)
	s.moreMemory = nil // a portfolio sets its own after begin
	s.pausable, _ = est.(pausable)
	s.estBytes = 0
	if sz, ok := est.(sized); ok {
		s.estBytes = sz.bytes()
	}
	if s.bytes() > s.maxBytes {
		s.releaseStates() // what an earlier search kept is more than this one may hold
	}
	s.reset()
	s.open.hOf = func(e int32) int64 { return int64(s.record(s.entries[e])[s.words+1]) }
	if c, ok := est.(workCounter); ok {
		c.dropWork() // what an earlier search left over, to the last step
	}
	if opt.Trace != nil {
		opt.Trace.reset(s.t, opt.Heuristic)
	}
	s.res, s.done, s.work = Result{Status: NoPlan, Heuristic: opt.Heuristic}, false, 0
	s.phase, s.estimating, s.progressF = phaseStart, false, -1
	if !s.grow(s.maxBytes, true) {
		s.res.Status, s.res.Bound, s.done = LimitReached, search.Bytes, true
	}
	return nil
}

// The phases of a search between two calls of advance, which may stop
// anywhere its work reaches the limit it was given: before the start's
// estimate is done, between two expansions, or within one, between two
// successors or within a successor's estimate.
const (
	phaseStart = iota
	phasePop
	phaseExpand
)

// startState is the task's initial state, one word at least.
func (s *Searcher) startState() []uint64 {
	start := s.t.InitialState()
	if len(start) == 0 {
		start = make([]uint64, 1)
	}
	return start
}

// estimateUntil estimates state w, its work counted, unless the work
// reaches limit first: then it reports false, and the next call, given the
// same w, goes on where this one stopped. An estimator that cannot pause
// (blind, h_max: one pass over the relaxation at most) runs to its end.
func (s *Searcher) estimateUntil(w []uint64, limit int64) (h int64, dead, ok bool) {
	p := s.pausable
	if p == nil {
		h, dead = s.estimate(w)
		return h, dead, true
	}
	done := false
	if !s.estimating {
		s.estimating = true
		done = p.startEstimate(w)
		s.work += p.takeWork()
	}
	for !done {
		if s.work >= limit {
			return 0, false, false
		}
		done = p.stepEstimate()
		s.work += p.takeWork()
	}
	s.estimating = false
	h, dead = p.estimateValue()
	return h, dead, true
}

// estimate is the search's estimate of state w, its work counted.
func (s *Searcher) estimate(w []uint64) (int64, bool) {
	h, dead := s.est.estimate(w)
	if c, ok := s.est.(workCounter); ok {
		s.work += c.takeWork()
	}
	return h, dead
}

// workCounter is an estimator that counts its work, in the units of
// Searcher.work, since it was last asked; dropWork forgets the work not yet taken, the part of a unit too, so
// that a search's count does not depend on what the searcher did before.
type workCounter interface {
	takeWork() int64
	dropWork()
}

// pausable is an estimator whose estimate goes in rounds, between which a
// search may stop (see lmCut.startEstimate).
type pausable interface {
	workCounter
	startEstimate(s []uint64) (done bool)
	stepEstimate() (done bool)
	estimateValue() (h int64, dead bool)
}

// sized is an estimator that holds memory of its own, which a search
// counts against its limit.
type sized interface{ bytes() int64 }

// advance runs the search until it ends, which it reports, or its work
// reaches limit (or Options.MaxWork, which ends it).
func (s *Searcher) advance(limit int64) bool {
	if s.opt.MaxWork > 0 && limit >= s.opt.MaxWork {
		if s.run(s.opt.MaxWork) {
			return true
		}
		if s.work >= s.opt.MaxWork {
			s.res.Status, s.res.Bound, s.done = LimitReached, search.Work, true
		}
		return s.done
	}
	return s.run(limit)
}

// run is advance within limit, which Options.MaxWork does not pass.
func (s *Searcher) run(limit int64) bool {
	res, opt := &s.res, &s.opt
	for !s.done && s.work < limit {
		switch s.phase {
		case phaseStart:
			start := s.startState()
			h, dead, ok := s.estimateUntil(start, limit)
			if !ok {
				return false
			}
			s.res.Evaluated, s.res.InitialH = 1, h
			if dead {
				s.res.DeadEnds, s.done = 1, true
				return true
			}
			_, slot, hash := s.lookup(start)
			r := s.store(start, slot, hash, 0, h, meta(-1, -1, 0))
			s.push(0, r)
			s.phase = phasePop
			continue
		case phaseExpand:
			if !s.expand(limit) {
				return false
			}
			s.phase = phasePop
			continue
		}
		if s.open.Len() == 0 {
			s.done = true // NoPlan: res.Status's starting value
			break
		}
		f, e := s.open.Pop()
		id := s.entries[e]
		r := s.record(id)
		w := s.words
		g, m := int64(r[w]), r[w+2]
		if m&flagClosed != 0 || g+int64(r[w+1]) != f {
			continue // a stale entry: the state was reached cheaper since
		}
		cur := r[:w]
		if s.t.IsGoal(cur) {
			res.Status, res.Cost = Found, g
			res.Plan = s.path(id)
			s.done = true
			break
		}
		if opt.MaxExpansions > 0 && res.Expanded >= opt.MaxExpansions {
			res.Status, res.Bound, s.done = LimitReached, search.Budget, true
			break
		}
		if tr := opt.Trace; tr != nil && s.bytes()+tr.growth() > s.maxBytes {
			// The trace cannot record this expansion within the limit.
			res.Status, res.Bound, s.done = LimitReached, search.Bytes, true
			break
		}
		reopened := m&flagExpanded != 0
		r[w+2] = m | flagClosed | flagExpanded
		res.Expanded++
		if reopened {
			res.Reopened++
		}
		if opt.Progress != nil {
			s.progress(f)
		}
		if opt.OnExpand != nil {
			opt.OnExpand(Expansion{N: res.Expanded, State: cur, G: g, H: int64(r[w+1]), Op: metaOp(m), Reopened: reopened})
		}
		if opt.Trace != nil {
			opt.Trace.add(TraceExpansion{N: res.Expanded, G: g, H: int64(r[w+1]), Op: metaOp(m), Reopened: reopened})
		}
		s.succs = s.succ.applicable(cur, s.succs[:0])
		s.work++
		s.phase, s.expID, s.expG, s.expNext = phaseExpand, id, g, 0
	}
	return s.done
}

// expand handles the successors of the state being expanded, s.expID,
// from s.expNext on, and reports whether it got through them all: it
// stops when the work reaches limit, between two successors or within
// one's estimate, to go on where it stopped on the next call. s.batch
// still holds the successors then: only this search writes it.
func (s *Searcher) expand(limit int64) bool {
	res, ops, w := &s.res, s.t.Ops, s.words
	id, g := s.expID, s.expG
	for ; s.expNext < len(s.succs); s.expNext++ {
		j := s.expNext
		k := j % batchSize
		a := s.succs[j]
		if k == 0 && !s.estimating {
			if s.work >= limit {
				return false
			}
			s.successors(s.record(id)[:w], s.succs[j:min(j+batchSize, len(s.succs))])
		}
		next := s.batch[k*w : (k+1)*w : (k+1)*w]
		ng := g + ops[a].Cost
		slot := -1 // unknown when resuming an estimate
		if !s.estimating {
			if s.work >= limit {
				return false
			}
			res.Generated++
			s.work++
			var nid int32
			nid, slot, _ = s.lookupHashed(next, s.hashes[k])
			if nid >= 0 {
				nr := s.record(nid)
				nm := nr[w+2]
				if nm&flagDead != 0 || ng >= int64(nr[w]) {
					continue
				}
				if !s.room(false) {
					res.Status, res.Bound, s.done = LimitReached, search.Bytes, true
					return true
				}
				nr[w] = uint64(ng)
				nr[w+2] = meta(id, a, nm&flagExpanded)
				s.push(nid, nr)
				continue
			}
		}
		nh, ndead, ok := s.estimateUntil(next, limit)
		if !ok {
			return false
		}
		res.Evaluated++
		if ndead {
			// Stored, so that it is estimated once, but never queued.
			res.DeadEnds++
		}
		size := len(s.table)
		if !s.room(true) {
			res.Status, res.Bound, s.done = LimitReached, search.Bytes, true
			return true
		}
		hash := s.hashes[k]
		if slot < 0 || len(s.table) != size { // the table grew: the slot moved
			_, slot, _ = s.lookupHashed(next, hash)
		}
		nid := s.n
		var flags uint64
		if ndead {
			flags = flagDead
		}
		nr := s.store(next, slot, hash, ng, nh, meta(id, a, flags))
		if !ndead {
			s.push(nid, nr)
		}
	}
	return true
}

// result is the search's outcome so far, with its error.
func (s *Searcher) result() (Result, error) {
	res := s.res
	res.States, res.Bytes = int64(s.n), s.bytes()
	res.Stats = search.Stats{Expanded: res.Expanded, Generated: res.Generated, Work: s.work, PeakBytes: res.Bytes}
	if t := s.opt.Trace; t != nil {
		t.Status, t.Bound, t.Cost = res.Status, res.Bound, res.Cost
	}
	if res.Status == Found {
		res.Stats.Depth = int64(len(res.Plan))
	}
	if res.Status != LimitReached {
		return res, nil
	}
	le := &limitError{search.LimitError{Planner: "strips", Goal: s.t.Name, Bound: res.Bound}}
	switch res.Bound {
	case search.Bytes:
		le.Limit, le.Err = s.maxBytes, ErrOutOfMemory
	case search.Budget:
		le.Limit, le.Err = s.opt.MaxExpansions, ErrOutOfExpansions
	default:
		le.Limit, le.Err = s.opt.MaxWork, ErrOutOfWork
	}
	return res, le
}

// limitError is the error of a search a limit stopped. Its text is its
// sentinel's (ErrOutOfMemory, ...), as ploy's pddl command has always
// printed it; errors.Is matches that sentinel and search.ErrLimit, and
// errors.As finds the *search.LimitError naming the task, the bound and
// its value.
type limitError struct{ search.LimitError }

func (e *limitError) Error() string { return e.Err.Error() }

// Unwrap returns the *search.LimitError, whose own Unwrap gives the
// sentinel and search.ErrLimit.
func (e *limitError) Unwrap() error { return &e.LimitError }

// path returns the operators from the start to state id.
func (s *Searcher) path(id int32) []int32 {
	n := 0
	for x := id; metaParent(s.record(x)[s.words+2]) >= 0; x = metaParent(s.record(x)[s.words+2]) {
		n++
	}
	plan := make([]int32, n)
	for x := id; n > 0; x = metaParent(s.record(x)[s.words+2]) {
		n--
		plan[n] = metaOp(s.record(x)[s.words+2])
	}
	return plan
}
