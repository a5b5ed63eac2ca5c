package arena

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
)

// arenaInputs are the inputs the arena's world supplies to a file's
// agents, by name: the mage's health (0 to 100), the enemies in the
// arena, and the staff's charges.
var arenaInputs = []string{"health", "enemies", "charges"}

func (w *World) input(name string) float64 {
	switch name {
	case "health":
		return w.health
	case "enemies":
		return float64(len(w.enemies))
	}
	return float64(w.charges)
}

// KindsFrom returns the agent kinds of a domain file's agents: section, in
// its order, for Config.Kinds: a designer's edit to the file changes the
// fight. The file must be the battle mage's (see Run), and each input it
// declares one the arena's world supplies: health, enemies, charges.
func KindsFrom(f *domain.File) ([]Kind, error) {
	if len(f.Agents) == 0 {
		return nil, fmt.Errorf("arena: %s has no agents section to build the arena's agent kinds from", f.Path)
	}
	if f.GOAP == nil {
		return nil, fmt.Errorf("arena: %s is an engine-model file: the arena fights the battle mage's state-space domain", f.Path)
	}
	var missing []string
	for _, name := range factNames {
		if _, ok := f.GOAP.Fact(name); !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("arena: %s lacks facts the arena's world drives: %s; the arena senses the battle mage's facts and runs its actions", f.Path, strings.Join(missing, ", "))
	}
	if err := checkDomain(f.GOAP); err != nil {
		return nil, err
	}
	for _, in := range f.Inputs {
		if !slices.Contains(arenaInputs, in.Name) {
			return nil, fmt.Errorf("arena: %s declares input %q, which the arena's world cannot supply: it supplies %s", f.Path, in.Name, strings.Join(arenaInputs, ", "))
		}
	}
	var kinds []Kind
	for _, k := range f.Agents {
		kinds = append(kinds, Kind{Name: k.Name, Title: k.Title, make: func(e *kindEnv) (*agent.Agent, error) {
			if e.g != f.GOAP {
				return nil, fmt.Errorf("arena: the kinds of %s fight over its own domain, not another", f.Path)
			}
			cfg := e.base(k.Name)
			values := make([]float64, len(f.Inputs))
			inputs := func(*agent.Agent) []float64 {
				for i, in := range f.Inputs {
					values[i] = e.w.input(in.Name)
				}
				return values
			}
			if err := agentfile.Configure(&cfg, k, inputs); err != nil {
				return nil, err
			}
			if k.HTN != nil && e.h != k.HTN {
				return nil, fmt.Errorf("arena: kind %q decomposes its file's htn section, and the batch has another HTN or none", k.Name)
			}
			return agent.New(cfg)
		}})
	}
	return kinds, nil
}

// KindsOf returns the agent kinds a batch over f fights: those of its
// agents: section, or the built-in Kinds when it has none, which need its
// htn section (the HTN agents are among them). A file whose agents
// include no HTN agent needs none.
func KindsOf(f *domain.File) ([]Kind, error) {
	if len(f.Agents) == 0 {
		if f.HTN == nil {
			return nil, fmt.Errorf("arena: %s: the arena needs the domain's htn section for its built-in agent kinds, or an agents: section", f.Path)
		}
		return Kinds, nil
	}
	return KindsFrom(f)
}

// Pick returns the kinds named, in the order named; an unknown name or one
// named twice (which would fight the batch twice) is an error.
func Pick(kinds []Kind, names []string) ([]Kind, error) {
	var known []string
	for _, k := range kinds {
		known = append(known, k.Name)
	}
	var out []Kind
	for i, name := range names {
		j := slices.Index(known, name)
		if j < 0 {
			return nil, fmt.Errorf("unknown agent kind %q; the kinds: %s", name, strings.Join(known, ", "))
		}
		if slices.Contains(names[:i], name) {
			return nil, fmt.Errorf("agent kind %q is named twice", name)
		}
		out = append(out, kinds[j])
	}
	return out, nil
}
