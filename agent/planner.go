package agent

import (
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// planner answers an agent's requests: GOAP's search for a goal, HTN's
// decomposition of a task, or the resolver's chain search
// (resolver_planner.go). The tick machine, the Queue and the agent's
// events are the same whichever answers.
type planner interface {
	// plan answers r into out, which is zero, with the worker's planners
	// p. It reads only r and the agent's immutable configuration, so it
	// may run on any goroutine.
	plan(p *planners, r *request, out *result)
}

// goapPlanner searches for a plan to the request's goal.
type goapPlanner struct{}

func (goapPlanner) plan(p *planners, r *request, out *result) {
	if r.slice > 0 || r.search != nil {
		planGoapSlice(p, r, out)
		return
	}
	cfg := &r.agent.cfg
	opt := goapOptions(cfg)
	if r.traced {
		opt.Trace = &p.goapTrace
	}
	res, err := p.goapFor(cfg.Domain).Plan(r.plan, r.facts, r.goal, opt)
	if r.traced {
		goapRejected(r, &p.goapTrace, res)
	}
	goapAnswer(out, res, err)
	p.tally.states += res.Expanded
}

// goapOptions returns the options of a GOAP agent's search.
func goapOptions(cfg *Config) goap.Options {
	return goap.Options{Profile: cfg.Profile, Limits: cfg.Limits, Context: cfg.Context}
}

// goapRejected fills a traced agent's rejected list from the trace tr of
// its search, which returned res.
func goapRejected(r *request, tr *goap.Trace, res goap.Result) {
	l := r.agent.log
	var plan []goap.ActionID
	if res.Status == goap.Found {
		plan = res.Plan
	}
	l.rejected = GOAPRejected(l.rejected[:0], r.agent.cfg.Domain, tr, plan)
}

// goapAnswer fills out with a GOAP search's result.
func goapAnswer(out *result, res goap.Result, err error) {
	out.found = res.Status == goap.Found
	out.limited = err != nil
	out.status, out.bound, out.stats = res.Status, res.Bound, res.Stats
	out.expanded = res.Expanded
	out.cost = res.Cost
	if out.found {
		out.plan = res.Plan
	}
}

// htnPlanner decomposes the agent's root task (HTNRoot, or the HTN's), or
// a tree's PlanHTN leaf's, and for an interruption check says whether the
// new plan's MTR beats the running one's.
type htnPlanner struct{}

func (htnPlanner) plan(p *planners, r *request, out *result) {
	if r.slice > 0 || r.search != nil {
		planHTNSlice(p, r, out)
		return
	}
	err := p.htnFor(r.agent.cfg.HTN).Plan(&p.res, r.facts, htnOptions(r))
	htnAnswer(r, out, &p.res, err)
	p.tally.steps += p.res.Steps
}

// htnOptions returns the options of the decomposition r asks for.
func htnOptions(r *request) htn.Options {
	cfg := &r.agent.cfg
	opt := htn.Options{Profile: cfg.Profile, Limits: cfg.Limits, Context: cfg.Context}
	if r.byTask {
		opt.Root, opt.HasRoot = r.task, true
	} else if cfg.HTNRoot != "" {
		opt.Root, _ = cfg.HTN.TaskByName(cfg.HTNRoot) // checked by New
		opt.HasRoot = true
	}
	return opt
}

// htnAnswer fills out with the decomposition res that r asked for.
func htnAnswer(r *request, out *result, res *htn.Result, err error) {
	if r.traced {
		// A decomposition's methods passed over are not recorded as the
		// game runs: ploy why finds them from the record.
		r.agent.log.rejected = r.agent.log.rejected[:0]
	}
	out.found = err == nil && res.Status == htn.Found
	out.limited = err != nil
	out.status, out.bound, out.stats = res.Status, res.Bound, res.Stats
	out.steps = res.Steps
	if out.found {
		out.plan = append(r.plan, res.Plan...)
		out.mtr = append(r.mtr, res.MTR...)
		out.replace = r.kind == interruptRequest && out.mtr.Less(r.running)
	}
}
