package resolver

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"github.com/ploy-ai/ploy/internal/pq"
	"github.com/ploy-ai/ploy/search"
)

// Status is how a resolve ended: search.Status, shared by every planner.
// Its zero value is NotSearched.
type Status = search.Status

// Bound names the limit that stopped a resolve: search.Budget (chains
// expanded), search.Work, search.Depth, search.Canceled or
// search.Deadline.
type Bound = search.Bound

const (
	// Found: Result.Chain is a least-cost chain (empty if the goal holds).
	Found = search.Found
	// NoPlan: no chain of capable actions reaches an action whose
	// conditions all hold now.
	NoPlan = search.NoPlan
	// LimitReached: a limit stopped the resolve first: the node budget,
	// the work limit, the depth limit (only longer chains could exist) or
	// Options.Context; Result.Bound says which.
	LimitReached = search.LimitReached

	// Deprecated: BudgetExhausted is LimitReached with Result.Bound
	// search.Budget or search.Work.
	BudgetExhausted = search.LimitReached
	// Deprecated: DepthExceeded is LimitReached with Result.Bound
	// search.Depth; it no longer differs from BudgetExhausted, so compare
	// Bound.
	DepthExceeded = search.LimitReached
	// Deprecated: Canceled is LimitReached with Result.Bound
	// search.Canceled or search.Deadline.
	Canceled = search.LimitReached
)

// StatusName returns the name ploy's JSON and text outputs give a
// resolve's outcome, as they have since before the shared search.Status:
// "found", "no_plan", "budget_exhausted", "depth_exceeded" or "canceled".
func StatusName(s Status, b Bound) string {
	if s != LimitReached {
		return s.String()
	}
	switch b {
	case search.Depth:
		return "depth_exceeded"
	case search.Canceled, search.Deadline:
		return "canceled"
	}
	return "budget_exhausted"
}

// outcome is how one run of the search ended.
type outcome uint8

const (
	ranOutOfChains outcome = iota // NoPlan
	foundChain
	outOfBudget // the node budget or the work limit
	tooDeep     // the depth limit cut a chain short and none was found
	stopped     // Options.Context is done
	suspended   // the slice given to Continue is spent; the search goes on at the next call
)

// contextCheckWork is how much work a resolve does between two looks at
// Options.Context: a look costs a few nanoseconds, so that looking is free
// and a canceled resolve stops within microseconds.
const contextCheckWork = 4096

// Limits that apply when Options leave them zero. A chain is short by
// nature (a survivor's is two or three actions; past a handful nobody can
// predict what the character will do), and a resolve runs inside a
// per-frame budget: the frame's cost is resolves per frame times the node
// budget, so both are small.
const (
	// DefaultBudget is the most chains expanded in one resolve.
	DefaultBudget = 1024
	// DefaultMaxDepth is the longest chain considered.
	DefaultMaxDepth = 8
	// DefaultMaxWork bounds the conditions evaluated and actions
	// considered in one search, and so its memory: a search holds at most
	// one node (32 bytes) and one open-list entry (24 bytes) per unit of
	// work, plus the goal's: 56 MiB at the default, before the slack of
	// growing arrays.
	DefaultMaxWork = 1 << 20
	// MaxWorkLimit is the largest work limit a resolve honours: a larger
	// Options.MaxWork is lowered to it, since nodes are numbered in 32 bits.
	MaxWorkLimit = 1 << 30
)

// Sentinel errors, for errors.Is on a resolve's error: the search
// package's, goap's too, so errors.Is(err, search.ErrLimit) matches every
// planner's limits.
var (
	ErrBudgetExhausted = search.ErrBudgetExhausted
	ErrDepthExceeded   = search.ErrDepthExceeded
)

// SearchError reports a resolve that ended without an answer because a
// limit ran out, naming the goal. errors.Is matches ErrBudgetExhausted or
// ErrDepthExceeded, and search.ErrLimit; errors.As finds a
// *search.LimitError.
type SearchError struct {
	Goal   string
	Status Status // LimitReached
	Bound  Bound  // search.Budget, search.Work or search.Depth
	Work   bool   // the work limit rather than the node budget (Bound search.Work)
	Limit  int
}

