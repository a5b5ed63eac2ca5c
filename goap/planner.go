package goap

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/ploy-ai/ploy/internal/intern"
	"github.com/ploy-ai/ploy/internal/pq"
	"github.com/ploy-ai/ploy/search"
)

// Search is the direction of a search.
type Search uint8

const (
	// Forward searches from the start state over whole states, as the GOAP
	// lesson's A* does (see docs/background.md).
	Forward Search = iota
	// Backward regresses from the goal over partial states, as Orkin's
	// planner did: it only ever considers actions whose effects serve an
	// unmet fact, which pays when there are many actions.
	Backward
)

func (s Search) String() string {
	if s == Backward {
		return "backward"
	}
	return "forward"
}

// Status is the outcome of a search: search.Status, shared by every
// planner. Its zero value is NotSearched.
type Status = search.Status

const (
	// Found: Result.Plan reaches the goal at least cost (empty if the goal
	// already holds).
	Found = search.Found
	// NoPlan: every reachable state was expanded and none meets the goal.
	// It is a normal outcome, not an error.
	NoPlan = search.NoPlan
	// LimitReached: a limit ran out first: the states expanded, the
	// memory, the work, the depth or the context (Result.Bound says
	// which).
	LimitReached = search.LimitReached
	// Unsupported: the search could not be run as asked (backward search
	// over an action whose cost is a Go function).
	Unsupported = search.Unsupported

	// Deprecated: BudgetExhausted is LimitReached; Result.Bound says which
	// limit.
	BudgetExhausted = search.LimitReached
	// Deprecated: DepthExceeded is LimitReached with Result.Bound
	// BoundDepth; it no longer differs from BudgetExhausted, so compare
	// Bound.
	DepthExceeded = search.LimitReached
)

// StatusName returns the name ploy's JSON and text outputs give a GOAP
// search's outcome, as they have since before the shared search.Status:
// "found", "no_plan", "budget_exhausted" (any limit but the depth),
// "depth_exceeded" or "unsupported".
func StatusName(s Status, b Bound) string {
	if s != LimitReached {
		return s.String()
	}
	if b == BoundDepth {
		return "depth_exceeded"
	}
	return "budget_exhausted"
}

// DefaultBudget is the node budget of a search whose Options leave it zero:
// generous for a game domain, small enough that no call runs away.
const DefaultBudget = 100_000

// Sentinel errors, for errors.Is on a search's error. The first two are
// the search package's, the resolver's too: errors.Is(err,
// search.ErrLimit) matches both, as it matches every planner's limits.
var (
	ErrBudgetExhausted = search.ErrBudgetExhausted
	ErrDepthExceeded   = search.ErrDepthExceeded
	ErrNotRegressable  = errors.New("cost is a Go function and cannot be regressed")
)

// SearchError reports a search that ended without an answer: a budget ran
// out (states, memory or work), or only plans longer than the depth limit
// could exist. It names the goal and the limit. errors.Is matches
// ErrDepthExceeded for the depth limit, ErrBudgetExhausted for the others
// (and for a context's end the context's error, context.Canceled or
// context.DeadlineExceeded), and search.ErrLimit for all; errors.As finds
// a *search.LimitError.
type SearchError struct {
	Goal   string
	Status Status // LimitReached
	Bound  Bound  // which limit: BoundStates, BoundBytes, BoundWork, BoundDepth, BoundCanceled or BoundDeadline
	Limit  int    // its value: the budget, the bytes, the work or the depth
	Result Result // statistics of the search so far (never a plan)
}

func (e *SearchError) Error() string {
	switch e.Bound {
	case BoundStates:
		return fmt.Sprintf("goap: goal %q: node budget of %d states exhausted", e.Goal, e.Limit)
	case BoundBytes:
		return fmt.Sprintf("goap: goal %q: search budget exhausted: memory ceiling of %d bytes reached", e.Goal, e.Limit)
	case BoundWork:
		return fmt.Sprintf("goap: goal %q: search budget exhausted: work limit of %d reached", e.Goal, e.Limit)
	case BoundCanceled:
		return fmt.Sprintf("goap: goal %q: search stopped: its context was canceled", e.Goal)
	case BoundDeadline:
		return fmt.Sprintf("goap: goal %q: search stopped: its context's deadline passed", e.Goal)
	default:
		return fmt.Sprintf("goap: goal %q: no plan of at most %d steps", e.Goal, e.Limit)
	}
}

