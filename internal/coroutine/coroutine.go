// Package coroutine runs a search a slice at a time: the search is the
// planner's own loop, run in a coroutine (iter.Pull), which pauses where
// the loop checks its limits and is resumed by the next slice's call. A
// coroutine switch is a plain hand-over on one thread, so a search run in
// slices is as deterministic as one run whole. The GOAP planner and the
// HTN planner both slice their searches with it (goap.Planner.Begin,
// htn.Planner.Begin).
//
// A Run keeps its coroutine between searches: making one (iter.Pull)
// costs about 1.5 µs and 7 allocations, four times a battle mage's whole
// search, so a queue that slices every search would pay that for each.
// The coroutine waits, between searches, for the next; Close ends it.
package coroutine

import "iter"

// Run runs searches in slices, one at a time: Start gives it a search,
// Resume runs it until it pauses or returns, Stop drops it. The zero Run
// is ready to use; once it has run a search it holds a parked coroutine
// until Close.
type Run struct {
	next  func() (bool, bool)
	stop  func()
	yield func(bool) bool
	// job is the search Start gave, until the coroutine takes it; busy
	// says a search was started and has not returned; abort asks a
	// paused search to return (Stop).
	job         func()
	busy, abort bool
}

// Start makes job the run's search, to begin at the next Resume; job
// calls Pause where a slice may end. A search under way is stopped
// first. job should hold nothing the caller wants collected once it has
// returned: the coroutine outlives it.
func (r *Run) Start(job func()) {
	r.Stop()
	if r.next == nil {
		r.next, r.stop = iter.Pull(r.loop)
	}
	r.job, r.busy = job, true
}

// loop is the coroutine: it runs each search it is given, and yields
// true when one has returned (false is a pause).
func (r *Run) loop(yield func(bool) bool) {
	r.yield = yield
	for {
		r.runJob()
		if !yield(true) {
			return // Close
		}
	}
}

// runJob runs the search Start gave and lets go of it.
func (r *Run) runJob() {
	job := r.job
	r.job = nil
	job()
}

// Pause, called by the search, hands control back to the Resume that ran
// the slice now spent, and returns when the next Resume resumes it: true,
// or false if the search was stopped instead, when it must return at
// once.
func (r *Run) Pause() bool {
	return r.yield(false) && !r.abort
}

// Resume runs the search until it pauses or returns, and reports whether
// it returned. A panic in the search comes out of Resume and ends the
// search, as it would end one run whole (the coroutine with it: the next
// Start makes another).
func (r *Run) Resume() (ended bool) {
	returned := false
	defer func() {
		if !returned {
			r.next, r.stop, r.yield, r.job, r.busy = nil, nil, nil, nil, false
		}
	}()
	ended, _ = r.next()
	returned = true
	if ended {
		r.busy = false
	}
	return ended
}

// Stop drops the search under way, if any: the Pause it waits in returns
// false, and the search has returned when Stop does. The coroutine stays
// for the next search.
func (r *Run) Stop() {
	if !r.busy {
		return
	}
	if r.job != nil { // started, never resumed: it need not run at all
		r.job, r.busy = nil, false
		return
	}
	r.abort = true
	defer func() { r.abort = false }()
	r.Resume()
}

// Running reports whether a search has been started and has neither
// returned nor been stopped.
func (r *Run) Running() bool { return r.busy }

// Close stops the search under way, if any, and ends the coroutine. The
// Run may be used again.
func (r *Run) Close() {
	r.Stop()
	if r.stop != nil {
		stop := r.stop
		r.next, r.stop, r.yield = nil, nil, nil
		stop()
	}
}