func (e *SearchError) Error() string {
	switch {
	case e.Bound == search.Depth:
		return fmt.Sprintf("resolver: goal %q: no chain of at most %d actions", e.Goal, e.Limit)
	case e.Work:
		return fmt.Sprintf("resolver: goal %q: work limit of %d reached", e.Goal, e.Limit)
	}
	return fmt.Sprintf("resolver: goal %q: node budget of %d exhausted", e.Goal, e.Limit)
}

func (e *SearchError) Unwrap() error {
	sentinel := ErrBudgetExhausted
	if e.Bound == search.Depth {
		sentinel = ErrDepthExceeded
	}
	return &search.LimitError{Planner: "resolver", Goal: e.Goal, Bound: e.Bound, Limit: int64(e.Limit), Err: sentinel}
}

// canceledError reports a resolve stopped by its context: errors.Is
// matches the context's error and search.ErrLimit.
type canceledError struct {
	goal string
	err  error // the context's
}

func (e *canceledError) Error() string {
	return fmt.Sprintf("resolver: goal %q: stopped: %v", e.goal, e.err)
}

func (e *canceledError) Unwrap() []error {
	return []error{e.err, &search.LimitError{Planner: "resolver", Goal: e.goal, Bound: search.ContextBound(e.err)}}
}

// Options tune one resolve. The zero value uses the agent's whole domain,
// the default limits, straight-line distances and no trace.
type Options struct {
	Profile *Profile // capabilities and cost overrides; nil: the domain as built
	// Limits bound the resolve (a value past an int's range is taken as
	// the largest int):
	//
	//   - Budget: most chains expanded; 0 means DefaultBudget.
	//   - MaxDepth: longest chain; 0 means DefaultMaxDepth.
	//   - MaxWork: conditions evaluated and actions considered; 0 means
	//     DefaultMaxWork; at most MaxWorkLimit.
	//
	// MaxBytes and MaxSteps do not apply: the work bounds a resolve's
	// memory (see DefaultMaxWork). A non-zero field here wins over the
	// deprecated field of the same name below.
	Limits search.Limits
	// Deprecated: use Limits.Budget, which wins when both are set.
	Budget int
	// Deprecated: use Limits.MaxDepth, which wins when both are set.
	MaxDepth int
	// Deprecated: use Limits.MaxWork, which wins when both are set.
	MaxWork  int
	Distance DistanceModel // nil means StraightLine
	Trace    *Trace        // if not nil, records what was turned down and why
	// Context, if not nil, stops the resolve when it is done: it is looked
	// at before the first expansion and every contextCheckWork units of
	// work, and the resolve ends with Status LimitReached, Bound
	// search.Canceled or search.Deadline, and an error that wraps the
	// context's (errors.Is(err, context.Canceled)). Nil costs
	// nothing.
	Context context.Context
}

// Result is what a resolve found, with its statistics.
type Result struct {
	Status Status
	// Bound is the limit that stopped the resolve when Status is
	// LimitReached, search.NoBound otherwise.
	Bound Bound
	// Chain is the plan, head first, appended to the slice passed to
	// Resolve: Chain[0], the head, can run now; each later action is
	// served by the one before it; the last serves the goal.
	Chain []ActionID
	// Cost is the chain's cost: its actions' costs for this agent plus the
	// distance from the agent to the first target and between consecutive
	// targets, times the domain's DistanceCost.
	Cost float64
	// Expanded counts partial chains taken from the open list and
	// extended; Generated counts the partial and complete chains made.
	Expanded, Generated int
	// Stats are the counts every planner shares: Expanded and Generated
	// as above; Work the units counted against Limits.MaxWork (both
	// searches' when the depth limit made a second); PeakBytes the most
	// bytes the chains and their open-list entries took in one search
	// (the resolver has no memory limit: its work bounds them); Depth
	// the chain's length when Found, 0 otherwise.
	Stats search.Stats
}

// label is a partial chain: action in front of the chain of parent, at
// cost g, depth actions long. anchor is the first target the chain visits
// from action on (action's own, or inherited from the chain behind it):
// where the agent must be next, which is all a new front action's
// distance depends on. A terminal label is a complete chain: its action's
// conditions all hold, and g includes the agent's walk to anchor.
type label struct {
	g        float64
	action   ActionID
	anchor   TargetID
	parent   int32
	depth    int32
	next     int32 // the next label with the same (action, anchor)
	dead     bool  // dominated by a later label of the same (action, anchor)
	terminal bool
}