func (e *SearchError) Unwrap() error {
	var sentinel error = ErrBudgetExhausted
	switch e.Bound {
	case BoundDepth:
		sentinel = ErrDepthExceeded
	case BoundCanceled:
		// The context's error too, as htn's and the resolver's match it.
		sentinel = errors.Join(ErrBudgetExhausted, context.Canceled)
	case BoundDeadline:
		sentinel = errors.Join(ErrBudgetExhausted, context.DeadlineExceeded)
	}
	return &search.LimitError{Planner: "goap", Goal: e.Goal, Bound: e.Bound, Limit: int64(e.Limit), Err: sentinel}
}

// RegressionError reports that backward search cannot use an action because
// its cost is a Go function of the whole state. errors.Is matches
// ErrNotRegressable.
type RegressionError struct {
	Goal   string
	Action string
}

func (e *RegressionError) Error() string {
	return fmt.Sprintf("goap: goal %q: backward search cannot use action %q: its cost is a Go function of the state", e.Goal, e.Action)
}

func (e *RegressionError) Unwrap() error { return ErrNotRegressable }

// Options tune one search. The zero value is a forward search with the
// GoalCost heuristic, the default limits, no depth limit and no trace.
// (The command line and the viewer default to GoalCount instead, so that
// their traces show h as a count of goal facts still false; see
// GoalCount.)
//
// Three limits bound every search, whichever is reached first ending it
// with LimitReached: the states expanded (Limits.Budget), the memory
// (Limits.MaxBytes) and the work (Limits.MaxWork). The last two are
// checked before each expansion against its worst case, every action
// making a successor, so that no expansion takes a search past them; a
// Budget larger than what they allow is therefore harmless. Plan panics on
// a Search or Heuristic that is not one of the constants, or a negative
// limit.
type Options struct {
	Search    Search
	Heuristic Heuristic
	Profile   *Profile // capabilities and cost overrides; nil is the domain as built
	// Limits bound the search, in the units every planner shares (a value
	// past an int's range is taken as the largest int):
	//
	//   - Budget: most states to expand; 0 means DefaultBudget.
	//   - MaxDepth: longest plan considered; 0 means no limit.
	//   - MaxBytes: the memory the search may hold, in bytes: its node
	//     arena, state table, open list, queued duplicates and trace, each
	//     counted at its worst-case capacity; 0 means
	//     search.DefaultMaxBytes.
	//   - MaxWork: the search's work, one unit per word of state read to
	//     test an action (and each of its cost cases, backward), per
	//     successor made one per word of its state plus one for its node,
	//     forward with HMax one per operator and literal of each relaxation
	//     pass, and with GoalCost one per goal fact, achiever and
	//     precondition word an estimate looks at; 0 means DefaultMaxWork.
	//     Forward, a rule-list cost counts one unit per rule per word of
	//     state each time it is evaluated (backward, its cases are tested
	//     as actions are). A Go function's cost is the caller's code, not
	//     counted.
	//
	// MaxSteps does not apply. A non-zero field here wins over the
	// deprecated field of the same name below.
	Limits search.Limits
	// Deprecated: use Limits.Budget, which wins when both are set.
	Budget int
	// Deprecated: use Limits.MaxDepth, which wins when both are set.
	MaxDepth int
	Trace    *Trace // if not nil, records the search; nil costs nothing
	// Deprecated: use Limits.MaxBytes, which wins when both are set.
	MaxBytes int
	// Deprecated: use Limits.MaxWork, which wins when both are set.
	MaxWork int
	// Context, if not nil, stops the search when it is done: the search
	// looks at it every few thousand units of work (and before its first
	// expansion), and ends with LimitReached and Bound BoundCanceled or
	// BoundDeadline. Nil costs nothing.
	Context context.Context
}

