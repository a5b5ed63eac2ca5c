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
	"unicode"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/resolver"
)

// World is an engine-model file's default world: the key values, the
// agent's position and the target positions a command resolves from when
// no flag says otherwise. In a game the world supplies these per agent
// (sensors); a file carries one snapshot so that it can be tried out.
type World struct {
	// Values holds the keys the file's initial lists: booleans as 0 or 1.
	// Keys not listed are 0 (false).
	Values map[string]int64
	// At is the agent's position (the origin if the file says nothing).
	At resolver.Point
	// Targets holds where each listed target key's sensor finds it; a
	// target not listed is not found.
	Targets map[string]resolver.Point
}

// MaxEdges bounds the action graph of an engine-model file: the number of
// (effect, condition) pairs where the effect serves the condition, which
// grows with the product of actions and conditions on one key.
const MaxEdges = 1 << 20

// edgeCount counts the action graph's edges without building it, in time
// linear in the spec: per key, the effects of each direction times the
// conditions each direction serves.
func edgeCount(spec resolver.Spec) int {
	type dirs struct{ up, down, setTrue, setFalse int }
	effects := map[string]*dirs{}
	for _, a := range spec.Actions {
		for _, e := range a.Effects {
			c := effects[e.Key]
			if c == nil {
				c = &dirs{}
				effects[e.Key] = c
			}
			switch e.Dir {
			case resolver.Increase:
				c.up++
			case resolver.Decrease:
				c.down++
			case resolver.SetTrue:
				c.setTrue++
			case resolver.SetFalse:
				c.setFalse++
			}
		}
	}
	n := 0
	count := func(cs []resolver.Condition) {
		for _, c := range cs {
			e := effects[c.Key]
			if e == nil {
				continue
			}
			switch {
			case c.Op == resolver.Greater || c.Op == resolver.AtLeast:
				n += e.up
			case c.Op == resolver.Less || c.Op == resolver.AtMost:
				n += e.down
			case c.Value == 1:
				n += e.setTrue
			default:
				n += e.setFalse
			}
			n = min(n, MaxEdges+1) // no overflow, whatever the file
		}
	}
	for _, a := range spec.Actions {
		count(a.Conditions)
	}
	for _, g := range spec.Goals {
		count(g.Conditions)
	}
	return n
}

// MaxCoordinate bounds the coordinates a file (or a command's flag) may
// give: distances between such points, times any distance cost, stay far
// inside the float range.
const MaxCoordinate = 1e12

// rangeRule is the rule a number past the float range breaks, by what
// the number is.
func rangeRule(what string) string {
	switch {
	case what == "distance cost":
		return fmt.Sprintf("a distance cost is positive and at most %g", float64(resolver.MaxCost))
	case what == "stopping distance":
		return "a stopping distance is finite and not negative"
	case what == "margin":
		return marginRule
	case what == "min_ticks":
		return minTicksRule
	case strings.HasSuffix(what, " coordinate"):
		return fmt.Sprintf("coordinates are finite, at most %g in size", float64(MaxCoordinate))
	}
	// goap.MaxCost and resolver.MaxCost are the same bound.
	return fmt.Sprintf("costs must be finite numbers, at most %g", float64(resolver.MaxCost))
}

// EngineModel reports whether f is an engine-model file (keys:), resolved
// by package resolver, rather than a state-space file (facts:) planned by
// package goap.
func (f *File) EngineModel() bool { return f.Resolver != nil }

// engineFields are the top-level keys of an engine-model file.
var engineFields = []string{"name", "keys", "initial", "at", "targets", "distance_cost", "actions", "goals", "agents"}

// hasField reports whether the mapping has the key name, and where.
func hasField(entries []*ast.MappingValueNode, name string) (*ast.MappingValueNode, bool) {
	for _, mv := range entries {
		if keyName(mv.Key) == name {
			return mv, true
		}
	}
	return nil, false
}

// engineDocumentWhat names an engine-model file's top level in messages.
const engineDocumentWhat = "an engine-model domain (a file with keys:)"

// engineInputsAdvice answers an inputs: section in an engine-model file.
// Seed 003's agents read one thing, the snapshot the game's sensors fill
// with world keys ("a few arrays of numbers"), and their goal choice runs
// on that snapshot: a separate input would be a number no snapshot holds.
// So an engine-model agent's inputs are the file's keys.
const engineInputsAdvice = `inputs: does not apply to an engine-model file (a file with keys:): its agents read the world keys, the snapshot the game's sensors fill; declare each input under keys: with its type, such as keys: {danger: int}, and its value under initial:`

