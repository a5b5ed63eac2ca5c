package strips

// estimator is an admissible estimate of the cheapest plan's cost from a
// state.
type estimator interface {
	// estimate returns h(s) ≤ h*(s), or dead = true (and h = 0) when not
	// even the delete relaxation reaches the goal from s, so that no plan
	// does. s is a state of the task the estimator was built for, Words()
	// words long. The same state gives the same h every time.
	estimate(s []uint64) (h int64, dead bool)
}
