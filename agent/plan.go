package agent

import (
	"time"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

type requestKind uint8

const (
	planRequest requestKind = iota
	interruptRequest
)

// request is a planning job: a snapshot of what the search needs, so that
// it can run on a worker without touching the agent.
type request struct {
	agent *Agent
	// planner answers it: the agent's, or HTN's for a tree's PlanHTN
	// leaf. It is set at submit so that a worker need not read the agent.
	planner planner
	ticket  uint64 // its place in a queue
	asked   int    // the agent's tick when it asked, for its decision record
	kind    requestKind
	// traced: the agent traces its decisions; the worker fills its log's
	// rejected list.
	traced bool
	// reach and performing are what delivering the result will touch
	// (see deliveryReach), read from the agent when it asks, where its
	// memory is at hand, so that a worker need not read the agent: reach
	// as far as the agent's configuration says (a chunkDone value), and
	// the step whose behaviour has started, which a result that does not
	// keep it stops (noStep if none).
	reach      uint8
	performing goap.ActionID
	reason     string
	facts      goap.State // the agent's snapshot buffer
	goal       *goap.Goal
	// task, when byTask, is the HTN task a tree's PlanHTN leaf decomposes.
	task    htn.Task
	byTask  bool
	running htn.MTR
	// plan and mtr are the agent's result buffers: it touches none of
	// them while its request is pending, so a worker may fill them.
	plan []goap.ActionID
	mtr  htn.MTR
	// chain is a resolver agent's snapshot, goal and options, in its
	// buffer (facts and goal are unused then).
	chain *chainRequest
	// slice is the most chains a resolver agent's search, or states a
	// GOAP agent's, may expand in this frame (0: the whole search);
	// search holds it while it is suspended from frame to frame; sliced
	// counts what it expanded in earlier frames (see Queue.SetSlice,
	// slices.go).
	slice  int
	sliced int
	search *slicedSearch
}

// result is a resolved request.
type result struct {
	found   bool
	limited bool // budget, depth or step limit
	// status, bound and stats are the search's, for a decision record.
	status   search.Status
	bound    search.Bound
	stats    search.Stats
	plan     []goap.ActionID
	cost     float64
	expanded int
	steps    int
	mtr      htn.MTR
	replace  bool // interrupt: the new plan should replace the running one
	// suspended: the search reached its slice of the frame and goes on
	// in the next; nothing is delivered. frameExpanded is what a sliced
	// search expanded in this frame.
	suspended     bool
	frameExpanded int
}

// planners is what resolves requests: an agent's own, or a worker's.
type planners struct {
	goap map[*goap.Domain]*goap.Planner
	// lastDomain and lastGoap are the goap planner used last: a worker
	// serves one domain's agents in a row, mostly, and skips the map.
	lastDomain *goap.Domain
	lastGoap   *goap.Planner
	htn        map[*htn.Domain]*htn.Planner
	res        htn.Result
	// resolvers serve resolver agents (resolver_planner.go).
	resolvers map[*resolver.Domain]*resolver.Resolver
	// goapTrace and resolverTrace serve traced requests (TraceDecisions).
	goapTrace     goap.Trace
	resolverTrace resolver.Trace
	// slicedTrace and slicedGoapTrace trace a traced search the queue
	// slices, and reserve holds per domain (a *resolver.Domain or a
	// *goap.Domain) what a worker gives a search that reaches its slice
	// (slices.go).
	slicedTrace     *resolver.Trace
	slicedGoapTrace *goap.Trace
	reserve         map[any][]*slicedSearch
	tally           frameTally
	// request and result are an agent's inline request and its answer.
	request request
	result  result
}

func (p *planners) goapFor(d *goap.Domain) *goap.Planner {
	if d != p.lastDomain || p.lastGoap == nil {
		p.lastDomain, p.lastGoap = d, cached(&p.goap, d, goap.NewPlanner)
	}
	return p.lastGoap
}

func (p *planners) htnFor(d *htn.Domain) *htn.Planner {
	return cached(&p.htn, d, htn.NewPlanner)
}

// cached returns the planner for domain d in m, making it on first use: a
// planner is reusable but not shareable, so each resolver keeps its own.
func cached[D comparable, P any](m *map[D]P, d D, newPlanner func(D) P) P {
	if pl, ok := (*m)[d]; ok {
		return pl
	}
	if *m == nil {
		*m = map[D]P{}
	}
	pl := newPlanner(d)
	(*m)[d] = pl
	return pl
}

// request asks for a plan: inline, or through the agent's queue.
func (a *Agent) request(r request) {
	r.agent, r.planner, r.asked = a, a.planner, a.tick
	r.traced = a.tracesDecisions()
	if r.byTask {
		r.planner = htnPlanner{}
	}
	r.facts, r.goal, r.chain = a.world.snapshot(a)
	r.plan, r.mtr = a.resultPlan[:0], a.resultMTR[:0]
	if r.kind == interruptRequest {
		r.running = a.mtr
	}
	if q := a.cfg.Queue; q != nil {
		a.noteReach(&r)
		a.ticket = q.submit(r)
		a.pending, a.queuedIn = true, q
		a.queuedReplan = 0
		if r.kind == planRequest {
			a.queuedReplan = reasonCode(r.reason)
		}
		return
	}
	if a.own == nil {
		a.own = &planners{}
	}
	// The request and its result live in the agent's planners, not on the
	// stack: the planner is called through an interface, which would move
	// them to the heap at every plan.
	own := a.own
	own.request, own.result = r, result{}
	if a.cfg.TimePlanning {
		start := time.Now()
		resolve(own, &own.request, &own.result)
		a.stats.PlanningTime += time.Since(start)
	} else {
		resolve(own, &own.request, &own.result)
	}
	a.apply(&own.request, &own.result)
}

// resolve runs a request's search into out, which is zero, with its
// planner. It reads only the request and the agent's immutable
// configuration, so it may run on any goroutine.
func resolve(p *planners, r *request, out *result) { r.planner.plan(p, r, out) }

// noStep is a request's performing when no behaviour has started.
const noStep goap.ActionID = -1

// noteReach fills r's reach and performing from the agent, as it asks.
// They must follow apply: the game's code runs there through an event
// callback, a decision sink of the game's and a started behaviour's Stop
// (dropPlan, when the result does not keep the running step); a
// FlightRecorder is shared by other agents. None of what they read
// changes while the request waits: a waiting agent's Tick returns before
// it touches its plan.
func (a *Agent) noteReach(r *request) {
	switch {
	case a.cfg.OnEvent != nil || a.recordsToGameCode():
		r.reach = uint8(chunkGameCode)
	case a.log != nil:
		r.reach = uint8(chunkOrdered)
	default:
		r.reach = uint8(chunkPrivate)
	}
	r.performing = noStep
	if a.running && !a.walking {
		r.performing = a.plan[a.step]
	}
}

// deliveryReach says what applying res to r's agent would touch beyond
// the agent itself (a chunkDone value), for a Queue to choose who may
// deliver it and when.
func deliveryReach(r *request, res *result) uint32 {
	if res.suspended { // nothing is delivered: it goes on next frame
		return chunkPrivate
	}
	if r.performing != noStep { // does apply stop the behaviour?
		refused := r.kind == interruptRequest && !res.replace
		notFound := r.kind == planRequest && !res.found
		kept := len(res.plan) > 0 && res.plan[0] == r.performing
		if !refused && (notFound || !kept) {
			return chunkGameCode
		}
	}
	return uint32(r.reach)
}

// apply takes a resolved request's result on the agent's goroutine.
func (a *Agent) apply(r *request, res *result) {
	a.pending = false
	if a.log != nil {
		a.recordDecision(r, res)
	}
	a.resultPlan, a.resultMTR = res.plan, res.mtr // keep the grown buffers
	a.stats.Plans++
	a.stats.Expanded += res.expanded
	a.stats.Steps += res.steps
	if r.kind == interruptRequest {
		if !res.replace {
			a.stats.InterruptsRefused++
			a.emit(Event{Kind: InterruptRefused, Reason: r.reason, Steps: res.steps, MTR: res.mtr})
			return
		}
		top := len(a.mtr) == 0 || len(res.mtr) == 0 || a.mtr[0] != res.mtr[0]
		a.stats.Interruptions++
		a.stats.Replans++
		a.countReplan(ReasonInterruption)
		if top {
			a.stats.TopLevelChanges++
		}
		a.emit(Event{Kind: InterruptTaken, Reason: r.reason, Plan: a.actionNames(res.plan), Steps: res.steps, MTR: res.mtr, TopLevel: top})
		a.adopt(res.plan, res.mtr)
		return
	}
	if a.planned {
		a.stats.Replans++
		a.countReplan(r.reason)
		if a.cfg.OnEvent != nil { // a crowd nobody observes builds no events
			a.emit(Event{Kind: Replanned, Reason: r.reason})
		}
	}
	if !res.found {
		// A resolver agent's running step went on while it resolved (a
		// plan's was dropped when it asked).
		a.dropPlan()
		a.stats.NoPlan++
		a.planned = true
		a.done = false
		a.retryAt = a.tick + a.cfg.RetryAfter
		reason := "no plan"
		if res.limited {
			reason = "search limit"
		}
		a.emit(Event{Kind: NoPlanFound, Reason: reason, Expanded: res.expanded, Steps: res.steps})
		if a.goal != nil {
			// Fall back: let goal choice pass over this goal until the retry.
			for i := range a.cfg.Goals {
				if &a.cfg.Goals[i] == a.goal {
					a.goalMem[i].blockedUntil = a.tick + max(a.cfg.RetryAfter, 1)
				}
			}
			a.goal = nil
		}
		return
	}
	if a.cfg.OnEvent != nil {
		a.emit(Event{Kind: PlanMade, Plan: a.actionNames(res.plan), Cost: res.cost, Expanded: res.expanded, Steps: res.steps, MTR: res.mtr})
	}
	a.adopt(res.plan, res.mtr)
}