// Resolver chains backwards from goals over one domain's action graph. It
// owns its open list and node arena and reuses them: once warm, an
// untraced resolve allocates nothing. A Resolver is not safe for concurrent
// use; give each goroutine its own, sharing the Domain.
type Resolver struct {
	d      *Domain
	labels []label
	open   pq.Queue
	// Per action the newest live label with it in front, for dominance
	// (one list for all its anchors, so that a resolver's memory is linear
	// in the actions: a table per (action, anchor) would be their product),
	// the action's cost, whether its conditions hold, and whether this
	// expansion has considered it. Each is valid only where its stamp is
	// current.
	head      []int32
	headStamp []uint32
	cost      []float64
	holds     []bool
	actStamp  []uint32
	seen      []uint32
	epoch     uint32 // this resolve: actStamp
	runEpoch  uint32 // this search (a resolve may make two): headStamp
	expansion uint32 // this expansion: seen
	workSpent bool   // the last search ended at the work limit
	// cur is the resolve under way between Begin and Result: what a
	// search suspended at the end of a slice needs to go on exactly where
	// it stopped. Its open list, chains and dominance lists are the
	// fields above, which nothing touches between two calls.
	cur resolveState
}

// phase is where a resolve is between two calls of Continue.
type phase uint8

const (
	idle      phase = iota // no resolve begun, or its Result taken
	firstRun               // the search within the depth limit
	secondRun              // the depth limit cut a chain: the search without it (see tooDeep)
	ended                  // Result is ready
)

// resolveState is a resolve begun by Begin: its inputs and limits, its
// result so far, and where its search stopped.
type resolveState struct {
	q        query
	goal     *Goal
	phase    phase
	dstLen   int // the caller's chain before the resolve's, for Stats.Depth
	budget   int // the resolve's, over both runs
	maxDepth int
	maxWork  int
	res      Result
	err      error
	// The run under way: its own limits and counts (the second run's go
	// to more, added to res when it ends), and what its loop holds
	// between two expansions.
	runBudget   int
	runDepth    int
	more        Result
	work        int
	nextCheck   int
	depthPruned bool
	// held is the entry taken from the open list when the slice ran out,
	// checked but not yet expanded: the next slice starts with it.
	held    pq.Entry
	hasHeld bool
}

// runResult is where the run under way counts its expansions.
func (st *resolveState) runResult() *Result {
	if st.phase == secondRun {
		return &st.more
	}
	return &st.res
}

// NewResolver returns a resolver for d.
func NewResolver(d *Domain) *Resolver {
	if d == nil {
		panic("resolver: NewResolver of a nil domain")
	}
	n := len(d.actions)
	return &Resolver{
		d:         d,
		head:      make([]int32, n),
		headStamp: make([]uint32, n),
		cost:      make([]float64, n),
		holds:     make([]bool, n),
		actStamp:  make([]uint32, n),
		seen:      make([]uint32, n),
	}
}

// Domain returns the resolver's domain.
func (r *Resolver) Domain() *Domain {
	r.check()
	return r.d
}

// check panics, saying what to call, on a nil or zero Resolver, which has
// no domain to search.
func (r *Resolver) check() {
	if r == nil || r.d == nil {
		panic("resolver: Resolver not made by NewResolver: a nil or zero Resolver has no domain; call resolver.NewResolver(domain)")
	}
}

// nextEpoch starts a resolve, clearing the stamps once in four billion.
func (r *Resolver) nextEpoch() {
	r.epoch++
	if r.epoch == 0 {
		clear(r.actStamp)
		r.epoch = 1
	}
}

// nextRun starts a search.
func (r *Resolver) nextRun() {
	r.runEpoch++
	if r.runEpoch == 0 {
		clear(r.headStamp)
		r.runEpoch = 1
	}
}

func (r *Resolver) nextExpansion() {
	r.expansion++
	if r.expansion == 0 {
		clear(r.seen)
		r.expansion = 1
	}
}

// query is one resolve's inputs.
type query struct {
	snap    *Snapshot
	prof    *Profile
	dist    DistanceModel // nil: StraightLine
	perUnit float64
	tr      *Trace
	ctx     context.Context // nil: none
	ctxErr  error           // the context's, once it stopped the search
}

