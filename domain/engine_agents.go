package domain

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/goccy/go-yaml/ast"

	"github.com/ploy-ai/ploy/resolver"
)

// EngineAgent is an agent kind of an engine-model file's agents: section:
// what a resolver agent pursues and how it sees the actions. Its
// conditions and scores read the world's keys: in an engine-model file
// every key is an input (File.Inputs lists them, in the file's order, with
// the values of its initial:), a boolean one as 0 or 1.
type EngineAgent struct {
	Name  string
	Title string // Name if the file gives none
	Goals []EngineGoal
	// ProfileSpec is the agent's capabilities and cost overrides;
	// Profile it compiled, nil when it changes nothing.
	ProfileSpec resolver.ProfileSpec
	Profile     *resolver.Profile
	// Commitment is how firmly the agent keeps the goal it chose (its
	// commitment:); zero without one.
	Commitment Commitment

	path string
}

// EngineGoal is one goal option of an engine-model agent.
type EngineGoal struct {
	Goal     *resolver.Goal
	Weighing // its When tests keys, as inputs

	path string
}

// Ranked returns the options that apply in snapshot s (goal not holding,
// When holding), highest score first, ties to the earlier: the order a
// resolver agent tries them in.
func (a *EngineAgent) Ranked(s *resolver.Snapshot) []EngineGoal {
	inputs := make([]float64, len(s.Values))
	for i, v := range s.Values {
		inputs[i] = float64(v)
	}
	return rank(a.Goals, func(o EngineGoal) (float64, bool) {
		if o.Goal.Holds(s) {
			return 0, false
		}
		return o.score(noFacts, inputs)
	})
}

// EngineAgent returns the engine-model file's agent kind named name, or an
// error naming the kinds there are.
func (f *File) EngineAgent(name string) (*EngineAgent, error) {
	return named(f.Path, name, f.EngineAgents, func(a *EngineAgent) string { return a.Name })
}

// engineAgentsSection reads an engine-model file's agents: once its keys
// and initial values are known: they are the agents' inputs.
func (l *loader) engineAgentsSection(section *ast.MappingValueNode) {
	l.inputIndex = map[string]int{}
	l.inputs = nil
	for i, k := range l.rspec.Keys {
		if _, dup := l.inputIndex[k.Name]; !dup {
			l.inputIndex[k.Name] = i
		}
		l.inputs = append(l.inputs, Input{Name: k.Name, Default: float64(l.world.Values[k.Name])})
	}
	l.pos["agents"] = position(section.Key)
	for i, item := range l.sequence(section.Value, "agents") {
		path := fmt.Sprintf("agents[%d]", i)
		l.pos[path] = position(item)
		if i == MaxAgents {
			l.errorf(item, "more than %d agents: a file may describe at most %d agent kinds", MaxAgents, MaxAgents)
			return
		}
		if !l.isMapping(item, path, "an agent") {
			continue
		}
		f := l.fields(l.mapping(item, "an agent of an engine-model file"), "an agent of an engine-model file", "name", "title", "goals", "costs", "capabilities", "commitment")
		a := &engineAgentSpec{path: path, name: l.itemName(f, item, path, "agent")}
		if mv, ok := f["title"]; ok {
			a.title, _ = l.name(mv.Value, "the title")
		}
		if mv, ok := f["goals"]; ok {
			l.pos[path+".goals"] = position(mv.Key)
			for j, g := range l.sequence(mv.Value, "an agent's goals") {
				gs := l.agentGoal(fmt.Sprintf("%s.goals[%d]", path, j), g)
				if gs.conditions != nil {
					l.errorAt(lookup(l.pos, gs.path+".conditions"), "an engine-model agent pursues the file's goals: declare %s under goals: instead", quote(gs.goal))
				}
				a.goals = append(a.goals, gs)
			}
		} else if a.name != "" {
			l.errorf(item, "agent %s has nothing to pursue: give it goals, such as goals: [{goal: Warm, priority: 1}]", quote(a.name))
		}
		if mv, ok := f["costs"]; ok {
			l.pos[path+".costs"] = position(mv.Key)
			a.costs = map[string]float64{}
			for _, c := range l.mapping(mv.Value, "an agent's costs") {
				name := keyName(c.Key)
				l.pos[path+".costs."+name] = position(c.Key)
				x, ok := l.number(c.Value, "cost")
				if ok && !(x > 0 && x <= resolver.MaxCost) {
					l.errorf(c.Value, "cost %g for %s; costs must be positive and at most %g", x, quote(name), float64(resolver.MaxCost))
					ok = false
				}
				if ok {
					a.costs[name] = x
				}
			}
		}
		if mv, ok := f["capabilities"]; ok {
			l.pos[path+".capabilities"] = position(mv.Key)
			a.capabilities = []string{}
			for k, c := range l.sequence(mv.Value, "an agent's capabilities") {
				l.pos[fmt.Sprintf("%s.capabilities[%d]", path, k)] = position(c)
				name, _ := l.name(c, "a capability (an action's name)")
				a.capabilities = append(a.capabilities, name)
			}
		}
		if mv, ok := f["commitment"]; ok {
			a.commitment = l.commitment(path+".commitment", mv)
		}
		l.engineAgents = append(l.engineAgents, a)
	}
}

