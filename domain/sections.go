package domain

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

func (l *loader) document(body ast.Node) {
	entries := l.mapping(body, "a domain file")
	if entries == nil && !isNull(l.unwrap(body)) {
		return
	}
	if keys, ok := hasField(entries, "keys"); ok {
		if facts, both := hasField(entries, "facts"); both {
			l.errorf(laterKey(keys, facts), "a file has facts: (the state-space planner's boolean facts) or keys: (the engine model's world keys), not both: keep one, and write a second file for the other model")
			return
		}
		l.engineDocument(entries)
		return
	}
	f := l.fields(entries, "the domain", "name", "facts", "initial", "sensed", "actions", "goals", "htn", "inputs", "agents")
	top := Pos{Line: 1, Col: 1}
	if len(entries) > 0 {
		top = position(entries[0].Key)
	}
	if mv, ok := f["name"]; ok {
		l.spec.Name, _ = l.name(mv.Value, "name")
	} else {
		l.errorAt(top, "missing key \"name\"")
	}
	if mv, ok := f["facts"]; ok {
		for i, item := range l.sequence(mv.Value, "facts") {
			path := fmt.Sprintf("facts[%d]", i)
			l.pos[path] = position(item)
			name, _ := l.name(item, "a fact name")
			l.spec.Facts = append(l.spec.Facts, name)
		}
	} else {
		l.errorAt(top, "missing key \"facts\"")
	}
	if mv, ok := f["initial"]; ok {
		l.spec.Initial = l.facts("initial", mv.Value)
	}
	if mv, ok := f["sensed"]; ok {
		for i, item := range l.sequence(mv.Value, "sensed") {
			l.pos[fmt.Sprintf("sensed[%d]", i)] = position(item)
			name, _ := l.name(item, "a sensed fact")
			l.sensed = append(l.sensed, name)
		}
	}
	if mv, ok := f["actions"]; ok {
		for i, item := range l.sequence(mv.Value, "actions") {
			l.action(i, item)
		}
	}
	if mv, ok := f["goals"]; ok {
		l.pos["goals"] = position(mv.Key)
		for i, item := range l.sequence(mv.Value, "goals") {
			l.goal(i, item)
		}
	}
	if mv, ok := f["htn"]; ok {
		l.htnSection(mv)
	}
	if mv, ok := f["inputs"]; ok {
		l.inputsSection(mv) // before the agents, which test them
	}
	if mv, ok := f["agents"]; ok {
		l.agentsSection(mv)
	}
}

// laterKey returns whichever of two keys comes later in the file.
func laterKey(a, b *ast.MappingValueNode) ast.Node {
	pa, pb := position(a.Key), position(b.Key)
	if pb.Line > pa.Line || pb.Line == pa.Line && pb.Col > pa.Col {
		return b.Key
	}
	return a.Key
}

// factWord names what a fact map's entries are, by the map's last key.
func factWord(path string) string {
	if strings.HasPrefix(path, "agents[") && strings.HasSuffix(path, "].when") {
		return "agent condition"
	}
	switch path[strings.LastIndexByte(path, '.')+1:] {
	case "initial":
		return "initial fact"
	case "preconditions":
		return "precondition"
	case "effects":
		return "effect"
	case "when":
		return "cost rule fact"
	}
	return "condition"
}

// facts reads a mapping of fact names to true or false.
func (l *loader) facts(path string, n ast.Node) map[string]bool {
	l.pos[path] = position(n)
	out := map[string]bool{}
	l.factMaps = append(l.factMaps, factMap{path, out})
	for _, mv := range l.mapping(n, path) {
		k := keyName(mv.Key)
		l.pos[path+"."+k] = position(mv.Key)
		v := l.unwrap(mv.Value)
		b, ok := v.(*ast.BoolNode)
		if tagOf(mv.Value) == "!!str" {
			ok = false // "!!str true" is the text true, not the boolean
		}
		if !ok {
			if parent, nested := nestedKey(path, k, v); nested {
				l.errorf(mv.Key, "%s: is indented under %s:, so it reads as a %s named %s; indent it like %s: to make it the %s's own key", k, parent, factWord(path), quote(k), parent, owner(path))
				continue
			}
			l.errorf(valueOrKey(mv), "%s %s must be true or false, not %s", factWord(path), quote(k), describe(v))
			continue
		}
		out[k] = b.Value
	}
	return out
}

