package agent

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
)

// Searches that span frames: a queue with a slice (SetSlice) gives each
// resolver agent's search at most that many chain expansions per frame,
// each GOAP agent's search at most that many state expansions, and each
// HTN agent's decomposition at most that many steps. A search that
// reaches its slice is suspended, its open list and nodes (or task stack
// and choice points) kept in the resolver or planner it ran on
// (resolver.Resolver.Begin, goap.Planner.Begin, htn.Planner.Begin, and
// their Continue), and goes on in the next frame from where it stopped,
// ahead of every request asked after it. It ends with exactly the plan,
// cost and counts the whole search would have.

// SetSlice sets the most chains one resolver agent's search, the most
// states one GOAP agent's search, and the most steps one HTN agent's
// decomposition may spend in one Frame, from the next Frame on; 0, the
// default, lets each search run whole within its own limits, as before.
// With a slice S the frame's planning cost is bounded: the searches of a
// Frame spend at most PerFrame × S chains, states and steps between them
// (LastFrame counts each). A resolver search of node budget B (its
// Limits.Budget, resolver.DefaultBudget if unset) ends within ⌈B / S⌉
// frames; a GOAP search within ⌈E / S⌉, E the states it expands, at most
// its budget B (goap.DefaultBudget if unset), or 2B for a search whose
// delayed search hands over and starts again (goap.Planner says when); an
// HTN decomposition of step cap B (its Limits.MaxSteps,
// htn.DefaultMaxSteps if unset) within ⌈B / S⌉. The queue answers
// requests in the order they were asked, PerFrame at a time, a suspended
// search keeping its place: so a request with p − 1 others ahead of it
// when asked (suspended searches included, Len counts them all) is
// answered within ⌈p / PerFrame⌉ × ⌈B / S⌉ frames, B the largest budget
// or step cap of the agents ahead of it and its own, a GOAP agent's
// counted twice where its search may hand over.
//
// A suspended search holds its resolver or planner (Suspended reports how
// many and their bytes): at most PerFrame are suspended at once, each
// bounded by its own memory and work limits as a whole search is. Cancel
// and Remove drop an agent's suspended search. SetSlice panics
// on a negative slice.
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

// SetMinShare sets the fewest requests a Frame hands each worker, from
// the next Frame on: a frame of n requests runs on at most n / share of
// the queue's workers (at least one, the goroutine that calls Frame).
// The default, 1, wakes every worker for a frame of as many requests.
//
// Waking a helper costs the frame a futex wake and the helper's sleep
// again, and the helper reads agents the game's goroutine just wrote:
// tens of microseconds on a virtual machine, as much as resolving a few
// dozen plain requests. A game whose frames are small pays that for
// nothing: examples/colony's 600 settlers ask about 42 requests a tick,
// and a tick took 261 µs on two workers against 202 µs on one; with a
// share of 64, 206 µs on two (docs/performance.md). A game whose frames hold
// a few long searches keeps a small share. Which worker resolves a
// request never changes what an agent gets: only how long the frame
// takes. SetMinShare panics on a share below 1. Reserve still starts
// every helper; a frame wakes only those it needs.
func (q *Queue) SetMinShare(share int) {
	q.enter("SetMinShare")
	defer q.leave()
	if share < 1 {
		panic(fmt.Sprintf("agent: Queue.SetMinShare(%d): a share is at least 1 request a worker", share))
	}
	q.minShare = share
}

// MinShare returns the queue's share (SetMinShare): the fewest requests
// a frame gives each worker it wakes.
func (q *Queue) MinShare() int { return q.minShare }

// FrameStats is what one Frame did.
type FrameStats struct {
	// Taken is the requests the frame searched for: the suspended searches
	// it went on with and the requests it took from the line.
	Taken int
	// Ended is the searches that ended (answered, or cancelled meanwhile);
	// Suspended the resolver and GOAP searches that reached their slice
	// and go on in the next frame.
	Ended, Suspended int
	// Chains is the chains the frame's resolver searches expanded, States
	// the states its GOAP searches expanded (a sliced search's count
	// includes those of a delayed search that handed over, which
	// goap.Result.Expanded does not), and Steps the steps its HTN
	// decompositions took: with a slice, Chains + States + Steps is at
	// most PerFrame × Slice.
	Chains, States, Steps int
	// Workers is how many workers the frame ran on: the goroutine that
	// called Frame and the helpers it woke (SetMinShare).
	Workers int
}

