package resolver

import (
	"fmt"
	"math"
	"slices"

	"github.com/ploy-ai/ploy/internal/errlist"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// KeyID is a world key's index in its domain.
type KeyID int32

// ActionID is an action's index in its domain.
type ActionID int32

// NoAction stands for the goal where an action would be: the end of every
// chain.
const NoAction ActionID = -1

// TargetID is a target key's index in its domain.
type TargetID int32

// NoTarget is the target of an action done where the agent stands.
const NoTarget TargetID = -1

// cond is a compiled condition.
type cond struct {
	key   KeyID
	op    Op
	value int64
	// servers are the actions with an effect that serves this condition,
	// in action order: the action graph's edges into it.
	servers []ActionID
}

func (c *cond) holds(v []int64) bool { return compare(v[c.key], c.op, c.value) }

// compare reports whether x op value holds.
func compare(x int64, op Op, value int64) bool {
	switch op {
	case Is:
		return x == value
	case Greater:
		return x > value
	case AtLeast:
		return x >= value
	case Less:
		return x < value
	default: // AtMost
		return x <= value
	}
}

// Holds reports whether the condition holds in s, a snapshot of d. It
// panics if the condition's key is not one of d's.
func (d *Domain) Holds(c Condition, s *Snapshot) bool {
	k, ok := d.keyIndex[c.Key]
	if !ok {
		panic(fmt.Sprintf("resolver: unknown key %q in a condition", c.Key))
	}
	return compare(s.Values[k], c.Op, c.Value)
}

type effect struct {
	key KeyID
	dir Direction
}

type action struct {
	name     string
	conds    []cond
	effects  []effect
	cost     float64
	costFunc func(*Snapshot) float64
	target   TargetID
	stop     float64
	move     MoveMode
}

// Domain is a compiled Spec: keys, targets and actions resolved to dense
// indices, and the action graph, which action serves which condition,
// computed once. It is immutable and safe to share between goroutines.
type Domain struct {
	name         string
	keys         []KeySpec
	keyNames     []string // the keys' names, in order (KeyNames)
	boolKeys     []KeyID  // for CheckSnapshot
	keyIndex     map[string]KeyID
	targets      []string
	targetIndex  map[string]TargetID
	actions      []action
	actionIndex  map[string]ActionID
	goals        []*Goal
	goalIndex    map[string]*Goal // the first goal of each name, for Goal
	distanceCost float64
	edges        int
	costFuncs    bool // an action has a CostFunc (HasCostFuncs)
}

// Goal is a compiled goal of a domain.
type Goal struct {
	name   string
	index  int
	conds  []cond
	domain *Domain
}

// Name returns the goal's name.
func (g *Goal) Name() string { return g.name }

// Domain returns the domain the goal belongs to.
func (g *Goal) Domain() *Domain { return g.domain }

// Holds reports whether every condition of the goal holds in s.
func (g *Goal) Holds(s *Snapshot) bool {
	g.domain.checkSnapshot(s)
	return g.HoldsIn(s.Values)
}

// HoldsIn reports whether every condition of the goal holds in values, the
// Values of a snapshot of the goal's domain that CheckSnapshot passed.
// Unlike Holds it checks nothing: it is for a caller that checks each
// snapshot once and then judges goals and actions against it many times,
// as the agent runtime does every tick. Values of another domain, or
// shorter than its keys, panic with an index out of range.
func (g *Goal) HoldsIn(values []int64) bool { return allHoldIn(g.conds, values) }

// ConditionsHoldIn reports whether every condition of action a holds in
// values, a checked snapshot's Values (see Goal.HoldsIn). An action not of
// d panics.
func (d *Domain) ConditionsHoldIn(a ActionID, values []int64) bool {
	return allHoldIn(d.actions[a].conds, values)
}

// BoolEffectsHoldIn reports whether action a's boolean effects (SetTrue,
// SetFalse) hold in values, a checked snapshot's Values (see
// Goal.HoldsIn): whether the action did what it says, as far as can be
// judged. Its integer effects are directions without amounts, which no
// snapshot can confirm.
func (d *Domain) BoolEffectsHoldIn(a ActionID, values []int64) bool {
	for _, e := range d.actions[a].effects {
		switch e.dir {
		case SetTrue:
			if values[e.key] != 1 {
				return false
			}
		case SetFalse:
			if values[e.key] != 0 {
				return false
			}
		}
	}
	return true
}

func allHoldIn(conds []cond, values []int64) bool {
	for i := range conds {
		if !conds[i].holds(values) {
			return false
		}
	}
	return true
}

// SpecError is one problem with a Spec. Path locates it the way a domain
// file is laid out ("actions[2].conditions[0]"), so that a loader can point
// at the offending line.
type SpecError struct {
	Path string
	Msg  string
}

func (e *SpecError) Error() string {
	if e.Path == "" {
		return "resolver: " + e.Msg
	}
	return "resolver: " + e.Path + ": " + e.Msg
}

// SpecErrors is every problem NewDomain found, in the order of the spec.
type SpecErrors = errlist.List[*SpecError]

type builder struct {
	d    *Domain
	errs SpecErrors
}

func (b *builder) errorf(path, format string, args ...any) {
	b.errs = append(b.errs, &SpecError{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// NewDomain validates spec and compiles it, reporting every problem at
// once as SpecErrors: empty or repeated names, unknown keys (with a
// suggestion), an equality on an integer key, a direction on a boolean
// key, an amount-like misuse of effects, bad costs and distances. It then
// builds the action graph: for every condition of every goal and action,
// the actions with an effect that serves it.
func NewDomain(spec Spec) (*Domain, error) {
	d := &Domain{
		name:         spec.Name,
		keyIndex:     map[string]KeyID{},
		targetIndex:  map[string]TargetID{},
		actionIndex:  map[string]ActionID{},
		distanceCost: spec.DistanceCost,
	}
	b := &builder{d: d}
	if d.distanceCost == 0 {
		d.distanceCost = DefaultDistanceCost
	}
	if !(d.distanceCost > 0) || d.distanceCost > MaxCost {
		b.errorf("distance_cost", "distance cost is %g; it must be positive and at most %g", spec.DistanceCost, float64(MaxCost))
	}
	for i, k := range spec.Keys {
		path := fmt.Sprintf("keys[%d]", i)
		_, dup := d.keyIndex[k.Name]
		switch {
		case k.Name == "":
			b.errorf(path, "key has no name")
		case dup:
			b.errorf(path, "key %q declared twice", k.Name)
		case k.Kind != Bool && k.Kind != Int:
			b.errorf(path, "key %q has kind %v; want bool or int", k.Name, k.Kind)
		default:
			d.keyIndex[k.Name] = KeyID(len(d.keys))
			if k.Kind == Bool {
				d.boolKeys = append(d.boolKeys, KeyID(len(d.keys)))
			}
		}
		d.keys = append(d.keys, k)
		d.keyNames = append(d.keyNames, k.Name)
	}
	for i, a := range spec.Actions {
		path := fmt.Sprintf("actions[%d]", i)
		if a.Name == "" {
			b.errorf(path+".name", "action has no name")
		} else if _, dup := d.actionIndex[a.Name]; dup {
			b.errorf(path+".name", "action %q declared twice", a.Name)
		} else {
			d.actionIndex[a.Name] = ActionID(i)
		}
		act := action{name: a.Name, cost: a.Cost, costFunc: a.CostFunc, target: NoTarget, stop: a.StoppingDistance, move: a.Move}
		act.conds = b.conditions(path+".conditions", a.Conditions)
		for j, e := range a.Effects {
			if eff, ok := b.effect(fmt.Sprintf("%s.effects[%d]", path, j), e); ok {
				act.effects = append(act.effects, eff)
			}
		}
		if a.CostFunc == nil && (!(a.Cost > 0) || a.Cost > MaxCost) {
			b.errorf(path+".cost", "action %q has cost %g; costs must be positive and at most %g", a.Name, a.Cost, float64(MaxCost))
		}
		if a.Target != "" {
			t, ok := d.targetIndex[a.Target]
			if !ok {
				t = TargetID(len(d.targets))
				d.targets = append(d.targets, a.Target)
				d.targetIndex[a.Target] = t
			}
			act.target = t
		}
		if a.StoppingDistance < 0 || math.IsNaN(a.StoppingDistance) || math.IsInf(a.StoppingDistance, 0) {
			b.errorf(path+".stopping_distance", "stopping distance is %g; it must be finite and not negative", a.StoppingDistance)
		} else if a.StoppingDistance > 0 && a.Target == "" {
			b.errorf(path+".stopping_distance", "action %q has a stopping distance but no target to stop near", a.Name)
		}
		if a.Move != MoveThenPerform && a.Move != PerformWhileMoving {
			b.errorf(path+".move", "move mode %v; want move_then_perform or perform_while_moving", a.Move)
		}
		d.actions = append(d.actions, act)
		d.costFuncs = d.costFuncs || act.costFunc != nil
	}
	seenGoal := map[string]bool{}
	for i, g := range spec.Goals {
		path := fmt.Sprintf("goals[%d]", i)
		if g.Name == "" {
			b.errorf(path+".name", "goal has no name")
		} else if seenGoal[g.Name] {
			b.errorf(path+".name", "goal %q declared twice", g.Name)
		}
		seenGoal[g.Name] = true
		if len(g.Conditions) == 0 {
			b.errorf(path+".conditions", "goal %q has no conditions", g.Name)
		}
		d.goals = append(d.goals, &Goal{name: g.Name, index: i, conds: b.conditions(path+".conditions", g.Conditions), domain: d})
	}
	// Goal looks names up here, not along the list: the loader does once
	// per agent goal option, which along the list took options × goals.
	d.goalIndex = make(map[string]*Goal, len(d.goals))
	for _, g := range slices.Backward(d.goals) {
		d.goalIndex[g.name] = g
	}
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	d.buildGraph()
	return d, nil
}

// conditions compiles a condition list, reporting each misuse at its path.
func (b *builder) conditions(path string, cs []Condition) []cond {
	var out []cond
	for j, c := range cs {
		p := fmt.Sprintf("%s[%d]", path, j)
		k, ok := b.key(p, c.Key)
		if !ok {
			continue
		}
		switch kind := b.d.keys[k].Kind; {
		case kind == Bool && c.Op != Is:
			b.errorf(p, "%q is a boolean key: a condition on it is true or false, not %v %d", c.Key, c.Op, c.Value)
			continue
		case kind == Bool && c.Value != 0 && c.Value != 1:
			b.errorf(p, "%q is a boolean key: its condition's value is 0 (false) or 1 (true), not %d", c.Key, c.Value)
			continue
		case kind == Int && c.Op == Is:
			b.errorf(p, "%q is an integer key, and an equality has no direction, so no effect could serve it: use >= or <= (or a boolean key)", c.Key)
			continue
		case c.Op > AtMost:
			b.errorf(p, "condition on %q has op %v; want >, >=, < or <=", c.Key, c.Op)
			continue
		}
		out = append(out, cond{key: k, op: c.Op, value: c.Value})
	}
	return out
}

// effect compiles one effect.
func (b *builder) effect(path string, e Effect) (effect, bool) {
	k, ok := b.key(path, e.Key)
	if !ok {
		return effect{}, false
	}
	switch kind := b.d.keys[k].Kind; {
	case kind == Bool && (e.Dir == Increase || e.Dir == Decrease):
		b.errorf(path, "%q is a boolean key: an effect sets it true or false; it cannot %v", e.Key, e.Dir)
		return effect{}, false
	case kind == Int && (e.Dir == SetTrue || e.Dir == SetFalse):
		b.errorf(path, "%q is an integer key: an effect on it is a direction, increase or decrease, not a value", e.Key)
		return effect{}, false
	case e.Dir < SetTrue || e.Dir > Decrease:
		b.errorf(path, "effect on %q has direction %v", e.Key, e.Dir)
		return effect{}, false
	}
	return effect{key: k, dir: e.Dir}, true
}

func (b *builder) key(path, name string) (KeyID, bool) {
	k, ok := b.d.keyIndex[name]
	if ok {
		return k, true
	}
	msg := fmt.Sprintf("unknown key %q", name)
	names := make([]string, len(b.d.keys))
	for i, k := range b.d.keys {
		names[i] = k.Name
	}
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	b.errorf(path, "%s", msg)
	return 0, false
}

// buildGraph fills every condition's servers: the action graph. It runs
// once, in time linear in the conditions times the effects on their key.
func (d *Domain) buildGraph() {
	byKey := make([][]ActionID, len(d.keys)) // actions with an effect on each key
	for ai := range d.actions {
		for _, e := range d.actions[ai].effects {
			if l := byKey[e.key]; len(l) == 0 || l[len(l)-1] != ActionID(ai) {
				byKey[e.key] = append(byKey[e.key], ActionID(ai))
			}
		}
	}
	link := func(c *cond) {
		for _, ai := range byKey[c.key] {
			for _, e := range d.actions[ai].effects {
				if e.key == c.key && serves(e.dir, c.op, c.value) {
					c.servers = append(c.servers, ai)
					d.edges++
					break
				}
			}
		}
	}
	for ai := range d.actions {
		for ci := range d.actions[ai].conds {
			link(&d.actions[ai].conds[ci])
		}
	}
	for _, g := range d.goals {
		for ci := range g.conds {
			link(&g.conds[ci])
		}
	}
}

// Name returns the domain's name.
func (d *Domain) Name() string { return d.name }

// Keys returns the declared keys, in order. The slice must not be changed.
func (d *Domain) Keys() []KeySpec { return d.keys }

// KeyNames returns the declared keys' names, in order: one slice for
// every caller (an agent's decision records share it), which must not be
// changed.
func (d *Domain) KeyNames() []string { return d.keyNames }

// Key returns the key named name.
func (d *Domain) Key(name string) (KeyID, bool) {
	k, ok := d.keyIndex[name]
	return k, ok
}

// Targets returns the target keys the actions name, in order of first
// use: one slice for every caller (an agent's decision records share
// it), which must not be changed.
func (d *Domain) Targets() []string { return d.targets }

// Target returns the target key named name.
func (d *Domain) Target(name string) (TargetID, bool) {
	t, ok := d.targetIndex[name]
	return t, ok
}

// NumActions returns the number of actions.
func (d *Domain) NumActions() int { return len(d.actions) }

// ActionName returns the action's name.
func (d *Domain) ActionName(a ActionID) string { return d.actions[a].name }

// HasCostFuncs reports whether any action is priced by the game's code
// (ActionSpec.CostFunc) rather than by a number: a caller that prices
// steps later, elsewhere (an agent's decision recorder), must not call
// the game's code there.
func (d *Domain) HasCostFuncs() bool { return d.costFuncs }

// ActionByName returns the action named name.
func (d *Domain) ActionByName(name string) (ActionID, bool) {
	a, ok := d.actionIndex[name]
	return a, ok
}

// ActionTarget returns the target of action a, or NoTarget.
func (d *Domain) ActionTarget(a ActionID) TargetID { return d.actions[a].target }

// StoppingDistance returns how near its target action a completes.
func (d *Domain) StoppingDistance(a ActionID) float64 { return d.actions[a].stop }

// MoveMode returns how action a combines moving and performing.
func (d *Domain) MoveMode(a ActionID) MoveMode { return d.actions[a].move }

// Conditions returns action a's conditions, as declared.
func (d *Domain) Conditions(a ActionID) []Condition { return d.export(d.actions[a].conds) }

// Effects returns action a's effects, as declared.
func (d *Domain) Effects(a ActionID) []Effect {
	out := make([]Effect, len(d.actions[a].effects))
	for i, e := range d.actions[a].effects {
		out[i] = Effect{Key: d.keys[e.key].Name, Dir: e.dir}
	}
	return out
}

// Conditions returns the goal's conditions, as declared.
func (g *Goal) Conditions() []Condition { return g.domain.export(g.conds) }

func (d *Domain) export(cs []cond) []Condition {
	out := make([]Condition, len(cs))
	for i, c := range cs {
		out[i] = Condition{Key: d.keys[c.key].Name, Op: c.op, Value: c.value}
	}
	return out
}

// DistanceCost returns the cost of one unit of distance.
func (d *Domain) DistanceCost() float64 { return d.distanceCost }

// Goals returns the domain's goals, in order.
func (d *Domain) Goals() []*Goal { return d.goals }

// Goal returns the goal named name, or nil.
func (d *Domain) Goal(name string) *Goal {
	return d.goalIndex[name]
}

// Servers returns the actions that serve condition i of action a, in
// action order: the action graph's edges into it. The slice must not be
// changed.
func (d *Domain) Servers(a ActionID, i int) []ActionID { return d.actions[a].conds[i].servers }

// Servers returns the actions that serve the goal's condition i.
func (g *Goal) Servers(i int) []ActionID { return g.conds[i].servers }

// Edge is one edge of the action graph: action From has an effect that
// serves condition Condition of action To, or of goal Goal when To is
// NoAction.
type Edge struct {
	From      ActionID
	To        ActionID
	Goal      int
	Condition int
}

// Edges returns the whole action graph: the goals' edges first, in goal
// and condition order, then the actions', in action and condition order.
func (d *Domain) Edges() []Edge {
	out := make([]Edge, 0, d.edges)
	for gi, g := range d.goals {
		for ci := range g.conds {
			for _, s := range g.conds[ci].servers {
				out = append(out, Edge{From: s, To: NoAction, Goal: gi, Condition: ci})
			}
		}
	}
	for ai := range d.actions {
		for ci := range d.actions[ai].conds {
			for _, s := range d.actions[ai].conds[ci].servers {
				out = append(out, Edge{From: s, To: ActionID(ai), Goal: -1, Condition: ci})
			}
		}
	}
	return out
}

// Unserved is a condition that no action serves: lint's finding. Action
// is NoAction for a goal's condition.
type Unserved struct {
	Action    ActionID
	Goal      int
	Condition int
}

// Unserved returns the conditions of goals and actions that no action's
// effect serves. Such a condition can only be met by the world; if it is
// unmet, no chain passes through it.
func (d *Domain) Unserved() []Unserved {
	var out []Unserved
	for gi, g := range d.goals {
		for ci := range g.conds {
			if len(g.conds[ci].servers) == 0 {
				out = append(out, Unserved{Action: NoAction, Goal: gi, Condition: ci})
			}
		}
	}
	for ai := range d.actions {
		for ci := range d.actions[ai].conds {
			if len(d.actions[ai].conds[ci].servers) == 0 {
				out = append(out, Unserved{Action: ActionID(ai), Goal: -1, Condition: ci})
			}
		}
	}
	return out
}

// ServesNothing returns the actions whose effects serve no condition of
// any goal or action: no chain can contain them.
func (d *Domain) ServesNothing() []ActionID {
	used := make([]bool, len(d.actions))
	for _, e := range d.Edges() {
		used[e.From] = true
	}
	var out []ActionID
	for ai, u := range used {
		if !u {
			out = append(out, ActionID(ai))
		}
	}
	return out
}

// FormatChain renders a chain as "A → B → C".
func (d *Domain) FormatChain(chain []ActionID) string {
	names := make([]string, len(chain))
	for i, a := range chain {
		names[i] = d.actions[a].name
	}
	return joinArrow(names)
}

func joinArrow(names []string) string {
	if len(names) == 0 {
		return "(nothing to do)"
	}
	out := names[0]
	for _, n := range names[1:] {
		out += " → " + n
	}
	return out
}
