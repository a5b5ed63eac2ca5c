// Package agentfile sets an agent's configuration from an agent kind of a
// domain file (its agents: section): the goal options, HTN root and mode,
// behaviour tree and profile the file describes, with conditions and
// scores that read the world's inputs.
//
// It is a package of its own, apart from package agent, because it is the
// one place that needs both the runtime and the loader: a game that builds
// its agents in Go links package agent alone, without package domain and
// the YAML parser it brings. The name says what it joins: agents and the
// files that describe them.
package agentfile

import (
	"fmt"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
)

// Inputs returns the values of a domain file's inputs (indexed as
// domain.File.Inputs) as an agent's world has them now. It is called
// whenever a condition or a score reads an input, and may return the same
// slice each time. It is an alias, so a function of the deprecated
// agent.Inputs passes as it is.
type Inputs = func(a *agent.Agent) []float64

// Configure sets what cfg pursues and how it sees the actions from an
// agent kind of a domain file (its agents: section): its goal options and
// commitment, HTN root and mode, or tree, and its profile. Conditions and scores read the
// world's inputs through inputs, which may be nil when the file has none.
// cfg.Domain must be the file's GOAP domain; the game still supplies the
// behaviours, the sensor and the rest.
func Configure(cfg *agent.Config, k *domain.Agent, inputs Inputs) error {
	if inputs == nil {
		inputs = func(*agent.Agent) []float64 { return nil }
	}
	cfg.Profile, cfg.AgentKind = k.Profile, k.Name
	cfg.Commitment = commitment(k.Commitment)
	cfg.Goals, cfg.HTN, cfg.Tree = nil, nil, nil
	cfg.HTNMode, cfg.HTNRoot = agent.ReplanOnBreak, ""
	for _, o := range k.Goals {
		option := agent.GoalOption{Goal: o.Goal, Priority: o.Priority}
		if !o.When.Empty() {
			when := o.When
			option.When = func(a *agent.Agent) bool { return when.Holds(a.Facts(), inputs(a)) }
		}
		if o.Utility != nil {
			score := o.Utility
			option.Utility = func(a *agent.Agent) float64 { return score.At(a.Facts(), inputs(a)) }
		}
		cfg.Goals = append(cfg.Goals, option)
	}
	if k.HTN != nil && k.Tree != nil {
		cfg.HTN = k.HTN // for the tree's htn leaves
	}
	if k.IsHTN() {
		cfg.HTN = k.HTN
		if k.Interrupt {
			cfg.HTNMode = agent.Interrupt
		}
		if k.Root != k.HTN.Root() {
			cfg.HTNRoot = k.HTN.TaskName(k.Root)
		}
	}
	if k.Tree != nil {
		tree, err := treeOf(cfg.Domain, k.Tree, inputs)
		if err != nil {
			return fmt.Errorf("agent: kind %q: %w", k.Name, err)
		}
		cfg.Tree = tree
	}
	return nil
}

// treeOf builds a runnable tree from a file's tree.
func treeOf(d *goap.Domain, n *domain.Node, inputs Inputs) (agent.Node, error) {
	switch n.Kind {
	case domain.Sequence, domain.Selector:
		children := make([]agent.Node, len(n.Children))
		for i, c := range n.Children {
			var err error
			if children[i], err = treeOf(d, c, inputs); err != nil {
				return nil, err
			}
		}
		if n.Kind == domain.Sequence {
			return agent.Sequence(children...), nil
		}
		return agent.Selector(children...), nil
	case domain.When:
		c := n.Condition
		return agent.Condition(func(a *agent.Agent) bool { return c.Holds(a.Facts(), inputs(a)) }), nil
	case domain.Act:
		if int(n.Action) >= d.NumActions() {
			return nil, fmt.Errorf("action %d is not in domain %s", n.Action, d.Name())
		}
		return agent.Action(d, d.ActionName(n.Action)), nil
	case domain.Plan:
		return agent.Plan(n.Goal), nil
	case domain.PlanHTN:
		return agent.PlanHTN(n.Task), nil
	case domain.UtilitySelector:
		options := make([]agent.UtilityOption, len(n.Options))
		for i := range n.Options {
			if int(n.Options[i].Action) >= d.NumActions() {
				return nil, fmt.Errorf("action %d is not in domain %s", n.Options[i].Action, d.Name())
			}
			score := &n.Options[i].Score
			options[i] = agent.UtilityOption{Action: d.ActionName(n.Options[i].Action), Score: func(a *agent.Agent) float64 { return score.At(a.Facts(), inputs(a)) }}
		}
		return agent.Utility(d, n.Hysteresis, options...), nil
	}
	return nil, fmt.Errorf("unknown tree node kind %d", n.Kind)
}

// ConfigureResolver sets what a resolver agent pursues and its profile
// from an agent kind of an engine-model file: its goal options and
// commitment, their
// conditions and scores reading the agent's snapshot (every key an input,
// a boolean as 0 or 1). cfg.Domain must be the file's resolver domain.
func ConfigureResolver(cfg *agent.ResolverConfig, k *domain.EngineAgent) error {
	cfg.Profile, cfg.AgentKind = k.Profile, k.Name
	cfg.Commitment = commitment(k.Commitment)
	cfg.Goals = nil
	var values []float64 // the snapshot's values as inputs, refilled per call
	inputs := func(a *agent.ResolverAgent) []float64 {
		values = values[:0]
		for _, v := range a.Snapshot().Values {
			values = append(values, float64(v))
		}
		return values
	}
	var noFacts goap.State
	for _, o := range k.Goals {
		if o.Goal.Domain() != cfg.Domain {
			return fmt.Errorf("agent: kind %q: its goal %q is of another domain", k.Name, o.Goal.Name())
		}
		option := agent.ResolverGoal{Goal: o.Goal, Priority: o.Priority}
		if !o.When.Empty() {
			when := o.When
			option.When = func(a *agent.ResolverAgent) bool { return when.Holds(noFacts, inputs(a)) }
		}
		if o.Utility != nil {
			score := o.Utility
			option.Utility = func(a *agent.ResolverAgent) float64 { return score.At(noFacts, inputs(a)) }
		}
		cfg.Goals = append(cfg.Goals, option)
	}
	return nil
}

// commitment is a kind's commitment as the runtime takes it: nil for
// none, so that an agent without one chooses its goals as it always did.
func commitment(c domain.Commitment) *agent.Commitment {
	if c.Margin == 0 && c.MinTicks == 0 && len(c.Exempt) == 0 && !c.FinishAction {
		return nil
	}
	return &agent.Commitment{Margin: c.Margin, MinTicks: c.MinTicks, Exempt: c.Exempt, FinishAction: c.FinishAction}
}
