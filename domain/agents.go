package domain

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// Agent is one agent kind of a file's agents: section: what it pursues
// and how it sees the domain's actions. Seed 001 §5: "same graph,
// different behaviour: designers express personality without touching
// code". A GOAP agent has Goals; an HTN agent has HTN.
type Agent struct {
	Name string
	// Goals are a GOAP agent's goal options, in the file's order: the
	// agent pursues the highest-priority one that applies (Choose).
	Goals []AgentGoal
	// ProfileSpec is what the file says of the agent's actions: the
	// actions its capabilities leave out, and its cost overrides.
	// Profile is it compiled, nil when it changes nothing.
	ProfileSpec goap.ProfileSpec
	Profile     *goap.Profile
	// HTN is an HTN agent's domain (nil for a GOAP agent), Root the task
	// it decomposes, and Interrupt its mode: decompose again whenever the
	// facts change and switch to a plan with a smaller MTR (lesson 5),
	// rather than only when the plan breaks.
	HTN       *htn.Domain
	Root      htn.Task
	Interrupt bool

	path string // in the file, for lint: "agents[2]"
}

// AgentGoal is one goal option of a GOAP agent.
type AgentGoal struct {
	Goal     *goap.Goal
	Priority float64
	// When, if not nil, must hold for the option to apply (lesson 4's
	// "heal if hurt" is when: {healthy: false}).
	When *goap.Goal

	path string // in the file, for lint: "agents[2].goals[0]"
}

// Choose returns the goal option the agent pursues in state s, as the
// agent runtime chooses before any plan has failed: of the options whose
// goal does not hold yet and whose When holds, the one with the highest
// priority, ties to the earlier. ok is false when none applies (the agent
// idles).
func (a *Agent) Choose(s goap.State) (option AgentGoal, ok bool) {
	for _, o := range a.Goals {
		if o.Goal.Holds(s) || o.When != nil && !o.When.Holds(s) {
			continue
		}
		if !ok || o.Priority > option.Priority {
			option, ok = o, true
		}
	}
	return option, ok
}

// Agent returns the file's agent kind named name, or an error naming the
// kinds there are.
func (f *File) Agent(name string) (*Agent, error) {
	var names []string
	for _, a := range f.Agents {
		if a.Name == name {
			return a, nil
		}
		names = append(names, a.Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("unknown agent %s: %s has no agents section", quote(name), f.Path)
	}
	msg := fmt.Sprintf("unknown agent %s", quote(name))
	if s := suggest.Closest(name, names); s != "" {
		return nil, fmt.Errorf("%s; did you mean %s?", msg, quote(s))
	}
	return nil, fmt.Errorf("%s; %s has %s", msg, f.Path, strings.Join(names, ", "))
}

// agentSpec is an agent as read, before its names are resolved against
// the built domains.
type agentSpec struct {
	path         string
	name         string
	goals        []agentGoalSpec
	costs        map[string]goap.Cost
	capabilities []string // nil: every action
	hasCaps      bool
	htn          bool
	root         string
	mode         string
}

type agentGoalSpec struct {
	path     string
	goal     string
	priority float64
	when     map[string]bool
}

// agentModes are the values of an HTN agent's mode, the default first.
var agentModes = []string{"replan-on-break", "interrupt"}

// agentsSection reads the agents: list.
func (l *loader) agentsSection(section *ast.MappingValueNode) {
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
		f := l.fields(l.mapping(item, "an agent"), "an agent", "name", "goals", "costs", "capabilities", "htn")
		a := agentSpec{path: path, name: l.itemName(f, item, path, "agent")}
		if mv, ok := f["goals"]; ok {
			l.pos[path+".goals"] = position(mv.Key)
			for j, g := range l.sequence(mv.Value, "an agent's goals") {
				a.goals = append(a.goals, l.agentGoal(fmt.Sprintf("%s.goals[%d]", path, j), g))
			}
		}
		if mv, ok := f["costs"]; ok {
			l.pos[path+".costs"] = position(mv.Key)
			a.costs = map[string]goap.Cost{}
			for _, c := range l.mapping(mv.Value, "an agent's costs") {
				name := keyName(c.Key)
				cp := path + ".costs." + name
				l.pos[cp] = position(c.Key)
				if _, dup := a.costs[name]; dup {
					l.errorf(c.Key, "agent %s gives action %s two costs", quote(a.name), quote(name))
					continue
				}
				a.costs[name] = l.cost(cp+".cost", c.Value, -1)
			}
		}
		if mv, ok := f["capabilities"]; ok {
			l.pos[path+".capabilities"] = position(mv.Key)
			a.hasCaps = true
			a.capabilities = []string{}
			for k, c := range l.sequence(mv.Value, "an agent's capabilities") {
				l.pos[fmt.Sprintf("%s.capabilities[%d]", path, k)] = position(c)
				name, _ := l.name(c, "a capability (an action's name)")
				a.capabilities = append(a.capabilities, name)
			}
		}
		if mv, ok := f["htn"]; ok {
			l.agentHTN(&a, mv)
		}
		if len(a.goals) == 0 && !a.htn && a.name != "" {
			l.errorf(item, "agent %s has nothing to pursue: give it goals (goals: [{goal: G, priority: 1}]) or make it an HTN agent (htn: {mode: interrupt})", quote(a.name))
		}
		if len(a.goals) > 0 && a.htn {
			l.errorf(f["htn"].Key, "agent %s has both goals and htn: a GOAP agent chooses among goals, an HTN agent decomposes a root task; keep one", quote(a.name))
			a.htn = false // said once
		}
		l.agents = append(l.agents, a)
	}
}

