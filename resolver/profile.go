package resolver

import (
	"fmt"
	"math"

	"github.com/ploy-ai/ploy/internal/suggest"
)

// ProfileSpec describes one kind of agent over a shared domain.
type ProfileSpec struct {
	// Capabilities lists the actions the agent can do; nil means all.
	Capabilities []string
	// Costs overrides action costs by name (a personality).
	Costs map[string]float64
}

// Profile is a compiled ProfileSpec: a capabilities mask over the domain's
// actions and cost overrides. Every profile shares the domain's one action
// graph: a wounded guard and a healthy one plan differently without a
// graph per capability set.
type Profile struct {
	domain  *Domain
	capable []uint64
	costs   []float64 // NaN: the domain's cost
}

// NewProfile compiles spec against d, reporting unknown action names (with
// a suggestion) and bad costs.
func (d *Domain) NewProfile(spec ProfileSpec) (*Profile, error) {
	p := &Profile{domain: d, capable: make([]uint64, (len(d.actions)+63)/64), costs: make([]float64, len(d.actions))}
	b := &builder{d: d}
	if spec.Capabilities == nil {
		for a := range d.actions {
			p.capable[a>>6] |= 1 << (a & 63)
		}
	}
	for i, name := range spec.Capabilities {
		if a, ok := b.action(fmt.Sprintf("capabilities[%d]", i), name); ok {
			p.capable[a>>6] |= 1 << (a & 63)
		}
	}
	for i := range p.costs {
		p.costs[i] = math.NaN()
	}
	for _, name := range sortedKeys(spec.Costs) {
		a, ok := b.action("costs."+name, name)
		if !ok {
			continue
		}
		if c := spec.Costs[name]; !(c > 0) || c > MaxCost {
			b.errorf("costs."+name, "cost %g for %q; costs must be positive and at most %g", c, name, float64(MaxCost))
		} else {
			p.costs[a] = c
		}
	}
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	return p, nil
}

func (b *builder) action(path, name string) (ActionID, bool) {
	if a, ok := b.d.actionIndex[name]; ok {
		return a, true
	}
	msg := fmt.Sprintf("unknown action %q", name)
	names := make([]string, len(b.d.actions))
	for i := range b.d.actions {
		names[i] = b.d.actions[i].name
	}
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	b.errorf(path, "%s", msg)
	return 0, false
}

// Capable reports whether the profile's agent can do action a.
func (p *Profile) Capable(a ActionID) bool { return p.capable[a>>6]&(1<<(a&63)) != 0 }

// Domain returns the domain the profile was made for.
func (p *Profile) Domain() *Domain { return p.domain }

// Spec returns the ProfileSpec the profile was compiled from, up to
// order: Capabilities in the domain's action order (nil when the agent
// can do every action), Costs the overrides (nil when none). A decision
// record keeps it, so that a replay can compile the same profile again.
func (p *Profile) Spec() ProfileSpec {
	var spec ProfileSpec
	all := true
	for a := range p.domain.actions {
		all = all && p.Capable(ActionID(a))
	}
	if !all {
		spec.Capabilities = []string{}
		for a := range p.domain.actions {
			if p.Capable(ActionID(a)) {
				spec.Capabilities = append(spec.Capabilities, p.domain.actions[a].name)
			}
		}
	}
	for a, c := range p.costs {
		if !math.IsNaN(c) {
			if spec.Costs == nil {
				spec.Costs = map[string]float64{}
			}
			spec.Costs[p.domain.actions[a].name] = c
		}
	}
	return spec
}
