package agent

import (
	"fmt"
	"math"
	"slices"

	"github.com/ploy-ai/ploy/resolver"
)

// Searches that span frames: a queue with a slice (SetSlice) gives each
// resolver agent's search at most that many chain expansions per frame. A
// search that reaches its slice is suspended, its open list and chains
// kept in the resolver it ran on (resolver.Resolver.Begin, Continue), and
// goes on in the next frame from where it stopped, ahead of every request
// asked after it. It ends with exactly the chain, cost and counts the
// whole search would have.

// SetSlice sets the most chains one resolver agent's search may expand in
// one Frame, from the next Frame on; 0, the default, lets each search run
// whole within its own node budget, as before. With a slice S the
// frame's planning cost is bounded: the resolver searches of a Frame
// expand at most PerFrame × S chains between them. A search of node
// budget B (its Limits.Budget, resolver.DefaultBudget if unset) ends
// within ⌈B / S⌉ frames, and the queue answers requests in the order they
// were asked, PerFrame at a time, a suspended search keeping its place:
// so a request with p − 1 others ahead of it when asked (suspended
// searches included, Len counts them all) is answered within
// ⌈p / PerFrame⌉ × ⌈B / S⌉ frames, B the largest budget of the resolver
// agents ahead of it and its own (a GOAP or HTN request ahead counts as
// one frame: their searches are not sliced and run whole within their own
// limits, beside the resolver agents' budget).
//
// A suspended search holds its resolver (Suspended reports how many and
// their bytes): at most PerFrame are suspended at once, each bounded by
// its own work limit as a whole search is. Cancel and Remove drop an
// agent's suspended search. SetSlice panics on a negative slice.
func (q *Queue) SetSlice(expansions int) {
	q.enter("SetSlice")
	defer q.leave()
	if expansions < 0 {
		panic(fmt.Sprintf("agent: Queue.SetSlice(%d): a slice is 0 (none) or a number of expansions", expansions))
	}
	q.slice = expansions
}

// Slice returns the queue's slice (SetSlice); 0 means none.
func (q *Queue) Slice() int { return q.slice }

// FrameStats is what one Frame did.
type FrameStats struct {
	// Taken is the requests the frame searched for: the suspended searches
	// it went on with and the requests it took from the line.
	Taken int
	// Ended is the searches that ended (answered, or cancelled meanwhile);
	// Suspended the resolver searches that reached their slice and go on
	// in the next frame.
	Ended, Suspended int
	// Chains is the chains the frame's resolver searches expanded: at
	// most PerFrame × Slice with a slice. States is the states its GOAP
	// searches expanded, which are not sliced (HTN decompositions count
	// steps, not expansions, and are in neither).
	Chains, States int
}

// LastFrame returns what the last Frame did.
func (q *Queue) LastFrame() FrameStats { return q.lastFrame }

// Suspended returns how many resolver searches are suspended, waiting for
// the next Frame, and the bytes their resolvers hold.
func (q *Queue) Suspended() (searches int, bytes int64) {
	for i := range q.carried {
		bytes += q.carried[i].resuming.Bytes()
	}
	return len(q.carried), bytes
}

// planSlice runs a slice of a resolver agent's search with worker p: it
// begins the search on the worker's resolver, or goes on with the one a
// request brings from an earlier frame. A search that reaches its slice
// keeps the resolver (and its trace), and the worker takes another for
// its next request; a resumed search that ends gives its resolver back.
func planSlice(p *planners, r *request, out *result) {
	c := r.chain
	d := c.goal.Domain()
	slice := r.slice
	if slice == 0 { // SetSlice(0) while the search was suspended: finish it
		slice = math.MaxInt
	}
	rs, tr := r.resuming, r.resumingTrace
	if rs == nil {
		rs = p.resolverFor(d)
		opt := *c.opt
		if r.traced {
			if p.slicedTrace == nil {
				p.slicedTrace = new(resolver.Trace)
			}
			tr = p.slicedTrace
			opt.Trace = tr
		}
		rs.Begin(chainOf(r.plan), &c.snap, c.goal, opt)
	}
	out.sliced = true
	if !rs.Continue(slice) {
		if r.resuming == nil {
			r.resuming, r.resumingTrace = rs, tr
			delete(p.resolvers, d)
			if tr != nil {
				p.slicedTrace = nil
			}
		}
		// Every slice but a search's last expands exactly its chains.
		r.sliced += slice
		out.suspended, out.frameExpanded = true, slice
		return
	}
	res, err := rs.Result()
	if r.traced {
		l := r.agent.log
		var chain []resolver.ActionID
		if res.Status == resolver.Found {
			chain = res.Chain
		}
		l.rejected = ResolverRejected(l.rejected[:0], d, tr, chain, res.Cost)
	}
	answer(out, res, err)
	out.frameExpanded = res.Expanded - r.sliced
	if r.resuming != nil {
		p.giveBack(rs)
		if tr != nil && p.slicedTrace == nil {
			p.slicedTrace = tr
		}
		r.resuming, r.resumingTrace = nil, nil
	}
}

// spareResolvers is how many resolvers a worker keeps that suspended
// searches gave back, for the next searches that suspend: a few, so that
// a queue whose searches span frames does not make one per search.
const spareResolvers = 8

// resolverFor returns the worker's resolver for d: its own, a spare, or
// a new one.
func (p *planners) resolverFor(d *resolver.Domain) *resolver.Resolver {
	if rs, ok := p.resolvers[d]; ok {
		return rs
	}
	for i := len(p.spare) - 1; i >= 0; i-- {
		if rs := p.spare[i]; rs.Domain() == d {
			p.spare = append(p.spare[:i], p.spare[i+1:]...)
			return cached(&p.resolvers, d, func(*resolver.Domain) *resolver.Resolver { return rs })
		}
	}
	return cached(&p.resolvers, d, resolver.NewResolver)
}

// giveBack takes the resolver of a resumed search that ended: the
// worker's own for its domain if it has none, else a spare, else garbage.
func (p *planners) giveBack(rs *resolver.Resolver) {
	d := rs.Domain()
	if _, ok := p.resolvers[d]; !ok {
		cached(&p.resolvers, d, func(*resolver.Domain) *resolver.Resolver { return rs })
		return
	}
	if len(p.spare) < spareResolvers {
		p.spare = append(p.spare, rs)
	}
}

// keepSuspended moves the frame's suspended searches whose agents still
// wait for them to the queue's carried list, in the order they were
// asked, and counts the frame. A search whose agent cancelled its
// request meanwhile is dropped.
func (q *Queue) keepSuspended(batch []request, results []result) {
	st := FrameStats{Taken: len(batch)}
	for i := range batch {
		r, res := &batch[i], &results[i]
		switch {
		case res.sliced:
			st.Chains += res.frameExpanded
		case r.chain != nil:
			st.Chains += res.expanded
		case r.planner == (goapPlanner{}):
			st.States += res.expanded
		}
		if !res.suspended {
			st.Ended++
			continue
		}
		st.Suspended++
		if a := r.agent; a.pending && a.queuedIn == q && a.ticket == r.ticket {
			q.carried = append(q.carried, *r)
		} else {
			r.resuming.Abandon()
		}
	}
	q.lastFrame = st
}

// dropSuspended drops the suspended search of the request with ticket,
// if one is carried, and reports whether it was.
func (q *Queue) dropSuspended(ticket uint64) bool {
	for i := range q.carried {
		if q.carried[i].ticket == ticket {
			q.carried[i].resuming.Abandon()
			q.carried = slices.Delete(q.carried, i, i+1) // which clears the freed slot
			return true
		}
	}
	return false
}