// applyLimits sets opt's deprecated limit fields to the limits in force
// (Limits winning, by search.Limits.Or), which the search code reads. Plan
// calls it on its own copy of the caller's Options.
func (opt *Options) applyLimits() {
	if opt.Limits == (search.Limits{}) {
		return // the deprecated fields, or the defaults, are in force
	}
	lim := opt.Limits.Or(search.Limits{Budget: int64(opt.Budget), MaxDepth: int64(opt.MaxDepth), MaxBytes: int64(opt.MaxBytes), MaxWork: int64(opt.MaxWork)})
	opt.Budget, opt.MaxDepth = search.ClampInt(lim.Budget), search.ClampInt(lim.MaxDepth)
	opt.MaxBytes, opt.MaxWork = search.ClampInt(lim.MaxBytes), search.ClampInt(lim.MaxWork)
}

// Result is what a search found, with its statistics.
type Result struct {
	Status Status
	// Plan is the action sequence, appended to the slice passed to Plan.
	Plan []ActionID
	// Cost is the plan's total cost.
	Cost float64
	// Expanded counts states taken from the open list and expanded; stale
	// entries and the goal state are not counted.
	Expanded int
	// Generated counts successors produced by applicable, capable actions
	// that changed something and were within the depth limit, whether or
	// not they improved on a known path.
	Generated int
	// Bound is the limit that ended the search when Status is
	// LimitReached (states, bytes, work, depth, or its context canceled or
	// past its deadline), NoBound otherwise.
	Bound Bound
	// Stats are the counts every planner shares: Expanded and Generated
	// as above; Work as Planner.Work reports it; PeakBytes the memory the
	// search held at its end (its nodes only grow), as Limits.MaxBytes
	// counts it, the larger of the two searches' when a delayed search
	// handed over; Depth the plan's length when Found, 0 otherwise.
	// Work and PeakBytes, unlike the rest of the Result, depend on the
	// search path the planner took (a fast path's nodes are smaller) and
	// on what it kept from earlier searches (forward keeps estimates):
	// two planners may find the same plan with the same counts but not
	// the same Work or PeakBytes.
	Stats search.Stats
}