func (l *loader) agentGoal(path string, item ast.Node) agentGoalSpec {
	l.pos[path] = position(item)
	g := agentGoalSpec{path: path}
	if !l.isMapping(item, path, "an agent's goal") {
		return g
	}
	f := l.fields(l.mapping(item, "an agent's goal"), "an agent's goal", "goal", "priority", "when")
	if mv, ok := f["goal"]; ok {
		l.pos[path+".goal"] = position(mv.Value)
		g.goal, _ = l.name(mv.Value, "the goal")
	} else {
		l.errorf(item, "an agent's goal option has no goal: name one of the file's goals, such as {goal: Kill, priority: 5}")
	}
	if mv, ok := f["priority"]; ok {
		l.pos[path+".priority"] = position(mv.Value)
		if p, ok := l.number(mv.Value, "priority"); ok {
			if math.IsNaN(p) || math.IsInf(p, 0) {
				l.errorf(mv.Value, "priority must be a finite number, not %v", p)
			} else {
				g.priority = p
			}
		}
	} else {
		l.errorf(item, "an agent's goal option has no priority: give it one, such as priority: 5 (the highest that applies wins)")
	}
	if mv, ok := f["when"]; ok {
		g.when = l.facts(path+".when", mv.Value)
	}
	return g
}

func (l *loader) agentHTN(a *agentSpec, mv *ast.MappingValueNode) {
	a.htn = true
	path := a.path + ".htn"
	l.pos[path] = position(mv.Key)
	if isNull(l.unwrap(mv.Value)) {
		return // htn: with nothing under it: the file's root, on break
	}
	f := l.fields(l.mapping(mv.Value, "an agent's htn"), "an agent's htn", "root", "mode")
	if r, ok := f["root"]; ok {
		l.pos[path+".root"] = position(r.Value)
		a.root, _ = l.name(r.Value, "the root task")
	}
	if m, ok := f["mode"]; ok {
		l.pos[path+".mode"] = position(m.Value)
		mode, _ := l.name(m.Value, "the mode")
		if mode != "" && !slices.Contains(agentModes, mode) {
			l.errorf(m.Value, "unknown mode %s: an HTN agent's mode is %s", quote(mode), strings.Join(agentModes, " or "))
			mode = ""
		}
		a.mode = mode
	}
}

