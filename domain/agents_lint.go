package domain

import (
	"fmt"
	"math"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/relax"
)

// lintTrees warns about the parts of agents' trees that can never run: a
// condition on facts the domain can never bring about (relaxed
// reachability from the initial state, sensed facts free), conditions in
// one sequence that contradict each other with no action between them, a
// selector's branches after one that always succeeds, and actions the
// agent's capabilities leave out. Each node is visited once: linear in the
// file.
func lintTrees(f *File, reach *relax.Reach, warn func(path, format string, args ...any)) {
	g := f.GOAP
	for _, a := range f.Agents {
		if a.Tree == nil {
			continue
		}
		t := treeLint{f: f, g: g, a: a, reach: reach, warn: warn}
		t.node(a.Tree)
	}
}

type treeLint struct {
	f     *File
	g     *goap.Domain
	a     *Agent
	reach *relax.Reach
	warn  func(path, format string, args ...any)
	// agentReach is reach over the actions the agent can do, made when
	// first needed.
	agentReach *relax.Reach
}

// node lints n and its children; it returns whether n always succeeds
// (a condition that tests nothing, or only such).
func (t *treeLint) node(n *Node) bool {
	switch n.Kind {
	case When:
		if miss, ok := t.reach.Missing(n.Condition.Facts()); !ok {
			t.warn(n.path, "agent %q: this condition can never hold, so the branch it guards never runs: it needs %s (%s)", t.a.Name, relax.Format(t.g, miss), t.reach.Why(miss))
		}
		return n.Condition.Empty()
	case Act:
		t.capable(n.path+".action", n.Action)
		return false
	case UtilitySelector:
		for i, o := range n.Options {
			t.capable(fmt.Sprintf("%s.utility.options[%d].action", n.path, i), o.Action)
		}
		return false
	case Plan:
		t.reachable(n)
		return false
	case PlanHTN:
		return false
	case Sequence:
		t.contradictions(n)
		always := true
		for _, c := range n.Children {
			always = t.node(c) && always
		}
		return always
	case Selector:
		// It always succeeds when one of its children does, the last
		// included: then the branches after it never run, here or in a
		// selector above.
		for i, c := range n.Children {
			if !t.node(c) {
				continue
			}
			if i < len(n.Children)-1 {
				t.warn(n.Children[i+1].path, "agent %q: this branch never runs: the one before it always succeeds", t.a.Name)
				for _, rest := range n.Children[i+1:] {
					t.node(rest) // still linted for what else is wrong
				}
			}
			return true
		}
	}
	return false
}

// reachable warns when a plan leaf's goal, which the domain can reach,
// the agent's capabilities never can: the leaf would plan, fail, and fail
// its branch every tick.
func (t *treeLint) reachable(n *Node) {
	if t.a.Profile == nil || len(t.a.ProfileSpec.Incapable) == 0 {
		return
	}
	c := n.Goal.Condition()
	if _, ok := t.reach.Missing(c); !ok {
		return // no agent can: said at the goal
	}
	if t.agentReach == nil {
		t.agentReach = relax.From(t.g, t.g.Initial(), t.a.Profile.Capable, t.f.Sensed...)
	}
	if miss, ok := t.agentReach.Missing(c); !ok {
		t.warn(n.path+".plan", "agent %q can never reach goal %q with its capabilities, so this leaf never succeeds: %s", t.a.Name, n.Goal.Name(), t.agentReach.Why(miss))
	}
}

// capable warns when the agent's capabilities leave out a tree's action:
// the tree would try it and the agent could not.
func (t *treeLint) capable(path string, a goap.ActionID) {
	if t.a.Profile != nil && !t.a.Profile.Capable(a) {
		t.warn(path, "agent %q: its tree runs %s, which its capabilities leave out", t.a.Name, t.g.ActionName(a))
	}
}

// contradictions warns about a sequence's conditions that cannot hold
// together: those checked in one tick, with no other node between them
// that could change the facts, testing a fact both ways or an input into
// an empty range.
func (t *treeLint) contradictions(n *Node) {
	facts := map[goap.Fact]bool{}
	ranges := map[int]*interval{}
	for _, c := range n.Children {
		if c.Kind != When {
			facts, ranges = map[goap.Fact]bool{}, map[int]*interval{} // an action may change the world
			continue
		}
		for fact, v := range c.Condition.Facts().Facts {
			if was, seen := facts[fact]; seen && was != v {
				t.warn(c.path, "agent %q: this condition needs %s %v, and an earlier one of the same sequence %v, with no action between: the rest of the sequence never runs", t.a.Name, t.g.FactName(fact), v, was)
				return
			}
			facts[fact] = v
		}
		for _, test := range c.Condition.Inputs {
			r := ranges[test.Input]
			if r == nil {
				r = &interval{lo: math.Inf(-1), hi: math.Inf(1)}
				ranges[test.Input] = r
			}
			r.narrow(test)
			if r.empty() {
				t.warn(c.path, "agent %q: no value of input %q meets this condition and the earlier ones of the same sequence: the rest of the sequence never runs", t.a.Name, t.f.Inputs[test.Input].Name)
				return
			}
		}
	}
}

// interval is the values an input may take: from lo to hi, each end
// included or not.
type interval struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

func (r *interval) narrow(t InputTest) {
	switch t.Op {
	case Less, AtMost:
		open := t.Op == Less
		if t.Value < r.hi || t.Value == r.hi && open {
			r.hi, r.hiOpen = t.Value, open
		}
	default:
		open := t.Op == Greater
		if t.Value > r.lo || t.Value == r.lo && open {
			r.lo, r.loOpen = t.Value, open
		}
	}
}

func (r *interval) empty() bool {
	return r.lo > r.hi || r.lo == r.hi && (r.loOpen || r.hiOpen)
}

// conditions calls yield with every condition of a: its goal options'
// when:, its scores' rules, its tree's conditions.
func (a *Agent) conditions(yield func(Condition)) {
	var score func(sc *Score)
	score = func(sc *Score) {
		for i := range sc.Rules {
			yield(sc.Rules[i].When)
			score(&sc.Rules[i].Score)
		}
	}
	for i := range a.Goals {
		yield(a.Goals[i].When)
		if a.Goals[i].Utility != nil {
			score(a.Goals[i].Utility)
		}
	}
	var node func(n *Node)
	node = func(n *Node) {
		yield(n.Condition)
		for i := range n.Options {
			score(&n.Options[i].Score)
		}
		for _, c := range n.Children {
			node(c)
		}
	}
	if a.Tree != nil {
		node(a.Tree)
	}
}