// Planner searches one domain. It owns its open list, node arena and state
// table, and reuses them: once warm, a plan allocates nothing, and a large
// search runs several times faster than on a new planner. It keeps the
// estimate tables of the last four goals (with their profile, heuristic
// and direction) it searched, so that an agent that changes goal does not
// make them again; they change no plan or statistic but Work (a kept
// state estimate costs none), as keeping one goal's always did. The arena
// keeps the size of the largest search made: a few tens of bytes per state
// reached, or per successor generated on domains of more than 12 facts with
// whole costs, whose search queues duplicates rather than look each one up
// (up to 80 MiB, past which it hands over to a search that does). A fast
// search that hands over lets go of its own storage, so that the planner
// does not hold it beside the general search's: a search that hands over
// is one of millions of states, and the next such search grows that
// storage again (it allocates; one that does not hand over still does
// not). A Planner is not safe for concurrent use; give each goroutine its
// own, sharing the Domain. A call that starts while another is under way
// on the same Planner panics rather than corrupt both searches.
//
// Make a Planner with NewPlanner: the zero Planner has no domain, and its
// methods panic saying so.
type Planner struct {
	// busy is set while Plan or Reserve runs, to catch two goroutines
	// sharing the Planner, as agent.Queue does: every search rewrites the
	// whole arena, so an overlap gives wrong plans or an index panic deep
	// inside. One uncontended compare-and-swap costs a few nanoseconds.
	busy  atomic.Bool
	d     *Domain
	tab   intern.Table[stateInfo]
	nodes []node
	open  pq.Queue
	cur   []uint64
	next  []uint64
	dist  []float64 // h_max literal costs
	// An expansion's successors, between its two passes.
	succ      []successor
	succWords []uint64
	sink      uint64 // keeps the table touches observable
	// applicable is one bit per action, for an expansion's first pass.
	applicable []uint64
	// The estimate tables (prepareEstimates): the goal-count estimate by
	// number of wrong facts, in cost units and scaled to whole ones, the
	// latter again as an array for one-word states (65 entries: the
	// compiler drops the bounds checks), and what they were made for.
	byUnmet []float64
	hOf     []int
	hOfWord [65]int
	est     estimateKey
	// estEpoch numbers the estimate tables in use; denseSearch.forward's
	// kept estimates are valid in it.
	estEpoch uint32
	// estimates keeps the tables of a few other goals (estimates.go).
	estimates estimateCache
	// estWork is the work counted as it is done in this search, which the
	// meter adds to its per-expansion and per-successor counts: GoalCost's
	// estimates, HMax's relaxations and forward's rule-list costs;
	// worstEstimate the most one estimate can take.
	estWork, worstEstimate int
	// The fast searches' own scratch space.
	word    wordSearch
	dense   denseSearch
	hash32  hashSearch[uint32] // up to 32 facts
	hash64  hashSearch[uint64]
	delayed delayedSearch
	buckets pq.Buckets
	// wordNodes is how many nodes the one-word fast searches (dense and
	// hashed) may make before they hand over: their nodes are numbered
	// in denseNodeBits bits. Lowered only by tests, to reach a hand-over
	// without gigabytes.
	wordNodes int
	// The current search's limits, from its Options.
	budget, maxBytes, maxWork int
	spent                     int   // work of a delayed search that handed over
	handedPeak                int64 // and the bytes it held then, for PeakBytes
	relaxWork                 int   // work of the h_max relaxations since last counted
	// The current search's context (nil: none); the most work forward
	// can spend on one successor's rule-list cost; and the work the
	// current search path counts per expansion and per successor, for
	// Result.Work.
	ctx                        context.Context
	work                       int // the last search's, for Work
	worstRuleWork              int
	perExpansion, perSuccessor int
	// The bytes per node and fixed bytes the last meter made counts, for
	// Result.Stats.PeakBytes.
	nodeBytes, fixedBytes int
	// forceGeneral disables every fast path, for the test that compares
	// them with the general searches.
	forceGeneral bool
	chain        chainBound     // GoalCost's second bound, forward
	levels       achieverLevels // and backward
	// slicer runs the search Begin started, nil when none is under way;
	// slicing is its storage, made by the first Begin and kept for the
	// next (slice.go).
	slicer, slicing *slicer
	// path is the search paths the last search took (a delayed one that
	// handed over, both), for the tests that must cover each.
	path searchPath
}

// stateInfo is what a search knows of an interned state, kept in the state
// table's slot: its cheapest known cost and its newest live node (without a
// depth limit, its only one).
type stateInfo struct {
	g    float64
	head int32
}

type node struct {
	g      float64
	parent int32
	action ActionID
	state  int32
	depth  int32
	next   int32 // older live node of the same state, with a depth limit
	dead   bool  // superseded by a node of the same state that dominates it
}

// NewPlanner returns a planner for d.
func NewPlanner(d *Domain) *Planner {
	if d == nil {
		panic("goap: NewPlanner(nil)")
	}
	return &Planner{
		d:    d,
		cur:  make([]uint64, 2*d.words),
		next: make([]uint64, 2*d.words),
		dist: make([]float64, 2*len(d.facts)),

		applicable: make([]uint64, (len(d.actions)+63)/64),
		delayed:    delayedSearch{limit: maxDelayedNodes},
		wordNodes:  denseNodeMask,
	}
}

// Work returns the work the last Plan counted against Options.MaxWork, in
// its units (see Options.MaxWork): at most MaxWork. It is not part of the
// Result because it depends on the path the search took, and on what the
// planner kept from its previous searches (forward keeps estimates), not
// only on the problem: a caller that shares one work limit among several
// searches subtracts it.
func (p *Planner) Work() int { return p.work }

// Domain returns the planner's domain.
func (p *Planner) Domain() *Domain {
	p.check()
	return p.d
}

