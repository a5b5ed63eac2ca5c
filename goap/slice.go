package goap

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/ploy-ai/ploy/internal/coroutine"

	"github.com/ploy-ai/ploy/internal/pq"
)

// Searches that span frames: Begin starts a search that Continue carries
// out a slice of expansions at a time, so that a game that gives planning
// a fixed budget per frame can spread one large search over several
// frames, and Result returns exactly what Plan would have.
//
// The search is Plan's own code, run in a coroutine (iter.Pull): every
// search loop asks its meter before each expansion whether a limit ends
// the search (meter.over), and a sliced search's meter also pauses there
// once the slice is spent, handing control back to Continue with the
// loop's open list, nodes and counts left where they are, on the
// coroutine's stack and in the planner. A coroutine switch is a plain
// hand-over on one thread: no other goroutine runs the search, so a
// sliced search is as deterministic as a whole one.

// slicer is the search Begin started: the coroutine that runs it, the
// expansions the slice under way has left, and the outcome once it ends.
type slicer struct {
	run coroutine.Run
	// search is the search method's value, made once (job): the search's
	// arguments are fields, so that beginning one allocates nothing. p,
	// dst, goal and opt are held while it runs and let go when it ends:
	// the coroutine outlives it, and must keep no planner alive.
	search func()
	p      *Planner
	dst    []ActionID
	goal   *Goal
	opt    Options
	// left is the expansions the slice has left when a search loop makes
	// its meter: the whole slice as the search starts, the rest of it when
	// a delayed search hands over (handOver). The meter reads it again as
	// each slice starts.
	left int
	// pauseAt is the expansion count, in the running search loop's own
	// count, at which the slice is spent; perNode and fixed are that
	// loop's bytes per node and whatever its size, for held. The meter
	// sets them as the loop starts (Planner.meter).
	pauseAt, perNode, fixed int
	// expanded is the states the search has expanded, as of its last
	// pause or its end: handed those of a delayed search that handed
	// over, which Result.Expanded does not count, plus the search's own.
	expanded, handed int
	// held is the bytes the paused search's meter counts for its nodes
	// when its loop holds them in slices it has not yet stored back in the
	// planner (the fast searches); 0 when it grows the planner's own
	// fields (inPlanner: the general searches), which Bytes counts as
	// they are.
	held      int64
	inPlanner bool
	// delayedNodes is the nodes a delayed search holds as of its last
	// expansion: it tests them against its own limit (past it, it hands
	// over) rather than in over, which a pause is made from, so it tells
	// the pause here. 0 for the other searches.
	delayedNodes int
	// start is the planner's copy of the start state, which a game may
	// change between two slices.
	start []uint64
	ended bool
	res   Result
	err   error
}

// Begin starts a search for a least-cost plan from start to goal, as
// Plan's, that Continue carries out a slice at a time: a search that must
// fit in a frame's budget expands a slice of states per frame and goes on
// in the next frame exactly where it stopped, its open list, nodes and
// counts kept in the Planner. Result then returns exactly what Plan would
// have: the same plan, cost, status, bound, error and statistics
// (Expanded, Generated, Work, PeakBytes, Depth), and the same Trace,
// however the search was sliced. Options.Context is looked at as each
// slice starts, so a context done between two slices stops the search
// before its next expansion.
//
// Begin copies start; the goal, profile and trace must not change until
// Result has been called, since the search reads them at every slice.
// Begin abandons a search that has not ended (Abandon drops one without
// starting another, and Plan and Reserve drop one too: they reuse the
// storage it holds). It panics as Plan does, at once.
func (p *Planner) Begin(dst []ActionID, start State, goal *Goal, opt Options) {
	p.enter()
	defer p.busy.Store(false)
	p.abandon()
	// Misuse panics here, in the caller's call, not at the first Continue.
	p.d.checkState(start)
	p.d.checkGoal(goal)
	checked := opt
	checked.applyLimits()
	checked.validate()
	if opt.Profile != nil && opt.Profile.domain != p.d {
		panic("goap: profile belongs to another domain")
	}
	if p.slicing == nil {
		s := new(slicer)
		s.search = s.job
		p.slicing = s
		// The slicer keeps its coroutine for the next search; it ends
		// when the planner is collected.
		runtime.AddCleanup(p, func(s *slicer) { s.run.Close() }, s)
	}
	s := p.slicing
	s.start = append(s.start[:0], start.words...)
	s.ended, s.res, s.err = false, Result{}, nil
	s.expanded, s.handed, s.held, s.delayedNodes = 0, 0, 0, 0
	s.p, s.dst, s.goal, s.opt = p, dst, goal, opt
	s.run.Start(s.search)
	p.slicer = s
}

// job is the search Begin started, run in the coroutine: Plan's own,
// from the slicer's copy of the start.
func (s *slicer) job() {
	defer s.letGo() // a panicking search too: its planner must stay collectable
	s.res, s.err = s.p.plan(s.dst, State{words: s.start}, s.goal, &s.opt)
	s.expanded = s.handed + s.res.Expanded
}

// letGo drops what the slicer holds of the search that ended.
func (s *slicer) letGo() { s.p, s.dst, s.goal, s.opt = nil, nil, nil, Options{} }

