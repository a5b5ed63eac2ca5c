package htn

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/coroutine"
)

// Decompositions that span frames: Begin starts a decomposition that
// Continue carries out a slice of steps at a time, so that a game that
// gives planning a fixed budget per frame can spread one long
// decomposition over several frames, and Result returns exactly what
// Plan would have.
//
// The decomposition is Plan's own loop, run in a coroutine (iter.Pull):
// the loop already compares its step count with the step cap before every
// step, and a sliced decomposition compares it with the end of its slice
// there too (the lesser of the two), pausing when the slice is spent with
// its task stack, undo log and choice points left where they are, in the
// planner. A coroutine switch is a plain hand-over on one thread, so a
// sliced decomposition is as deterministic as a whole one.

// slicer is the decomposition Begin started: the coroutine that runs it,
// the steps its slice has left, and the outcome once it ends.
type slicer struct {
	run coroutine.Run
	// decompose is the decompose method's value, made once (job): the
	// decomposition's arguments are fields, so that beginning one
	// allocates nothing. p and opt are held while it runs and let go
	// when it ends: the coroutine outlives it, and must keep no planner
	// alive.
	decompose func()
	p         *Planner
	opt       Options
	root      Task
	// left is the steps the slice under way may take, set by Continue;
	// pauseAt is the step count at which it is spent.
	left, pauseAt int
	// steps is the steps taken, as of the last pause or the end; held
	// is the bytes the paused decomposition's plan, MTR and tasks hold,
	// which its loop keeps until it ends.
	steps int
	held  int64
	// start is the planner's copy of the state decomposed from, which a
	// game may change between two slices.
	start []uint64
	ended bool
	res   Result
	err   error
}

// Begin starts a decomposition from s, as Plan's, that Continue carries
// out a slice of steps at a time: one that must fit in a frame's budget
// takes a slice of steps per frame and goes on in the next frame exactly
// where it stopped, its task stack, undo log and choice points kept in
// the Planner. Result then gives exactly what Plan would have: the same
// status, bound, plan, MTR, tasks, steps, backtracks, statistics and
// error, and the same Trace, however the decomposition was sliced.
// Options.Context is looked at as each slice starts, so a context done
// between two slices stops the decomposition before its next step.
//
// Begin copies s; the options' profile and trace must not change until
// Result has been called, since the decomposition reads them at every
// slice. Begin abandons a decomposition that has not ended (Abandon drops
// one without starting another, and Plan drops one too: it reuses the
// storage it holds). It panics as Plan does, at once.
func (p *Planner) Begin(s goap.State, opt Options) {
	p.check()
	p.abandon()
	// Misuse panics here, in the caller's call, not at the first Continue.
	p.checkState(s)
	root := p.checkOptions(&opt)
	if p.slicing == nil {
		sl := new(slicer)
		sl.decompose = sl.job
		p.slicing = sl
		// The slicer keeps its coroutine for the next decomposition; it
		// ends when the planner is collected.
		runtime.AddCleanup(p, func(s *slicer) { s.run.Close() }, sl)
	}
	sl := p.slicing
	sl.start = append(sl.start[:0], s.Words()...)
	sl.ended, sl.err, sl.steps = false, nil, 0
	sl.p, sl.opt, sl.root = p, opt, root
	sl.run.Start(sl.decompose)
	p.slicer = sl
}

// job is the decomposition Begin started, run in the coroutine: Plan's
// own, from the slicer's copy of the state.
func (sl *slicer) job() {
	defer sl.letGo() // a panicking one too: its planner must stay collectable
	sl.err = sl.p.plan(&sl.res, goap.StateFromWords(sl.start), &sl.opt, sl.root)
	sl.steps = sl.res.Steps
}

// letGo drops what the slicer holds of the decomposition that ended.
func (sl *slicer) letGo() { sl.p, sl.opt = nil, Options{} }