// check panics, saying what to call, on a nil or zero Planner, which has
// no domain to search.
func (p *Planner) check() {
	if p == nil || p.d == nil {
		panic("goap: Planner not made by NewPlanner: a nil or zero Planner has no domain; call goap.NewPlanner(domain)")
	}
}

// enter marks the planner busy for a call, and panics if another call,
// necessarily on another goroutine, is under way: the panic is raised in
// the call that came second, before it touches anything, so the first
// goes on undisturbed. The call leaves with p.busy.Store(false), deferred
// so that a panic inside (a misuse the planner reports) frees it too.
func (p *Planner) enter() {
	p.check()
	if !p.busy.CompareAndSwap(false, true) {
		panic("goap: Planner used by two goroutines at once; make one Planner per goroutine (they can share the Domain)")
	}
}

// Plan searches for a least-cost plan from start to goal. The plan is
// appended to dst, the strconv.Append way, and returned in Result.Plan.
//
// Finding a plan and finding that there is none are both normal outcomes,
// with a nil error. A spent budget or a depth limit that pruned every plan
// returns a *SearchError as well as the statistics; a backward search over a
// Go-function cost returns a *RegressionError. Plan panics if start or goal
// does not belong to the planner's domain (a state of another width, or
// with a fact set past the domain's last), if opt is malformed (see
// Options), or if a Go cost function returns a cost below its declared
// minimum, above MaxCost or not a number.
func (p *Planner) Plan(dst []ActionID, start State, goal *Goal, opt Options) (Result, error) {
	p.enter()
	defer p.busy.Store(false)
	p.abandon() // the arena is this search's now
	return p.plan(dst, start, goal, &opt)
}

// plan is Plan's search, run by Plan at once and by Begin's coroutine a
// slice at a time; its caller has entered the planner. opt is the
// caller's copy, which plan changes (its limits applied); by pointer, as a
// search of the battle mage takes 300 ns and a copy shows.
func (p *Planner) plan(dst []ActionID, start State, goal *Goal, opt *Options) (Result, error) {
	p.d.checkState(start)
	p.d.checkGoal(goal)
	opt.applyLimits()
	p.budget, p.maxBytes, p.maxWork = opt.validate()
	p.spent, p.estWork, p.work = 0, 0, 0
	p.perExpansion, p.perSuccessor = 0, 0
	p.nodeBytes, p.fixedBytes = 0, 0 // a search that makes no meter holds nothing counted
	p.ctx = opt.Context
	prof := opt.Profile
	if prof == nil {
		prof = p.d.base
	} else if prof.domain != p.d {
		panic("goap: profile belongs to another domain")
	}
	prof.prepare()
	p.worstRuleWork = 0
	if opt.Search == Forward {
		p.worstRuleWork = prof.maxRules * p.d.words
	}
	if opt.Trace != nil {
		opt.Trace.reset(p.d, opt.Search, goal)
	}
	p.prepareEstimates(*opt, start.words, goal, prof)
	// A plain search (no trace, depth limit or HMax) may take a fast path;
	// with costs whole once scaled, one that delays duplicate detection.
	plain := opt.Trace == nil && opt.MaxDepth == 0 && opt.Heuristic != HMax && !p.forceGeneral
	delayed := plain && prof.costScale > 0
	var res Result
	var err error
	var peak int64 // the most bytes held, over the searches made
	p.path, p.handedPeak = 0, 0
	if opt.Search == Backward {
		if prof.funcAction != NoAction {
			res = Result{Status: Unsupported, Plan: dst}
			err = &RegressionError{Goal: goal.name, Action: p.d.actions[prof.funcAction].name}
		} else {
			done := false
			if delayed {
				res, done = p.delayed.backward(p, dst, start.words, goal, prof)
				p.path |= pathDelayedBackward
				peak = p.fastPeak(done, len(p.delayed.wideNodes))
			}
			if !done {
				res = p.backward(dst, start.words, goal, prof, *opt)
				p.path |= pathBackward
				peak = max(peak, p.held(len(p.nodes), opt.Trace))
			}
		}
	} else if p.d.words == 1 && plain {
		// With whole (scaled) costs, f and g are integers: a domain of at
		// most maxDenseFacts facts indexes a dense table with its states,
		// a larger one a hash table (of 32-bit states up to 32 facts);
		// with fractional ones, sums that differ in their last bit must
		// still be compared where forward compares them.
		done := false
		switch {
		case delayed && len(p.d.facts) <= 32 && len(p.d.facts) > maxDenseFacts:
			res, done = p.hash32.forward(p, dst, uint32(start.words[0]), goal, prof)
			p.path |= pathHash32
			peak = p.fastPeak(done, len(p.hash32.nodes))
		case delayed && len(p.d.facts) > maxDenseFacts:
			res, done = p.hash64.forward(p, dst, start.words[0], goal, prof)
			p.path |= pathHash64
			peak = p.fastPeak(done, len(p.hash64.nodes))
		case delayed:
			res, done = p.dense.forward(p, dst, start.words[0], goal, prof)
			p.path |= pathDense
			peak = p.fastPeak(done, len(p.dense.nodes))
		}
		if !done {
			res = p.word.forward(p, dst, start.words[0], goal, prof)
			p.path |= pathWord
			peak = max(peak, p.held(len(p.word.nodes), nil))
		}
	} else {
		done := false
		if delayed && p.d.words > 1 {
			res, done = p.delayed.forwardWide(p, dst, start.words, goal, prof)
			p.path |= pathDelayedForwardWide
			peak = p.fastPeak(done, len(p.delayed.wideNodes))
		}
		if !done {
			res = p.forward(dst, start.words, goal, prof, *opt)
			p.path |= pathForward
			peak = max(peak, p.held(len(p.nodes), opt.Trace))
		}
	}
	p.work = p.spent + p.estWork + res.Expanded*p.perExpansion + res.Generated*p.perSuccessor
	p.ctx = nil // a pooled planner outlives the request
	res.Stats = search.Stats{Expanded: int64(res.Expanded), Generated: int64(res.Generated), Work: int64(p.work), PeakBytes: peak}
	if res.Status == Found {
		res.Stats.Depth = int64(len(res.Plan) - len(dst))
	}
	if res.Status == LimitReached {
		err = &SearchError{Goal: goal.name, Status: res.Status, Bound: res.Bound, Limit: p.limit(res.Bound, opt.MaxDepth), Result: res}
	}
	if opt.Trace != nil {
		opt.Trace.Status, opt.Trace.Bound = res.Status, res.Bound
		opt.Trace.Cost = res.Cost
	}
	return res, err
}

