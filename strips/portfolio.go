package strips

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/ploy-ai/ploy/search"
)

// portfolioChunk is the work each of a Portfolio's searches does between
// two looks at the other's progress: a few milliseconds, so that a search
// that can no longer answer stops soon after that is known. A variable so
// that tests can show the answer does not depend on it.
var portfolioChunk int64 = 1 << 14

// portfolioLead is how far, in counted work, a portfolio's search may get
// ahead of the other while both search. Until the other answers, no
// search can know where it may stop; kept near each other, the one that
// counts more units a second waits for the other instead of running on
// past the answer it will lose to. So on one core (or a busy machine)
// the portfolio costs the two searches up to the answer's work, as turns
// did, and on two it takes the longer of them.
func portfolioLead() int64 { return 4 * portfolioChunk }

// portfolioPace, if set, is called by each of a portfolio's searches
// (0: LM-cut, 1: blind) before each chunk of its work. Tests use it to
// slow one search down, and show that the answer does not depend on
// which search finishes first in time.
var portfolioPace func(run int)

// The state of one of a portfolio's searches.
const (
	runSearching = iota
	runAnswered  // Found or NoPlan
	runGaveUp    // a limit stopped it
	runLost      // the other answered with less work: it stopped
	runAborted   // it panicked
)

// portfolioRace coordinates a portfolio's two searches, each on its own
// goroutine. The answer is decided by counted work, never by time (see Portfolio):
// of the searches that answer, the one that needed the least work, LM-cut
// on a tie. So a search runs until it answers, or gives up, or its work
// passes that of an answer the other found.
type portfolioRace struct {
	mu   sync.Mutex
	cond *sync.Cond
	runs [2]*Searcher
	// state of each search; waiting says it needs more memory than its
	// half (see moreMemory), having done waitWork.
	state    [2]int
	waiting  [2]bool
	waitWork [2]int64
	// progress is each search's work when it last looked at the other's.
	progress [2]int64
	// res, err and work are each search's outcome once it ends.
	res  [2]Result
	err  [2]error
	work [2]int64
	// whole is the memory both searches share.
	whole int64
	// panicked is the first panic of a search, which the caller's
	// goroutine raises again.
	panicked any
}

// portfolio runs LM-cut and blind A* side by side (see Portfolio).
func (s *Searcher) portfolio(opt Options) (Result, error) {
	if opt.OnExpand != nil || opt.Trace != nil {
		return Result{}, errors.New("strips: a portfolio search cannot be traced: choose LMCut or Blind to trace")
	}
	maxBytes := EffectiveMaxBytes(opt.MaxBytes)
	if report := opt.Progress; report != nil {
		// The two searches run on two goroutines: one report at a time.
		var mu sync.Mutex
		opt.Progress = func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			report(p)
		}
	}
	if s.twin == nil {
		s.twin = newSearcher(s.t, s.succ)
	}
	runs := [2]*Searcher{s.twin, s}
	for i, h := range []Heuristic{LMCut, Blind} {
		o := opt
		o.Heuristic, o.MaxBytes = h, maxBytes/2
		if err := runs[i].begin(o); err != nil {
			return Result{}, err
		}
	}
	if runs[0].startFailed() && runs[1].startFailed() {
		// Neither could start in half the memory: LM-cut alone, with all
		// of it.
		runs[1].release()
		o := opt
		o.Heuristic, o.MaxBytes = LMCut, maxBytes
		if err := runs[0].begin(o); err != nil {
			return Result{}, err
		}
		for !runs[0].advance(math.MaxInt64) {
		}
		return runs[0].result()
	}
	rc := &portfolioRace{runs: runs, whole: maxBytes}
	rc.cond = sync.NewCond(&rc.mu)
	var wg sync.WaitGroup
	for i, r := range runs {
		r.moreMemory = func() bool { return rc.moreMemory(i) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc.play(i)
		}()
	}
	wg.Wait()
	for _, r := range runs {
		r.moreMemory = nil
	}
	if rc.panicked != nil {
		panic(rc.panicked)
	}
	win := rc.winner()
	for i, r := range runs {
		if i != win {
			r.release()
		}
	}
	return rc.res[win], rc.err[win]
}

// play runs search i until it ends or can no longer answer.
func (rc *portfolioRace) play(i int) {
	r := rc.runs[i]
	defer func() {
		if p := recover(); p != nil {
			rc.mu.Lock()
			if rc.panicked == nil {
				rc.panicked = p
			}
			rc.state[i] = runAborted
			rc.cond.Broadcast()
			rc.mu.Unlock()
		}
	}()
	for {
		if portfolioPace != nil {
			portfolioPace(i)
		}
		limit, ok := rc.nextLimit(i)
		if !ok {
			return
		}
		if r.advance(limit) {
			rc.end(i)
			return
		}
	}
}