// Continue goes on with the search Begin started, expanding at most
// expansions more states, and reports whether the search has ended
// (Result is then ready). A search of node budget B ends within
// ⌈B / expansions⌉ + 1 calls: every call but the last expands exactly
// expansions states (the last may expand none: the search found its end
// before the next expansion), and a call made after the search ended
// returns true at once. A panic in the search (a cost function's, say)
// comes out of Continue as it would out of Plan, and ends the search.
// Continue panics on expansions below 1, or without a search begun.
func (p *Planner) Continue(expansions int) bool {
	p.enter()
	defer p.busy.Store(false)
	s := p.slicer
	if s == nil {
		if p.slicing != nil && p.slicing.ended {
			return true
		}
		panic("goap: Continue without a search begun: call Begin first")
	}
	if expansions < 1 {
		panic(fmt.Sprintf("goap: Continue(%d): a slice expands at least one state", expansions))
	}
	s.left = expansions
	returned := false
	defer func() {
		if !returned {
			p.slicer = nil // the search panicked: it is over, as a Plan that panicked
		}
	}()
	ended := s.run.Resume()
	returned = true
	if !ended {
		return false
	}
	p.slicer = nil
	s.ended = true
	return true
}

// Result returns the outcome of the search that Continue reported ended,
// as Plan would have returned it, and lets go of its goal and options. It
// panics if the search has not ended.
func (p *Planner) Result() (Result, error) {
	p.check()
	s := p.slicing
	if s == nil || !s.ended {
		panic("goap: Result before the search ended: call Continue until it returns true")
	}
	res, err := s.res, s.err
	s.ended, s.res, s.err = false, Result{}, nil
	return res, err
}

// Abandon drops the search under way, if any, with its references to the
// goal and options; the planner's storage stays for the next, and so does
// the coroutine it keeps between sliced searches, which ends when the
// planner is collected. A game abandons a suspended search it no longer
// wants (its agent left) so that the search keeps nothing of it alive: a
// planner dropped with a search under way is kept alive by it.
func (p *Planner) Abandon() {
	p.enter()
	defer p.busy.Store(false)
	p.abandon()
}

// Expanded returns the states the search Begin started has expanded so
// far, until Result is called: as of the last Continue. It counts those
// of a delayed search that handed over to another (see Planner), which
// Result.Expanded does not, so that a game that gives each frame a
// budget of expansions counts what each slice spent: every slice but the
// last spends exactly its expansions.
func (p *Planner) Expanded() int {
	if p.slicing == nil {
		return 0
	}
	return p.slicing.expanded
}

// Suspended reports whether a search has been begun and has not ended.
func (p *Planner) Suspended() bool { return p != nil && p.slicer != nil }

// abandon ends the search Begin started, if it has not ended: the pause
// it waits in reports it abandoned, and the search returns at once (with
// LimitReached, a result nobody reads). A result not taken is dropped.
func (p *Planner) abandon() {
	if p.slicer == nil && (p.slicing == nil || !p.slicing.ended) {
		return // Plan's common case: nothing to drop (inlined)
	}
	p.dropSlices()
}

// dropSlices is abandon's work when there is some.
func (p *Planner) dropSlices() {
	s := p.slicing
	if p.slicer != nil {
		p.slicer = nil
		s.run.Stop()
		s.letGo() // a search begun and never resumed did not run to let go
	}
	s.ended, s.res, s.err = false, Result{}, nil
}

// Bytes returns the memory the planner's search storage holds, at its
// capacity: its node arenas, state tables and open lists, whichever
// search paths have grown them (not the estimate tables, a few per
// goal). For a suspended search on a fast path, whose loop holds its
// nodes in slices of its own until it ends, it adds what the search's
// meter counts for them against Options.Limits.MaxBytes: a bound, since
// those slices may still share the arrays counted above. A suspended
// search holds its memory until it ends: a game that keeps searches
// across frames holds this much per search it keeps. A fast search that
// hands over to the general one lets go of its storage first, so that
// the search that hands over holds one search's ceiling, not two; the
// storage other search paths grew in earlier searches stays, as it always
// does (the planner keeps what each path it took grew).
func (p *Planner) Bytes() int64 {
	p.check()
	var n int64
	if p.slicer != nil {
		n = p.slicer.held
	}
	n += p.tab.Bytes() + p.delayed.closedWide.Bytes() + p.buckets.Bytes()
	n += sliceBytes(p.nodes) + int64(p.open.Cap())*int64(unsafe.Sizeof(pq.Entry{}))
	n += sliceBytes(p.succ) + sliceBytes(p.succWords)
	n += sliceBytes(p.word.dense) + sliceBytes(p.word.nodes) + sliceBytes(p.word.table.slots) + sliceBytes(p.word.table.used)
	n += sliceBytes(p.dense.table) + sliceBytes(p.dense.nodes) + p.dense.open.Bytes()
	n += p.hash32.bytes() + p.hash64.bytes()
	n += sliceBytes(p.delayed.wideNodes) + sliceBytes(p.delayed.wideWords)
	return n
}

// bytes returns what the search's slices hold, at their capacity.
func (hs *hashSearch[K]) bytes() int64 {
	return sliceBytes(hs.slots) + sliceBytes(hs.nodes) + sliceBytes(hs.succ)
}

// sliceBytes returns the bytes s's backing array holds.
func sliceBytes[E any](s []E) int64 {
	var e E
	return int64(cap(s)) * int64(unsafe.Sizeof(e))
}