// engineDocument reads an engine-model file into l.rspec and l.world.
func (l *loader) engineDocument(entries []*ast.MappingValueNode) {
	l.engine = true
	l.kinds = map[string]resolver.Kind{}
	l.mistyped = map[string]bool{}
	f := l.fields(entries, engineDocumentWhat, engineFields...)
	top := Pos{Line: 1, Col: 1}
	if len(entries) > 0 {
		top = position(entries[0].Key)
	}
	if mv, ok := f["name"]; ok {
		l.rspec.Name, _ = l.name(mv.Value, "name")
	} else {
		l.errorAt(top, "missing key \"name\"")
	}
	// Keys first: every other part is read against their kinds.
	l.pos["keys"] = position(f["keys"].Key)
	for i, mv := range l.mapping(f["keys"].Value, "keys") {
		path := fmt.Sprintf("keys[%d]", i)
		l.pos[path] = position(mv.Key)
		name := keyName(mv.Key)
		if bad, ok := unprintable(name); ok {
			l.errorf(mv.Key, "key name %s holds %s; names are printable text", quote(name), bad)
		} else if bad, ok := unsafeOnCommandLine(name); ok {
			l.errorf(mv.Key, "key name %s holds %s; --set KEY=VALUE names a key, so write it as letters, digits and _, such as %s", quote(name), bad, underscored(name))
		}
		ks := resolver.KeySpec{Name: name}
		switch kind := l.scalarText(mv.Value); kind {
		case "bool":
			ks.Kind = resolver.Bool
		case "int":
			ks.Kind = resolver.Int
		default:
			msg := fmt.Sprintf("key %s has type %s; a key is bool or int", quote(name), describe(l.unwrap(mv.Value)))
			if s := kindSuggestion(kind); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			l.errorf(valueOrKey(mv), "%s", msg)
			l.broken = append(l.broken, path)
			l.mistyped[name] = true
			continue
		}
		if _, dup := l.kinds[name]; !dup {
			l.kinds[name] = ks.Kind
			l.keyNames = append(l.keyNames, name)
		}
		l.rspec.Keys = append(l.rspec.Keys, ks)
	}
	if v := l.unwrap(f["keys"].Value); len(l.rspec.Keys) == 0 && len(l.broken) == 0 && (isNull(v) || isEmptyMapping(v)) {
		l.errorf(f["keys"].Key, "keys is empty: declare each world key with its type, such as keys: {warmth: int, has_wood: bool}")
	}
	if mv, ok := f["initial"]; ok {
		l.world.Values = l.initialValues(mv.Value)
	}
	if mv, ok := f["at"]; ok {
		l.pos["at"] = position(mv.Value)
		l.world.At, _ = l.point(mv.Value, "at")
	}
	if mv, ok := f["targets"]; ok {
		l.pos["targets"] = position(mv.Key)
		l.world.Targets = map[string]resolver.Point{}
		for _, t := range l.mapping(mv.Value, "targets") {
			name := keyName(t.Key)
			l.pos["targets."+name] = position(t.Key)
			if p, ok := l.point(t.Value, fmt.Sprintf("target %s", quote(name))); ok {
				l.world.Targets[name] = p
			}
		}
	}
	if mv, ok := f["distance_cost"]; ok {
		l.pos["distance_cost"] = position(mv.Value)
		if c, ok := l.number(mv.Value, "distance cost"); ok {
			if c == 0 {
				// The resolver reads 0 as "the default"; a file that
				// writes 0 means something else.
				l.errorf(mv.Value, "distance cost is 0; it must be positive (leave distance_cost out for the default, %d)", resolver.DefaultDistanceCost)
			} else {
				l.rspec.DistanceCost = c
			}
		} else {
			l.standIn["distance_cost"] = true
		}
	}
	if mv, ok := f["actions"]; ok {
		for i, item := range l.sequence(mv.Value, "actions") {
			l.engineAction(i, item)
		}
	}
	if mv, ok := f["goals"]; ok {
		l.pos["goals"] = position(mv.Key)
		for i, item := range l.sequence(mv.Value, "goals") {
			l.engineGoal(i, item)
		}
	}
	if mv, ok := f["agents"]; ok {
		l.engineAgentsSection(mv)
	}
}

