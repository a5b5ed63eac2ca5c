package goap

import (
	"fmt"
	"math"
)

type costKind uint8

const (
	costUnset costKind = iota
	costConst
	costRules
	costFunc
)

// Cost is an action's cost: a constant, an ordered list of rules over the
// state the action is applied in, or a Go function of that state. The zero
// Cost is unset, which a domain rejects: every action must say what it costs.
// Costs are positive and at most MaxCost, so that no plan's sum overflows.
type Cost struct {
	kind  costKind
	value float64 // the constant, or the rules' default
	rules []CostRule
	fn    func(State) float64
	min   float64
}

// CostRule is one case of a rule list: when every fact in When has the given
// value, the action costs Cost.
type CostRule struct {
	When map[string]bool
	Cost float64
}

// Const is a cost that does not depend on the state.
func Const(c float64) Cost { return Cost{kind: costConst, value: c, min: c} }

// Rules is a state-dependent cost given as data: the first rule whose When
// holds in the state the action is applied in gives the cost, and otherwise
// costs the default. Recharge costing 1 in cover and 4 in the open is
// Rules(4, CostRule{When: map[string]bool{"in_cover": true}, Cost: 1}).
//
// Rule lists stay exact in backward search: a domain splits each list into
// mutually exclusive cases, each a conjunction of facts with one cost.
func Rules(otherwise float64, rules ...CostRule) Cost {
	m := otherwise
	for _, r := range rules {
		m = min(m, r.Cost)
	}
	return Cost{kind: costRules, value: otherwise, rules: rules, min: m}
}

// Func is a state-dependent cost computed by Go code. The function receives a
// read-only view of the state the action is applied in, valid only during
// the call, and must return a cost of at least min, which must be positive,
// and at most MaxCost: heuristics divide by the least cost in the domain to
// stay admissible, so a cost below the declared minimum could make a plan
// suboptimal, and one above MaxCost could overflow a plan's sum; either,
// or NaN, makes the planner panic, naming the action. A Go function cannot be
// regressed, so backward search refuses actions with such costs.
func Func(min float64, fn func(State) float64) Cost {
	return Cost{kind: costFunc, fn: fn, min: min}
}

// IsSet reports whether c was made by Const, Rules or Func.
func (c Cost) IsSet() bool { return c.kind != costUnset }

// Min returns the least value c can take: the constant, the least of a rule
// list's costs, or a Func's declared minimum.
func (c Cost) Min() float64 { return c.min }

// IsFunc reports whether c is computed by Go code.
func (c Cost) IsFunc() bool { return c.kind == costFunc }

// Constant returns the cost and true if c does not depend on the state.
func (c Cost) Constant() (float64, bool) { return c.value, c.kind == costConst }

// RuleList returns a rule list's rules and default.
func (c Cost) RuleList() (rules []CostRule, otherwise float64, ok bool) {
	return c.rules, c.value, c.kind == costRules
}

func validCost(v float64) bool { return v > 0 && v <= MaxCost } // false for NaN

func costMessage(v float64) string {
	switch {
	case math.IsNaN(v):
		return "cost is not a number"
	case math.IsInf(v, 0):
		return "cost is infinite"
	case v == 0:
		return "cost is 0; costs must be positive"
	case v > MaxCost:
		return fmt.Sprintf("cost is %g; costs must be at most %g, so that a plan's total stays finite", v, float64(MaxCost))
	default:
		return fmt.Sprintf("cost is %g; costs must be positive", v)
	}
}

// costMessageOf is costMessage naming the action, where a value cannot
// have been meant (not a number, infinite or past MaxCost) and the file's
// line may not show where it came from (a computed value, YAML's .nan).
func costMessageOf(action string, v float64) string {
	msg := costMessage(v)
	if (math.IsNaN(v) || v > MaxCost) && action != "" {
		msg += fmt.Sprintf(" (action %q)", action)
	}
	return msg
}

// costRule is a compiled CostRule: its condition as bit masks.
type costRule struct {
	mask, value []uint64
	cost        float64
}

// actionCost is a compiled Cost.
type actionCost struct {
	kind  costKind
	value float64
	rules []costRule
	fn    func(State) float64
	min   float64
	name  string // the action's, for the panic on a bad Func result
}