// distance is the cost of getting from one position to another: the
// model's distance times the domain's DistanceCost, +Inf when the model
// finds no way (or the product passes the float range). A NaN or negative
// distance breaks the model's contract, and would make the chain's cost
// meaningless: it panics, as a cost function's bad cost does.
func (s *query) distance(from, to Point) float64 {
	if s.dist == nil { // StraightLine, called directly rather than through the interface
		return s.perUnit * straight(from, to)
	}
	d := s.dist.Distance(from, to)
	if !(d >= 0) {
		panic(fmt.Sprintf("resolver: distance model %T returned %g from %v to %v; a distance is not negative (+Inf: no way there)", s.dist, d, from, to))
	}
	return s.perUnit * d
}

// Resolve finds a least-cost chain for goal from the agent's snapshot,
// appending it to dst.
//
// The chain is built backwards from the goal through the action graph.
// Conditions are evaluated against the snapshot, never simulated forward:
// a condition unmet now is served by an action with an effect in its
// direction, whose own unmet conditions are served in turn, until an
// action whose conditions all hold now: the head. Each action in the chain
// serves one unmet condition of the action after it (or of the goal),
// whichever gives the cheapest chain; its other unmet conditions are left
// for later resolves, since only the head is committed and running it
// changes the world (a chain, not a tree: see docs/background.md). An action appears in
// a chain at most once.
//
// The cost of a chain is its actions' costs for this agent plus, times the
// domain's DistanceCost, the distance from the agent to the first target
// the chain visits and between consecutive targets; an action without a
// target happens where the agent then is. The search is Dijkstra's over
// partial chains, keyed by their front action and the next target they
// visit (all that their extension's cost depends on), and keeping every
// chain not beaten in both cost and length, so that the depth limit
// cannot hide a cheaper chain: with positive costs and a distance that
// obeys the triangle inequality the chain returned is least-cost among
// all chains within the limits, which an oracle test checks against
// enumeration. Ties go to the chain completed first. A chain without a
// finite cost (the distance model found no way, +Inf, or the cost passes
// the float range) is no chain: the trace says Unreachable.
//
// A goal that holds already gives Found with an empty chain. Spent limits
// give a *SearchError naming the goal; no chain is NoPlan with a nil error.
// Resolve panics on a snapshot, goal or profile of another domain, a
// negative limit, a cost function's cost that is not positive and at most
// MaxCost, or a distance that is NaN or negative.
func (r *Resolver) Resolve(dst []ActionID, snap *Snapshot, goal *Goal, opt Options) (Result, error) {
	r.Begin(dst, snap, goal, opt)
	r.Continue(math.MaxInt)
	return r.Result()
}

// Begin starts a resolve of goal from snap, as Resolve's, that Continue
// carries out a slice at a time: a search that must fit in a frame's
// budget expands a slice of chains per frame and goes on in the next
// frame exactly where it stopped, its open list, chains and counts kept
// in the Resolver. Result then returns exactly what Resolve would have:
// the same chain, cost, status, error and statistics (Expanded,
// Generated, Work, PeakBytes, Depth), and the same Trace, however the
// search was sliced. Options.Context is looked at as each slice starts,
// so a context done between two slices stops the resolve before its next
// expansion.
//
// The snapshot, goal, profile, distance model and trace must not change
// until Result has been called: the search reads them at every slice.
// Begin abandons a resolve that has not ended (Abandon drops one without
// starting another). It panics as Resolve does.
func (r *Resolver) Begin(dst []ActionID, snap *Snapshot, goal *Goal, opt Options) {
	r.check()
	d := r.d
	d.checkSnapshot(snap)
	if goal == nil || goal.domain != d {
		panic(fmt.Sprintf("resolver: goal is nil or of another domain than %q", d.name))
	}
	if opt.Profile != nil && opt.Profile.domain != d {
		panic(fmt.Sprintf("resolver: profile of another domain than %q", d.name))
	}
	lim := opt.Limits.Or(search.Limits{Budget: int64(opt.Budget), MaxDepth: int64(opt.MaxDepth), MaxWork: int64(opt.MaxWork)})
	budget, maxDepth, maxWork := search.ClampInt(lim.Budget), search.ClampInt(lim.MaxDepth), search.ClampInt(lim.MaxWork)
	if budget < 0 || maxDepth < 0 || maxWork < 0 {
		panic(fmt.Sprintf("resolver: negative limit in Options (Budget %d, MaxDepth %d, MaxWork %d)", budget, maxDepth, maxWork))
	}
	if budget == 0 {
		budget = DefaultBudget
	}
	if maxDepth == 0 {
		maxDepth = DefaultMaxDepth
	}
	if maxWork == 0 {
		maxWork = DefaultMaxWork
	}
	maxWork = min(maxWork, MaxWorkLimit)
	st := &r.cur
	*st = resolveState{
		q:      query{snap: snap, prof: opt.Profile, dist: opt.Distance, perUnit: d.distanceCost, tr: opt.Trace, ctx: opt.Context},
		goal:   goal,
		dstLen: len(dst),
		budget: budget, maxDepth: maxDepth, maxWork: maxWork,
		res: Result{Chain: dst},
	}
	if st.q.tr != nil {
		st.q.tr.reset(d, goal)
	}
	r.nextEpoch()

	satisfied := true
	for i := range goal.conds {
		if !goal.conds[i].holds(snap.Values) {
			satisfied = false
			break
		}
	}
	if satisfied {
		st.res.Status, st.phase = Found, ended
		return
	}
	st.phase = firstRun
	r.startRun(st, budget, maxDepth)
}

