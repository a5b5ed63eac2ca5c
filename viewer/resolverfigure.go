package viewer

import (
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/resolver"
)

// engineKeyJSON is a key of an engine-model domain in GET
// /api/v1/domains: its name and kind, "bool" or "int".
type engineKeyJSON struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// engineWorldJSON is an engine-model file's snapshot (initial:, at:,
// targets:): what resolve starts from when a request changes nothing.
type engineWorldJSON struct {
	// Values holds every key's value, booleans as 0 or 1.
	Values map[string]int64 `json:"values"`
	At     [2]float64       `json:"at"`
	// Targets are where the sensors find each target; a target the
	// file does not place is not found.
	Targets map[string][2]float64 `json:"targets"`
	// Actions are the action names, for a capabilities list.
	Actions []string `json:"actions"`
}

func describeEngine(f *domain.File) ([]engineKeyJSON, *engineWorldJSON) {
	d := f.Resolver
	keys := []engineKeyJSON{}
	w := &engineWorldJSON{Values: map[string]int64{}, At: [2]float64{f.World.At.X, f.World.At.Y}, Targets: map[string][2]float64{}, Actions: []string{}}
	for _, k := range d.Keys() {
		keys = append(keys, engineKeyJSON{Name: k.Name, Kind: k.Kind.String()})
		w.Values[k.Name] = f.World.Values[k.Name]
	}
	for name, p := range f.World.Targets {
		w.Targets[name] = [2]float64{p.X, p.Y}
	}
	for a := range d.NumActions() {
		w.Actions = append(w.Actions, d.ActionName(resolver.ActionID(a)))
	}
	return keys, w
}

// engineKindJSON is an agent kind of an engine-model domain (its agents:
// section) in GET /api/v1/domains: what figure 8's kind picker shows and
// resolves as (the request's agent).
type engineKindJSON struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Capabilities are the actions it can do, absent when all; [] (the
	// file's capabilities: []) is none, so omitzero, which keeps it.
	Capabilities []string `json:"capabilities,omitzero"`
	// Costs are its cost overrides, in the file's action order, each
	// beside the file's own cost.
	Costs []costAnswer `json:"costs"`
}

func describeEngineKinds(f *domain.File) []engineKindJSON {
	var out []engineKindJSON
	for _, k := range f.EngineAgents {
		kind := engineKindJSON{Name: k.Name, Title: k.Title, Capabilities: k.ProfileSpec.Capabilities, Costs: []costAnswer{}}
		for _, a := range f.ResolverSpec.Actions {
			if c, ok := k.ProfileSpec.Costs[a.Name]; ok {
				kind.Costs = append(kind.Costs, costAnswer{Action: a.Name, Cost: c, Base: a.Cost})
			}
		}
		out = append(out, kind)
	}
	return out
}
