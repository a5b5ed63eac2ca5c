package replay

import (
	"fmt"
	"io"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/resolver"
)

// MaxRejected is the most alternatives an Answer lists as turned down.
const MaxRejected = agent.MaxRejected

// Answer is "why did it do that?" for one decision (`ploy why`): the
// decision as recorded, what its search turned down and why (found by
// searching again from the recorded snapshot with the trace on), and what
// changed since the agent's previous decision.
type Answer struct {
	Tick      int               `json:"tick"`
	Asked     int               `json:"asked"`
	Agent     string            `json:"agent"`
	Kind      string            `json:"kind"`
	AgentKind string            `json:"agent_kind,omitempty"`
	Decided   string            `json:"decided"`
	Taken     bool              `json:"taken,omitempty"`
	Reason    string            `json:"reason"`
	Goal      string            `json:"goal,omitempty"`
	Current   string            `json:"current,omitempty"`
	Task      string            `json:"task,omitempty"`
	Options   []agent.GoalScore `json:"options"`
	// Commitment is the agent's, with what it was applied to (absent
	// without one).
	Commitment agent.DecisionCommitment `json:"commitment,omitzero"`
	Plan       []agent.DecisionStep     `json:"plan"`
	Cost       float64                  `json:"cost"`
	MTR        htn.MTR                  `json:"mtr,omitempty"`
	Status     string                   `json:"status"`
	Bound      string                   `json:"bound,omitempty"`
	Stats      agent.DecisionStats      `json:"stats"`
	Snapshot   agent.DecisionSnapshot   `json:"snapshot"`
	Rejected   []agent.DecisionRejected `json:"rejected"`
	// RejectedNote says why Rejected is empty when the search could not be
	// run again (the domain does not fit the record).
	RejectedNote string `json:"rejected_note,omitempty"`
	// Since is what changed since the agent's previous decision in the
	// recording; nil for its first.
	Since *Since `json:"since,omitempty"`
}

// Since is what changed between an agent's previous decision and this
// one: the ticks, the goal, the facts that came true or false, the key
// values (before and after), the agent's position, the targets found and
// lost.
type Since struct {
	Tick         int                          `json:"tick"`
	Goal         string                       `json:"goal,omitempty"`
	FactsTrue    []string                     `json:"facts_true,omitempty"`
	FactsFalse   []string                     `json:"facts_false,omitempty"`
	Values       map[string][2]int64          `json:"values,omitempty"`
	From         *resolver.Point              `json:"from,omitempty"`
	TargetsNew   []string                     `json:"targets_found,omitempty"`
	TargetsGone  []string                     `json:"targets_lost,omitempty"`
	TargetsMoved map[string][2]resolver.Point `json:"targets_moved,omitempty"`
}

// Find returns the index of agent name's decision at tick, or its last
// before tick, or an error saying what the recording has of the agent.
func Find(decisions []agent.Decision, name string, tick int) (int, error) {
	i := 0
	found, _, err := FindFrom(func(d *agent.Decision) error {
		if i == len(decisions) {
			return io.EOF
		}
		*d = decisions[i]
		i++
		return nil
	}, name, tick)
	if err != nil {
		return -1, err
	}
	return found.Index, nil
}

// Found is a decision FindFrom found, with the same agent's decision
// before it (nil if it is the agent's first).
type Found struct {
	Index    int // its place in the recording, from 0
	Decision agent.Decision
	Previous *agent.Decision
}

