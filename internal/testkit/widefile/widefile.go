// Package widefile writes large, valid domain files for the tests that
// check that loading, building, linting and serving a file take time and
// memory near-linear in its size, so that no analysis of a whole file can
// be made quadratic by a large one.
//
// The files use flow style and short names (f12, a3, g7) so that many
// goals, actions and facts fit domain.MaxFileSize and domain.MaxTokens:
// a fact costs about 2 tokens in the facts list (`f1,f2,...`, no spaces:
// a comma is punctuation, counted twice, and the names between are one
// run), an action about 35 and a goal about 25 (see TokensPerAction).
package widefile

import (
	"fmt"
	"strings"
)

// Shape says how large a generated file is.
type Shape struct {
	Goals, Actions, Facts int
	// Agents adds that many agent kinds, each with GoalsPerAgent goal
	// options over the file's goals and a cost of its own for one action;
	// every other agent can do only two actions (capabilities:).
	Agents, GoalsPerAgent int
	// Tasks adds an HTN section of that many compound tasks in a chain:
	// task t has a method that needs fact t and does action t then task
	// t+1, and an empty fallback method.
	Tasks int
	// Backwards lists the chain's actions last step first, so that a
	// relaxation that passes over the actions in order until nothing
	// changes takes a pass per step.
	Backwards bool
	// Blocked leaves f0 out of the initial state: nothing is reachable,
	// and every goal's explanation runs back along the chain.
	Blocked bool
}

// GOAP writes a state-space file (facts:) of the given shape. Action i
// needs fact i mod F and sets fact (i+1) mod F; the initial state holds
// f0 (unless Blocked), so the actions form one long chain; goal j wants fact (7j+1) mod F,
// so some goals are a few steps away, some many, and some unreachable.
func GOAP(s Shape) []byte {
	var b strings.Builder
	b.WriteString("name: wide\nfacts: [")
	for i := range s.Facts {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "f%d", i)
	}
	if s.Blocked {
		b.WriteString("]\ninitial: {}\nactions:\n")
	} else {
		b.WriteString("]\ninitial: {f0: true}\nactions:\n")
	}
	for k := range s.Actions {
		i := k
		if s.Backwards {
			i = s.Actions - 1 - k
		}
		fmt.Fprintf(&b, "- {name: a%d, preconditions: {f%d: true}, effects: {f%d: true}, cost: %d}\n", i, i%s.Facts, (i+1)%s.Facts, 1+i%3)
	}
	if s.Goals > 0 {
		b.WriteString("goals:\n")
	}
	for j := range s.Goals {
		fmt.Fprintf(&b, "- {name: g%d, conditions: {f%d: true}}\n", j, (7*j+1)%s.Facts)
	}
	if s.Agents > 0 {
		b.WriteString("agents:\n")
	}
	for k := range s.Agents {
		fmt.Fprintf(&b, "- {name: k%d, goals: [", k)
		for o := range s.GoalsPerAgent {
			if o > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "{goal: g%d, priority: %d}", (k+o)%max(s.Goals, 1), 1+o)
		}
		fmt.Fprintf(&b, "], costs: {a%d: 2}", k%s.Actions)
		if k%2 == 1 {
			fmt.Fprintf(&b, ", capabilities: [a%d, a%d]", k%s.Actions, (k+1)%s.Actions)
		}
		b.WriteString("}\n")
	}
	if s.Tasks > 0 {
		fmt.Fprintf(&b, "htn:\n  root: t0\n  tasks:\n")
		for t := range s.Tasks {
			next := ""
			if t+1 < s.Tasks {
				next = fmt.Sprintf(",t%d", t+1)
			}
			fmt.Fprintf(&b, "  - {name: t%d, methods: [{name: m, conditions: {f%d: true}, subtasks: [a%d%s]}, {name: e}]}\n", t, t%s.Facts, t%s.Actions, next)
		}
	}
	return []byte(b.String())
}

// Engine writes an engine-model file (keys:) of n boolean keys, n actions
// and n goals: action i needs key i and sets key i+1, and has a target;
// goal j wants key (7j+1) mod n.
func Engine(n int) []byte {
	var b strings.Builder
	b.WriteString("name: wide\nkeys: {")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "k%d: bool", i)
	}
	b.WriteString("}\ninitial: {k0: true}\nat: [0, 0]\ntargets: {p: [1, 1]}\nactions:\n")
	for i := range n {
		fmt.Fprintf(&b, "- {name: a%d, conditions: {k%d: true}, effects: {k%d: true}, cost: 1, target: p}\n", i, i, (i+1)%n)
	}
	b.WriteString("goals:\n")
	for j := range n {
		fmt.Fprintf(&b, "- {name: g%d, conditions: {k%d: true}}\n", j, (7*j+1)%n)
	}
	return []byte(b.String())
}
