package domain

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/resolver"
)

// Agent is one agent kind of a file's agents: section: what it pursues
// and how it sees the domain's actions: one domain, different behaviour,
// so that designers express personality without touching code. A GOAP
// agent has Goals; an HTN agent has HTN.
type Agent struct {
	Name string
	// Title is the agent's longer name, for tables; Name if the file
	// gives none.
	Title string
	// Goals are a GOAP agent's goal options, in the file's order: the
	// agent pursues the highest-priority one that applies (Choose).
	Goals []AgentGoal
	// ProfileSpec is what the file says of the agent's actions: the
	// actions its capabilities leave out, and its cost overrides.
	// Profile is it compiled, nil when it changes nothing.
	ProfileSpec goap.ProfileSpec
	Profile     *goap.Profile
	// HTN is an HTN agent's domain (nil for a GOAP agent; a tree agent's
	// when its tree has htn leaves), Root the task it decomposes, and
	// Interrupt its mode: decompose again whenever the facts change and
	// switch to a plan with a smaller MTR (one from higher-priority
	// methods), rather than only when the plan breaks.
	HTN       *htn.Domain
	Root      htn.Task
	Interrupt bool
	// Tree is a behaviour-tree or utility agent's tree, ticked every tick
	// instead of planning.
	Tree *Node
	// Commitment is how firmly a GOAP agent keeps the goal it chose (its
	// commitment:); zero without one.
	Commitment Commitment

	path string // in the file, for lint: "agents[2]"
}

// AgentGoal is one goal option of a GOAP agent.
type AgentGoal struct {
	// Goal is one of the file's goals, or the agent's own, which its
	// option defines with conditions: (such as "restock if idle").
	Goal *goap.Goal
	Weighing

	path string // in the file, for lint: "agents[2].goals[0]"
}

// Weighing is how an agent weighs a goal option.
type Weighing struct {
	Priority float64
	// Utility, if not nil, scores the option instead of Priority.
	Utility *Score
	// When must hold for the option to apply ("heal if hurt" is
	// when: {health: "< 40"}); the zero Condition always does.
	When Condition
}

// score is the option's score with the facts s and the inputs, and
// whether it applies (its When holds).
func (w *Weighing) score(s goap.State, inputs []float64) (float64, bool) {
	if !w.When.Holds(s, inputs) {
		return 0, false
	}
	if w.Utility != nil {
		return w.Utility.At(s, inputs), true
	}
	return w.Priority, true
}

// IsHTN reports whether a is an HTN agent: it decomposes a root task
// rather than choosing goals or ticking a tree.
func (a *Agent) IsHTN() bool { return a.HTN != nil && a.Tree == nil }

// Choose returns the goal option the agent pursues with the facts s and
// the input values inputs (indexed as File.Inputs), as the agent runtime
// chooses before any plan has failed: of the options whose goal does not
// hold yet and whose When holds, the one with the highest score (its
// Utility, else its Priority), ties to the earlier. ok is false when none
// applies (the agent idles).
func (a *Agent) Choose(s goap.State, inputs []float64) (option AgentGoal, ok bool) {
	ranked := a.Ranked(s, inputs)
	if len(ranked) == 0 {
		return AgentGoal{}, false
	}
	return ranked[0], true
}

// Ranked returns the options that apply with the facts s and the inputs
// (goal not holding yet, When holding), in the order the agent runtime
// would try them: highest score first, ties to the earlier. The runtime
// takes the first; when it finds no plan, the next, a while later.
func (a *Agent) Ranked(s goap.State, inputs []float64) []AgentGoal {
	return rank(a.Goals, func(o AgentGoal) (float64, bool) {
		if o.Goal.Holds(s) {
			return 0, false
		}
		return o.score(s, inputs)
	})
}

// Agent returns the file's agent kind named name, or an error naming the
// kinds there are.
func (f *File) Agent(name string) (*Agent, error) {
	return named(f.Path, name, f.Agents, func(a *Agent) string { return a.Name })
}