// FindFrom is Find over the decisions next reads one at a time (until
// io.EOF), keeping only two of the agent's: a recording of any length is
// searched in the memory of a few decisions (and the agents' names, for a
// suggestion). The decision found is the agent's of the latest tick at
// or before tick (of two at one tick, the later in the file), and its
// previous the agent's one before it in that order: a recording out of
// tick order (joined, edited) is read whole, as one in order is.
func FindFrom(next func(d *agent.Decision) error, name string, tick int) (*Found, []string, error) {
	var best, prev *Found
	first, seen := 0, false
	var names []string
	known := map[string]bool{}
	var d agent.Decision
	for i := 0; ; i++ {
		if err := next(&d); err == io.EOF {
			break
		} else if err != nil {
			return nil, names, err
		}
		if !known[d.Agent] {
			known[d.Agent] = true
			names = append(names, d.Agent)
		}
		if d.Agent != name {
			continue
		}
		if !seen || d.Tick < first {
			first, seen = d.Tick, true
		}
		if d.Tick > tick {
			continue
		}
		// (tick, place in the file) orders the agent's decisions; a later
		// place breaks a tie, so one at best's tick comes after it.
		f := &Found{Index: i, Decision: d}
		switch {
		case best == nil || d.Tick >= best.Decision.Tick:
			prev, best = best, f
		case prev == nil || d.Tick >= prev.Decision.Tick:
			prev = f
		}
	}
	switch {
	case !seen:
		msg := fmt.Sprintf("no agent %q in the recording", name)
		if s := suggest.Closest(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return nil, names, fmt.Errorf("%s", msg)
	case best == nil:
		return nil, names, fmt.Errorf("agent %q made no decision at or before tick %d; its first in the recording is at tick %d", name, tick, first)
	}
	if prev != nil {
		best.Previous = &prev.Decision
	}
	return best, names, nil
}

// Why answers for decisions[i]: it searches again from the recorded
// snapshot with the trace on for what was turned down, and compares the
// snapshot with the agent's previous decision's.
func (r *Replayer) Why(decisions []agent.Decision, i int) *Answer {
	var prev *agent.Decision
	for j := i - 1; j >= 0; j-- {
		if decisions[j].Agent == decisions[i].Agent {
			prev = &decisions[j]
			break
		}
	}
	return r.WhyOf(&decisions[i], prev)
}

// WhyOf answers for decision d, the same agent's previous decision being
// prev (nil if none).
func (r *Replayer) WhyOf(d, prev *agent.Decision) *Answer {
	a := &Answer{Tick: d.Tick, Asked: d.Asked, Agent: d.Agent, Kind: d.Kind, AgentKind: d.AgentKind, Decided: d.Decided, Taken: d.Taken,
		Reason: d.Reason, Goal: d.Goal, Current: d.Current, Task: d.Task, Options: d.Options, Commitment: d.Commitment, Plan: d.Plan, Cost: d.Cost, MTR: d.MTR,
		Status: d.Status, Bound: d.Bound, Stats: d.Stats, Snapshot: d.Snapshot, Rejected: []agent.DecisionRejected{}}
	if a.Options == nil {
		a.Options = []agent.GoalScore{}
	}
	if d.Snapshot.Resolver && r.dom.Resolver != nil {
		a.Snapshot = inDomainOrder(d.Snapshot, r.dom.Resolver)
	}
	switch {
	case len(d.Rejected) > 0:
		a.Rejected = d.Rejected // recorded as the game ran (TraceDecisions)
	case d.Decided == "goal" || d.Decided == "choice":
		// No search: the options say what was passed over, and why.
	default:
		if err := r.rejected(d, a); err != nil {
			a.RejectedNote = err.Error()
		}
	}
	if len(a.Rejected) > MaxRejected {
		a.Rejected = a.Rejected[:MaxRejected]
	}
	if prev != nil {
		a.Since = since(prev, d)
	}
	return a
}

// rejected fills a.Rejected by searching d again with the trace on.
func (r *Replayer) rejected(d *agent.Decision, a *Answer) error {
	switch {
	case d.Kind == "resolver":
		if r.dom.Resolver == nil {
			return fmt.Errorf("the domain is not an engine-model one")
		}
		return r.rejectedResolver(d, a)
	case r.dom.GOAP == nil:
		return fmt.Errorf("the domain is not a state-space one")
	case d.Task != "":
		return r.rejectedHTN(d, a)
	}
	return r.rejectedGOAP(d, a)
}

func (r *Replayer) rejectedResolver(d *agent.Decision, a *Answer) error {
	snap, err := r.snapshot(d)
	if err != nil {
		return err
	}
	opt, err := r.resolverOptions(d)
	if err != nil {
		return err
	}
	goal := r.dom.Resolver.Goal(d.Goal)
	if goal == nil {
		return fmt.Errorf("goal %q is not in domain %s", d.Goal, r.dom.Resolver.Name())
	}
	var tr resolver.Trace
	opt.Trace = &tr
	res, _ := r.resolver.Resolve(nil, snap, goal, opt)
	var chain []resolver.ActionID
	if res.Status == resolver.Found {
		chain = res.Chain
	}
	a.Rejected = agent.ResolverRejected(a.Rejected, r.dom.Resolver, &tr, chain, res.Cost)
	return nil
}

func (r *Replayer) rejectedGOAP(d *agent.Decision, a *Answer) error {
	state, err := r.state(d)
	if err != nil {
		return err
	}
	prof, err := r.goapProfile(d)
	if err != nil {
		return err
	}
	goal := r.goapGoal(d, d.Goal)
	if goal == nil {
		return fmt.Errorf("goal %q is not in domain %s", d.Goal, r.dom.GOAP.Name())
	}
	var tr goap.Trace
	opt := goap.Options{Profile: prof, Limits: d.Limits.Search(), Trace: &tr}
	p := goap.NewPlanner(r.dom.GOAP)
	res, _ := p.Plan(nil, state, goal, opt)
	opt.Trace = nil
	x := report.ExplainGOAP(p, report.Problem{D: r.dom.GOAP, Start: state, Goal: goal, Opt: opt}, res, 3)
	for _, alt := range x.Alternatives {
		a.Rejected = append(a.Rejected, agent.DecisionRejected{Action: alt.Action, Reason: fmt.Sprintf("instead of %s at step %d: its best plan costs %s more", alt.InsteadOf, alt.Step, report.FormatCost(alt.More)), Plan: alt.Plan, Cost: alt.Cost})
	}
	var plan []goap.ActionID
	if res.Status == goap.Found {
		plan = res.Plan
	}
	a.Rejected = agent.GOAPRejected(a.Rejected, r.dom.GOAP, &tr, plan)
	return nil
}

func (r *Replayer) rejectedHTN(d *agent.Decision, a *Answer) error {
	if r.dom.HTN == nil {
		return fmt.Errorf("the domain has no htn: section")
	}
	state, err := r.state(d)
	if err != nil {
		return err
	}
	prof, err := r.goapProfile(d)
	if err != nil {
		return err
	}
	task, ok := r.dom.HTN.TaskByName(d.Task)
	if !ok {
		return fmt.Errorf("task %q is not in the domain's HTN", d.Task)
	}
	x, _, _ := report.ExplainHTN(r.dom.HTN, state, htn.Options{Root: task, HasRoot: true, Profile: prof, Limits: d.Limits.Search()})
	for _, c := range x.Choices {
		for _, rj := range c.Rejected {
			why := "its condition failed"
			if len(rj.Unmet) > 0 {
				why += " (" + strings.Join(rj.Unmet, ", ") + ")"
			}
			if rj.Reason == "backtracked" {
				why = "chosen, then its decomposition failed"
				if rj.Failed != "" {
					why += " at " + rj.Failed
				}
			}
			a.Rejected = append(a.Rejected, agent.DecisionRejected{Action: fmt.Sprintf("%s (method %d of %s)", rj.Method, rj.Number, c.Task), Reason: why})
		}
	}
	return nil
}

// since compares decision d with the agent's previous one, prev.
func since(prev, d *agent.Decision) *Since {
	s := &Since{Tick: prev.Tick}
	if prev.Goal != d.Goal {
		s.Goal = prev.Goal
	}
	s.FactsTrue = missing(d.Snapshot.Facts, prev.Snapshot.Facts)
	s.FactsFalse = missing(prev.Snapshot.Facts, d.Snapshot.Facts)
	before, after := prev.Snapshot.ValueMap(), d.Snapshot.ValueMap()
	for _, k := range d.Snapshot.Keys {
		if b, ok := before[k]; ok && b != after[k] {
			if s.Values == nil {
				s.Values = map[string][2]int64{}
			}
			s.Values[k] = [2]int64{b, after[k]}
		}
	}
	if d.Snapshot.Resolver && prev.Snapshot.At != d.Snapshot.At {
		from := prev.Snapshot.At
		s.From = &from
	}
	tb, ta := prev.Snapshot.TargetMap(), d.Snapshot.TargetMap()
	for _, t := range d.Snapshot.Targets {
		if p, ok := tb[t.Name]; !ok {
			s.TargetsNew = append(s.TargetsNew, t.Name)
		} else if p != t.At {
			if s.TargetsMoved == nil {
				s.TargetsMoved = map[string][2]resolver.Point{}
			}
			s.TargetsMoved[t.Name] = [2]resolver.Point{p, t.At}
		}
	}
	for _, t := range prev.Snapshot.Targets {
		if _, ok := ta[t.Name]; !ok {
			s.TargetsGone = append(s.TargetsGone, t.Name)
		}
	}
	return s
}

// missing returns the names in a that are not in b, in a's order.
func missing(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, n := range b {
		in[n] = true
	}
	var out []string
	for _, n := range a {
		if !in[n] {
			out = append(out, n)
		}
	}
	return out
}

// inDomainOrder returns s with its keys in the domain's order (a record
// read back has them by name), keys the domain lacks last.
func inDomainOrder(s agent.DecisionSnapshot, d *resolver.Domain) agent.DecisionSnapshot {
	values := s.ValueMap()
	out := s
	out.Keys, out.Values = nil, nil
	for _, k := range d.Keys() {
		if v, ok := values[k.Name]; ok {
			out.Keys, out.Values = append(out.Keys, k.Name), append(out.Values, v)
			delete(values, k.Name)
		}
	}
	for i, k := range s.Keys {
		if _, left := values[k]; left {
			out.Keys, out.Values = append(out.Keys, k), append(out.Values, s.Values[i])
		}
	}
	return out
}