// LastFrame returns what the last Frame did.
func (q *Queue) LastFrame() FrameStats { return q.lastFrame }

// Suspended returns how many resolver and GOAP searches and HTN
// decompositions are suspended, waiting for the next Frame, and the bytes
// their resolvers and planners hold.
func (q *Queue) Suspended() (searches int, bytes int64) {
	for i := range q.carried {
		switch s := q.carried[i].search; {
		case s.rs != nil:
			bytes += s.rs.Bytes()
		case s.gp != nil:
			bytes += s.gp.Bytes()
		default:
			bytes += s.hp.Bytes()
		}
	}
	return len(q.carried), bytes
}

// slicedSearch is a resolver or GOAP agent's search suspended at the end
// of a frame: the resolver or planner that holds its open list and nodes
// (rs or gp, the other nil), and the trace of a traced agent's search. A
// search begins on the worker's own resolver or planner, as a whole one
// does; only when it reaches its slice does the worker hand that one to
// the request, in a slicedSearch from its reserve, and take the
// reserve's as its own. The request carries it to whichever worker takes
// it next frame; when it ends, the queue takes it back and deals it out
// again between frames.
type slicedSearch struct {
	rs  *resolver.Resolver
	tr  *resolver.Trace
	gp  *goap.Planner
	gtr *goap.Trace
	hp  *htn.Planner // an HTN agent's decomposition (the others nil)
}

// coroutine returns the GOAP or HTN planner whose suspended search waits
// in a coroutine (goap.Planner.Begin, htn.Planner.Begin), nil for a
// resolver's.
func (s *slicedSearch) coroutine() abandoner {
	switch {
	case s.gp != nil:
		return s.gp
	case s.hp != nil:
		return s.hp
	}
	return nil
}

// abandoner is a planner whose suspended search can be dropped.
type abandoner interface{ Abandon() }

