package goap

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/ploy-ai/ploy/search"
)

// DefaultMaxBytes is the memory ceiling of a search whose Options leave
// MaxBytes zero: 256 MiB of node arena, state table, open list, queued
// duplicates and trace.
//
// Deprecated: it is search.DefaultMaxBytes, every planner's default.
const DefaultMaxBytes = search.DefaultMaxBytes

// DefaultMaxWork is the work limit of a search whose Options leave MaxWork
// zero. A unit of work is one word of state read while testing an action,
// or one word of a successor written (see Options.MaxWork): a few
// nanoseconds at most, so that the default ends any search within a few
// seconds (2.5 s for 100 000 actions over 32 facts on the machine the
// figures in docs/performance.md come from).
const DefaultMaxWork = 1 << 28

// MaxCost is the largest cost an action may have. A search holds fewer than
// 2^31 nodes (they are numbered by int32), so a plan has fewer than 2^31
// steps, and an estimate adds up fewer than 2^32 costs (h_max chains at most
// one operator per literal, two literals per fact, fewer than 2^31 facts):
// sums of at most 2^33 costs of at most 1e290 stay below 1e300, finite.
const MaxCost = 1e290

// Bound names the limit that ended a search without an answer:
// search.Bound, shared by every planner. Its zero value is NoBound.
type Bound = search.Bound

const (
	// NoBound: the search was not stopped by a limit.
	NoBound = search.NoBound
	// BoundStates: Options.Budget states were expanded.
	BoundStates = search.Budget
	// BoundBytes: the next expansion could take the search's memory past
	// Options.MaxBytes.
	BoundBytes = search.Bytes
	// BoundWork: the next expansion could take the search's work past
	// Options.MaxWork.
	BoundWork = search.Work
	// BoundDepth: only plans longer than Options.MaxDepth could exist.
	BoundDepth = search.Depth
	// BoundCanceled: Options.Context was canceled (its client went away).
	BoundCanceled = search.Canceled
	// BoundDeadline: Options.Context's deadline passed.
	BoundDeadline = search.Deadline
)

// contextCheckWork is how much work a search does between two looks at
// Options.Context: a few microseconds, so that a canceled search stops
// within about that of the cancellation (plus one expansion), while the
// look, a few nanoseconds, costs nothing measurable.
const contextCheckWork = 4096

// maxNodes keeps node indices, which are int32, from overflowing, whatever
// the memory ceiling.
const maxNodes = math.MaxInt32

// meter holds a search's limits in the units its loop counts, so that the
// test before each expansion is a few comparisons:
//
//   - states: res.Expanded against budget;
//   - bytes: the number of nodes against nodeCap, the most nodes after which
//     the worst expansion (every action or cost case making a successor)
//     still fits under the ceiling, at the path's bytes per node;
//   - work: perExpansion per expansion plus perSuccessor per successor
//     generated, against workCap, the most after which the worst expansion
//     still fits under the limit.
type meter struct {
	budget, maxBytes, maxWork int
	nodeCap                   int
	perExpansion              int
	perSuccessor              int
	workCap                   int
	// spent is the work of a delayed search that handed over to the one
	// this meter bounds: the two together stay within the limit.
	spent int
	// est is the planner's count of its estimates' work (GoalCost's),
	// which the search adds to as it goes.
	est *int
	// For a traced search, whose trace shares the memory ceiling: bytes per
	// node, and the most bytes an expansion can add, trace included.
	perNode, worstBytes int
	// ctx is Options.Context, nil when there is none; the search looks at
	// it once its work passes nextCheck. stop is the lesser of workCap and
	// nextCheck, so that over's common case stays three comparisons.
	ctx             context.Context
	nextCheck, stop int
	// expandCap is the lesser of budget and the expansion count at which
	// a sliced search (Begin, Continue) pauses, its slicer's pauseAt, so
	// that pausing adds nothing to over's common case; slicer is nil when
	// the search is not sliced. (What only a sliced search needs is in
	// its slicer: a meter is made for every search, and each word it
	// grows by costs the battle mage's 300 ns plan about 1 %.)
	expandCap int
	slicer    *slicer
}

// validate panics on options no caller should pass, and returns the
// limits they set.
func (opt *Options) validate() (budget, maxBytes, maxWork int) {
	if opt.Search > Backward {
		panic(fmt.Sprintf("goap: Options.Search is %d, neither Forward nor Backward", opt.Search))
	}
	if opt.Heuristic > Blind {
		panic(fmt.Sprintf("goap: Options.Heuristic is %d, not a heuristic", opt.Heuristic))
	}
	if opt.Budget < 0 || opt.MaxDepth < 0 || opt.MaxBytes < 0 || opt.MaxWork < 0 {
		panic(fmt.Sprintf("goap: negative limit in Options (Budget %d, MaxDepth %d, MaxBytes %d, MaxWork %d)", opt.Budget, opt.MaxDepth, opt.MaxBytes, opt.MaxWork))
	}
	budget, maxBytes, maxWork = opt.Budget, opt.MaxBytes, opt.MaxWork
	if budget == 0 {
		budget = DefaultBudget
	}
	if maxBytes == 0 {
		maxBytes = search.DefaultMaxBytes
	}
	if maxWork == 0 {
		maxWork = DefaultMaxWork
	}
	return budget, maxBytes, maxWork
}