// unsafeOnCommandLine says what in a key or target name the commands
// could not parse: they name keys in --set KEY=VALUE,... and targets in
// --target NAME=X,Y,... lists.
func unsafeOnCommandLine(name string) (string, bool) {
	switch {
	case strings.IndexFunc(name, unicode.IsSpace) >= 0:
		return "white space", true
	case strings.Contains(name, ","):
		return "a comma", true
	case strings.Contains(name, "="):
		return "=", true
	}
	return "", false
}

// underscored is name with what the command line cannot parse made _.
func underscored(name string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == ',' || r == '=' {
			return '_'
		}
		return r
	}, name)
}

func isEmptyMapping(n ast.Node) bool {
	m, ok := n.(*ast.MappingNode)
	return ok && len(m.Values) == 0
}

func isMappingNode(n ast.Node) bool {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return true
	}
	return false
}

// scalarText returns a scalar's text ("" for anything else).
func (l *loader) scalarText(n ast.Node) string {
	switch v := l.unwrap(n).(type) {
	case *ast.StringNode:
		return v.Value
	case nil, *ast.NullNode, *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		return ""
	default:
		return v.GetToken().Value
	}
}

// kindSuggestion is the key type a misspelt one most likely means.
func kindSuggestion(kind string) string {
	switch strings.ToLower(kind) {
	case "boolean", "bool":
		return "bool"
	case "integer", "int", "int64", "number":
		return "int"
	}
	return suggest.Closest(kind, []string{"bool", "int"})
}

// boolValue reads a YAML boolean (not the text "true").
func boolValue(n ast.Node) (bool, bool) {
	if tagOf(n) == "!!str" {
		return false, false
	}
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		case *ast.BoolNode:
			return v.Value, true
		default:
			return false, false
		}
	}
}

// intValue reads a YAML integer that fits in 64 bits.
func intValue(n ast.Node) (int64, bool, bool) {
	if tagOf(n) == "!!str" {
		return 0, false, false
	}
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		case *ast.IntegerNode:
			switch x := v.Value.(type) {
			case int64:
				return x, true, true
			case uint64:
				if x <= math.MaxInt64 {
					return int64(x), true, true
				}
			}
			return 0, false, true // past int64
		case *ast.StringNode:
			if v.GetToken().Type == token.StringType && isPlainInteger(v.Value) {
				return 0, false, true // a plain integer the parser left as text: too large
			}
			return 0, false, false
		default:
			return 0, false, false
		}
	}
}

var plainInteger = regexp.MustCompile(`^[+-]?[0-9]+$`)

func isPlainInteger(s string) bool { return plainInteger.MatchString(s) }

// initialValues reads initial: key values of the file's world.
func (l *loader) initialValues(n ast.Node) map[string]int64 {
	l.pos["initial"] = position(n)
	out := map[string]int64{}
	for _, mv := range l.mapping(n, "initial") {
		name := keyName(mv.Key)
		kind, ok := l.engineKey(mv.Key, name)
		if !ok {
			continue
		}
		if kind == resolver.Bool {
			b, ok := boolValue(mv.Value)
			if !ok {
				l.errorf(valueOrKey(mv), "initial value of %s must be true or false (it is a boolean key), not %s", quote(name), describe(l.unwrap(mv.Value)))
				continue
			}
			out[name] = b2i(b)
			continue
		}
		x, ok, isInt := intValue(mv.Value)
		switch {
		case ok:
			out[name] = x
		case isInt:
			l.errorf(mv.Value, "initial value of %s is out of range: an integer key holds a 64-bit whole number", quote(name))
		default:
			l.errorf(valueOrKey(mv), "initial value of %s must be a whole number (it is an integer key), not %s", quote(name), describe(l.unwrap(mv.Value)))
		}
	}
	return out
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// engineKey looks a key name up, reporting an unknown one with a
// suggestion, or else the keys there are.
func (l *loader) engineKey(at ast.Node, name string) (resolver.Kind, bool) {
	if kind, ok := l.kinds[name]; ok {
		return kind, true
	}
	if l.mistyped[name] {
		return 0, false // its declaration's error says it
	}
	msg := "unknown key " + quote(name)
	if l.suggested < maxSuggestions {
		l.suggested++
		if s := suggest.Closest(name, l.keyNames); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", quote(s))
		} else if len(l.keyNames) > 0 {
			msg += "; declare it under keys, or use a declared one: " + quoteList(l.keyNames, 10)
		}
	}
	l.errorf(at, "%s", msg)
	return 0, false
}