// Continue goes on with the resolve Begin started, expanding at most
// expansions more chains, and reports whether the resolve has ended
// (Result is then ready). A resolve of node budget B ends within
// ⌈B / expansions⌉ calls: every call but the last expands exactly
// expansions chains, and a call made after the resolve ended returns true
// at once. It panics on expansions below 1, or without a resolve begun.
func (r *Resolver) Continue(expansions int) bool {
	r.check()
	st := &r.cur
	if st.phase == idle {
		panic("resolver: Continue without a resolve begun: call Begin first")
	}
	if expansions < 1 {
		panic(fmt.Sprintf("resolver: Continue(%d): a slice expands at least one chain", expansions))
	}
	if st.q.ctx != nil {
		// The context may have been done between two slices: look at it
		// before the next expansion rather than contextCheckWork later.
		st.nextCheck = min(st.nextCheck, st.work)
	}
	left := expansions
	for st.phase != ended {
		li, out := r.run(st, &left)
		if out == suspended {
			return false
		}
		r.endRun(st, li, out)
	}
	return true
}

// Result returns the outcome of the resolve that Continue reported ended,
// and lets go of its snapshot, goal and options. It panics if the
// resolve has not ended.
func (r *Resolver) Result() (Result, error) {
	r.check()
	st := &r.cur
	if st.phase != ended {
		panic("resolver: Result before the resolve ended: call Continue until it returns true")
	}
	res, err := st.res, st.err
	res.countStats(st.dstLen)
	*st = resolveState{}
	return res, err
}

// Abandon drops the resolve under way, if any, with its references to
// the snapshot, goal and options; the resolver's storage stays for the
// next. A game abandons a suspended search it no longer wants (its agent
// left) so that the search keeps nothing of it alive.
func (r *Resolver) Abandon() {
	r.check()
	r.cur = resolveState{}
}

// Bytes returns the memory the resolver holds: its tables of one entry
// per action, and its chains and open list as far as they have grown. A
// suspended resolve holds it until it ends: a game that keeps searches
// across frames holds this much per search it keeps.
func (r *Resolver) Bytes() int64 {
	r.check()
	tables := 4*(cap(r.head)+cap(r.headStamp)+cap(r.actStamp)+cap(r.seen)) + 8*cap(r.cost) + cap(r.holds)
	return int64(tables) + int64(cap(r.labels))*int64(unsafe.Sizeof(label{})) + int64(r.open.Cap())*int64(unsafe.Sizeof(pq.Entry{}))
}

// Suspended reports whether a resolve has been begun and has not ended.
func (r *Resolver) Suspended() bool {
	return r != nil && (r.cur.phase == firstRun || r.cur.phase == secondRun)
}