// meter fills m, the meter of one search path: perNode bytes per node
// (everything the path keeps per node, slice slack included), fixed bytes
// whatever the size, at most maxSucc successors per expansion, and the
// work of an expansion and of a successor. It fills the caller's meter
// rather than returning one: a meter is made for every search, and the
// copy of a returned one cost the battle mage's 320 ns plan 2 %.
func (p *Planner) meter(m *meter, perNode, fixed, maxSucc, perExpansion, perSuccessor int) {
	m.budget, m.maxBytes, m.maxWork, m.perExpansion, m.perSuccessor, m.spent, m.est = p.budget, p.maxBytes, p.maxWork, perExpansion, perSuccessor, p.spent, &p.estWork
	m.nodeCap = min((p.maxBytes-fixed)/perNode, maxNodes) - maxSucc
	// An expansion estimates each successor, and the delayed searches the
	// state they take too, and forward evaluates each successor's rule-list
	// cost: room for that at its worst, counted as done.
	m.workCap = p.maxWork - perExpansion - maxSucc*(perSuccessor+p.worstRuleWork) - (maxSucc+1)*p.worstEstimate
	m.stop = m.workCap
	m.ctx, m.nextCheck = nil, 0
	if p.ctx != nil {
		// The first expansion looks (work past nextCheck), so that a
		// search given a context already done stops at once.
		m.ctx, m.nextCheck = p.ctx, m.work(0, 0)-1
		m.stop = min(m.workCap, m.nextCheck)
	}
	m.expandCap, m.slicer = m.budget, nil
	if s := p.slicer; s != nil {
		// A sliced search pauses after what is left of the slice: all of
		// it as a search starts, the rest of it when a delayed search
		// hands over (handOver) and the search starts again.
		m.slicer, s.pauseAt, s.perNode, s.fixed, s.inPlanner = s, s.left, perNode, fixed, false
		m.expandCap = min(m.budget, s.pauseAt)
	}
	p.perExpansion, p.perSuccessor = perExpansion, perSuccessor
	p.nodeBytes, p.fixedBytes = perNode, fixed
	m.perNode = perNode
	m.worstBytes = fixed + maxSucc*perNode
}

// inPlanner tells a sliced search's pauses that its loop grows the
// planner's own node arena, state table and open list (the general
// searches do), not slices of its own: Bytes counts those at their
// capacity, so held, the meter's count of them, would count them twice.
func (m *meter) inPlanner() {
	if m.slicer != nil {
		m.slicer.inPlanner = true
	}
}

// traced adds to m's worst expansion what it adds to a trace of keys
// width words wide: an expansion, edges edges and maxSucc nodes.
func (m *meter) traced(edges, maxSucc, width int) {
	m.worstBytes += 2 * (traceExpansionBytes + edges*traceEdgeBytes + maxSucc*(traceNodeBytes+8*width))
}

// traceOver is over's memory test for a traced search: its nodes and its
// trace, and the worst expansion's share of both.
func (m *meter) traceOver(res *Result, nodes int, tr *Trace) bool {
	if nodes*m.perNode+tr.bytes()+m.worstBytes <= m.maxBytes {
		return false
	}
	res.Status, res.Bound = LimitReached, BoundBytes
	return true
}

// work returns the work done after expanded states and generated successors.
func (m *meter) work(expanded, generated int) int {
	return m.spent + *m.est + expanded*m.perExpansion + generated*m.perSuccessor
}

// over reports whether a search of res's counts and nodes nodes must stop
// before its next expansion; if so it sets res's status and bound. The
// common case, nothing spent and no pause due, costs three comparisons.
// A sliced search pauses here, inside over, when its slice is spent and
// no limit ends it: the loops that call over need not know of slices.
func (m *meter) over(res *Result, nodes int) bool {
	if res.Expanded < m.expandCap && nodes <= m.nodeCap && m.work(res.Expanded, res.Generated) <= m.stop {
		return false
	}
	w := m.work(res.Expanded, res.Generated)
	if res.Expanded >= m.budget || nodes > m.nodeCap || w > m.workCap {
		res.Status = LimitReached
		switch {
		case res.Expanded >= m.budget:
			res.Bound = BoundStates
		case nodes > m.nodeCap:
			res.Bound = BoundBytes
		default:
			res.Bound = BoundWork
		}
		return true
	}
	if m.slicer != nil && res.Expanded >= m.slicer.pauseAt {
		if !m.pause(res.Expanded, nodes) {
			// Abandoned while paused: end the search now, as a
			// canceled one ends, so that its coroutine returns.
			res.Status, res.Bound = LimitReached, BoundCanceled
			return true
		}
		if m.ctx != nil {
			// The context may have been done while the search was
			// paused: look at it before the next expansion, as every
			// slice starts, rather than contextCheckWork later.
			m.nextCheck = min(m.nextCheck, w-1)
		}
	}
	if m.ctx != nil && w > m.nextCheck {
		return m.canceled(res, w)
	}
	return false
}

