// Package replay decides a recording's decisions again, from what each
// one read: the snapshot taken when the agent asked, its goal options,
// its profile and limits (agent.Decision). Against the recording's own
// domain every decision must come out as it did: that is what makes a
// recording trustworthy. Against an edited domain the decisions that come
// out otherwise are what the edit would have changed: a designer's
// regression test for behaviour (`ploy replay --domain`).
//
// Each decision is decided again on its own, from what the agent saw
// then: a what-if says which decisions the edit changes, not what the
// game would have gone on to do after the first of them (the world would
// have diverged, and the world is the game's code).
//
// It is a package of its own, apart from package agent, because it joins
// the records (package agent) with the planners and the domain files
// (package domain), as agentfile joins agents and files; `ploy replay`
// and `ploy why` are its command-line face.
package replay

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
)

// Domain is what decisions are decided against: the planners' domains
// (those the recording's agents used, or edited ones), and, when they
// came from a domain file, the file itself.
type Domain struct {
	GOAP     *goap.Domain
	HTN      *htn.Domain
	Resolver *resolver.Domain
	// Goals are GOAP goals the game built beyond the domain's
	// (goap.Domain.NewGoal), found by name after the domain's own.
	Goals []*goap.Goal
	// File, if not nil, gives the agent kinds of the file's agents:
	// section. A decision whose agent_kind names one of them is decided
	// with that kind's profile (a what-if on its capabilities and costs)
	// and, for a resolver agent, with that kind's goal options, weighed on
	// the recorded snapshot (a what-if on utilities, priorities and
	// conditions). A GOAP kind's options may read the game's inputs,
	// which a record does not hold: its options' scores are the
	// recorded ones.
	File *domain.File
	// Distance prices the walks of decisions recorded with the game's own
	// distance model ("distance": "game"); without it they cannot be
	// decided again.
	Distance resolver.DistanceModel
}

// FromFile returns the Domain of a loaded domain file.
func FromFile(f *domain.File) Domain {
	return Domain{GOAP: f.GOAP, HTN: f.HTN, Resolver: f.Resolver, File: f}
}

// Outcome is what a decision came to: the goal chosen, the plan and its
// cost, the search's status, and for an HTN interruption whether the new
// plan was taken. Error, when not empty, says why the decision could not
// be made at all (a goal or an action the domain no longer has, a cost
// that was the game's function).
type Outcome struct {
	Goal   string   `json:"goal,omitempty"`
	Plan   []string `json:"plan"`
	Cost   float64  `json:"cost"`
	Status string   `json:"status"`
	Taken  bool     `json:"taken,omitempty"`
	Error  string   `json:"error,omitempty"`
}

// Recorded returns the outcome decision d recorded.
func Recorded(d *agent.Decision) Outcome {
	o := Outcome{Goal: d.Goal, Plan: []string{}, Cost: d.Cost, Status: d.Status, Taken: d.Taken}
	for _, s := range d.Plan {
		o.Plan = append(o.Plan, s.Action)
	}
	return o
}

// Differences names what differs between two outcomes: "goal", "plan",
// "cost", "status", "taken", "error". Costs are compared exactly: the
// same search on the same snapshot sums the same floats in the same
// order.
func Differences(before, after Outcome) []string {
	var out []string
	if before.Goal != after.Goal {
		out = append(out, "goal")
	}
	if !slices.Equal(before.Plan, after.Plan) {
		out = append(out, "plan")
	}
	if before.Cost != after.Cost && !(math.IsNaN(before.Cost) && math.IsNaN(after.Cost)) {
		out = append(out, "cost")
	}
	if before.Status != after.Status {
		out = append(out, "status")
	}
	if before.Taken != after.Taken {
		out = append(out, "taken")
	}
	if before.Error != after.Error {
		out = append(out, "error")
	}
	return out
}

// Change is a decision that came out otherwise: which, its recorded
// outcome, the new one, and what differs.
type Change struct {
	Index   int      `json:"index"` // the decision's place in the recording, from 0
	Tick    int      `json:"tick"`
	Agent   string   `json:"agent"`
	Kind    string   `json:"kind"`
	Decided string   `json:"decided"`
	What    []string `json:"what"`
	Before  Outcome  `json:"before"`
	After   Outcome  `json:"after"`
}

