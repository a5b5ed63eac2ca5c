package strips

// The estimators for the external tests, which ground the competition
// instances with package pddl (which imports this one).

// LMCutEstimate returns an LM-cut estimator of t's states.
func LMCutEstimate(t *Task) func(s []uint64) (h int64, dead bool) { return newLMCut(t).estimate }

// HMaxEstimate returns an h_max estimator of t's states.
func HMaxEstimate(t *Task) func(s []uint64) (h int64, dead bool) { return newHMax(t).estimate }
