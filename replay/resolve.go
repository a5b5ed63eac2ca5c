package replay

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/resolver"
)

// snapshot is a resolver decision's recorded snapshot as a snapshot of the
// domain: keys the recording has and the domain has not (an edit removed
// them) make it undecidable; keys the domain has and the recording has
// not are 0.
func (r *Replayer) snapshot(d *agent.Decision) (*resolver.Snapshot, error) {
	snap, err := r.dom.Resolver.SnapshotOf(d.Snapshot.ValueMap(), d.Snapshot.At, d.Snapshot.TargetMap())
	if err != nil {
		return nil, fmt.Errorf("the recorded snapshot does not fit the domain: %w", err)
	}
	return snap, nil
}

func (r *Replayer) decideResolver(d *agent.Decision, out Outcome) Outcome {
	fail := func(err error) Outcome {
		out.Error, out.Status = err.Error(), "error"
		return out
	}
	snap, err := r.snapshot(d)
	if err != nil {
		return fail(err)
	}
	opt, err := r.resolverOptions(d)
	if err != nil {
		return fail(err)
	}
	out.Goal, err = r.chooseResolverGoal(d, snap)
	switch {
	case err != nil:
		return fail(err)
	case d.Decided == "goal":
		out.Status = d.Status
		return out
	case out.Goal == "":
		return fail(fmt.Errorf("no goal option applies"))
	}
	goal := r.dom.Resolver.Goal(out.Goal)
	if goal == nil {
		return fail(fmt.Errorf("goal %q is not in domain %s", out.Goal, r.dom.Resolver.Name()))
	}
	if d.Traced {
		opt.Trace = &r.resolverTrace
	}
	res, _ := r.resolver.Resolve(r.chain[:0], snap, goal, opt)
	r.chain = res.Chain
	out.Status = res.Status.String()
	if res.Status == resolver.Found {
		out.Cost = res.Cost
		for _, a := range res.Chain {
			out.Plan = append(out.Plan, r.dom.Resolver.ActionName(a))
		}
	}
	return out
}

// resolverOptions are the options d's resolve used: its agent kind's
// profile in the file, or else the recorded one, its limits, and the
// game's distance model when it used one.
func (r *Replayer) resolverOptions(d *agent.Decision) (resolver.Options, error) {
	opt := resolver.Options{Limits: d.Limits.Search()}
	switch d.Distance {
	case "":
	case "game":
		if r.dom.Distance == nil {
			return opt, fmt.Errorf("the agent's walks were priced by the game's distance model, which a record cannot hold (replay.Domain.Distance)")
		}
		opt.Distance = r.dom.Distance
	default:
		return opt, fmt.Errorf("unknown distance model %q", d.Distance)
	}
	if k := r.engineKind(d); k != nil && !d.OwnProfile {
		opt.Profile = k.Profile
		return opt, nil
	}
	spec, ok := d.Profile.ResolverSpec()
	if !ok {
		return opt, nil
	}
	key := fmt.Sprint(spec.Capabilities, slices.Sorted(maps.Keys(spec.Costs)), spec.Costs)
	if p, seen := r.resProf[key]; seen {
		opt.Profile = p.p
		return opt, p.err
	}
	p, err := r.dom.Resolver.NewProfile(spec)
	if err != nil {
		err = fmt.Errorf("the recorded profile does not fit the domain: %w", err)
	}
	r.resProf[key] = resolverProfile{p, err}
	opt.Profile = p
	return opt, err
}