// nestedKey reports whether the entry k of the fact map at path, whose
// value v is no boolean, is a key of the map's owner indented one level
// too deep (effects: under preconditions:), and names the map's key.
func nestedKey(path, k string, v ast.Node) (string, bool) {
	parent := path[strings.LastIndexByte(path, '.')+1:]
	var siblings []string
	switch {
	case strings.HasPrefix(path, "actions[") && (parent == "preconditions" || parent == "effects"):
		siblings = []string{"name", "preconditions", "effects", "cost"}
	case strings.HasPrefix(path, "goals["):
		siblings = []string{"name", "conditions"}
	case strings.HasPrefix(path, "htn."):
		siblings = []string{"name", "conditions", "subtasks"}
	}
	if _, isBool := v.(*ast.BoolNode); isBool {
		return "", false
	}
	for _, s := range siblings {
		if s == k && s != parent {
			return parent, true
		}
	}
	return "", false
}

// owner names what the fact map at path belongs to.
func owner(path string) string {
	switch {
	case strings.HasPrefix(path, "actions["):
		return "action"
	case strings.HasPrefix(path, "goals["):
		return "goal"
	}
	return "method"
}

func valueOrKey(mv *ast.MappingValueNode) ast.Node {
	if isNull(mv.Value) {
		return mv.Key
	}
	return mv.Value
}

func (l *loader) action(i int, item ast.Node) {
	path := fmt.Sprintf("actions[%d]", i)
	l.pos[path] = position(item)
	if !l.isMapping(item, path, "an action") {
		l.spec.Actions = append(l.spec.Actions, goap.ActionSpec{Cost: goap.Const(1)})
		return
	}
	f := l.fields(l.mapping(item, "an action"), "an action", "name", "preconditions", "effects", "cost")
	a := goap.ActionSpec{Name: l.itemName(f, item, path, "action")}
	if mv, ok := f["preconditions"]; ok {
		a.Preconditions = l.facts(path+".preconditions", mv.Value)
	}
	if mv, ok := f["effects"]; ok {
		a.Effects = l.facts(path+".effects", mv.Value)
	}
	if mv, ok := f["cost"]; ok {
		a.Cost = l.cost(path+".cost", mv.Value, i)
	} else {
		if a.Name != "" {
			l.errorf(item, "action %s has no cost; give it one, such as cost: 1 (or a list of rules ending with a default, such as cost: [{when: {in_cover: true}, cost: 1}, {cost: 4}])", quote(a.Name))
		} else {
			l.errorf(item, "action has no cost; give it one, such as cost: 1")
		}
		a.Cost = goap.Const(1)
	}
	l.spec.Actions = append(l.spec.Actions, a)
}

// number reads a numeric scalar; ok is false (and the error reported) if n
// is not one.
func (l *loader) number(n ast.Node, what string) (float64, bool) {
	tag := tagOf(n)
	n = l.unwrap(n)
	if tag == "!!str" {
		l.errorf(n, "%s must be a number, not the text %s", what, describe(n))
		return 0, false
	}
	switch v := n.(type) {
	case *ast.StringNode:
		// The parser leaves some plain numbers as text (1e308, and
		// integers past 64 bits): YAML 1.2 reads them as numbers.
		if v.GetToken().Type != token.StringType {
			break // quoted: text
		}
		x, err := strconv.ParseFloat(v.Value, 64)
		if err == nil {
			return x, true
		}
		if errors.Is(err, strconv.ErrRange) && math.IsInf(x, 0) {
			l.errorf(n, "%s %s is out of range: %s", what, quote(v.Value), rangeRule(what))
			return 0, false
		}
	case *ast.IntegerNode:
		switch x := v.Value.(type) {
		case int64:
			return float64(x), true
		case uint64:
			return float64(x), true
		}
	case *ast.FloatNode:
		return v.Value, true
	case *ast.InfinityNode:
		return v.Value, true
	case *ast.NanNode:
		return math.NaN(), true
	}
	l.errorf(n, "%s must be a number, not %s", what, describe(n))
	return 0, false
}