// pause hands control back to the Continue that ran the slice now spent,
// after expanded states and with nodes nodes, and sets the next pause
// when the next Continue resumes the search. It reports false if the
// search was abandoned instead.
func (m *meter) pause(expanded, nodes int) bool {
	s := m.slicer
	s.expanded = s.handed + expanded
	s.held = int64(nodes+s.delayedNodes)*int64(s.perNode) + int64(s.fixed)
	if s.inPlanner {
		s.held = 0 // Bytes counts the fields the loop grows
	}
	if !s.run.Pause() {
		return false
	}
	s.pauseAt = expanded + min(s.left, math.MaxInt-expanded)
	m.expandCap = min(m.budget, s.pauseAt)
	return true
}

// canceled looks at the search's context, work w having passed
// nextCheck: if it is done the search is over (res gets its status and
// bound); otherwise the next look is contextCheckWork further on.
func (m *meter) canceled(res *Result, w int) bool {
	if m.ctx == nil {
		return false
	}
	if err := m.ctx.Err(); err != nil {
		res.Status, res.Bound = LimitReached, search.ContextBound(err)
		return true
	}
	m.nextCheck = w + contextCheckWork
	m.stop = min(m.workCap, m.nextCheck)
	return false
}

// held returns the bytes a search of the last meter made holds with
// nodes nodes and trace tr (nil: none), as its meter counts them: for
// Result.Stats.PeakBytes.
func (p *Planner) held(nodes int, tr *Trace) int64 {
	n := int64(nodes)*int64(p.nodeBytes) + int64(p.fixedBytes)
	if tr != nil {
		n += int64(tr.bytes())
	}
	return n
}

// limit returns the value of the bound that ended a search.
func (p *Planner) limit(b Bound, maxDepth int) int {
	switch b {
	case BoundBytes:
		return p.maxBytes
	case BoundWork:
		return p.maxWork
	case BoundDepth:
		return maxDepth
	case BoundCanceled, BoundDeadline:
		return 0
	}
	return p.budget
}

// Bytes per node of each search path, counting what the path keeps per
// node at twice its size where it sits in a slice that grows by
// reallocation (its capacity may be up to twice its length), and hash
// tables at their least load (a quarter) once grown.
const (
	// forward and backward: a node (32 bytes) and its open-list entry (24),
	// the state's key, and a 32-byte table slot.
	generalNodeBytes = 2*32 + 2*24 + 4*32
	// wordSearch.forward: a 24-byte node, a 24-byte heap entry or a 4-byte bucket
	// link and a share of the buckets' groups (below), a 16-byte map slot
	// and its 4-byte index.
	wordNodeBytes = 2*24 + 2*(4+bucketGroupBytes) + 4*16 + 2*4
	// denseSearch.forward: a 16-byte node and an 8-byte heap key (its table is
	// fixed, 2^12 slots at most).
	denseNodeBytes = 2*16 + 2*8
	// hashSearch.forward counts its own (hashSearch.nodeBytes): its nodes
	// and slots are smaller for domains of at most 32 facts.
	// delayedSearch.forwardWide and delayedSearch.backward: an 8-byte node, a bucket link and
	// group, the key, and a 16-byte slot and the key again in the expanded
	// set.
	wideNodeBytes = 2*8 + 2*(4+bucketGroupBytes) + 4*16
	// bucketGroupBytes: the bucketed open list keeps a 24-byte group per
	// (f, h) queued, never more groups than queued nodes, so a node's share
	// is at most one group.
	bucketGroupBytes = 24
	// successorBytes is an expansion's buffer per successor, beside its key.
	successorBytes = 2 * 24
)

// Trace sizes, for its share of the memory ceiling.
const (
	traceNodeBytes      = 32
	traceExpansionBytes = 12
	traceEdgeBytes      = 12
)

// bytes returns what the trace holds, counting each slice at twice its
// length.
func (t *Trace) bytes() int {
	return 2 * (len(t.Nodes)*traceNodeBytes + len(t.words)*8 + len(t.Expansions)*traceExpansionBytes + len(t.Edges)*traceEdgeBytes)
}

// reserve returns s with room for n more elements, doubling its capacity
// when it must grow: append grows a large slice by a quarter, which leaves
// about four times the final size behind in garbage and address space;
// doubling leaves one. The wide searches' state arenas, megabytes each,
// grow this way.
func reserve[E any](s []E, n int) []E {
	if len(s)+n > cap(s) {
		s = slices.Grow(s, max(n, cap(s)))
	}
	return s
}