// buildAgents resolves the agents' names against the built domains: goals,
// actions, tasks. h is nil when the file has no htn section.
func (l *loader) buildAgents(g *goap.Domain, h *htn.Domain) []*Agent {
	var out []*Agent
	seen := map[string]string{}
	var goalNames []string
	for _, goal := range g.Goals() {
		goalNames = append(goalNames, goal.Name())
	}
	var actionNames []string
	for a := range g.NumActions() {
		actionNames = append(actionNames, g.ActionName(goap.ActionID(a)))
	}
	for _, s := range l.agents {
		if s.name == "" {
			continue // said: no name
		}
		if first, dup := seen[s.name]; dup {
			l.errorAt(lookup(l.pos, s.path+".name"), "agent %s is defined twice (first at line %d)", quote(s.name), lookup(l.pos, first).Line)
			continue
		}
		seen[s.name] = s.path + ".name"
		a := &Agent{Name: s.name, path: s.path}
		ok := true
		chosen := map[string]bool{}
		for _, gs := range s.goals {
			if gs.goal == "" {
				ok = false
				continue
			}
			goal := g.Goal(gs.goal)
			if goal == nil && slices.ContainsFunc(l.spec.Goals, func(s goap.GoalSpec) bool { return s.Name == gs.goal }) {
				ok = false // the goal has errors of its own, said
				continue
			}
			if goal == nil {
				l.errorAt(lookup(l.pos, gs.path+".goal"), "%s", l.unknownName("goal", gs.goal, goalNames))
				ok = false
				continue
			}
			if chosen[gs.goal] {
				l.errorAt(lookup(l.pos, gs.path+".goal"), "agent %s lists goal %s twice: give it one option, with a when: if it applies only sometimes", quote(s.name), quote(gs.goal))
				ok = false
				continue
			}
			chosen[gs.goal] = true
			option := AgentGoal{Goal: goal, Priority: gs.priority, path: gs.path}
			if gs.when != nil {
				when, err := g.NewGoal(s.name+"."+gs.goal+".when", gs.when)
				if err != nil {
					l.errorAt(lookup(l.pos, gs.path+".when"), "%s", err)
					ok = false
					continue
				}
				option.When = when
			}
			a.Goals = append(a.Goals, option)
		}
		for _, name := range slices.Sorted(maps.Keys(s.costs)) {
			if _, known := g.ActionByName(name); !known {
				l.errorAt(lookup(l.pos, s.path+".costs."+name), "%s", l.unknownName("action", name, actionNames))
				delete(s.costs, name)
				ok = false
			}
		}
		a.ProfileSpec.Costs = s.costs
		if s.hasCaps {
			capable := map[string]bool{}
			for k, name := range s.capabilities {
				if name == "" {
					ok = false
					continue
				}
				if _, known := g.ActionByName(name); !known {
					l.errorAt(lookup(l.pos, fmt.Sprintf("%s.capabilities[%d]", s.path, k)), "%s", l.unknownName("action", name, actionNames))
					ok = false
					continue
				}
				if capable[name] {
					l.errorAt(lookup(l.pos, fmt.Sprintf("%s.capabilities[%d]", s.path, k)), "capability %s is listed twice", quote(name))
				}
				capable[name] = true
			}
			for _, name := range actionNames {
				if !capable[name] {
					a.ProfileSpec.Incapable = append(a.ProfileSpec.Incapable, name)
				}
			}
		}
		if len(a.ProfileSpec.Costs) > 0 || len(a.ProfileSpec.Incapable) > 0 {
			p, err := g.NewProfile(a.ProfileSpec)
			var es goap.SpecErrors
			switch {
			case errors.As(err, &es):
				for _, e := range es {
					// costs.NAME: the action's name is the key; costs.NAME.x: its cost.
					l.errorAt(lookup(l.pos, s.path+"."+e.Path), "%s", e.Msg)
				}
				ok = false
			case err != nil:
				l.errorAt(lookup(l.pos, s.path), "%s", err)
				ok = false
			}
			a.Profile = p
		}
		if s.htn {
			if h == nil {
				l.errorAt(lookup(l.pos, s.path+".htn"), "agent %s is an HTN agent, but the file has no htn section to decompose", quote(s.name))
				ok = false
			} else {
				a.HTN, a.Root, a.Interrupt = h, h.Root(), s.mode == "interrupt"
				if s.root != "" {
					t, found := h.TaskByName(s.root)
					if !found || h.NumMethods(t) == 0 {
						l.errorAt(lookup(l.pos, s.path+".htn.root"), "the root %s is no compound task of the file's htn", quote(s.root))
						ok = false
					}
					a.Root = t
				}
			}
		}
		if ok {
			out = append(out, a)
		}
	}
	return out
}

// unknownName says name is none of the file's names of its kind (goal,
// action), with the closest or the first few; only the first
// maxSuggestions unknown names get either, as for facts, which keeps a
// file of many misspellings linear.
func (l *loader) unknownName(kind, name string, names []string) string {
	msg := fmt.Sprintf("unknown %s %s", kind, quote(name))
	if l.suggested >= maxSuggestions {
		return msg
	}
	l.suggested++
	if s := suggest.Closest(name, names); s != "" {
		return msg + fmt.Sprintf("; did you mean %s?", quote(s))
	}
	if len(names) == 0 {
		return msg + fmt.Sprintf("; the file has no %ss", kind)
	}
	const listed = 10
	list := strings.Join(names[:min(len(names), listed)], ", ")
	if len(names) > listed {
		list += fmt.Sprintf(" and %d more", len(names)-listed)
	}
	return msg + fmt.Sprintf("; the file's %ss: %s", kind, list)
}
