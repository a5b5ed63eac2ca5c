// Package coroutine runs a search a slice at a time: the search is the
// planner's own loop, started in a coroutine (iter.Pull), which pauses
// where the loop checks its limits and is resumed by the next slice's
// call. A coroutine switch is a plain hand-over on one thread, so a
// search run in slices is as deterministic as one run whole. The GOAP
// planner and the HTN planner both slice their searches with it
// (goap.Planner.Begin, htn.Planner.Begin).
package coroutine

import "iter"

// Run is one search run in slices: started by Start, resumed by Resume
// until it ends, or dropped by Stop. The zero Run has no search.
type Run struct {
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
}

// Start makes body the run's search, to begin at the first Resume; body
// calls Pause where a slice may end. A search already under way is
// stopped first.
func (r *Run) Start(body func()) {
	r.Stop()
	r.next, r.stop = iter.Pull(func(yield func(struct{}) bool) {
		r.yield = yield
		body()
	})
}

// Pause, called by the search, hands control back to the Resume that ran
// the slice now spent, and returns when the next Resume resumes it: true,
// or false if the run was stopped instead, when the search must return
// at once.
func (r *Run) Pause() bool { return r.yield(struct{}{}) }

// Resume runs the search until it pauses or returns, and reports whether
// it returned; the run then has no search. A panic in the search comes
// out of Resume and ends the run too, as it would end a search run
// whole.
func (r *Run) Resume() (ended bool) {
	returned := false
	defer func() {
		if !returned || ended {
			r.next, r.stop, r.yield = nil, nil, nil
		}
	}()
	_, paused := r.next()
	returned = true
	return !paused
}

// Stop drops the search under way, if any: the Pause it waits in returns
// false, and the search returns before Stop does.
func (r *Run) Stop() {
	if r.stop == nil {
		return
	}
	stop := r.stop
	r.next, r.stop, r.yield = nil, nil, nil
	stop()
}

// Running reports whether a search has been started and has neither
// returned nor been stopped.
func (r *Run) Running() bool { return r.next != nil }