// Continue goes on with the decomposition Begin started, taking at most
// steps more steps, and reports whether it has ended (Result is then
// ready). A decomposition of step cap S ends within ⌈S / steps⌉ calls:
// every call but the last takes exactly steps steps, and one that ends
// just as a slice is spent (found, no plan or the step cap) ends in that
// call; a context done between two slices ends it in the next call,
// before its first step. A call made after it ended returns true at once. A panic in the
// decomposition comes out of Continue as it would out of Plan, and ends
// it. Continue panics on steps below 1, or without a decomposition begun.
func (p *Planner) Continue(steps int) bool {
	p.check()
	sl := p.slicer
	if sl == nil {
		if p.slicing != nil && p.slicing.ended {
			return true
		}
		panic("htn: Continue without a decomposition begun: call Begin first")
	}
	if steps < 1 {
		panic(fmt.Sprintf("htn: Continue(%d): a slice takes at least one step", steps))
	}
	sl.left = steps
	returned := false
	defer func() {
		if !returned {
			p.slicer = nil // it panicked: it is over, as a Plan that panicked
		}
	}()
	ended := sl.run.Resume()
	returned = true
	if !ended {
		return false
	}
	p.slicer = nil
	sl.ended = true
	return true
}

// Result fills res with the outcome of the decomposition that Continue
// reported ended, as Plan would have filled it (reusing res.Plan, res.MTR
// and res.Tasks), and returns Plan's error. It panics if the
// decomposition has not ended.
func (p *Planner) Result(res *Result) error {
	p.check()
	sl := p.slicing
	if sl == nil || !sl.ended {
		panic("htn: Result before the decomposition ended: call Continue until it returns true")
	}
	out := sl.res
	out.Plan = append(res.Plan[:0], out.Plan...)
	out.MTR = append(res.MTR[:0], out.MTR...)
	out.Tasks = append(res.Tasks[:0], out.Tasks...)
	*res = out
	err := sl.err
	sl.ended, sl.err = false, nil
	return err
}

// Abandon drops the decomposition under way, if any; the planner's
// storage stays for the next, and so does the coroutine it keeps between
// sliced decompositions, which ends when the planner is collected. A game
// abandons a suspended decomposition it no longer wants (its agent left):
// a planner dropped with one under way is kept alive by it.
func (p *Planner) Abandon() {
	p.check()
	p.abandon()
}

// Steps returns the steps the decomposition Begin started has taken so
// far, until Result is called: as of the last Continue. Every slice but
// the last takes exactly its steps.
func (p *Planner) Steps() int {
	p.check()
	if p.slicing == nil {
		return 0
	}
	return p.slicing.steps
}

// Suspended reports whether a decomposition has been begun and has not
// ended.
func (p *Planner) Suspended() bool { return p != nil && p.slicer != nil }

// abandon ends the decomposition Begin started, if it has not ended: the
// pause it waits in reports it abandoned, and it returns at once. A
// result not taken is dropped.
func (p *Planner) abandon() {
	if p.slicer == nil && (p.slicing == nil || !p.slicing.ended) {
		return // Plan's common case: nothing to drop
	}
	sl := p.slicing
	if p.slicer != nil {
		p.slicer = nil
		sl.run.Stop()
		sl.letGo() // a decomposition begun and never resumed did not run to let go
	}
	sl.ended, sl.err = false, nil
}

// Bytes returns the memory the planner's decomposition storage holds, at
// its capacity: its task stack, undo log, saved facts, choice points and
// the lists a step-cap error's diagnosis fills, and a suspended or ended
// decomposition's plan, MTR and tasks. A suspended decomposition holds it
// until it ends: a game that keeps decompositions across frames holds
// this much per decomposition it keeps.
func (p *Planner) Bytes() int64 {
	p.check()
	n := sliceBytes(p.facts) + sliceBytes(p.stack) + sliceBytes(p.log) + sliceBytes(p.saved) + sliceBytes(p.choices)
	n += sliceBytes(p.openCount) + sliceBytes(p.inChain) + sliceBytes(p.chain)
	if sl := p.slicing; sl != nil {
		n += sliceBytes(sl.start)
		if p.slicer != nil {
			n += sl.held // built on res's lists, which they may have outgrown
		} else {
			n += sliceBytes(sl.res.Plan) + sliceBytes(sl.res.MTR) + sliceBytes(sl.res.Tasks)
		}
	}
	return n
}

// sliceBytes returns the bytes s's backing array holds.
func sliceBytes[E any](s []E) int64 {
	var e E
	return int64(cap(s)) * int64(unsafe.Sizeof(e))
}