// planSlice runs a slice of a resolver agent's search: it begins the
// search on the worker's resolver, or goes on with the one suspended in
// an earlier frame.
func planSlice(p *planners, r *request, out *result) {
	c := r.chain
	d := c.goal.Domain()
	slice := r.slice
	if slice == 0 { // SetSlice(0) while the search was suspended: finish it
		slice = math.MaxInt
	}
	var rs *resolver.Resolver
	var tr *resolver.Trace
	if s := r.search; s != nil {
		rs, tr = s.rs, s.tr
	} else {
		rs = cached(&p.resolvers, d, resolver.NewResolver)
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
	if !rs.Continue(slice) {
		if r.search == nil {
			r.search = p.suspend(d, rs, tr)
		}
		p.spentSlice(r, out, slice, &p.tally.chains)
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
	p.tally.chains += out.frameExpanded
	if r.search != nil {
		p.tally.resumed++
	}
}

// spentSlice counts a search that spent its slice and goes on next
// frame (r.search holds it): every slice but a search's last spends
// exactly its chains, states or steps, which the tally spent counts.
func (p *planners) spentSlice(r *request, out *result, slice int, spent *int) {
	r.sliced += slice
	out.suspended, out.frameExpanded = true, slice
	*spent += slice
	p.tally.suspended++
}

// suspend hands the worker's resolver for d, which holds a search that
// reached its slice, and the search's trace tr (nil if untraced) to a
// slicedSearch from the worker's reserve, whose resolver and trace the
// worker takes as its own in their place (a new resolver, made when next
// needed, if the reserve has none of d).
func (p *planners) suspend(d *resolver.Domain, rs *resolver.Resolver, tr *resolver.Trace) *slicedSearch {
	s := p.fromReserve(d)
	if s.rs != nil {
		p.resolvers[d] = s.rs
	} else {
		delete(p.resolvers, d)
	}
	if tr != nil {
		p.slicedTrace, s.tr = s.tr, tr
	}
	s.rs = rs
	return s
}

// fromReserve takes a slicedSearch for domain d (a *resolver.Domain or a
// *goap.Domain) from the worker's reserve, or a new empty one.
func (p *planners) fromReserve(d any) *slicedSearch {
	if n := len(p.reserve[d]); n > 0 {
		s := p.reserve[d][n-1]
		p.reserve[d][n-1] = nil
		p.reserve[d] = p.reserve[d][:n-1]
		return s
	}
	return &slicedSearch{}
}

// suspendGoap is suspend for a GOAP agent's search, on the worker's
// planner gp for d: the worker takes the reserve's planner and trace in
// place of gp and tr.
func (p *planners) suspendGoap(d *goap.Domain, gp *goap.Planner, tr *goap.Trace) *slicedSearch {
	s := p.fromReserve(d)
	if s.gp != nil {
		p.goap[d] = s.gp
	} else {
		delete(p.goap, d)
	}
	p.lastDomain, p.lastGoap = nil, nil // goapFor's shortcut held gp
	if tr != nil {
		p.slicedGoapTrace, s.gtr = s.gtr, tr
	}
	s.gp = gp
	return s
}

// planGoapSlice runs a slice of a GOAP agent's search: it begins the
// search on the worker's planner, or goes on with the one suspended in an
// earlier frame.
func planGoapSlice(p *planners, r *request, out *result) {
	d := r.agent.cfg.Domain
	slice := r.slice
	if slice == 0 { // SetSlice(0) while the search was suspended: finish it
		slice = math.MaxInt
	}
	var gp *goap.Planner
	var tr *goap.Trace
	if s := r.search; s != nil {
		gp, tr = s.gp, s.gtr
	} else {
		gp = p.goapFor(d)
		opt := goapOptions(&r.agent.cfg)
		if r.traced {
			if p.slicedGoapTrace == nil {
				p.slicedGoapTrace = new(goap.Trace)
			}
			tr = p.slicedGoapTrace
			opt.Trace = tr
		}
		// It runs on whichever planner the worker holds, dealt from the
		// reserves however the frames went: its Work, for the decision
		// record, does not depend on what that planner searched before
		// (a kept estimate counts the work it took).
		gp.Begin(r.plan, r.facts, r.goal, opt)
	}
	if !gp.Continue(slice) {
		if r.search == nil {
			r.search = p.suspendGoap(d, gp, tr)
		}
		p.spentSlice(r, out, slice, &p.tally.states)
		return
	}
	expanded := gp.Expanded()
	res, err := gp.Result()
	if r.traced {
		goapRejected(r, tr, res)
	}
	goapAnswer(out, res, err)
	out.frameExpanded = expanded - r.sliced
	p.tally.states += out.frameExpanded
	if r.search != nil {
		p.tally.resumed++
	}
}

// planHTNSlice runs a slice of an HTN agent's decomposition (its steps,
// the slice counting steps as it counts a GOAP search's states): it
// begins the decomposition on the worker's planner, or goes on with the
// one suspended in an earlier frame.
func planHTNSlice(p *planners, r *request, out *result) {
	d := r.agent.cfg.HTN
	slice := r.slice
	if slice == 0 { // SetSlice(0) while it was suspended: finish it
		slice = math.MaxInt
	}
	var hp *htn.Planner
	if s := r.search; s != nil {
		hp = s.hp
	} else {
		hp = p.htnFor(d)
		hp.Begin(r.facts, htnOptions(r))
	}
	if !hp.Continue(slice) {
		if r.search == nil {
			r.search = p.suspendHTN(d, hp)
		}
		p.spentSlice(r, out, slice, &p.tally.steps)
		return
	}
	steps := hp.Steps()
	err := hp.Result(&p.res)
	htnAnswer(r, out, &p.res, err)
	out.frameExpanded = steps - r.sliced
	p.tally.steps += out.frameExpanded
	if r.search != nil {
		p.tally.resumed++
	}
}

// suspendHTN is suspend for an HTN agent's decomposition, on the worker's
// planner hp for d: the worker takes the reserve's planner in its place.
func (p *planners) suspendHTN(d *htn.Domain, hp *htn.Planner) *slicedSearch {
	s := p.fromReserve(d)
	if s.hp != nil {
		p.htn[d] = s.hp
	} else {
		delete(p.htn, d)
	}
	s.hp = hp
	return s
}

// idleSearch takes back a search no request holds any more, dropping
// what it held of its agent's.
func (q *Queue) idleSearch(s *slicedSearch) {
	var d any
	switch {
	case s.rs != nil:
		s.rs.Abandon()
		d = s.rs.Domain()
	case s.gp != nil:
		s.gp.Abandon()
		d = s.gp.Domain()
	default:
		s.hp.Abandon()
		d = s.hp.Domain()
	}
	if q.idle == nil {
		q.idle = map[any][]*slicedSearch{}
	}
	if _, ok := q.idle[d]; !ok {
		q.domains = append(q.domains, d)
	}
	q.idle[d] = append(q.idle[d], s)
}

// fillReserves deals the idle searches out to the workers' reserves,
// between frames when no worker runs, in worker order: up to PerFrame
// each per domain, since a frame suspends at most PerFrame and any
// worker may take them all (a reserve sized by the last frame ran out
// whenever the next suspended more, and made new ones). A reserve holds
// only what searches once needed: a queue whose searches never span
// frames holds none. The idle searches left over are dropped.
func (q *Queue) fillReserves() {
	want := q.perFrame
	for _, d := range q.domains {
		idle := q.idle[d]
		for _, w := range q.planners {
			if w.reserve == nil {
				w.reserve = map[any][]*slicedSearch{}
			}
			for len(w.reserve[d]) < want && len(idle) > 0 {
				w.reserve[d] = append(w.reserve[d], idle[len(idle)-1])
				idle[len(idle)-1] = nil
				idle = idle[:len(idle)-1]
			}
		}
		clear(idle)
		q.idle[d] = idle[:0]
	}
}

// keepSuspended moves the frame's suspended searches whose agents still
// wait for them to the queue's carried list, in the order they were
// asked, and counts the frame. A search whose agent cancelled its
// request meanwhile is dropped. It clears the batch's sliced requests,
// which the workers' deliveries left (deliverChunk).
func (q *Queue) keepSuspended(batch []request, results []result) {
	st := FrameStats{Taken: len(batch), Workers: q.frameWorkers}
	resumed := 0
	for _, w := range q.planners {
		t := &w.tally
		st.Chains += t.chains
		st.States += t.states
		st.Steps += t.steps
		st.Suspended += t.suspended
		resumed += t.resumed
		*t = frameTally{}
	}
	st.Ended = st.Taken - st.Suspended
	q.lastFrame = st
	if st.Suspended+resumed == 0 {
		return // no search was sliced this frame: nothing to keep or take back
	}
	for i := range batch {
		r, res := &batch[i], &results[i]
		switch {
		case !res.suspended && r.search != nil: // a resumed search ended
			q.idleSearch(r.search)
		case !res.suspended:
		case r.agent.pending && r.agent.queuedIn == q && r.agent.ticket == r.ticket:
			q.carried = append(q.carried, *r)
		default: // cancelled meanwhile
			q.idleSearch(r.search)
		}
		if r.search != nil {
			*r, *res = request{}, result{}
		}
	}
	q.fillReserves()
	q.noteSuspendedCoroutines()
}

// suspendedPlanners lists the GOAP and HTN planners holding the searches
// a queue carries to its next frame, for the queue's cleanup: a suspended
// GOAP search or HTN decomposition waits in a coroutine, a goroutine that
// holds its planner, and a game that drops a queue with searches
// suspended (and its agents with it) would otherwise leave them parked
// for good. It holds no pointer to the queue, so that the queue can be
// collected.
type suspendedPlanners struct{ planners []abandoner }

// noteSuspendedCoroutines lists the planners of the carried GOAP searches
// and HTN decompositions, once a frame, making the list and registering
// the cleanup that abandons them the first time there are any. A planner
// whose search ended or was dropped since stays listed until the next
// frame: abandoning it then does nothing.
func (q *Queue) noteSuspendedCoroutines() {
	l := q.coroutinesCarried
	if l == nil {
		found := false
		for i := range q.carried {
			found = found || q.carried[i].search.coroutine() != nil
		}
		if !found {
			return
		}
		l = &suspendedPlanners{}
		q.coroutinesCarried = l
		runtime.AddCleanup(q, func(l *suspendedPlanners) {
			for _, p := range l.planners {
				p.Abandon()
			}
		}, l)
	}
	l.planners = l.planners[:0]
	for i := range q.carried {
		if c := q.carried[i].search.coroutine(); c != nil {
			l.planners = append(l.planners, c)
		}
	}
}

// dropFrame forgets a frame a worker's panic cut short: its counts, and
// the reason its suspended searches were dropped (their agents ask
// again) is in Frame.
func (q *Queue) dropFrame() {
	for _, w := range q.planners {
		w.tally = frameTally{}
	}
	q.lastFrame = FrameStats{}
}

// frameTally is what a worker's searches did this frame, summed into
// Queue.LastFrame between frames (by the worker, so that a frame need not
// read its batch again to count).
type frameTally struct {
	chains, states, steps int
	// suspended counts the searches that reached their slice, resumed
	// those suspended in an earlier frame that ended in this one.
	suspended, resumed int
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