// fastPeak is the bytes a fast search held at its end, with nodes nodes
// when done; when it handed over, what it held then (its storage is gone).
func (p *Planner) fastPeak(done bool, nodes int) int64 {
	if !done {
		return p.handedPeak
	}
	return p.held(nodes, nil)
}

// searchPath is a set of the search paths a search took: one, or a
// delayed search and the general one it handed over to.
type searchPath uint8

const (
	pathForward searchPath = 1 << iota
	pathBackward
	pathWord
	pathDense
	pathHash32
	pathHash64
	pathDelayedForwardWide
	pathDelayedBackward
)

// prepareEstimates fills the estimate tables of a search: the goal count
// by number of wrong facts, in the costs' units and, when they are whole
// once scaled, in the scaled units (zero for Blind); and GoalCost's groups
// of facts (none for the other heuristics). Forward, they depend on the
// goal, the profile and the heuristic only; backward, GoalCost's groups
// depend on the start too. The planner keeps the tables of the last few
// of those (estimates.go), so that an agent that replans one goal, or
// cycles through a few, pays for each goal's tables once.
//
// Forward, the facts grouped are the goal's, each needing its goal value;
// backward, any fact of a partial state may be wrong in the start, and then
// needs the value the start does not have.
func (p *Planner) prepareEstimates(opt Options, start []uint64, goal *Goal, prof *Profile) {
	forward := opt.Search == Forward
	key := estimateKey{goal: goal, prof: prof, heur: opt.Heuristic, forward: forward}
	startBound := estimatesDependOnStart(opt)
	if p.useCachedEstimates(key, start, startBound) {
		return
	}
	n, per := goal.cond.Len(), goal.mostFixed()
	if !forward {
		n, per = len(p.d.facts), prof.maxEffects
	}
	blind := opt.Heuristic == Blind
	p.byUnmet, p.hOf = p.byUnmet[:0], p.hOf[:0]
	for u := 0; u <= n; u++ {
		h := countBound(u, per, prof.minCost)
		if blind {
			h = 0
		}
		p.byUnmet = append(p.byUnmet, h)
		p.hOf = append(p.hOf, int(h*prof.costScale))
	}
	copy(p.hOfWord[:], p.hOf)
	p.chain.clear()
	p.levels.clear()
	switch {
	case opt.Heuristic != GoalCost:
	case forward:
		p.chain.build(p.d, goal, prof)
	default:
		p.levels.buildBackward(start, prof, countBound(1, per, prof.minCost), prof.costScale)
	}
	p.worstEstimate = p.chain.worst + len(p.levels.word)
	p.est = key
	p.estimates.start = p.estimates.start[:0]
	if startBound {
		p.estimates.start = append(p.estimates.start, start...)
	}
	// A new epoch: denseSearch.forward's kept estimates, in the table the
	// planner now holds, were made under other tables.
	p.newEstimateEpoch()
}

