package agent

import (
	"unsafe"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// chainRequest is what a resolver agent's request reads: the snapshot
// taken when it asked, the goal and the options of then. It lives in the
// agent's resolverWorld, which touches none of it while the request waits.
type chainRequest struct {
	snap resolver.Snapshot
	goal *resolver.Goal
	opt  *resolver.Options // never changed once made (SetProfile makes another)
}

// snapshot senses the targets a resolve reads (every one whose answer
// does not stand) and copies the live snapshot, the goal and the options
// into the agent's chain request.
func (w *resolverWorld) snapshot(a *Agent) (goap.State, *goap.Goal, *chainRequest) {
	w.senseTargets(a, false)
	c := &w.request
	c.snap.At = a.live.At
	copy(c.snap.Values, a.live.Values)
	copy(c.snap.Targets, a.live.Targets)
	c.goal = w.options[a.goalIndex()].Goal
	c.opt = w.opt
	return goap.State{}, nil, c
}

// resolverPlanner resolves a chain to the request's goal with the
// worker's resolver for its domain.
type resolverPlanner struct{}

func (resolverPlanner) plan(p *planners, r *request, out *result) {
	if r.slice > 0 || r.search != nil {
		planSlice(p, r, out)
		return
	}
	c := r.chain
	rs := cached(&p.resolvers, c.goal.Domain(), resolver.NewResolver)
	if r.traced {
		opt := *c.opt
		opt.Trace = &p.resolverTrace
		res, err := rs.Resolve(chainOf(r.plan), &c.snap, c.goal, opt)
		l := r.agent.log
		var chain []resolver.ActionID
		if res.Status == resolver.Found {
			chain = res.Chain
		}
		l.rejected = ResolverRejected(l.rejected[:0], c.goal.Domain(), &p.resolverTrace, chain, res.Cost)
		answer(out, res, err)
		p.tally.chains += res.Expanded
		return
	}
	res, err := rs.Resolve(chainOf(r.plan), &c.snap, c.goal, *c.opt)
	answer(out, res, err)
	p.tally.chains += res.Expanded
}

// answer fills out with a resolve's result.
func answer(out *result, res resolver.Result, err error) {
	out.found = res.Status == resolver.Found
	out.limited = err != nil
	out.status, out.bound, out.stats = res.Status, res.Bound, res.Stats
	out.expanded = res.Expanded
	out.cost = res.Cost
	// Found or not, the chain's storage goes back to the agent, which
	// resolves into it next time.
	out.plan = planOf(res.Chain)
}

// chainOf and planOf view a plan's action IDs as a resolver chain's and
// back, without copying: the runtime keeps every plan as goap.ActionIDs,
// and both kinds of ID are int32s (the ~int32 constraint checks that at
// compile time), so the two slices share one layout.
func chainOf(plan []goap.ActionID) []resolver.ActionID { return viewAs[resolver.ActionID](plan) }

func planOf(chain []resolver.ActionID) []goap.ActionID { return viewAs[goap.ActionID](chain) }

func viewAs[To, From ~int32](s []From) []To {
	return unsafe.Slice((*To)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}
