package resolver

import (
	"bufio"
	"fmt"
	"github.com/ploy-ai/ploy/internal/costfmt"
	"io"
	"strings"
)

// Reason is what became of an action a resolve considered putting in front
// of a partial chain.
type Reason uint8

const (
	// ConditionsUnmet: the action cannot be the head, since some of its
	// conditions do not hold now; the chain goes on through it.
	ConditionsUnmet Reason = iota + 1
	// NotCapable: the agent's profile does not allow the action.
	NotCapable
	// InChain: the action is already in the chain.
	InChain
	// TooDeep: the chain would pass the depth limit.
	TooDeep
	// NoTargetFound: the action's target sensor found nothing.
	NoTargetFound
	// NotCheaper: a chain with the same front action and next target, no
	// dearer and no longer, is already known.
	NotCheaper
	// Candidate: the action's conditions all hold: a complete chain, with
	// the action as its head.
	Candidate
	// Unreachable: the distance model found no way between the action's
	// target and the next target (or, for a head, the agent) and returned
	// +Inf, or the chain's cost would pass the float range. A chain
	// without a finite cost does not exist for the resolver.
	Unreachable
)

func (r Reason) String() string {
	switch r {
	case ConditionsUnmet:
		return "conditions unmet"
	case NotCapable:
		return "not capable"
	case InChain:
		return "already in the chain"
	case TooDeep:
		return "too deep"
	case NoTargetFound:
		return "no target found"
	case NotCheaper:
		return "not cheaper"
	case Candidate:
		return "candidate"
	case Unreachable:
		return "unreachable"
	}
	return "reason(?)"
}

// TraceNode is a partial or complete chain the resolve made: Action in
// front of the chain of node Parent. Node 0 is the goal itself.
type TraceNode struct {
	Action   ActionID
	Parent   int
	Cost     float64
	Depth    int
	Complete bool
}

// Considered is one action considered in front of the chain of node Node,
// to serve its condition Condition (of the goal, for node 0), and what
// became of it. Unmet lists the action's conditions that do not hold
// (ConditionsUnmet, NotCheaper); Cost is the chain's cost with the action
// in front (for a Candidate, including the agent's walk to it).
type Considered struct {
	Node      int
	Action    ActionID
	Condition int
	Reason    Reason
	Unmet     []int
	Cost      float64
}

// Trace records a resolve: every chain it made, the ones it expanded, and
// every action it considered with what became of it. Off by default: a
// resolve on a worker inside a per-frame budget should not fill a list per
// node for a panel nobody has open.
type Trace struct {
	Goal       string
	Nodes      []TraceNode
	Expanded   []int // nodes in the order they were expanded
	Considered []Considered
	Chosen     int // the complete chain returned, or -1
	domain     *Domain
}

func (t *Trace) reset(d *Domain, g *Goal) {
	*t = Trace{Goal: g.name, Nodes: t.Nodes[:0], Expanded: t.Expanded[:0], Considered: t.Considered[:0], Chosen: -1, domain: d}
}

func (t *Trace) addNode(l label) {
	t.Nodes = append(t.Nodes, TraceNode{Action: l.action, Parent: int(l.parent), Cost: l.g, Depth: int(l.depth), Complete: l.terminal})
}

func (t *Trace) consider(node int32, a ActionID, ci int, r Reason, unmet []int, cost float64) {
	t.Considered = append(t.Considered, Considered{Node: int(node), Action: a, Condition: ci, Reason: r, Unmet: unmet, Cost: cost})
}

// Chain returns node i's chain, head first.
func (t *Trace) Chain(i int) []ActionID {
	var out []ActionID
	for ; i > 0; i = t.Nodes[i].Parent {
		out = append(out, t.Nodes[i].Action)
	}
	return out
}

// Candidates returns the complete chains the resolve made, in the order it
// made them, with their costs.
func (t *Trace) Candidates() []Considered {
	var out []Considered
	for _, c := range t.Considered {
		if c.Reason == Candidate {
			out = append(out, c)
		}
	}
	return out
}

// WriteText writes the trace for a person: each expansion, with every
// action considered and what became of it, then the candidates.
func (t *Trace) WriteText(w io.Writer) error {
	d := t.domain
	bw := bufio.NewWriter(w)
	if len(t.Nodes) == 0 { // the goal held: no search ran
		fmt.Fprintf(bw, "resolve %s: the goal holds already; nothing to do\n", t.Goal)
		return bw.Flush()
	}
	fmt.Fprintf(bw, "resolve %s: %d expanded, %d chains\n", t.Goal, len(t.Expanded), len(t.Nodes)-1)
	byNode := map[int][]Considered{}
	for _, c := range t.Considered {
		byNode[c.Node] = append(byNode[c.Node], c)
	}
	for n, ni := range t.Expanded {
		fmt.Fprintf(bw, "%d. %s (cost %s)\n", n+1, t.describe(ni), costfmt.Cost(t.Nodes[ni].Cost))
		for _, c := range byNode[ni] {
			fmt.Fprintf(bw, "   %-*s serves %s: %s", t.width(), d.actions[c.Action].name, t.condition(ni, c.Condition), c.Reason)
			if len(c.Unmet) > 0 {
				names := make([]string, len(c.Unmet))
				for i, u := range c.Unmet {
					names[i] = d.export(d.actions[c.Action].conds[u : u+1])[0].String()
				}
				fmt.Fprintf(bw, " (%s)", strings.Join(names, ", "))
			}
			if c.Reason == Candidate || c.Reason == ConditionsUnmet || c.Reason == NotCheaper {
				fmt.Fprintf(bw, ", cost %s", costfmt.Cost(c.Cost))
			}
			bw.WriteByte('\n')
		}
	}
	if t.Chosen >= 0 {
		fmt.Fprintf(bw, "chosen: %s, cost %s\n", d.FormatChain(t.Chain(t.Chosen)), costfmt.Cost(t.Nodes[t.Chosen].Cost))
	}
	return bw.Flush()
}

func (t *Trace) describe(ni int) string {
	if ni == 0 {
		return "goal " + t.Goal
	}
	return t.domain.FormatChain(t.Chain(ni)) + " → " + t.Goal
}

func (t *Trace) condition(ni, ci int) string {
	d := t.domain
	if ni == 0 {
		return d.Goal(t.Goal).Conditions()[ci].String()
	}
	a := t.Nodes[ni].Action
	return d.export(d.actions[a].conds[ci : ci+1])[0].String()
}

func (t *Trace) width() int {
	w := 0
	for i := range t.domain.actions {
		w = max(w, len(t.domain.actions[i].name))
	}
	return w
}
