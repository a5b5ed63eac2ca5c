package strips

// hMax is Bonet and Geffner's h_max: the cost of the delete relaxation's
// costliest critical path to the goal, over the relaxation LM-cut uses too
// (negative conditions as artificial facts, see relaxed). It is admissible
// and consistent, and weaker than LM-cut, which it never exceeds.
//
// An hMax is not safe for concurrent use; clone gives another that shares
// its relaxation.
type hMax struct {
	e *explorer
}

// newHMax returns t's h_max estimator; t must be valid.
func newHMax(t *Task) *hMax {
	return &hMax{newExplorer(newRelaxed(t))}
}

// clone returns an hMax for the same task with scratch of its own.
func (h *hMax) clone() *hMax {
	return &hMax{newExplorer(h.e.r)}
}

// bytes is the memory the estimator holds, its relaxation included.
func (h *hMax) bytes() int64 { return h.e.r.bytes() + h.e.bytes() }

// takeWork returns the units of work done since it was last asked.
func (h *hMax) takeWork() int64 { return h.e.takeWork() }
func (h *hMax) dropWork()       { h.e.dropWork() }

// estimate returns h_max(s), or dead when the relaxation does not reach
// the goal from s.
func (h *hMax) estimate(s []uint64) (int64, bool) {
	h.e.explore(s, true)
	if v := h.e.facts[h.e.r.goal].hmax; v != inf {
		return v, false
	}
	return 0, true
}