// named returns the agent of agents called name, or an error naming the
// file's agents.
func named[T any](path, name string, agents []T, nameOf func(T) string) (T, error) {
	var names []string
	for _, a := range agents {
		if nameOf(a) == name {
			return a, nil
		}
		names = append(names, nameOf(a))
	}
	var none T
	return none, unknownAgent(path, name, names)
}

// unknownAgent says name is none of a file's agents.
func unknownAgent(path, name string, names []string) error {
	if len(names) == 0 {
		return fmt.Errorf("unknown agent %s: %s has no agents section", quote(name), path)
	}
	msg := fmt.Sprintf("unknown agent %s", quote(name))
	if s := suggest.Closest(name, names); s != "" {
		return fmt.Errorf("%s; did you mean %s?", msg, quote(s))
	}
	return fmt.Errorf("%s; %s has %s", msg, path, strings.Join(names, ", "))
}

// agentSpec is an agent as read. Names of goals, actions and tasks are
// resolved once the domains are built, by its resolve functions, each of
// which reports its own errors and says whether it succeeded.
type agentSpec struct {
	path         string
	name         string
	title        string
	goals        []agentGoalSpec
	costs        map[string]goap.Cost
	capabilities []string
	hasCaps      bool
	htn          bool
	root         string
	mode         string
	tree         *Node
	resolve      []func(g *goap.Domain, h *htn.Domain) bool
	usesHTN      bool // its tree has an htn leaf
	commitment   *commitmentSpec
}

func (gs agentGoalSpec) weighing() Weighing {
	return Weighing{Priority: gs.priority, Utility: gs.utility, When: gs.when}
}

type agentGoalSpec struct {
	path       string
	goal       string
	priority   float64
	utility    *Score
	when       Condition
	conditions map[string]bool // an agent's own goal's; nil for a file goal
}

// agentModes are the values of an HTN agent's mode, the default first.
var agentModes = []string{"replan-on-break", "interrupt"}