func quoteList(names []string, most int) string {
	var sb strings.Builder
	for i, n := range names[:min(len(names), most)] {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(quote(n))
	}
	if len(names) > most {
		fmt.Fprintf(&sb, " and %d more", len(names)-most)
	}
	return sb.String()
}

// point reads [x, y] (resolver.Dimensions coordinates), finite and
// within MaxCoordinate.
func (l *loader) point(n ast.Node, what string) (resolver.Point, bool) {
	seq, ok := l.unwrap(n).(*ast.SequenceNode)
	if !ok || len(seq.Values) != resolver.Dimensions {
		got := describe(l.unwrap(n))
		if ok {
			got = fmt.Sprintf("a list of %d", len(seq.Values))
		}
		l.errorf(n, "%s must be a position [x, y], not %s", what, got)
		return resolver.Point{}, false
	}
	var xy [resolver.Dimensions]float64
	for i, v := range seq.Values {
		x, ok := l.number(v, what+" coordinate")
		if !ok {
			return resolver.Point{}, false
		}
		if !(math.Abs(x) <= MaxCoordinate) {
			l.errorf(v, "%s coordinate %g is out of range: coordinates are finite, at most %g in size", what, x, float64(MaxCoordinate))
			return resolver.Point{}, false
		}
		xy[i] = x
	}
	return resolver.Point{X: xy[0], Y: xy[1]}, true
}

// comparison is a condition's value on an integer key: ">= 50".
var comparison = regexp.MustCompile(`^\s*(>=|<=|>|<|==|=|!=)\s*([+-]?[0-9]+)\s*$`)

// conditions reads a mapping of key conditions: a boolean key true or
// false, an integer key a direction against a constant (">= 50").
func (l *loader) engineConditions(path string, n ast.Node) []resolver.Condition {
	l.pos[path] = position(n)
	var out []resolver.Condition
	if v := l.unwrap(n); !isNull(v) && !isMappingNode(v) {
		l.skip[path] = true // "no conditions" would repeat that it is no mapping
	}
	for _, mv := range l.mapping(n, path) {
		name := keyName(mv.Key)
		kind, ok := l.engineKey(mv.Key, name)
		if !ok {
			l.skip[path] = true // the resolver would find the list short
			continue
		}
		c, ok := l.engineCondition(mv, name, kind)
		if !ok {
			l.skip[path] = true
			continue
		}
		l.pos[fmt.Sprintf("%s[%d]", path, len(out))] = position(mv.Key)
		out = append(out, c)
	}
	return out
}

func (l *loader) engineCondition(mv *ast.MappingValueNode, name string, kind resolver.Kind) (resolver.Condition, bool) {
	v := l.unwrap(mv.Value)
	if kind == resolver.Bool {
		if b, ok := boolValue(mv.Value); ok {
			return resolver.Condition{Key: name, Op: resolver.Is, Value: b2i(b)}, true
		}
		if s, ok := v.(*ast.StringNode); ok && comparison.MatchString(s.Value) {
			l.errorf(mv.Value, "%s is a boolean key: a condition on it is true or false, not a comparison %s", quote(name), quote(strings.TrimSpace(s.Value)))
		} else {
			l.errorf(valueOrKey(mv), "condition on %s must be true or false (it is a boolean key), not %s", quote(name), describe(v))
		}
		return resolver.Condition{}, false
	}
	if x, ok, isInt := intValue(mv.Value); ok || isInt {
		l.errorf(mv.Value, "condition %s: %s is an equality on an integer key, and an equality has no direction, so no effect could serve it: write %s or %s, or use a boolean key", name, l.scalarText(mv.Value), quote(">= "+strconv.FormatInt(x, 10)), quote("<= "+strconv.FormatInt(x, 10)))
		return resolver.Condition{}, false
	}
	s, isText := v.(*ast.StringNode)
	if _, isBool := boolValue(mv.Value); isBool || !isText {
		l.errorf(valueOrKey(mv), "%s is an integer key: a condition on it compares it in a direction with a whole number, such as \">= 50\" or \"<= 30\", not %s", quote(name), describe(v))
		return resolver.Condition{}, false
	}
	m := comparison.FindStringSubmatch(s.Value)
	if m == nil {
		l.errorf(mv.Value, "condition on %s must be a comparison such as \">= 50\" or \"<= 30\" (>, >=, < or <= and a whole number), not %s", quote(name), quote(s.Value))
		return resolver.Condition{}, false
	}
	x, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		l.errorf(mv.Value, "condition on %s: %s is out of range for a 64-bit whole number", quote(name), m[2])
		return resolver.Condition{}, false
	}
	var op resolver.Op
	switch m[1] {
	case ">":
		op = resolver.Greater
	case ">=":
		op = resolver.AtLeast
	case "<":
		op = resolver.Less
	case "<=":
		op = resolver.AtMost
	case "!=":
		l.errorf(mv.Value, "condition %s: %s asks for anything but one value, which has no direction, like an equality, so no effect could serve it: write %s or %s, or use a boolean key", name, quote(strings.TrimSpace(s.Value)), quote("> "+m[2]), quote("< "+m[2]))
		return resolver.Condition{}, false
	default:
		l.errorf(mv.Value, "condition %s: %s is an equality, and an equality has no direction, so no effect could serve it: write %s or %s, or use a boolean key", name, quote(strings.TrimSpace(s.Value)), quote(">= "+m[2]), quote("<= "+m[2]))
		return resolver.Condition{}, false
	}
	return resolver.Condition{Key: name, Op: op, Value: x}, true
}