// cost reads a cost: a number, or a list of {when, cost} rules ending with
// a default {cost}. An invalid cost is replaced by a stand-in so that the
// rest of the file can still be checked.
func (l *loader) cost(path string, n ast.Node, action int) goap.Cost {
	l.pos[path] = position(n)
	if seq, ok := l.unwrap(n).(*ast.SequenceNode); ok {
		var rules []goap.CostRule
		def, hasDefault := 0.0, false
		for j, item := range seq.Values {
			rp := fmt.Sprintf("%s[%d]", path, j)
			l.pos[rp] = position(item)
			f := l.fields(l.mapping(item, "a cost rule"), "a cost rule", "when", "cost")
			c := 1.0
			if mv, ok := f["cost"]; ok {
				l.pos[rp+".cost"] = position(mv.Value)
				c, _ = l.number(mv.Value, "cost")
			} else {
				l.errorf(item, "cost rule has no cost; give it one, such as {when: {in_cover: true}, cost: 1}")
			}
			mv, hasWhen := f["when"]
			switch {
			case !hasWhen && j < len(seq.Values)-1:
				l.errorf(item, "only the last cost rule may omit when: it is the default")
			case !hasWhen:
				def, hasDefault = c, true
			default:
				rules = append(rules, goap.CostRule{When: l.facts(rp+".when", mv.Value), Cost: c})
			}
		}
		if !hasDefault {
			l.errorf(seq, "cost rule list has no default: end it with a rule without when, such as {cost: 4}")
			l.markBadCost(action)
			return goap.Const(1)
		}
		return goap.Rules(def, rules...)
	}
	c, ok := l.number(n, "cost")
	if !ok {
		l.markBadCost(action)
		return goap.Const(1)
	}
	return goap.Const(c)
}

func (l *loader) markBadCost(action int) {
	if action < 0 {
		return
	}
	if l.badCost == nil {
		l.badCost = map[int]bool{}
	}
	l.badCost[action] = true
}

func (l *loader) goal(i int, item ast.Node) {
	path := fmt.Sprintf("goals[%d]", i)
	l.pos[path] = position(item)
	if !l.isMapping(item, path, "a goal") {
		l.spec.Goals = append(l.spec.Goals, goap.GoalSpec{})
		return
	}
	f := l.fields(l.mapping(item, "a goal"), "a goal", "name", "conditions")
	g := goap.GoalSpec{Name: l.itemName(f, item, path, "goal")}
	if mv, ok := f["conditions"]; ok {
		g.Conditions = l.facts(path+".conditions", mv.Value)
	}
	l.spec.Goals = append(l.spec.Goals, g)
}

func (l *loader) htnSection(section *ast.MappingValueNode) {
	l.pos["htn"] = position(section.Key)
	h := &htn.Spec{}
	l.htn = h
	f := l.fields(l.mapping(section.Value, "htn"), "htn", "root", "tasks")
	if mv, ok := f["root"]; ok {
		l.pos["htn.root"] = position(mv.Value)
		h.Root, _ = l.name(mv.Value, "htn root")
	} else {
		l.errorf(section.Key, "htn has no root")
	}
	mv, ok := f["tasks"]
	if !ok {
		return
	}
	for i, item := range l.sequence(mv.Value, "htn tasks") {
		path := fmt.Sprintf("htn.tasks[%d]", i)
		l.pos[path] = position(item)
		tf := l.fields(l.mapping(item, "a task"), "a task", "name", "methods")
		ts := htn.TaskSpec{Name: l.itemName(tf, item, path, "task")}
		if mv, ok := tf["methods"]; ok {
			l.pos[path+".methods"] = position(mv.Key)
			for j, m := range l.sequence(mv.Value, "methods") {
				ts.Methods = append(ts.Methods, l.method(fmt.Sprintf("%s.methods[%d]", path, j), m))
			}
		}
		h.Tasks = append(h.Tasks, ts)
	}
}

func (l *loader) method(path string, item ast.Node) htn.MethodSpec {
	l.pos[path] = position(item)
	f := l.fields(l.mapping(item, "a method"), "a method", "name", "conditions", "subtasks")
	m := htn.MethodSpec{Name: l.itemName(f, item, path, "method")}
	if mv, ok := f["conditions"]; ok {
		// Method conditions are checked by htn with paths relative to the
		// method ("conditions.x"): record them under both forms.
		m.Conditions = l.facts(path+".conditions", mv.Value)
	}
	if mv, ok := f["subtasks"]; ok {
		for k, s := range l.sequence(mv.Value, "subtasks") {
			l.pos[fmt.Sprintf("%s.subtasks[%d]", path, k)] = position(s)
			name, _ := l.name(s, "a subtask")
			m.Subtasks = append(m.Subtasks, name)
		}
	}
	return m
}