// at returns the cost of applying the action in state s.
func (c *actionCost) at(s []uint64) float64 {
	switch c.kind {
	case costConst:
		return c.value
	case costRules:
		for i := range c.rules {
			r := &c.rules[i]
			if holds(s, r.mask, r.value) {
				return r.cost
			}
		}
		return c.value
	}
	v := c.fn(State{words: s})
	if !(v >= c.min && v <= MaxCost) {
		panic(fmt.Sprintf("goap: cost function of action %q returned %g, below its declared minimum %g, above MaxCost or not a number", c.name, v, c.min))
	}
	return v
}

// ruleWord is at for a rule list over a one-word state.
func (c *actionCost) ruleWord(s uint64) float64 {
	for i := range c.rules {
		if r := &c.rules[i]; s&r.mask[0] == r.value[0] {
			return r.cost
		}
	}
	return c.value
}

// costCase is one mutually exclusive case of an action's cost: the full
// condition under which the action applies at that cost (its preconditions
// and the facts that select the case).
type costCase struct {
	mask, value []uint64
	cost        float64
}

// maxCostCases bounds how many cases one rule list may split into, so that a
// pathological list is an error when the domain is built rather than a
// memory blow-up.
const maxCostCases = 4096

// maxRuleCases bounds the cases of all of a profile's rule lists together,
// and maxRuleCaseWords their masks, two state-wide words per case: many
// actions each under maxCostCases could otherwise still exhaust memory.
// On a domain of at most 64 facts the count decides (2^18 cases, some
// 30 MiB); on wider ones the masks' 64 MiB (2 683 cases at 100 000 facts).
// A constant or Go-function cost is one case sharing the action's masks
// and does not count.
const (
	maxRuleCases     = 1 << 18
	maxRuleCaseWords = 1 << 23
)

// ruleCaseLimit returns how many rule-list cases a profile of a domain
// with states of words words may hold.
func ruleCaseLimit(words int) int { return min(maxRuleCases, maxRuleCaseWords/(2*words)) }

// splitCost splits a compiled cost into mutually exclusive, exhaustive
// conjunctive cases under the preconditions (preMask, preValue). Rule i
// applies when its condition holds and no earlier rule's does; "rule j does
// not hold" is a disjunction, so it is expanded over the first of rule j's
// facts that fails, which keeps every case a conjunction. A Func cost has
// one case at its declared minimum, usable only by relaxations.
func splitCost(c *actionCost, preMask, preValue []uint64) ([]costCase, bool) {
	words := len(preMask)
	if c.kind != costRules {
		// One case: the preconditions themselves, shared, not copied.
		cost := c.value
		if c.kind == costFunc {
			cost = c.min
		}
		return []costCase{{mask: preMask, value: preValue, cost: cost}}, true
	}
	var out []costCase
	ok := true
	var rec func(i int, mask, value []uint64)
	rec = func(i int, mask, value []uint64) {
		if !ok {
			return
		}
		if len(out) >= maxCostCases {
			ok = false
			return
		}
		if c.kind != costRules || i == len(c.rules) {
			cost := c.value
			if c.kind == costFunc {
				cost = c.min
			}
			out = append(out, costCase{mask: mask, value: value, cost: cost})
			return
		}
		r := &c.rules[i]
		for w := 0; w < words; w++ {
			if (value[w]^r.value[w])&mask[w]&r.mask[w] != 0 {
				rec(i+1, mask, value) // the rule contradicts this case: it never applies here
				return
			}
		}
		// Case: the rule holds.
		m2 := make([]uint64, words)
		v2 := make([]uint64, words)
		for w := 0; w < words; w++ {
			m2[w] = mask[w] | r.mask[w]
			v2[w] = value[w] | r.value[w]
		}
		out = append(out, costCase{mask: m2, value: v2, cost: r.cost})
		// Cases: the rule fails at its first fact (not already fixed) that is wrong.
		curM := append([]uint64(nil), mask...)
		curV := append([]uint64(nil), value...)
		for w := 0; w < words; w++ {
			free := r.mask[w] &^ mask[w]
			for free != 0 {
				b := free & -free
				free &^= b
				fm := append([]uint64(nil), curM...)
				fv := append([]uint64(nil), curV...)
				fm[w] |= b
				fv[w] = fv[w]&^b | (^r.value[w] & b)
				rec(i+1, fm, fv)
				curM[w] |= b
				curV[w] |= r.value[w] & b
			}
		}
	}
	rec(0, append([]uint64(nil), preMask...), append([]uint64(nil), preValue...))
	return out, ok
}
