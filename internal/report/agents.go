package report

import (
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// PlanAs is `ploy plan --json`'s answer with --agent (and the API's with
// agent): the plan, the agent and the goal planned for (its choice when
// no goal was given). Without an agent both are left out.
type PlanAs struct {
	Plan
	Agent string `json:"agent,omitempty"`
	Goal  string `json:"goal,omitempty"`
}

// ResolveAs is PlanAs for `ploy resolve --json`.
type ResolveAs struct {
	Resolve
	Agent string `json:"agent,omitempty"`
	Goal  string `json:"goal,omitempty"`
}

// NoGoal is the JSON answer for an agent that pursues no goal where it
// stands: status "no_goal", an empty plan, and the agent.
func NoGoal(agent string) any {
	return struct {
		Plan
		Agent string `json:"agent"`
	}{Plan{Status: "no_goal", Plan: []string{}}, agent}
}

// FirstSolved is an agent's choice among its ranked options, as the
// runtime makes it: the first that solved says has a plan (or chain),
// with the names of those before it; the first, when none has.
func FirstSolved[O any](ranked []O, solved func(O) bool, name func(O) string) (int, []string) {
	for i, o := range ranked {
		if solved(o) {
			var skipped []string
			for _, s := range ranked[:i] {
				skipped = append(skipped, name(s))
			}
			return i, skipped
		}
	}
	return 0, nil
}

// ChooseGoal is the goal GOAP agent a pursues from start with the given
// inputs, planning with opt (its profile set): the first of its ranked
// options that has a plan, and the options ranked above it that have
// none. ok is false when no option applies: each holds, or its when: is
// false.
func ChooseGoal(a *domain.Agent, d *goap.Domain, start goap.State, inputs []float64, opt goap.Options) (goal *goap.Goal, skipped []string, ok bool) {
	ranked := a.Ranked(start, inputs)
	if len(ranked) == 0 {
		return nil, nil, false
	}
	p := goap.NewPlanner(d)
	i, skipped := FirstSolved(ranked, func(o domain.AgentGoal) bool {
		res, _ := p.Plan(nil, start, o.Goal, opt)
		return res.Status == goap.Found
	}, func(o domain.AgentGoal) string { return o.Goal.Name() })
	return ranked[i].Goal, skipped, true
}

// ChooseEngineGoal is ChooseGoal for a resolver agent kind k in pr's
// snapshot, resolving with pr.Opt (k's profile set).
func ChooseEngineGoal(k *domain.EngineAgent, pr EngineProblem) (goal *resolver.Goal, skipped []string, ok bool) {
	ranked := k.Ranked(pr.Snap)
	if len(ranked) == 0 {
		return nil, nil, false
	}
	r := resolver.NewResolver(pr.D)
	i, skipped := FirstSolved(ranked, func(o domain.EngineGoal) bool {
		res, _ := r.Resolve(nil, pr.Snap, o.Goal, pr.Opt)
		return res.Status == resolver.Found
	}, func(o domain.EngineGoal) string { return o.Goal.Name() })
	return ranked[i].Goal, skipped, true
}