// endRun takes a run's outcome into the resolve's result: the end of the
// resolve, or the start of the second run.
func (r *Resolver) endRun(st *resolveState, li int32, out outcome) {
	if st.phase == secondRun {
		r.endSecondRun(st, out)
		return
	}
	res, s, goal := &st.res, &st.q, st.goal
	st.phase = ended
	switch out {
	case foundChain:
		res.Status, res.Cost = Found, r.labels[li].g
		for i := li; r.labels[i].action != NoAction; i = r.labels[i].parent {
			res.Chain = append(res.Chain, r.labels[i].action)
		}
		if s.tr != nil {
			s.tr.Chosen = int(li)
		}
	case outOfBudget:
		res.Status, res.Bound = LimitReached, search.Budget
		se := &SearchError{Goal: goal.name, Status: LimitReached, Bound: search.Budget, Limit: st.budget}
		if r.workSpent {
			res.Bound = search.Work
			se.Bound, se.Work, se.Limit = search.Work, true, st.maxWork
		}
		st.err = se
	case stopped:
		res.Status, res.Bound = LimitReached, search.ContextBound(s.ctxErr)
		st.err = &canceledError{goal.name, s.ctxErr}
	case tooDeep:
		// The limit cut some chain short: search again without it (a chain
		// repeats no action, so none is longer than the domain's actions)
		// on what is left of the budget, to tell "only longer chains" from
		// "no chain at all". Only this failure pays for it.
		s.tr = nil
		st.phase = secondRun
		r.startRun(st, st.budget-res.Expanded, len(r.d.actions))
	default:
		res.Status = NoPlan
	}
}

// endSecondRun adds the second run's counts to the resolve's and says
// what the run told: no chain at all, or only longer ones.
func (r *Resolver) endSecondRun(st *resolveState, out outcome) {
	res, more := &st.res, &st.more
	res.Expanded += more.Expanded
	res.Generated += more.Generated
	res.Stats.Work += more.Stats.Work
	res.Stats.PeakBytes = max(res.Stats.PeakBytes, more.Stats.PeakBytes)
	st.phase = ended
	switch out {
	case ranOutOfChains:
		res.Status = NoPlan
	case stopped:
		res.Status, res.Bound = LimitReached, search.ContextBound(st.q.ctxErr)
		st.err = &canceledError{st.goal.name, st.q.ctxErr}
	default:
		res.Status, res.Bound = LimitReached, search.Depth
		st.err = &SearchError{Goal: st.goal.name, Status: LimitReached, Bound: search.Depth, Limit: st.maxDepth}
	}
}

// startRun starts a run of the search within budget expansions and
// chains of at most maxDepth actions: the open list holds the goal alone.
func (r *Resolver) startRun(st *resolveState, budget, maxDepth int) {
	r.nextRun()
	r.labels = append(r.labels[:0], label{action: NoAction, anchor: NoTarget, parent: -1})
	if st.q.tr != nil {
		st.q.tr.addNode(r.labels[0])
	}
	r.open.Reset()
	r.open.Push(pq.Entry{F: 0, H: 1, Node: 0})
	st.runBudget, st.runDepth = budget, maxDepth
	st.work, st.nextCheck, st.depthPruned, st.hasHeld = 0, 0, false, false
}