// estimateKey is what a search's estimate tables were made for.
type estimateKey struct {
	goal    *Goal
	prof    *Profile
	heur    Heuristic
	forward bool
}

// reset prepares the arena for a search over keys of width words.
func (p *Planner) reset(width int) {
	p.tab.Reset(width)
	p.nodes = p.nodes[:0]
	p.open.Reset()
}

// addNode records a path of cost g and the given depth to interned state id,
// unless a known path dominates it, and returns the new node's index, or -1.
// Without a depth limit a state has one live node, its cheapest, and a path
// is dominated by any at most as dear. With a limit, a state keeps every
// Pareto-optimal (cost, depth) path, so that a dear but short path is not
// lost to a cheap long one that the limit will cut; a path is dominated by
// one at most as dear and at most as deep.
func (p *Planner) addNode(id int32, in *stateInfo, added bool, n node, limitDepth bool) int32 {
	idx := int32(len(p.nodes))
	n.state = id
	n.next = -1
	if added {
		*in = stateInfo{g: n.g, head: idx}
		p.nodes = append(p.nodes, n)
		return idx
	}
	if !limitDepth {
		if in.g <= n.g {
			return -1
		}
		p.nodes[in.head].dead = true // its open-list entry is now stale
		in.g, in.head = n.g, idx
		p.nodes = append(p.nodes, n)
		return idx
	}
	prevLive := int32(-1)
	for i := in.head; i >= 0; {
		old := &p.nodes[i]
		if old.g <= n.g && old.depth <= n.depth {
			return -1
		}
		next := old.next
		if n.g <= old.g && n.depth <= old.depth {
			old.dead = true
			if prevLive < 0 {
				in.head = next
			} else {
				p.nodes[prevLive].next = next
			}
		} else {
			prevLive = i
		}
		i = next
	}
	n.next = in.head
	in.head = idx
	p.nodes = append(p.nodes, n)
	return idx
}

// settle decides what to do with a node taken from the open list: if it
// meets the goal the search is over (found, with the plan appended from
// node i); if a limit is reached, over too; otherwise it is expanded and
// counted. It reports whether the search is over.
func (p *Planner) settle(res *Result, dst []ActionID, i int32, g float64, atGoal, backwards bool, m *meter, tr *Trace) bool {
	if atGoal {
		res.Status = Found
		res.Cost = g
		res.Plan = appendPath(dst, p.nodes, i, backwards)
		if tr != nil {
			tr.Goal = i
		}
		return true
	}
	if m.over(res, len(p.nodes)) || tr != nil && m.traceOver(res, len(p.nodes), tr) {
		return true
	}
	res.Expanded++
	if tr != nil {
		tr.beginExpansion(i)
	}
	return false
}

func (n *node) link() (int32, ActionID) { return n.parent, n.action }
