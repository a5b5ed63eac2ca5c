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