// amount is an effect written as a number: "+40", "-40", "40".
var amount = regexp.MustCompile(`^\s*([+-]?)\s*[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?\s*$`)

// engineEffects reads a mapping of effects: a boolean key true or false,
// an integer key increase or decrease.
func (l *loader) engineEffects(path string, n ast.Node) []resolver.Effect {
	l.pos[path] = position(n)
	var out []resolver.Effect
	for _, mv := range l.mapping(n, path) {
		name := keyName(mv.Key)
		kind, ok := l.engineKey(mv.Key, name)
		if !ok {
			continue
		}
		e, ok := l.engineEffect(mv, name, kind)
		if !ok {
			continue
		}
		l.pos[fmt.Sprintf("%s[%d]", path, len(out))] = position(mv.Key)
		out = append(out, e)
	}
	return out
}

func (l *loader) engineEffect(mv *ast.MappingValueNode, name string, kind resolver.Kind) (resolver.Effect, bool) {
	v := l.unwrap(mv.Value)
	text := l.scalarText(mv.Value)
	_, isNumber := v.(*ast.IntegerNode)
	if _, isFloat := v.(*ast.FloatNode); isFloat {
		isNumber = true
	}
	if m := amount.FindStringSubmatch(text); isNumber || m != nil {
		if kind == resolver.Bool {
			l.errorf(mv.Value, "%s is a boolean key: an effect sets it true or false, not %s", quote(name), quote(text))
			return resolver.Effect{}, false
		}
		dir := "increase"
		if strings.HasPrefix(strings.TrimSpace(text), "-") {
			dir = "decrease"
		}
		l.errorf(mv.Value, "effect %s: %s is an amount, and an effect is a direction, not an amount: write %s: %s", name, text, name, dir)
		return resolver.Effect{}, false
	}
	if b, ok := boolValue(mv.Value); ok {
		if kind == resolver.Int {
			l.errorf(mv.Value, "%s is an integer key: an effect on it is a direction, increase or decrease, not %v", quote(name), b)
			return resolver.Effect{}, false
		}
		return resolver.Sets(name, b), true
	}
	_, isText := v.(*ast.StringNode)
	switch {
	case isText && (text == "increase" || text == "decrease") && kind == resolver.Bool:
		l.errorf(mv.Value, "%s is a boolean key: an effect sets it true or false; it cannot %s", quote(name), text)
	case isText && text == "increase":
		return resolver.Raises(name), true
	case isText && text == "decrease":
		return resolver.Lowers(name), true
	case kind == resolver.Bool:
		l.errorf(valueOrKey(mv), "effect on %s must be true or false (it is a boolean key), not %s", quote(name), describe(v))
	default:
		msg := fmt.Sprintf("effect on %s must be increase or decrease (it is an integer key), not %s", quote(name), describe(v))
		if s := suggest.Closest(text, []string{"increase", "decrease"}); s != "" && isText {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		l.errorf(valueOrKey(mv), "%s", msg)
	}
	return resolver.Effect{}, false
}

var moveModes = []string{"move_then_perform", "perform_while_moving"}

func (l *loader) engineAction(i int, item ast.Node) {
	path := fmt.Sprintf("actions[%d]", i)
	l.pos[path] = position(item)
	if !l.isMapping(item, path, "an action") {
		l.rspec.Actions = append(l.rspec.Actions, resolver.ActionSpec{Cost: 1})
		return
	}
	f := l.fields(l.mapping(item, "an action"), "an action", "name", "conditions", "effects", "cost", "target", "stopping_distance", "move")
	a := resolver.ActionSpec{Name: l.itemName(f, item, path, "action")}
	if mv, ok := f["conditions"]; ok {
		a.Conditions = l.engineConditions(path+".conditions", mv.Value)
	}
	if mv, ok := f["effects"]; ok {
		a.Effects = l.engineEffects(path+".effects", mv.Value)
	}
	if mv, ok := f["cost"]; ok {
		l.pos[path+".cost"] = position(mv.Value)
		c, ok := l.number(mv.Value, "cost")
		if !ok {
			c = 1
			l.standIn[path+".cost"] = true
		}
		a.Cost = c
	} else {
		l.errorf(item, "action %s has no cost; give it one, such as cost: 1", quote(a.Name))
		a.Cost = 1
	}
	if mv, ok := f["target"]; ok {
		l.pos[path+".target"] = position(valueOrKey(mv))
		name := l.scalarText(mv.Value)
		switch v := l.unwrap(mv.Value).(type) {
		case *ast.StringNode:
			if strings.TrimSpace(v.Value) == "" {
				l.errorf(valueOrKey(mv), "target is empty: name the target key a sensor resolves to a position, such as target: wood_north (or leave target out for an action done where the agent stands)")
			} else if bad, ok := unprintable(v.Value); ok {
				l.errorf(mv.Value, "target %s holds %s; names are printable text", quote(v.Value), bad)
			} else {
				if bad, ok := unsafeOnCommandLine(v.Value); ok {
					l.errorf(mv.Value, "target name %s holds %s; --target NAME=X,Y names a target, so write it as letters, digits and _, such as %s", quote(v.Value), bad, underscored(v.Value))
				}
				a.Target = v.Value // said once, here: the rest of the file reads on
			}
		case nil, *ast.NullNode:
			l.errorf(valueOrKey(mv), "target is empty: name the target key a sensor resolves to a position, such as target: wood_north (or leave target out for an action done where the agent stands)")
		case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
			l.errorf(mv.Value, "target must be the name of a target key, not %s", describe(v))
		default:
			a.Target = name
		}
		if a.Target == "" {
			l.standIn[path+".stopping_distance"] = true // "no target to stop near" would repeat it
		}
	}
	if mv, ok := f["stopping_distance"]; ok {
		l.pos[path+".stopping_distance"] = position(mv.Value)
		if d, ok := l.number(mv.Value, "stopping distance"); ok {
			a.StoppingDistance = d
		}
	}
	if mv, ok := f["move"]; ok {
		l.pos[path+".move"] = position(mv.Value)
		switch mode := l.scalarText(mv.Value); mode {
		case "move_then_perform":
			a.Move = resolver.MoveThenPerform
		case "perform_while_moving":
			a.Move = resolver.PerformWhileMoving
		default:
			msg := fmt.Sprintf("move must be move_then_perform or perform_while_moving, not %s", describe(l.unwrap(mv.Value)))
			if s := suggest.Closest(mode, moveModes); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			l.errorf(valueOrKey(mv), "%s", msg)
		}
	}
	l.rspec.Actions = append(l.rspec.Actions, a)
}

func (l *loader) engineGoal(i int, item ast.Node) {
	path := fmt.Sprintf("goals[%d]", i)
	l.pos[path] = position(item)
	if !l.isMapping(item, path, "a goal") {
		l.rspec.Goals = append(l.rspec.Goals, resolver.GoalSpec{})
		return
	}
	f := l.fields(l.mapping(item, "a goal"), "a goal", "name", "conditions")
	g := resolver.GoalSpec{Name: l.itemName(f, item, path, "goal")}
	if mv, ok := f["conditions"]; ok {
		g.Conditions = l.engineConditions(path+".conditions", mv.Value)
	}
	l.rspec.Goals = append(l.rspec.Goals, g)
}

// buildEngine compiles the engine-model spec, mapping the resolver's
// errors to positions, then checks the world against the domain.
func (l *loader) buildEngine(f *File) {
	var targets []string
	targeted := map[string]bool{}
	users := map[string][]int{} // the actions that name each target
	for i, a := range l.rspec.Actions {
		if a.Target == "" {
			continue
		}
		if !targeted[a.Target] {
			targeted[a.Target] = true
			targets = append(targets, a.Target)
		}
		users[a.Target] = append(users[a.Target], i)
	}
	// The targets actions name that targets: does not place: legitimate
	// (the sensor finds nothing until the game places it), unless a
	// placed target that no action names is a near spelling of one.
	var unplaced []string
	for _, t := range targets {
		if _, placed := l.world.Targets[t]; !placed {
			unplaced = append(unplaced, t)
		}
	}
	// In the file's order, so that the first get the suggestions.
	stray := slices.SortedFunc(maps.Keys(l.world.Targets), func(a, b string) int {
		pa, pb := l.pos["targets."+a], l.pos["targets."+b]
		return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col), strings.Compare(a, b))
	})
	misspelt := map[string]bool{} // unplaced targets said to be misspellings
	for _, name := range stray {
		if targeted[name] {
			continue
		}
		// Suggestions compare with every target: only the first
		// maxSuggestions get one, as for unknown keys, or a file of many
		// stray targets would cost their number × the targets'.
		if l.suggested < maxSuggestions {
			l.suggested++
			// The mistake is most likely the action's: targets: is
			// where positions are written once, and an action names
			// its target in passing. Said at the action, the fix is
			// where the caret is; said at each action that names it, so
			// that no copy of the typo is left once the errors are gone.
			if typo := suggest.Closest(name, unplaced); typo != "" && !misspelt[typo] {
				misspelt[typo] = true
				for _, i := range users[typo] {
					l.errorAt(l.pos[fmt.Sprintf("actions[%d].target", i)], "action %s targets %s, which targets: does not place; did you mean %s (placed at line %d, and targeted by no action)?",
						quote(l.rspec.Actions[i].Name), quote(typo), quote(name), l.pos["targets."+name].Line)
				}
				continue
			}
			msg := fmt.Sprintf("no action targets %s: targets gives the positions of the target keys actions name", quote(name))
			if s := suggest.Closest(name, targets); s != "" {
				msg += fmt.Sprintf("; did you mean %s?", quote(s))
			}
			l.errorAt(l.pos["targets."+name], "%s", msg)
			continue
		}
		l.errorAt(l.pos["targets."+name], "no action targets %s: targets gives the positions of the target keys actions name", quote(name))
	}
	if n := edgeCount(l.rspec); n > MaxEdges {
		// The graph holds one entry per edge: a generated file of many
		// actions serving many conditions of one key would fill memory
		// before anything else could be said about it.
		at := Pos{Line: 1, Col: 1}
		if p, ok := l.pos["goals"]; ok {
			at = p
		}
		l.errorAt(at, "the action graph would have %d edges (an effect serving a condition), more than the %d a domain file may have: split the domain, or give conditions fewer actions to choose from", n, MaxEdges)
		return
	}
	d, err := resolver.NewDomain(l.rspec)
	if err != nil {
		var es resolver.SpecErrors
		errors.As(err, &es)
		for _, e := range es {
			if l.standIn[e.Path] || l.skip[e.Path] || l.isBroken(e.Path) {
				continue
			}
			l.errorAt(lookup(l.pos, e.Path), "%s", e.Msg)
		}
		if len(l.errs) == 0 {
			// Whatever the resolver refused must be said, even if the
			// loader thought it said it already.
			for _, e := range es {
				l.errorAt(lookup(l.pos, e.Path), "%s", e.Msg)
			}
		}
		if len(l.errs) == 0 {
			l.errorAt(Pos{Line: 1, Col: 1}, "%s", err) // cannot happen: NewDomain fails with SpecErrors
		}
		return
	}
	agents := l.buildEngineAgents(d) // its errors said with the rest
	if len(l.errs) > 0 {
		return
	}
	f.ResolverSpec, f.Resolver, f.World = l.rspec, d, l.world
	f.EngineAgents, f.Inputs = agents, l.inputs
	if f.World.Values == nil {
		f.World.Values = map[string]int64{}
	}
	if f.World.Targets == nil {
		f.World.Targets = map[string]resolver.Point{}
	}
}
