package domain

import (
	"github.com/ploy-ai/ploy/goap"
)

// Input is a number the world supplies to agents at run time (the mage's
// health, the count of enemies), declared under a file's inputs: with the
// value commands assume when nothing supplies it. Agents test inputs in
// their conditions and score by them; planners never see them.
type Input struct {
	Name    string
	Default float64
}

// InputDefaults returns the inputs' default values, indexed as f.Inputs.
func (f *File) InputDefaults() []float64 {
	out := make([]float64, len(f.Inputs))
	for i, in := range f.Inputs {
		out[i] = in.Default
	}
	return out
}

// noFacts is the state an engine-model agent's conditions are tested in:
// they test keys, as inputs, and no fact.
var noFacts goap.State

// Compare is an input test's comparison.
type Compare uint8

const (
	Less Compare = iota
	AtMost
	Greater
	AtLeast
)

var compareText = [...]string{"<", "<=", ">", ">="}

func (c Compare) String() string { return compareText[c] }

// InputTest compares input number Input (an index into File.Inputs) with
// Value.
type InputTest struct {
	Input int
	Op    Compare
	Value float64
}

func (t InputTest) holds(inputs []float64) bool {
	x := inputs[t.Input]
	switch t.Op {
	case Less:
		return x < t.Value
	case AtMost:
		return x <= t.Value
	case Greater:
		return x > t.Value
	}
	return x >= t.Value
}

// Condition is an agent's test of its world: facts of its state and
// inputs, all of which must hold. The zero Condition always holds.
type Condition struct {
	facts  *conditionFacts // nil: no fact tested
	Inputs []InputTest
}

// conditionFacts are a condition's facts: read with the file, made a goal
// once the domain is built. Copies of the Condition share them.
type conditionFacts struct {
	path string
	spec map[string]bool
	goal *goap.Goal
}

// Facts returns the facts c tests (an empty Condition if none).
func (c Condition) Facts() goap.Condition {
	if c.facts == nil || c.facts.goal == nil {
		return goap.Condition{}
	}
	return c.facts.goal.Condition()
}

// Holds reports whether c holds for the facts s and the input values
// inputs (indexed as File.Inputs).
func (c Condition) Holds(s goap.State, inputs []float64) bool {
	if c.facts != nil && c.facts.goal != nil && !c.facts.goal.Holds(s) {
		return false
	}
	for _, t := range c.Inputs {
		if !t.holds(inputs) {
			return false
		}
	}
	return true
}

// Empty reports whether c tests nothing.
func (c Condition) Empty() bool {
	return c.Facts().Len() == 0 && len(c.Inputs) == 0
}

// ScoreKind says how a Score is computed.
type ScoreKind uint8

const (
	// Constant is Value.
	Constant ScoreKind = iota
	// Linear is Offset + Slope × the input.
	Linear
	// Curve is the piecewise-linear curve through Points over the input,
	// level beyond its ends.
	Curve
	// Rules is the Score of the first rule whose When holds; the last
	// rule has an empty When.
	Rules
)

// Score is a utility consideration: a number for a state and inputs.
type Score struct {
	Kind          ScoreKind
	Value         float64
	Input         int // Linear and Curve: an index into File.Inputs
	Slope, Offset float64
	Points        [][2]float64 // Curve: x strictly increasing
	Rules         []ScoreRule
}

// ScoreRule is one rule of a Rules score.
type ScoreRule struct {
	When  Condition
	Score Score
}

// At returns the score for the facts s and the input values inputs.
func (sc *Score) At(s goap.State, inputs []float64) float64 {
	switch sc.Kind {
	case Linear:
		return sc.Offset + sc.Slope*inputs[sc.Input]
	case Curve:
		x, p := inputs[sc.Input], sc.Points
		if x <= p[0][0] {
			return p[0][1]
		}
		for i := 1; i < len(p); i++ {
			if x <= p[i][0] {
				t := (x - p[i-1][0]) / (p[i][0] - p[i-1][0])
				return p[i-1][1] + t*(p[i][1]-p[i-1][1])
			}
		}
		return p[len(p)-1][1]
	case Rules:
		for i := range sc.Rules {
			if r := &sc.Rules[i]; r.When.Holds(s, inputs) {
				return r.Score.At(s, inputs)
			}
		}
		return 0 // not reached: the last rule has no condition
	}
	return sc.Value
}

// NodeKind is a behaviour-tree node's kind.
type NodeKind uint8

const (
	// Sequence runs Children in order, failing at the first that fails.
	Sequence NodeKind = iota
	// Selector runs the first of Children that does not fail.
	Selector
	// When succeeds when its Condition holds and fails otherwise.
	When
	// Act runs Action's behaviour.
	Act
	// Plan pursues Goal with the agent's GOAP planner: a tree whose leaf
	// plans, the hybrid of a tree and GOAP.
	Plan
	// UtilitySelector runs the best-scored of Options whose action
	// applies, with Hysteresis.
	UtilitySelector
	// PlanHTN decomposes Task with the file's HTN and runs the plan.
	PlanHTN
)

var nodeKindText = [...]string{"sequence", "selector", "when", "action", "plan", "utility", "htn"}

// String returns the node kind's key in the file.
func (k NodeKind) String() string { return nodeKindText[k] }

// Node is a behaviour-tree node of a file's agent: the data package agent
// builds a runnable tree from.
type Node struct {
	Kind      NodeKind
	Children  []*Node // Sequence, Selector
	Condition Condition
	Action    goap.ActionID // Act
	Goal      *goap.Goal    // Plan
	Task      string        // PlanHTN: a compound task of the file's htn
	// UtilitySelector's: its options, and how much more another must
	// score to take over from the running one.
	Options    []UtilityOption
	Hysteresis float64

	path string // in the file, for lint
}

// UtilityOption scores one action of a utility selector.
type UtilityOption struct {
	Action goap.ActionID
	Score  Score
}