// inputsSection reads inputs: a mapping of names to default values.
func (l *loader) inputsSection(section *ast.MappingValueNode) {
	l.pos["inputs"] = position(section.Key)
	l.inputIndex = map[string]int{}
	for _, mv := range l.mapping(section.Value, "inputs") {
		name, ok := l.name(mv.Key, "an input name")
		if !ok {
			continue
		}
		l.pos["inputs."+name] = position(mv.Key) // the parser refuses a repeated key
		if slices.Contains(l.spec.Facts, name) {
			// A condition {name: true} would be refused as an input's, and
			// {name: "< 1"} would test the input: the fact could not be
			// tested at all.
			l.errorf(mv.Key, "input %s has the name of a fact: conditions could not tell them apart; rename one", quote(name))
		}
		v, ok := l.number(mv.Value, "an input's default")
		if ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			l.errorf(mv.Value, "input %s: the default must be a finite number", quote(name))
			v = 0
		}
		l.inputIndex[name] = len(l.inputs)
		l.inputs = append(l.inputs, Input{Name: name, Default: v})
	}
}

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
		f := l.fields(l.mapping(item, "an agent"), "an agent", "name", "title", "goals", "costs", "capabilities", "htn", "tree", "commitment")
		a := &agentSpec{path: path, name: l.itemName(f, item, path, "agent")}
		if bad, ok := unsafeOnCommandLine(a.name); ok {
			// ploy arena --agents a,b and the API's lists name agents
			l.errorAt(lookup(l.pos, path+".name"), "agent name %s holds %s; --agents NAME,NAME picks agents, so write it as letters, digits, - and _, such as %s", quote(a.name), bad, underscored(a.name))
		}
		if mv, ok := f["title"]; ok {
			a.title, _ = l.name(mv.Value, "the title")
		}
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
				if _, dup := a.costs[name]; dup {
					l.errorf(c.Key, "agent %s gives action %s two costs", quote(a.name), quote(name))
					continue
				}
				// At goap's paths for the profile's errors: costs.NAME (the
				// action's name is the key), costs.NAME[i].cost and .when.
				a.costs[name] = l.cost(cp, c.Value, -1)
				l.pos[cp] = position(c.Key)
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
			l.agentHTN(a, mv)
		}
		if mv, ok := f["tree"]; ok {
			l.pos[path+".tree"] = position(mv.Key)
			a.tree = l.node(a, path+".tree", mv.Value)
		}
		if mv, ok := f["commitment"]; ok {
			a.commitment = l.commitment(path+".commitment", mv)
		}
		var kinds []*ast.MappingValueNode
		for _, key := range []string{"goals", "htn", "tree"} {
			if mv, ok := f[key]; ok {
				kinds = append(kinds, mv)
			}
		}
		switch {
		case len(kinds) == 0 && a.name != "":
			l.errorf(item, "agent %s has nothing to pursue: give it goals (goals: [{goal: G, priority: 1}]), make it an HTN agent (htn: {mode: interrupt}), or give it a behaviour tree (tree:)", quote(a.name))
		case len(kinds) > 1:
			// at the second of them in the file
			slices.SortFunc(kinds, func(x, y *ast.MappingValueNode) int {
				px, py := position(x.Key), position(y.Key)
				return cmp.Or(cmp.Compare(px.Line, py.Line), cmp.Compare(px.Col, py.Col))
			})
			l.errorf(kinds[1].Key, "agent %s has more than one of goals, htn and tree: a GOAP agent chooses among goals, an HTN agent decomposes a root task, a tree agent ticks its tree; keep one", quote(a.name))
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
	f := l.fields(l.mapping(item, "an agent's goal"), "an agent's goal", "goal", "priority", "utility", "when", "conditions")
	if mv, ok := f["goal"]; ok {
		l.pos[path+".goal"] = position(mv.Value)
		g.goal, _ = l.name(mv.Value, "the goal")
	} else {
		l.errorf(item, "an agent's goal option has no goal: name one of the file's goals, such as {goal: Kill, priority: 5}, or name the agent's own and give its conditions")
	}
	_, hasPriority := f["priority"]
	_, hasUtility := f["utility"]
	switch {
	case hasPriority && hasUtility:
		l.errorf(f["utility"].Key, "an agent's goal option has a priority and a utility: the utility scores the option instead of the priority; keep one")
		l.score(path+".utility", f["utility"].Value) // for its own errors
	case hasPriority:
		mv := f["priority"]
		l.pos[path+".priority"] = position(mv.Value)
		if p, ok := l.number(mv.Value, "priority"); ok {
			if math.IsNaN(p) || math.IsInf(p, 0) {
				l.errorf(mv.Value, "priority must be a finite number, not %v", p)
			} else {
				g.priority = p
			}
		}
	case hasUtility:
		sc := l.score(path+".utility", f["utility"].Value)
		g.utility = &sc
	default:
		l.errorf(item, "an agent's goal option has no priority: give it one, such as priority: 5 (the highest that applies wins), or a utility score")
	}
	if mv, ok := f["when"]; ok {
		g.when = l.condition(path+".when", mv.Value)
	}
	if mv, ok := f["conditions"]; ok {
		g.conditions = l.facts(path+".conditions", mv.Value)
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

// inputComparison is an input test as written: "< 40", ">= 0.5".
var inputComparison = regexp.MustCompile(`^\s*(<=|>=|<|>)\s*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*$`)

// condition reads an agent's condition: facts true or false, and inputs
// compared with a number ("< 40"). Its facts are checked with the file's
// other fact maps; the goal they make is built with the domain.
func (l *loader) condition(path string, n ast.Node) Condition {
	l.pos[path] = position(n)
	facts := map[string]bool{}
	l.factMaps = append(l.factMaps, factMap{path, facts})
	var c Condition
	for _, mv := range l.mapping(n, "a condition") {
		k := keyName(mv.Key)
		l.pos[path+"."+k] = position(mv.Key)
		if b, ok := boolValue(mv.Value); ok {
			if l.engine {
				// every key is an input; a boolean one is tested as 0 or 1
				in, isKey := l.inputIndex[k]
				switch {
				case !isKey && l.mistyped[k]:
					// its declaration's error says it
				case !isKey:
					l.errorf(mv.Key, "%s", l.unknownEngineInput(k, resolver.Bool))
				case l.kinds[k] != resolver.Bool:
					l.errorf(mv.Value, "%s is an integer key: compare it, such as %s: \"< 40\", rather than true or false", quote(k), k)
				default:
					c.Inputs = append(c.Inputs, boolKeyTest(in, b))
				}
				continue
			}
			if _, isInput := l.inputIndex[k]; isInput {
				l.errorf(mv.Value, "%s is an input (a number): compare it, such as %s: \"< 40\", rather than true or false", quote(k), k)
				continue
			}
			facts[k] = b
			continue
		}
		v := l.unwrap(mv.Value)
		text, isText := v.(*ast.StringNode)
		m := []string(nil)
		if isText {
			m = inputComparison.FindStringSubmatch(text.Value)
		}
		if m == nil {
			l.errorf(valueOrKey(mv), "condition %s must be true or false (a fact) or a comparison such as \"< 40\" (an input), not %s", quote(k), describe(v))
			continue
		}
		input, ok := l.inputIndex[k]
		if l.engine && ok && l.kinds[k] == resolver.Bool {
			l.errorf(mv.Value, "%s is a boolean key: a condition on it is true or false, not a comparison", quote(k))
			continue
		}
		if l.engine && !ok {
			if !l.mistyped[k] {
				l.errorf(mv.Key, "%s", l.unknownEngineInput(k, resolver.Int))
			}
			continue
		}
		if !ok {
			msg := fmt.Sprintf("unknown input %s: declare it under inputs: with its default, such as inputs: {%s: 0}", quote(k), k)
			if l.suggested < maxSuggestions { // past the errors shown, no lookup: linear
				l.suggested++
				names := make([]string, len(l.inputs))
				for i, in := range l.inputs {
					names[i] = in.Name
				}
				if sg := suggest.Closest(k, names); sg != "" {
					msg = fmt.Sprintf("unknown input %s; did you mean %s?", quote(k), quote(sg))
				}
			}
			l.errorf(mv.Key, "%s", msg)
			continue
		}
		x, _ := strconv.ParseFloat(m[2], 64)
		if math.IsInf(x, 0) {
			l.errorf(mv.Value, "condition %s: %s is out of range", quote(k), m[2])
			continue
		}
		c.Inputs = append(c.Inputs, InputTest{Input: input, Op: Compare(slices.Index(compareText[:], m[1])), Value: x})
	}
	c.facts = &conditionFacts{path: path, spec: facts}
	l.pending = append(l.pending, c.facts)
	return c
}

// score reads a utility score: a number, {input, slope, offset},
// {input, points}, or a list of {when, score} rules ending with a
// default {score}.
func (l *loader) score(path string, n ast.Node) Score {
	l.pos[path] = position(n)
	switch v := l.unwrap(n).(type) {
	case *ast.SequenceNode:
		sc := Score{Kind: Rules}
		for j, item := range v.Values {
			rp := fmt.Sprintf("%s[%d]", path, j)
			l.pos[rp] = position(item)
			f := l.fields(l.mapping(item, "a score rule"), "a score rule", "when", "score")
			var r ScoreRule
			if mv, ok := f["score"]; ok {
				r.Score = l.score(rp+".score", mv.Value)
			} else {
				l.errorf(item, "score rule has no score; give it one, such as {when: {in_cover: true}, score: 5}")
			}
			mv, hasWhen := f["when"]
			switch {
			case !hasWhen && j < len(v.Values)-1:
				l.errorf(item, "only the last score rule may omit when: it is the default")
			case hasWhen && j == len(v.Values)-1:
				l.errorf(item, "score rule list has no default: end it with a rule without when, such as {score: 0}")
				l.condition(rp+".when", mv.Value) // for its own errors
			case hasWhen:
				r.When = l.condition(rp+".when", mv.Value)
			}
			sc.Rules = append(sc.Rules, r)
		}
		if len(sc.Rules) == 0 {
			l.errorf(n, "score rule list is empty: give it at least a default, such as [{score: 1}]")
			return Score{}
		}
		return sc
	case *ast.MappingNode, *ast.MappingValueNode:
		f := l.fields(l.mapping(n, "a score"), "a score", "input", "slope", "offset", "points")
		mv, ok := f["input"]
		if !ok {
			l.errorf(n, "a score curve names its input: {input: health, slope: -0.125, offset: 12.5} or {input: health, points: [[0, 10], [100, 0]]}")
			return Score{}
		}
		name, _ := l.name(mv.Value, "the input")
		input, known := l.inputIndex[name]
		switch {
		case known || name == "" || l.mistyped[name]:
		case l.engine:
			l.errorf(mv.Value, "%s", l.unknownEngineInput(name, resolver.Int))
		default:
			l.errorf(mv.Value, "unknown input %s: declare it under inputs: with its default", quote(name))
		}
		sc := Score{Kind: Linear, Input: input}
		_, hasPoints := f["points"]
		_, hasSlope := f["slope"]
		_, hasOffset := f["offset"]
		switch {
		case hasPoints && (hasSlope || hasOffset):
			l.errorf(mv.Key, "a score curve has points or a slope and an offset, not both")
		case hasPoints:
			sc.Kind = Curve
			sc.Points = l.points(path+".points", f["points"].Value)
		default:
			for key, into := range map[string]*float64{"slope": &sc.Slope, "offset": &sc.Offset} {
				if mv, ok := f[key]; ok {
					*into = l.finite(mv.Value, key)
				}
			}
		}
		if !known {
			return Score{}
		}
		return sc
	}
	return Score{Value: l.finite(n, "a score")}
}

// finite reads a finite number; 0 if it is none (the error reported).
func (l *loader) finite(n ast.Node, what string) float64 {
	x, _ := l.finiteOK(n, what)
	return x
}

// finiteOK is finite, saying whether the number was one.
func (l *loader) finiteOK(n ast.Node, what string) (float64, bool) {
	x, ok := l.number(n, what)
	if !ok {
		return 0, false
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > goap.MaxCost {
		l.errorf(n, "%s must be a finite number of at most %g in size", what, goap.MaxCost)
		return 0, false
	}
	return x, true
}

// points reads a curve's points: [[x, y], ...], at least two, x strictly
// increasing.
func (l *loader) points(path string, n ast.Node) [][2]float64 {
	var out [][2]float64
	bad := false // a point said to be wrong: the count and order are not judged again
	for _, item := range l.sequence(n, "a curve's points") {
		pair := l.sequence(item, "a point [x, y]")
		if len(pair) != 2 {
			l.errorf(item, "a curve's point is [x, y], not %d numbers", len(pair))
			bad = true
			continue
		}
		x, okX := l.finiteOK(pair[0], "x")
		y, okY := l.finiteOK(pair[1], "y")
		if !okX || !okY {
			bad = true
			continue
		}
		p := [2]float64{x, y}
		if len(out) > 0 && p[0] <= out[len(out)-1][0] {
			l.errorf(item, "a curve's points go left to right: x %g does not follow %g", p[0], out[len(out)-1][0])
			bad = true
			continue
		}
		out = append(out, p)
	}
	if len(out) < 2 {
		if !bad {
			l.errorf(n, "a curve needs at least two points, such as [[0, 10], [100, 0]]")
		}
		return [][2]float64{{0, 0}, {1, 0}}
	}
	return out
}

// nodeKeys are a tree node's keys: exactly one per node.
var nodeKeys = []string{"sequence", "selector", "when", "action", "plan", "htn", "utility"}

// node reads a behaviour-tree node: a mapping of one of nodeKeys.
func (l *loader) node(a *agentSpec, path string, n ast.Node) *Node {
	l.pos[path] = position(n)
	node := &Node{path: path}
	entries := l.mapping(n, "a tree node")
	if len(entries) != 1 {
		if len(entries) > 1 || entries != nil || isNull(l.unwrap(n)) {
			l.errorf(n, "a tree node is one of %s, such as {action: Approach}, not %d of them", strings.Join(nodeKeys, ", "), len(entries))
		}
		return node
	}
	f := l.fields(entries, "a tree node", nodeKeys...)
	for key, mv := range f {
		switch key {
		case "sequence", "selector":
			node.Kind = Sequence
			if key == "selector" {
				node.Kind = Selector
			}
			for i, child := range l.sequence(mv.Value, "a "+key+"'s children") {
				node.Children = append(node.Children, l.node(a, fmt.Sprintf("%s.%s[%d]", path, key, i), child))
			}
			if len(node.Children) == 0 {
				l.errorf(mv.Key, "a %s needs children", key)
			}
		case "when":
			node.Kind = When
			node.Condition = l.condition(path+".when", mv.Value)
		case "action":
			node.Kind = Act
			name, _ := l.name(mv.Value, "an action")
			l.pos[path+".action"] = position(mv.Value)
			a.resolve = append(a.resolve, func(g *goap.Domain, _ *htn.Domain) bool {
				id, ok := g.ActionByName(name)
				if !ok && name != "" {
					l.errorAt(lookup(l.pos, path+".action"), "%s", l.unknownName("action", name, actionNames(g)))
				}
				node.Action = id
				return ok
			})
		case "plan":
			node.Kind = Plan
			name, _ := l.name(mv.Value, "a goal")
			l.pos[path+".plan"] = position(mv.Value)
			a.resolve = append(a.resolve, func(g *goap.Domain, _ *htn.Domain) bool {
				node.Goal = g.Goal(name)
				if node.Goal == nil && name != "" {
					l.errorAt(lookup(l.pos, path+".plan"), "%s", l.unknownName("goal", name, goalNames(g)))
				}
				return node.Goal != nil
			})
		case "htn":
			node.Kind = PlanHTN
			node.Task, _ = l.name(mv.Value, "a compound task")
			l.pos[path+".htn"] = position(mv.Value)
			a.usesHTN = true
			a.resolve = append(a.resolve, func(_ *goap.Domain, h *htn.Domain) bool {
				if h == nil {
					l.errorAt(lookup(l.pos, path+".htn"), "an htn leaf decomposes with the file's htn section, and the file has none")
					return false
				}
				if t, ok := h.TaskByName(node.Task); ok && !t.IsPrimitive() {
					return true
				}
				if node.Task != "" {
					l.errorAt(lookup(l.pos, path+".htn"), "%s is no compound task of the file's htn", quote(node.Task))
				}
				return false
			})
		case "utility":
			node.Kind = UtilitySelector
			l.utilityNode(a, node, path+".utility", mv.Value)
		}
	}
	return node
}

func (l *loader) utilityNode(a *agentSpec, node *Node, path string, n ast.Node) {
	f := l.fields(l.mapping(n, "a utility selector"), "a utility selector", "hysteresis", "options")
	if mv, ok := f["hysteresis"]; ok {
		node.Hysteresis = l.finite(mv.Value, "hysteresis")
		if node.Hysteresis < 0 {
			l.errorf(mv.Value, "hysteresis must not be negative: it is how much more another option must score to take over")
		}
	}
	mv, ok := f["options"]
	if !ok {
		l.errorf(n, "a utility selector needs options: [{action: A, score: S}, ...]")
		return
	}
	items := l.sequence(mv.Value, "a utility selector's options")
	node.Options = make([]UtilityOption, len(items))
	for i, item := range items {
		op := fmt.Sprintf("%s.options[%d]", path, i)
		l.pos[op] = position(item)
		of := l.fields(l.mapping(item, "a utility option"), "a utility option", "action", "score")
		name := ""
		if mv, ok := of["action"]; ok {
			l.pos[op+".action"] = position(mv.Value)
			name, _ = l.name(mv.Value, "an action")
		} else {
			l.errorf(item, "a utility option names its action: {action: CastBolt, score: 8}")
		}
		if mv, ok := of["score"]; ok {
			node.Options[i].Score = l.score(op+".score", mv.Value)
		} else {
			l.errorf(item, "a utility option needs a score: a number, a curve over an input, or rules")
		}
		opt := &node.Options[i]
		a.resolve = append(a.resolve, func(g *goap.Domain, _ *htn.Domain) bool {
			id, ok := g.ActionByName(name)
			if !ok && name != "" {
				l.errorAt(lookup(l.pos, op+".action"), "%s", l.unknownName("action", name, actionNames(g)))
			}
			opt.Action = id
			return ok && name != ""
		})
	}
	if len(items) == 0 {
		l.errorf(mv.Key, "a utility selector needs options")
	}
}

// optionNames names an agent's goal options as read (those with a goal).
func optionNames(goals []agentGoalSpec) []string {
	var out []string
	for _, gs := range goals {
		if gs.goal != "" {
			out = append(out, gs.goal)
		}
	}
	return out
}

func actionNames(g *goap.Domain) []string {
	var out []string
	for a := range g.NumActions() {
		out = append(out, g.ActionName(goap.ActionID(a)))
	}
	return out
}

func goalNames(g *goap.Domain) []string {
	var out []string
	for _, goal := range g.Goals() {
		out = append(out, goal.Name())
	}
	return out
}

// buildConditions makes the goals of every agent condition's facts, now
// that the domain is built. Unknown facts were dropped and reported.
func (l *loader) buildConditions(g *goap.Domain) {
	for _, p := range l.pending {
		if len(p.spec) == 0 {
			continue
		}
		goal, err := g.NewGoal(p.path, p.spec)
		if err != nil {
			l.errorAt(lookup(l.pos, p.path), "%s", err)
			continue
		}
		p.goal = goal
	}
}

// buildAgents resolves the agents' names against the built domains: goals,
// actions, tasks. h is nil when the file has no htn section.
func (l *loader) buildAgents(g *goap.Domain, h *htn.Domain) []*Agent {
	l.buildConditions(g)
	var out []*Agent
	seen := map[string]string{}
	goals, actions := goalNames(g), actionNames(g)
	// the goals the file declares, some perhaps left out of g for errors
	declared := make(map[string]bool, len(l.spec.Goals))
	for _, s := range l.spec.Goals {
		declared[s.Name] = true
	}
	for _, s := range l.agents {
		if s.name == "" {
			continue // said: no name
		}
		// A second agent of a name is still resolved, so that its own
		// errors are said with the rest; it is not kept.
		ok := true
		if first, dup := seen[s.name]; dup {
			l.errorAt(lookup(l.pos, s.path+".name"), "agent %s is defined twice (first at line %d)", quote(s.name), lookup(l.pos, first).Line)
			ok = false
		} else {
			seen[s.name] = s.path + ".name"
		}
		a := &Agent{Name: s.name, Title: s.title, Tree: s.tree, path: s.path}
		if a.Title == "" {
			a.Title = a.Name
		}
		chosen := map[string]bool{}
		for _, gs := range s.goals {
			if gs.goal == "" {
				ok = false
				continue
			}
			goal := g.Goal(gs.goal)
			switch {
			case gs.conditions != nil && goal != nil:
				l.errorAt(lookup(l.pos, gs.path+".goal"), "the agent's own goal %s has the name of one of the file's goals: rename it, or leave out its conditions to pursue the file's", quote(gs.goal))
				ok = false
				continue
			case gs.conditions != nil:
				var err error
				if goal, err = g.NewGoal(gs.goal, gs.conditions); err != nil {
					l.errorAt(lookup(l.pos, gs.path+".conditions"), "%s", err)
					ok = false
					continue
				}
			case goal == nil && declared[gs.goal]:
				ok = false // the goal has errors of its own, said
				continue
			case goal == nil:
				msg := l.unknownName("goal", gs.goal, goals)
				if l.suggested <= maxSuggestions {
					msg += " (or give the agent's own goal its conditions:)"
				}
				l.errorAt(lookup(l.pos, gs.path+".goal"), "%s", msg)
				ok = false
				continue
			}
			if chosen[gs.goal] {
				l.errorAt(lookup(l.pos, gs.path+".goal"), "agent %s lists goal %s twice: give it one option, with a when: if it applies only sometimes", quote(s.name), quote(gs.goal))
				ok = false
				continue
			}
			chosen[gs.goal] = true
			a.Goals = append(a.Goals, AgentGoal{Goal: goal, Weighing: gs.weighing(), path: gs.path})
		}
		for _, resolve := range s.resolve {
			ok = resolve(g, h) && ok
		}
		switch {
		case s.tree != nil:
			l.refuseCommitment(s.commitment, s.name, "a tree agent (its tree chooses)")
			ok = ok && s.commitment == nil
		case s.htn:
			l.refuseCommitment(s.commitment, s.name, "an HTN agent (it decomposes a root task)")
			ok = ok && s.commitment == nil
		default:
			c, fine := l.resolveCommitment(s.commitment, s.name, optionNames(s.goals), goals)
			a.Commitment, ok = c, ok && fine
		}
		if s.usesHTN && h != nil {
			a.HTN, a.Root = h, h.Root() // for its tree's htn leaves
		}
		for _, name := range slices.Sorted(maps.Keys(s.costs)) {
			if _, known := g.ActionByName(name); !known {
				l.errorAt(lookup(l.pos, s.path+".costs."+name), "%s", l.unknownName("action", name, actions))
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
					l.errorAt(lookup(l.pos, fmt.Sprintf("%s.capabilities[%d]", s.path, k)), "%s", l.unknownName("action", name, actions))
					ok = false
					continue
				}
				if capable[name] {
					l.errorAt(lookup(l.pos, fmt.Sprintf("%s.capabilities[%d]", s.path, k)), "capability %s is listed twice", quote(name))
				}
				capable[name] = true
			}
			for _, name := range actions {
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
					// A rule whose facts were all unknown (said) is no rule
					// without a condition.
					if !l.unknown[s.path+"."+e.Path] {
						l.errorAt(lookup(l.pos, s.path+"."+e.Path), "%s", e.Msg)
					}
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
					if !found || t.IsPrimitive() {
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

// unknownEngineInput is the message for an input an engine-model agent
// names that is no key: its inputs are the world keys (see
// engineInputsAdvice), so the advice is to declare a key, of the kind its
// use needs (bool for a condition written true or false, else int), so
// that following it leaves no error.
func (l *loader) unknownEngineInput(name string, kind resolver.Kind) string {
	msg := "unknown key " + quote(name)
	if l.suggested < maxSuggestions {
		l.suggested++
		if s := suggest.Closest(name, l.keyNames); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", quote(s))
		}
	}
	typ := "int"
	if kind == resolver.Bool {
		typ = "bool"
	}
	return msg + fmt.Sprintf(": an engine-model agent's inputs are the world keys; declare it under keys: with its type, such as keys: {%s: %s}, and its value under initial:", name, typ)
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
