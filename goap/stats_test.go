package goap_test

import (
	"github.com/ploy-ai/ploy/goap"
)

// samePath returns r without the two statistics that depend on the search
// path taken and on what the planner kept from earlier searches
// (Stats.Work and Stats.PeakBytes, see Result.Stats), for the tests that
// check two planners, or two paths, give the same Result.
func samePath(r goap.Result) goap.Result {
	r.Stats.Work, r.Stats.PeakBytes = 0, 0
	return r
}
