package pddl

// GroundReachable grounds p up to the reachability analysis: the task as
// reached, before simplification and relevance, for the brute-force
// cross-check. A goal literal grounding decides is false is left out of
// its goal, and noted in Unsolvable.
func GroundReachable(d *Domain, p *Problem) (*Grounding, error) {
	return ground(d, p, defaultLimits, stageReachable)
}

// GroundLimited grounds p under smaller limits: ground actions, ground
// atoms, join steps, counting steps and bytes.
func GroundLimited(d *Domain, p *Problem, actions, facts int, work, counts, size int64) (*Grounding, error) {
	return ground(d, p, groundLimits{actions, facts, work, counts, size}, stageRelevant)
}
