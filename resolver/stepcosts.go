package resolver

import "fmt"

// StepCosts appends to dst the cost of each step of chain, head first, as
// Resolve counts it for snap and opt (its Profile and Distance): the
// action's cost for the agent, plus, for a step with a target, the way to
// it from where the agent is before the step (its position before the
// first step with a target, the last target after), times the domain's
// DistanceCost. They sum to the Cost of the resolve that found the chain,
// to within float rounding (Resolve adds them in another order). A record
// of a decision shows them so that a person sees what each step cost.
//
// It panics, as Resolve does, on a snapshot that does not fit the domain,
// an action or profile of another domain, or a cost function or distance
// model that breaks its contract.
func (d *Domain) StepCosts(dst []float64, chain []ActionID, snap *Snapshot, opt Options) []float64 {
	d.checkSnapshot(snap)
	if opt.Profile != nil && opt.Profile.domain != d {
		panic("resolver: StepCosts with a profile of another domain")
	}
	s := query{snap: snap, prof: opt.Profile, dist: opt.Distance, perUnit: d.distanceCost}
	from := snap.At
	for _, a := range chain {
		if int(a) < 0 || int(a) >= len(d.actions) {
			panic(fmt.Sprintf("resolver: StepCosts: action %d is not one of domain %q's", a, d.name))
		}
		act := &d.actions[a]
		c := actionCost(act, a, opt.Profile, snap)
		if act.target != NoTarget {
			to := snap.Targets[act.target].At
			c += s.distance(from, to)
			from = to
		}
		dst = append(dst, c)
	}
	return dst
}