// Report sums a replay up: how many decisions were decided again, how
// many came out otherwise, and the changes (at most the limit given to
// Run; Changed counts them all).
type Report struct {
	Decisions int      `json:"decisions"`
	Changed   int      `json:"changed"`
	Changes   []Change `json:"changes"`
}

// Replayer decides decisions again against one Domain. It keeps its
// planners and compiled profiles from decision to decision; it is not
// safe for concurrent use.
type Replayer struct {
	dom      Domain
	goap     *goap.Planner
	htn      *htn.Planner
	resolver *resolver.Resolver
	htnRes   htn.Result
	// goapTrace and resolverTrace trace the searches of decisions made
	// traced (Decision.Traced), as they were.
	goapTrace     goap.Trace
	resolverTrace resolver.Trace
	plan          []goap.ActionID
	chain         []resolver.ActionID
	goapProf      map[string]goapProfile
	resProf       map[string]resolverProfile
}

type goapProfile struct {
	p   *goap.Profile
	err error
}

type resolverProfile struct {
	p   *resolver.Profile
	err error
}

// New returns a Replayer for dom.
func New(dom Domain) *Replayer {
	r := &Replayer{dom: dom, goapProf: map[string]goapProfile{}, resProf: map[string]resolverProfile{}}
	if dom.GOAP != nil {
		r.goap = goap.NewPlanner(dom.GOAP)
	}
	if dom.HTN != nil {
		r.htn = htn.NewPlanner(dom.HTN)
	}
	if dom.Resolver != nil {
		r.resolver = resolver.NewResolver(dom.Resolver)
	}
	return r
}

// Run decides every decision again and reports those that came out
// otherwise, keeping at most maxChanges of them (all when negative).
func (r *Replayer) Run(decisions []agent.Decision, maxChanges int) Report {
	i := 0
	rep, _ := r.RunFrom(func(d *agent.Decision) error {
		if i == len(decisions) {
			return io.EOF
		}
		*d = decisions[i]
		i++
		return nil
	}, maxChanges)
	return rep
}

// RunFrom is Run over the decisions next reads one at a time (as
// agent.RecordingReader.Next does) until it returns io.EOF: a recording
// of any length is replayed in the memory of one decision and the changes
// kept. Another error from next ends the replay, returned with the report
// so far.
func (r *Replayer) RunFrom(next func(d *agent.Decision) error, maxChanges int) (Report, error) {
	rep := Report{Changes: []Change{}}
	var d agent.Decision
	for i := 0; ; i++ {
		if err := next(&d); err == io.EOF {
			return rep, nil
		} else if err != nil {
			return rep, err
		}
		rep.Decisions++
		before, after := Recorded(&d), r.Decide(&d)
		what := Differences(before, after)
		if len(what) == 0 {
			continue
		}
		rep.Changed++
		if maxChanges < 0 || len(rep.Changes) < maxChanges {
			rep.Changes = append(rep.Changes, Change{Index: i, Tick: d.Tick, Agent: d.Agent, Kind: d.Kind, Decided: d.Decided, What: what, Before: before, After: after})
		}
	}
}

// Decide decides d again: its goal from its options, then its plan, from
// the snapshot it recorded.
func (r *Replayer) Decide(d *agent.Decision) Outcome {
	out := Outcome{Plan: []string{}}
	fail := func(err error) Outcome {
		out.Error, out.Status = err.Error(), "error"
		return out
	}
	switch d.Kind {
	case "resolver":
		if r.dom.Resolver == nil {
			return fail(fmt.Errorf("a resolver agent's decision, and the domain is not an engine-model one (keys:)"))
		}
		return r.decideResolver(d, out)
	case "goap", "tree", "htn":
	default:
		return fail(fmt.Errorf("unknown agent kind %q", d.Kind))
	}
	if r.dom.GOAP == nil {
		return fail(fmt.Errorf("a %s agent's decision, and the domain is not a state-space one (facts:)", d.Kind))
	}
	state, err := r.state(d)
	if err != nil {
		return fail(err)
	}
	prof, err := r.goapProfile(d)
	if err != nil {
		return fail(err)
	}
	switch {
	case d.Decided == "choice":
		return r.decideChoice(d, state, out)
	case d.Task != "":
		return r.decideHTN(d, state, prof, out)
	}
	out.Goal, err = r.chooseGOAPGoal(d, state)
	switch {
	case err != nil:
		return fail(err)
	case d.Decided == "goal":
		out.Status = d.Status
		return out
	case out.Goal == "":
		return fail(fmt.Errorf("no goal option applies"))
	}
	goal := r.goapGoal(d, out.Goal)
	if goal == nil {
		return fail(fmt.Errorf("goal %q is not in domain %s", out.Goal, r.dom.GOAP.Name()))
	}
	opt := goap.Options{Profile: prof, Limits: d.Limits.Search()}
	if d.Traced {
		opt.Trace = &r.goapTrace
	}
	res, _ := r.goap.Plan(r.plan[:0], state, goal, opt)
	r.plan = res.Plan
	out.Status = res.Status.String()
	if res.Status == goap.Found {
		out.Cost = res.Cost
		for _, a := range res.Plan {
			out.Plan = append(out.Plan, r.dom.GOAP.ActionName(a))
		}
	}
	return out
}

