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
		bytes += q.carried[i].search.rs.Bytes()
	}
	return len(q.carried), bytes
}

// slicedSearch is where a resolver agent's search runs when the queue
// slices it: a resolver of the queue's, not a worker's, so that a search
// suspended at the end of a frame keeps its open list and chains there
// and goes on in the next frame on whichever worker takes it, and the
// trace of a traced agent's search.
type slicedSearch struct {
	rs *resolver.Resolver
	tr *resolver.Trace
}

// giveSearches gives each resolver request of the frame's batch that
// has no search a search of its domain, from those no request holds or
// a new one, on the game's goroutine before the workers start: the
// queue makes at most PerFrame searches per domain, the most a frame
// holds, and a warm queue none.
func (q *Queue) giveSearches(batch []request) {
	if q.slice == 0 {
		return
	}
	for i := range batch {
		r := &batch[i]
		if r.chain == nil || r.search != nil {
			continue
		}
		d := r.chain.goal.Domain()
		idle := q.idle[d]
		if n := len(idle); n > 0 {
			r.search = idle[n-1]
			idle[n-1] = nil
			q.idle[d] = idle[:n-1]
			continue
		}
		r.search = &slicedSearch{rs: resolver.NewResolver(d)}
	}
}

// idleSearch takes back a search no request holds any more, dropping
// what it held of its agent's.
func (q *Queue) idleSearch(s *slicedSearch) {
	s.rs.Abandon()
	if q.idle == nil {
		q.idle = map[*resolver.Domain][]*slicedSearch{}
	}
	d := s.rs.Domain()
	q.idle[d] = append(q.idle[d], s)
}

// planSlice runs a slice of a resolver agent's search on the search the
// queue gave its request: it begins the search, or goes on with the one
// suspended in an earlier frame.
func planSlice(p *planners, r *request, out *result) {
	c := r.chain
	s := r.search
	slice := r.slice
	if slice == 0 { // SetSlice(0) while the search was suspended: finish it
		slice = math.MaxInt
	}
	if !s.rs.Suspended() {
		opt := *c.opt
		if r.traced {
			if s.tr == nil {
				s.tr = new(resolver.Trace)
			}
			opt.Trace = s.tr
		}
		s.rs.Begin(chainOf(r.plan), &c.snap, c.goal, opt)
	}
	out.sliced = true
	if !s.rs.Continue(slice) {
		// Every slice but a search's last expands exactly its chains.
		r.sliced += slice
		out.suspended, out.frameExpanded = true, slice
		return
	}
	res, err := s.rs.Result()
	if r.traced {
		l := r.agent.log
		var chain []resolver.ActionID
		if res.Status == resolver.Found {
			chain = res.Chain
		}
		l.rejected = ResolverRejected(l.rejected[:0], c.goal.Domain(), s.tr, chain, res.Cost)
	}
	answer(out, res, err)
	out.frameExpanded = res.Expanded - r.sliced
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
			if r.search != nil {
				q.idleSearch(r.search)
			}
			continue
		}
		st.Suspended++
		if a := r.agent; a.pending && a.queuedIn == q && a.ticket == r.ticket {
			q.carried = append(q.carried, *r)
		} else {
			q.idleSearch(r.search)
		}
	}
	q.lastFrame = st
}

// dropSuspended drops the suspended search of the request with ticket,
// if one is carried, and reports whether it was.
func (q *Queue) dropSuspended(ticket uint64) bool {
	for i := range q.carried {
		if q.carried[i].ticket == ticket {
			q.idleSearch(q.carried[i].search)
			q.carried = slices.Delete(q.carried, i, i+1) // which clears the freed slot
			return true
		}
	}
	return false
}