// run goes on with the run under way, Dijkstra's search over partial
// chains within the limits, until it ends or *left more chains have been
// expanded. It returns the complete chain's label and foundChain, how it
// failed, or suspended: the next call goes on with the entry it had
// taken from the open list, whose checks have passed and which nothing
// changes in between.
func (r *Resolver) run(st *resolveState, left *int) (int32, outcome) {
	d := r.d
	s, goal, res := &st.q, st.goal, st.runResult()
	budget, maxDepth, maxWork := st.runBudget, st.runDepth, st.maxWork
	work, nextCheck := st.work, st.nextCheck
	for st.hasHeld || r.open.Len() > 0 {
		var e pq.Entry
		if st.hasHeld {
			e, st.hasHeld = st.held, false
		} else {
			e = r.open.Pop()
		}
		li := e.Node
		l := r.labels[li]
		if l.dead {
			continue
		}
		if l.terminal {
			r.spent(res, work)
			return li, foundChain
		}
		if res.Expanded >= budget || work > maxWork {
			r.workSpent = res.Expanded < budget
			r.spent(res, work)
			return -1, outOfBudget
		}
		if *left == 0 {
			st.held, st.hasHeld = e, true
			st.work, st.nextCheck = work, nextCheck
			return -1, suspended
		}
		if s.ctx != nil && work >= nextCheck {
			if s.ctxErr = s.ctx.Err(); s.ctxErr != nil {
				r.spent(res, work)
				return -1, stopped
			}
			nextCheck = work + contextCheckWork
		}
		*left--
		res.Expanded++
		if s.tr != nil {
			s.tr.Expanded = append(s.tr.Expanded, int(li))
		}
		r.nextExpansion()
		conds := goal.conds
		if l.action != NoAction {
			conds = d.actions[l.action].conds
		}
		for ci := range conds {
			c := &conds[ci]
			work++
			if c.holds(s.snap.Values) {
				continue
			}
			for _, a := range c.servers {
				work++
				// Checked per action, not per expansion: one expansion of
				// a wide graph could otherwise make a node per action past
				// the limit, which would then bound no memory.
				if work > maxWork {
					r.workSpent = true
					r.spent(res, work)
					return -1, outOfBudget
				}
				if r.seen[a] == r.expansion {
					continue // it serves an earlier unmet condition here too
				}
				r.seen[a] = r.expansion
				if r.consider(s, li, a, ci, maxDepth, res, &work) == TooDeep {
					st.depthPruned = true
				}
			}
		}
	}
	r.spent(res, work)
	if st.depthPruned {
		return -1, tooDeep
	}
	return -1, ranOutOfChains
}

// countStats fills the Stats a run does not (spent does): the Result's own
// counters, and the chain's length past the dst's it was appended to.
func (res *Result) countStats(dst int) {
	res.Stats.Expanded, res.Stats.Generated = int64(res.Expanded), int64(res.Generated)
	if res.Status == Found {
		res.Stats.Depth = int64(len(res.Chain) - dst)
	}
}

// spent adds what a run of the search spent to res.Stats: its work, and
// its chains' bytes with their open-list entries' (one each at most: a
// chain is queued once), as the larger of that and an earlier run's.
func (r *Resolver) spent(res *Result, work int) {
	res.Stats.Work += int64(work)
	res.Stats.PeakBytes = max(res.Stats.PeakBytes, int64(len(r.labels))*labelBytes)
}

// labelBytes is what a chain holds in the resolver's arena and open list.
const labelBytes = int64(unsafe.Sizeof(label{}) + unsafe.Sizeof(pq.Entry{}))

// consider puts action a in front of the partial chain li, serving its
// condition ci, and returns what became of it.
func (r *Resolver) consider(s *query, li int32, a ActionID, ci int, maxDepth int, res *Result, work *int) Reason {
	d := r.d
	act := &d.actions[a]
	l := r.labels[li]
	reason := Reason(0)
	switch {
	case s.prof != nil && !s.prof.Capable(a):
		reason = NotCapable
	case act.target != NoTarget && !s.snap.Targets[act.target].Found:
		reason = NoTargetFound
	case r.inChain(li, a, work):
		reason = InChain
	case int(l.depth)+1 > maxDepth:
		reason = TooDeep
	}
	if reason != 0 {
		if s.tr != nil {
			s.tr.consider(li, a, ci, reason, nil, 0)
		}
		return reason
	}
	r.prepare(s, a, work)
	g := l.g + r.cost[a]
	anchor := l.anchor
	if act.target != NoTarget {
		if anchor != NoTarget {
			g += s.distance(s.snap.Targets[act.target].At, s.snap.Targets[anchor].At)
		}
		anchor = act.target
	}
	depth := l.depth + 1
	if r.holds[a] && anchor != NoTarget {
		g += s.distance(s.snap.At, s.snap.Targets[anchor].At)
	}
	if g > math.MaxFloat64 {
		// An infinite distance (no path), or a cost past the float range:
		// no chain through here has a cost to compare, so none exists.
		// Costs only grow along a chain, so nothing is lost by not
		// extending it.
		if s.tr != nil {
			s.tr.consider(li, a, ci, Unreachable, nil, 0)
		}
		return Unreachable
	}
	if r.holds[a] {
		r.push(s, label{g: g, action: a, anchor: anchor, parent: li, depth: depth, next: -1, terminal: true}, 0)
		res.Generated++
		if s.tr != nil {
			s.tr.consider(li, a, ci, Candidate, nil, g)
		}
		return Candidate
	}
	reason = ConditionsUnmet
	if r.dominated(a, anchor, g, depth, work) {
		reason = NotCheaper
	} else {
		idx := r.push(s, label{g: g, action: a, anchor: anchor, parent: li, depth: depth, next: r.headOf(a)}, 1)
		r.head[a] = idx
		res.Generated++
	}
	if s.tr != nil {
		s.tr.consider(li, a, ci, reason, r.unmet(s, a), g)
	}
	return reason
}