// nextLimit returns the work search i may go on to, or false when it
// should stop: the other answered with work it has already reached (or
// passed, when the tie would go to the other), so it cannot answer
// first; or the other panicked. It waits while search i is portfolioLead
// ahead of the other, and the other is searching.
func (rc *portfolioRace) nextLimit(i int) (int64, bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	r, o := rc.runs[i], 1-i
	if rc.progress[i] != r.work {
		rc.progress[i] = r.work
		rc.cond.Broadcast()
	}
	for rc.state[o] == runSearching && !rc.waiting[o] && r.work >= rc.progress[o]+portfolioLead() {
		rc.cond.Wait()
	}
	limit := r.work + portfolioChunk
	switch rc.state[o] {
	case runAborted:
		rc.state[i] = runLost
		return 0, false
	case runAnswered:
		// Search i answers instead only with less work, or as little
		// when i is LM-cut (0), which wins ties.
		stop := rc.work[o]
		if i < o {
			stop++
		}
		if r.work >= stop {
			rc.state[i] = runLost
			rc.cond.Broadcast()
			return 0, false
		}
		limit = min(limit, stop)
	}
	return limit, true
}

// end records search i's outcome. A search that gave up lets go of its
// memory at once, for the other to take (see moreMemory).
func (rc *portfolioRace) end(i int) {
	r := rc.runs[i]
	res, err := r.result()
	state := runAnswered
	if res.Status == LimitReached {
		state = runGaveUp
		r.release()
	}
	rc.mu.Lock()
	rc.res[i], rc.err[i], rc.work[i], rc.state[i] = res, err, r.work, state
	rc.cond.Broadcast()
	rc.mu.Unlock()
}

// moreMemory is asked by search i when growing would take it past its half
// of the memory. The answer depends only on what the other search does,
// not on when: while the other is still searching, search i waits; if
// the other gives up, search i gets the whole memory and goes on (true);
// if the other answers, search i gives up (false). When both need more,
// the one that got there with more work gives up (blind on a tie), as
// the one less likely to answer first, and the other gets the whole.
func (rc *portfolioRace) moreMemory(i int) bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	r, o := rc.runs[i], 1-i
	if r.maxBytes >= rc.whole {
		return false
	}
	rc.waiting[i], rc.waitWork[i] = true, r.work
	rc.cond.Broadcast()
	defer func() { rc.waiting[i] = false }()
	for {
		switch {
		case rc.state[o] == runGaveUp:
			r.maxBytes = rc.whole
			return true
		case rc.state[o] != runSearching:
			return false
		case rc.waiting[o] && (rc.waitWork[i] > rc.waitWork[o] || rc.waitWork[i] == rc.waitWork[o] && i == 1):
			return false
		}
		rc.cond.Wait()
	}
}

// winner is the search whose result the portfolio returns, once both
// have ended: of those that answered, the one with the least work, LM-cut
// (0) on a tie; when neither did, the one that gave up with the most
// work, LM-cut on a tie.
func (rc *portfolioRace) winner() int {
	answered := func(i int) bool { return rc.state[i] == runAnswered }
	switch {
	case answered(0) && answered(1):
		if rc.work[1] < rc.work[0] {
			return 1
		}
		return 0
	case answered(0):
		return 0
	case answered(1):
		return 1
	}
	if rc.state[0] != runGaveUp || rc.state[1] != runGaveUp {
		panic(fmt.Sprintf("strips: a portfolio ended with its searches in states %v and no answer", rc.state))
	}
	if rc.work[1] > rc.work[0] {
		return 1
	}
	return 0
}

// startFailed says the search ran out of memory before it expanded
// anything.
func (s *Searcher) startFailed() bool {
	return s.done && s.res.Status == LimitReached && s.res.Bound == search.Bytes && s.res.Expanded == 0
}

// release lets go of the search's memory, keeping its statistics: its
// states, and its estimator's relaxation and scratch (which a later search
// builds again), so that what a portfolio's other search may take is
// free.
func (s *Searcher) release() {
	s.releaseStates()
	s.lmcut, s.hmax, s.est, s.pausable, s.estBytes = nil, nil, nil, nil, 0
}

// releaseStates lets go of the search's states, table and open list.
func (s *Searcher) releaseStates() {
	s.pages, s.table, s.entries = nil, nil, nil
	s.open = openList{}
}
