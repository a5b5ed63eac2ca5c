package resolver

import "fmt"

// Kind is the type of a world key.
type Kind uint8

const (
	// Bool keys are true or false (1 or 0 in a Snapshot).
	Bool Kind = iota
	// Int keys hold a whole number the world supplies (health, hunger,
	// gold). The domain never stores an amount: conditions compare a key
	// with a constant, effects only say which way it moves.
	Int
)

func (k Kind) String() string {
	switch k {
	case Bool:
		return "bool"
	case Int:
		return "int"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Op is how a condition compares its key with its constant. There is no
// equality on an integer key: an equality has no direction, so no effect
// could ever be said to serve it, and the action graph could hold no edge
// to it. A boolean key is compared with Is.
type Op uint8

const (
	// Is: the boolean key has the condition's value (0 false, 1 true).
	Is Op = iota
	// Greater: key > value. Served by an effect that increases the key.
	Greater
	// AtLeast: key >= value. Served by an effect that increases the key.
	AtLeast
	// Less: key < value. Served by an effect that decreases the key.
	Less
	// AtMost: key <= value. Served by an effect that decreases the key.
	AtMost
)

func (o Op) String() string {
	switch o {
	case Is:
		return "is"
	case Greater:
		return ">"
	case AtLeast:
		return ">="
	case Less:
		return "<"
	case AtMost:
		return "<="
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// wantsMore reports whether a condition with op asks for a larger key.
func (o Op) wantsMore() bool { return o == Greater || o == AtLeast }

// wantsLess reports whether a condition with op asks for a smaller key.
func (o Op) wantsLess() bool { return o == Less || o == AtMost }

// Condition is one requirement on a world key: a boolean key Is a value
// (0 or 1), or an integer key compared in a direction with a constant.
type Condition struct {
	Key   string
	Op    Op
	Value int64
}

// True is the condition that the boolean key holds.
func True(key string) Condition { return Condition{Key: key, Op: Is, Value: 1} }

// False is the condition that the boolean key does not hold.
func False(key string) Condition { return Condition{Key: key, Op: Is, Value: 0} }

// Above is key > v.
func Above(key string, v int64) Condition { return Condition{Key: key, Op: Greater, Value: v} }

// AtLeastOf is key >= v.
func AtLeastOf(key string, v int64) Condition { return Condition{Key: key, Op: AtLeast, Value: v} }

// Below is key < v.
func Below(key string, v int64) Condition { return Condition{Key: key, Op: Less, Value: v} }

// AtMostOf is key <= v.
func AtMostOf(key string, v int64) Condition { return Condition{Key: key, Op: AtMost, Value: v} }

func (c Condition) String() string {
	if c.Op == Is {
		if c.Value == 0 {
			return "!" + c.Key
		}
		return c.Key
	}
	return fmt.Sprintf("%s %s %d", c.Key, c.Op, c.Value)
}

// Direction is what an effect does to its key: sets a boolean, or moves an
// integer up or down by an amount the domain does not know. "Eating reduces
// hunger" stays true while the numbers a designer tunes move, so the
// graph does not depend on them.
type Direction uint8

const (
	// SetTrue makes a boolean key true.
	SetTrue Direction = iota + 1
	// SetFalse makes a boolean key false.
	SetFalse
	// Increase moves an integer key up.
	Increase
	// Decrease moves an integer key down.
	Decrease
)

func (d Direction) String() string {
	switch d {
	case SetTrue:
		return "true"
	case SetFalse:
		return "false"
	case Increase:
		return "increase"
	case Decrease:
		return "decrease"
	}
	return fmt.Sprintf("direction(%d)", uint8(d))
}

// Effect is what an action does to one key.
type Effect struct {
	Key string
	Dir Direction
}

// Sets is the effect that makes the boolean key v.
func Sets(key string, v bool) Effect {
	if v {
		return Effect{Key: key, Dir: SetTrue}
	}
	return Effect{Key: key, Dir: SetFalse}
}

// Raises is the effect that increases the integer key.
func Raises(key string) Effect { return Effect{Key: key, Dir: Increase} }

// Lowers is the effect that decreases the integer key.
func Lowers(key string) Effect { return Effect{Key: key, Dir: Decrease} }

func (e Effect) String() string {
	switch e.Dir {
	case SetTrue:
		return e.Key
	case SetFalse:
		return "!" + e.Key
	case Increase:
		return e.Key + "+"
	case Decrease:
		return e.Key + "-"
	}
	return e.Key + " " + e.Dir.String()
}

// serves reports whether an effect with direction dir serves a condition
// with op and value on the same key: a wish for more by an increase, for
// less by a decrease, a boolean by setting the value it asks for.
func serves(dir Direction, op Op, value int64) bool {
	switch dir {
	case SetTrue:
		return op == Is && value == 1
	case SetFalse:
		return op == Is && value == 0
	case Increase:
		return op.wantsMore()
	case Decrease:
		return op.wantsLess()
	}
	return false
}

// MoveMode says how the runtime combines getting to an action's target
// with performing it. Movement is never an action of the graph: a MoveTo
// per destination would make the graph a function of the world's contents,
// to be built again whenever they changed. The runtime asks the game's
// mover to get within the action's stopping distance of its target.
type MoveMode uint8

const (
	// MoveThenPerform moves within the stopping distance, then starts the
	// action: chopping a tree.
	MoveThenPerform MoveMode = iota
	// PerformWhileMoving starts the action at once and keeps moving
	// towards the target while it runs; the action completes only once
	// the agent is within the stopping distance: calling out to a
	// companion while walking up to them.
	PerformWhileMoving
)

func (m MoveMode) String() string {
	switch m {
	case MoveThenPerform:
		return "move_then_perform"
	case PerformWhileMoving:
		return "perform_while_moving"
	}
	return fmt.Sprintf("move_mode(%d)", uint8(m))
}

// KeySpec declares a world key.
type KeySpec struct {
	Name string
	Kind Kind
}

// ActionSpec declares an action: the conditions it needs, the effects it
// has, its cost, and optionally where it happens.
type ActionSpec struct {
	Name       string
	Conditions []Condition
	Effects    []Effect
	// Cost is the action's cost, positive and at most MaxCost.
	Cost float64
	// CostFunc, if set, prices the action from the agent's snapshot
	// instead ("dearer when tired"). It must return a positive number at
	// most MaxCost, and be a pure function of the snapshot: a resolve
	// calls it at most once per action.
	CostFunc func(*Snapshot) float64
	// Target names the target key whose position the action happens at,
	// resolved per agent by a target sensor into the Snapshot; empty for an
	// action done where the agent stands.
	Target string
	// StoppingDistance is how near the target the mover must bring the
	// agent before the action can complete.
	StoppingDistance float64
	Move             MoveMode
}

// GoalSpec declares a goal: conditions that must all hold.
type GoalSpec struct {
	Name       string
	Conditions []Condition
}

// Spec is a domain as authored: its world keys, actions and goals. The
// action graph is not authored; NewDomain computes it.
type Spec struct {
	Name    string
	Keys    []KeySpec
	Actions []ActionSpec
	Goals   []GoalSpec
	// DistanceCost is the cost of one unit of distance between
	// consecutive targets of a chain; 0 means DefaultDistanceCost.
	DistanceCost float64
}

// DefaultDistanceCost prices one unit of distance the same as one unit of
// action cost.
const DefaultDistanceCost = 1

// MaxCost is the largest cost an action may have, the same bound as the
// state-space planner's: a chain sums at most a few thousand costs and
// distances, far from the float range.
const MaxCost = 1e290