type engineAgentSpec struct {
	path, name, title string
	goals             []agentGoalSpec
	costs             map[string]float64
	capabilities      []string // nil: every action
	commitment        *commitmentSpec
}

// buildEngineAgents resolves the agents' goals and actions against the
// built resolver domain.
func (l *loader) buildEngineAgents(d *resolver.Domain) []*EngineAgent {
	var out []*EngineAgent
	seen := map[string]string{}
	var goals []string
	for _, g := range d.Goals() {
		goals = append(goals, g.Name())
	}
	for _, s := range l.engineAgents {
		if s.name == "" {
			continue
		}
		if first, dup := seen[s.name]; dup {
			l.errorAt(lookup(l.pos, s.path+".name"), "agent %s is defined twice (first at line %d)", quote(s.name), lookup(l.pos, first).Line)
			continue
		}
		seen[s.name] = s.path + ".name"
		a := &EngineAgent{Name: s.name, Title: s.title, path: s.path}
		if a.Title == "" {
			a.Title = a.Name
		}
		ok := true
		chosen := map[string]bool{}
		for _, gs := range s.goals {
			goal := d.Goal(gs.goal)
			switch {
			case gs.goal == "" || gs.conditions != nil:
				ok = false
				continue
			case goal == nil:
				l.errorAt(lookup(l.pos, gs.path+".goal"), "%s", l.unknownName("goal", gs.goal, goals))
				ok = false
				continue
			case chosen[gs.goal]:
				l.errorAt(lookup(l.pos, gs.path+".goal"), "agent %s lists goal %s twice: give it one option, with a when: if it applies only sometimes", quote(s.name), quote(gs.goal))
				ok = false
				continue
			}
			chosen[gs.goal] = true
			a.Goals = append(a.Goals, EngineGoal{Goal: goal, Weighing: gs.weighing(), path: gs.path})
		}
		c, fine := l.resolveCommitment(s.commitment, s.name, optionNames(s.goals), goals)
		a.Commitment, ok = c, ok && fine
		a.ProfileSpec = resolver.ProfileSpec{Capabilities: s.capabilities, Costs: s.costs}
		if s.capabilities != nil || len(s.costs) > 0 {
			p, err := d.NewProfile(a.ProfileSpec)
			var es resolver.SpecErrors
			switch {
			case errors.As(err, &es):
				for _, e := range es {
					l.errorAt(lookup(l.pos, s.path+"."+e.Path), "%s", e.Msg)
				}
				ok = false
			case err != nil:
				l.errorAt(lookup(l.pos, s.path), "%s", err)
				ok = false
			}
			a.Profile = p
		}
		if ok {
			out = append(out, a)
		}
	}
	return out
}

// boolKeyTest is an engine-model condition on a boolean key as an input
// test: true is at least 1, false less than 1.
func boolKeyTest(input int, v bool) InputTest {
	if v {
		return InputTest{Input: input, Op: AtLeast, Value: 1}
	}
	return InputTest{Input: input, Op: Less, Value: 1}
}

// rank returns the options that apply, highest score first, ties in their
// order: score says whether an option applies and its score.
func rank[T any](options []T, score func(T) (float64, bool)) []T {
	type scored struct {
		option T
		score  float64
	}
	var all []scored
	for _, o := range options {
		if sc, applies := score(o); applies {
			all = append(all, scored{o, sc})
		}
	}
	// A stable sort keeps ties in the file's order, in n log n.
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	out := make([]T, len(all))
	for i, s := range all {
		out[i] = s.option
	}
	return out
}
