package agent

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// DecisionProfile is the profile an agent searched with: which actions it
// can do and what they cost it. An agent records only a pointer to its
// profile (recording stays cheap); the names are written with the
// decision, and read back into the exported fields.
//
// In JSON: {"capabilities":[...]} (a resolver agent's: the actions it can
// do; absent when it can do all), {"incapable":[...]} (a GOAP or HTN
// agent's: the actions it cannot do), and "costs", the overrides by
// action name: a number, a GOAP rule list {"otherwise":4,"rules":
// [{"when":{"in_cover":true},"cost":1}]}, or "function" for a GOAP cost
// that is the game's Go function (no file or record can hold it).
type DecisionProfile struct {
	Capabilities []string
	Incapable    []string
	Costs        map[string]DecisionCost

	goap     *goap.Profile
	resolver *resolver.Profile
}

// DecisionCost is one cost override of a DecisionProfile: a constant
// (Value), a GOAP rule list (Rules non-nil: Value is its default), or the
// game's Go function (Function).
type DecisionCost struct {
	Value    float64
	Rules    []goap.CostRule
	Function bool
}

// IsZero reports whether p is no profile: the domain as built.
func (p DecisionProfile) IsZero() bool {
	return p.goap == nil && p.resolver == nil && p.Capabilities == nil && p.Incapable == nil && p.Costs == nil
}

// names fills the exported fields from the profile recorded.
func (p DecisionProfile) names() DecisionProfile {
	switch {
	case p.resolver != nil:
		spec := p.resolver.Spec()
		p.Capabilities, p.Costs = spec.Capabilities, nil
		for name, c := range spec.Costs {
			if p.Costs == nil {
				p.Costs = map[string]DecisionCost{}
			}
			p.Costs[name] = DecisionCost{Value: c}
		}
	case p.goap != nil:
		spec := p.goap.Spec()
		p.Incapable, p.Costs = spec.Incapable, nil
		for name, c := range spec.Costs {
			if p.Costs == nil {
				p.Costs = map[string]DecisionCost{}
			}
			p.Costs[name] = costOf(c)
		}
	}
	return p
}

func costOf(c goap.Cost) DecisionCost {
	if v, ok := c.Constant(); ok {
		return DecisionCost{Value: v}
	}
	if rules, otherwise, ok := c.RuleList(); ok {
		return DecisionCost{Value: otherwise, Rules: slices.Clone(rules)}
	}
	return DecisionCost{Function: true}
}

type profileJSON struct {
	Capabilities []string                `json:"capabilities,omitzero"` // [] (can do nothing) is not absent (can do all)
	Incapable    []string                `json:"incapable,omitempty"`
	Costs        map[string]DecisionCost `json:"costs,omitempty"`
}

// MarshalJSON writes the profile's names (see DecisionProfile).
func (p DecisionProfile) MarshalJSON() ([]byte, error) {
	p = p.names()
	return json.Marshal(profileJSON{p.Capabilities, p.Incapable, p.Costs})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *DecisionProfile) UnmarshalJSON(b []byte) error {
	var j profileJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*p = DecisionProfile{Capabilities: j.Capabilities, Incapable: j.Incapable, Costs: j.Costs}
	return nil
}

type ruleListJSON struct {
	Otherwise float64         `json:"otherwise"`
	Rules     []goap.CostRule `json:"rules"`
}

// MarshalJSON writes a number, a rule list or "function".
func (c DecisionCost) MarshalJSON() ([]byte, error) {
	switch {
	case c.Function:
		return []byte(`"function"`), nil
	case c.Rules != nil:
		return json.Marshal(ruleListJSON{c.Value, c.Rules})
	}
	return json.Marshal(c.Value)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *DecisionCost) UnmarshalJSON(b []byte) error {
	*c = DecisionCost{}
	switch {
	case string(b) == `"function"`:
		c.Function = true
		return nil
	case len(b) > 0 && b[0] == '{':
		var r ruleListJSON
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		c.Value, c.Rules = r.Otherwise, r.Rules
		if c.Rules == nil {
			c.Rules = []goap.CostRule{}
		}
		return nil
	}
	if err := json.Unmarshal(b, &c.Value); err != nil {
		return fmt.Errorf("a cost is a number, a rule list or \"function\": %w", err)
	}
	return nil
}

// ResolverSpec returns a resolver agent's recorded profile as a spec to
// compile again (resolver.Domain.NewProfile), and whether there is one.
func (p DecisionProfile) ResolverSpec() (resolver.ProfileSpec, bool) {
	p = p.names()
	if p.IsZero() {
		return resolver.ProfileSpec{}, false
	}
	spec := resolver.ProfileSpec{Capabilities: p.Capabilities}
	for _, name := range slices.Sorted(maps.Keys(p.Costs)) {
		if spec.Costs == nil {
			spec.Costs = map[string]float64{}
		}
		spec.Costs[name] = p.Costs[name].Value
	}
	return spec, true
}

// GOAPSpec returns a GOAP or HTN agent's recorded profile as a spec to
// compile again (goap.Domain.NewProfile), and whether there is one; an
// error names a cost override that was the game's Go function.
func (p DecisionProfile) GOAPSpec() (goap.ProfileSpec, bool, error) {
	p = p.names()
	if p.IsZero() {
		return goap.ProfileSpec{}, false, nil
	}
	spec := goap.ProfileSpec{Incapable: p.Incapable}
	for _, name := range slices.Sorted(maps.Keys(p.Costs)) {
		c := p.Costs[name]
		if spec.Costs == nil {
			spec.Costs = map[string]goap.Cost{}
		}
		switch {
		case c.Function:
			return goap.ProfileSpec{}, true, fmt.Errorf("profile: the cost of %q is the game's Go function, which a record cannot hold", name)
		case c.Rules != nil:
			spec.Costs[name] = goap.Rules(c.Value, c.Rules...)
		default:
			spec.Costs[name] = goap.Const(c.Value)
		}
	}
	return spec, true, nil
}

// DecisionLimits are the search limits an agent searched with
// (search.Limits under JSON names; 0: the planner's default).
type DecisionLimits struct {
	Budget   int64 `json:"budget,omitempty"`
	MaxDepth int64 `json:"max_depth,omitempty"`
	MaxWork  int64 `json:"max_work,omitempty"`
	MaxBytes int64 `json:"max_bytes,omitempty"`
	MaxSteps int64 `json:"max_steps,omitempty"`
}

// Search returns l as search.Limits.
func (l DecisionLimits) Search() search.Limits {
	return search.Limits{Budget: l.Budget, MaxDepth: l.MaxDepth, MaxWork: l.MaxWork, MaxBytes: l.MaxBytes, MaxSteps: l.MaxSteps}
}

func limitsOf(l search.Limits) DecisionLimits {
	return DecisionLimits{Budget: l.Budget, MaxDepth: l.MaxDepth, MaxWork: l.MaxWork, MaxBytes: l.MaxBytes, MaxSteps: l.MaxSteps}
}
