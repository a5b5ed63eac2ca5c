package strips

import (
	"errors"
	"math"

	"github.com/ploy-ai/ploy/search"
)

// portfolioSlice is the work each of a Portfolio's searches does in its
// turn: a few milliseconds, so that turns cost nothing measurable and an
// easy task is not held up by its harder half.
const portfolioSlice = 1 << 14

// portfolio runs LM-cut and blind A* in turns (see Portfolio).
func (s *Searcher) portfolio(opt Options) (Result, error) {
	if opt.OnExpand != nil || opt.Trace != nil {
		return Result{}, errors.New("strips: a portfolio search cannot be traced: choose LMCut or Blind to trace")
	}
	maxBytes := EffectiveMaxBytes(opt.MaxBytes)
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
	alive := 2
	var last Result
	var lastErr error
	for {
		for i, r := range runs {
			if r == nil {
				continue
			}
			if !r.advance(r.work + portfolioSlice) {
				continue
			}
			if r.res.Status == Found || r.res.Status == NoPlan {
				res, err := r.result()
				for _, other := range runs {
					if other != nil && other != r {
						other.release()
					}
				}
				return res, err
			}
			// Out of memory or expansions: the other search may have the
			// memory this one held.
			last, lastErr = r.result()
			r.release()
			runs[i] = nil
			if alive--; alive == 0 {
				return last, lastErr
			}
			for _, other := range runs {
				if other != nil {
					other.maxBytes = maxBytes
				}
			}
		}
	}
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