func (r *Resolver) push(s *query, l label, h float64) int32 {
	idx := int32(len(r.labels))
	r.labels = append(r.labels, l)
	r.open.Push(pq.Entry{F: l.g, H: h, Node: idx})
	if s.tr != nil {
		s.tr.addNode(l)
	}
	return idx
}

// headOf returns the newest live label with a in front in this search, or
// -1.
func (r *Resolver) headOf(a ActionID) int32 {
	if r.headStamp[a] != r.runEpoch {
		r.headStamp[a] = r.runEpoch
		r.head[a] = -1
	}
	return r.head[a]
}

// dominated reports whether a live label with a in front and the same
// anchor is no dearer and no longer than (g, depth); otherwise it marks
// the labels the new one beats in both as dead. Keeping every label beaten
// in only one of the two is what keeps the least-cost chain within the
// depth limit. Dead labels leave a's list as the walk meets them, so that
// it holds only Pareto sets; each step is a unit of work.
func (r *Resolver) dominated(a ActionID, anchor TargetID, g float64, depth int32, work *int) bool {
	prev := int32(-1)
	for i := r.headOf(a); i >= 0; i = r.labels[i].next {
		*work++
		o := &r.labels[i]
		switch {
		case o.dead:
			r.unlink(a, prev, o.next)
			continue
		case o.anchor != anchor:
		case o.g <= g && o.depth <= depth:
			return true
		case g <= o.g && depth <= o.depth:
			o.dead = true
			r.unlink(a, prev, o.next)
			continue
		}
		prev = i
	}
	return false
}

// unlink removes the label after prev (the head when prev is -1) from
// a's list.
func (r *Resolver) unlink(a ActionID, prev, next int32) {
	if prev < 0 {
		r.head[a] = next
	} else {
		r.labels[prev].next = next
	}
}

// inChain reports whether a is already in the partial chain li.
func (r *Resolver) inChain(li int32, a ActionID, work *int) bool {
	for i := li; i > 0; i = r.labels[i].parent {
		*work++
		if r.labels[i].action == a {
			return true
		}
	}
	return false
}

// prepare computes, once per resolve, action a's cost for this agent and
// whether its conditions all hold.
func (r *Resolver) prepare(s *query, a ActionID, work *int) {
	if r.actStamp[a] == r.epoch {
		return
	}
	r.actStamp[a] = r.epoch
	act := &r.d.actions[a]
	r.cost[a] = actionCost(act, a, s.prof, s.snap)
	holds := true
	for i := range act.conds {
		*work++
		if !act.conds[i].holds(s.snap.Values) {
			holds = false
			break
		}
	}
	r.holds[a] = holds
}

// actionCost is action a's cost for an agent of profile prof (nil: the
// domain as built) in snapshot snap: the profile's override, else its cost
// function's, else its fixed cost.
func actionCost(act *action, a ActionID, prof *Profile, snap *Snapshot) float64 {
	switch {
	case prof != nil && !math.IsNaN(prof.costs[a]):
		return prof.costs[a]
	case act.costFunc != nil:
		c := act.costFunc(snap)
		if !(c > 0) || c > MaxCost {
			panic(fmt.Sprintf("resolver: action %q's cost function returned %g; costs must be positive and at most %g", act.name, c, float64(MaxCost)))
		}
		return c
	}
	return act.cost
}

// unmet lists action a's conditions that do not hold, for the trace.
func (r *Resolver) unmet(s *query, a ActionID) []int {
	var out []int
	for i := range r.d.actions[a].conds {
		if !r.d.actions[a].conds[i].holds(s.snap.Values) {
			out = append(out, i)
		}
	}
	return out
}