// state is a GOAP, HTN or tree decision's snapshot as a state of the
// domain: an edited domain that lost one of its facts cannot be decided.
func (r *Replayer) state(d *agent.Decision) (goap.State, error) {
	dom := r.dom.GOAP
	s := dom.NewState()
	for _, name := range d.Snapshot.Facts {
		f, ok := dom.Fact(name)
		if !ok {
			return goap.State{}, fmt.Errorf("the snapshot's fact %q is not in domain %s", name, dom.Name())
		}
		s.Set(f, true)
	}
	return s, nil
}

func (r *Replayer) decideHTN(d *agent.Decision, state goap.State, prof *goap.Profile, out Outcome) Outcome {
	if r.dom.HTN == nil {
		out.Error, out.Status = "an HTN decision, and the domain has no htn: section", "error"
		return out
	}
	task, ok := r.dom.HTN.TaskByName(d.Task)
	if !ok {
		out.Error, out.Status = fmt.Sprintf("task %q is not in the domain's HTN", d.Task), "error"
		return out
	}
	err := r.htn.Plan(&r.htnRes, state, htn.Options{Root: task, HasRoot: true, Profile: prof, Limits: d.Limits.Search()})
	res := &r.htnRes
	out.Status = res.Status.String()
	if err == nil && res.Status == htn.Found {
		for _, a := range res.Plan {
			out.Plan = append(out.Plan, r.dom.GOAP.ActionName(a))
		}
		out.Cost = planCost(r.dom.GOAP, prof, state, res.Plan)
		if d.Decided == "interruption" {
			out.Taken = res.MTR.Less(htn.MTR(d.Running))
		}
	}
	return out
}

// planCost is an HTN plan's cost as the runtime records it: each step's
// cost in the state it runs in, summed in order.
func planCost(dom *goap.Domain, prof *goap.Profile, start goap.State, plan []goap.ActionID) float64 {
	s := start.Clone()
	cost := 0.0
	for _, a := range plan {
		if prof != nil {
			cost += prof.CostIn(a, s)
		} else {
			cost += dom.CostIn(a, s)
		}
		dom.Apply(a, s)
	}
	return cost
}

// goapProfile is the profile d's search used: its agent kind's in the
// file, or else the one it recorded, compiled against the domain.
func (r *Replayer) goapProfile(d *agent.Decision) (*goap.Profile, error) {
	if k := r.goapKind(d); k != nil && !d.OwnProfile {
		return k.Profile, nil
	}
	spec, ok, err := d.Profile.GOAPSpec()
	if err != nil || !ok {
		return nil, err
	}
	key := fmt.Sprint(spec.Incapable, spec.Costs)
	if p, seen := r.goapProf[key]; seen {
		return p.p, p.err
	}
	p, err := r.dom.GOAP.NewProfile(spec)
	if err != nil {
		err = fmt.Errorf("the recorded profile does not fit the domain: %w", err)
	}
	r.goapProf[key] = goapProfile{p, err}
	return p, err
}

func (r *Replayer) goapKind(d *agent.Decision) *domain.Agent {
	if r.dom.File == nil || d.AgentKind == "" {
		return nil
	}
	for _, k := range r.dom.File.Agents {
		if k.Name == d.AgentKind {
			return k
		}
	}
	return nil
}

func (r *Replayer) engineKind(d *agent.Decision) *domain.EngineAgent {
	if r.dom.File == nil || d.AgentKind == "" {
		return nil
	}
	for _, k := range r.dom.File.EngineAgents {
		if k.Name == d.AgentKind {
			return k
		}
	}
	return nil
}
