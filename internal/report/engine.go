package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// EngineProblem is an engine-model problem: the domain, the snapshot, the
// goal and the resolve's options.
type EngineProblem struct {
	D    *resolver.Domain
	Snap *resolver.Snapshot
	Goal *resolver.Goal
	Opt  resolver.Options
}

// Resolve is the contract of `ploy resolve --json`, shaped like
// `ploy plan --json`.
type Resolve struct {
	Status    string   `json:"status"`
	Plan      []string `json:"plan"` // the chain, head first
	Cost      float64  `json:"cost"`
	Expanded  int      `json:"expanded"`
	Generated int      `json:"generated"`
	// Bound names the limit that ended a budget_exhausted resolve:
	// "chains" (the node budget) or "work" (absent otherwise).
	Bound string `json:"bound,omitempty"`
}

// ChainNames names a chain's actions.
func ChainNames(d *resolver.Domain, chain []resolver.ActionID) []string {
	out := make([]string, len(chain))
	for i, a := range chain {
		out[i] = d.ActionName(a)
	}
	return out
}

// The contract of `ploy trace --format json` on an engine-model file.
type resolveTraceNode struct {
	ID       int      `json:"id"`
	Chain    []string `json:"chain"` // head first; empty for node 0, the goal
	Parent   int      `json:"parent"`
	Cost     float64  `json:"cost"`
	Depth    int      `json:"depth"`
	Complete bool     `json:"complete"`
}

type resolveConsidered struct {
	Node      int      `json:"node"`
	Action    string   `json:"action"`
	Serves    string   `json:"serves"` // the condition of the node's front (or the goal) it was to serve
	Reason    string   `json:"reason"`
	Unmet     []string `json:"unmet"`
	Cost      *float64 `json:"cost"` // for candidates, conditions unmet and not cheaper; else null
	Candidate bool     `json:"candidate"`
}

// WriteResolveTraceJSON writes the trace as one JSON object, a piece at
// a time: {"goal", "status", "plan", "cost", "expanded", "generated",
// "nodes", "order", "considered", "chosen"}.
func WriteResolveTraceJSON(w *bufio.Writer, pr EngineProblem, tr *resolver.Trace, res resolver.Result) error {
	d := pr.D
	for _, n := range tr.Nodes {
		if math.IsInf(n.Cost, 0) || math.IsNaN(n.Cost) {
			return fmt.Errorf("a chain's cost in the trace is %s: make the domain's costs or distances smaller", FormatCost(n.Cost))
		}
	}
	for _, c := range tr.Considered {
		if math.IsInf(c.Cost, 0) || math.IsNaN(c.Cost) {
			return fmt.Errorf("a chain's cost in the trace is %s: make the domain's costs or distances smaller", FormatCost(c.Cost))
		}
	}
	put := func(v any) {
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // "hunger <= 30" reads better than "\u003c="
		enc.Encode(v)            // finite numbers and strings: cannot fail
		w.WriteString(strings.TrimSuffix(buf.String(), "\n"))
	}
	w.WriteString("{\n\"goal\": ")
	put(tr.Goal)
	w.WriteString(",\n\"status\": ")
	put(resolver.StatusName(res.Status, res.Bound))
	w.WriteString(",\n\"plan\": ")
	put(ChainNames(d, res.Chain))
	w.WriteString(",\n\"cost\": ")
	put(res.Cost)
	fmt.Fprintf(w, ",\n\"expanded\": %d,\n\"generated\": %d,\n\"nodes\": [", res.Expanded, res.Generated)
	for i, n := range tr.Nodes {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n  ")
		put(resolveTraceNode{ID: i, Chain: ChainNames(d, tr.Chain(i)), Parent: n.Parent, Cost: n.Cost, Depth: n.Depth, Complete: n.Complete})
	}
	w.WriteString("\n],\n\"order\": ")
	put(append([]int{}, tr.Expanded...))
	w.WriteString(",\n\"considered\": [")
	for i, c := range tr.Considered {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n  ")
		put(consideredJSON(pr, tr, c))
	}
	w.WriteString("\n],\n\"chosen\": ")
	put(tr.Chosen)
	w.WriteString("\n}\n")
	return nil
}

func consideredJSON(pr EngineProblem, tr *resolver.Trace, c resolver.Considered) resolveConsidered {
	d := pr.D
	out := resolveConsidered{Node: c.Node, Action: d.ActionName(c.Action), Serves: servedCondition(pr, tr, c).String(), Reason: c.Reason.String(), Unmet: []string{}, Candidate: c.Reason == resolver.Candidate}
	conds := d.Conditions(c.Action)
	for _, u := range c.Unmet {
		out.Unmet = append(out.Unmet, conds[u].String())
	}
	switch c.Reason {
	case resolver.Candidate, resolver.ConditionsUnmet, resolver.NotCheaper:
		cost := c.Cost
		out.Cost = &cost
	}
	return out
}

// servedCondition is the condition c's action was considered to serve:
// the goal's, at node 0, or else the node's front action's.
func servedCondition(pr EngineProblem, tr *resolver.Trace, c resolver.Considered) resolver.Condition {
	if c.Node == 0 {
		return pr.Goal.Conditions()[c.Condition]
	}
	return pr.D.Conditions(tr.Nodes[c.Node].Action)[c.Condition]
}

// EngineExplanation is what explain finds about a resolve, and the
// contract of `ploy explain --json` on an engine-model file.
type EngineExplanation struct {
	Goal   string   `json:"goal"`
	Status string   `json:"status"`
	Plan   []string `json:"plan"`
	Cost   *float64 `json:"cost"`
	// Candidates are the complete chains the resolve made, cheapest
	// first, the chosen one included: what the chain beat.
	Candidates []Candidate `json:"candidates"`
	// Why, for no chain: one sentence per cause.
	Why []string `json:"why"`

	start string
}

type Candidate struct {
	Plan []string `json:"plan"`
	Cost float64  `json:"cost"`
	More float64  `json:"more"` // than the chosen chain
}

// ExplainResolve explains a traced resolve.
func ExplainResolve(pr EngineProblem, tr *resolver.Trace, res resolver.Result, err error, limit int) *EngineExplanation {
	d := pr.D
	x := &EngineExplanation{Goal: pr.Goal.Name(), Status: resolver.StatusName(res.Status, res.Bound), Plan: ChainNames(d, res.Chain), Candidates: []Candidate{}, Why: []string{}, start: d.FormatSnapshot(pr.Snap) + ", agent at " + FormatPoint(pr.Snap.At)}
	if res.Status == resolver.Found {
		cost := res.Cost
		x.Cost = &cost
		seen := map[string]bool{}
		for _, c := range tr.Candidates() {
			chain := append([]resolver.ActionID{c.Action}, tr.Chain(c.Node)...)
			names := ChainNames(d, chain)
			key := strings.Join(names, "\x00")
			if seen[key] {
				continue
			}
			seen[key] = true
			x.Candidates = append(x.Candidates, Candidate{Plan: names, Cost: c.Cost, More: c.Cost - res.Cost})
		}
		slices.SortStableFunc(x.Candidates, func(a, b Candidate) int {
			switch {
			case a.Cost < b.Cost:
				return -1
			case a.Cost > b.Cost:
				return 1
			}
			return 0
		})
		if limit < len(x.Candidates)-1 { // limit+1 would overflow at the int's end
			x.Candidates = x.Candidates[:limit+1]
		}
		return x
	}
	var se *resolver.SearchError
	if errors.As(err, &se) {
		x.Why = append(x.Why, ErrorText(err)+limitHint(se))
	}
	// Every cause the trace holds, each said once, in the order met.
	said := map[string]bool{}
	say := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		if !said[s] {
			said[s] = true
			x.Why = append(x.Why, s)
		}
	}
	for i, c := range pr.Goal.Conditions() {
		if len(pr.Goal.Servers(i)) == 0 && !d.Holds(c, pr.Snap) {
			say("the goal's condition %s does not hold, and no action's effect serves it", c)
		}
	}
	for _, c := range tr.Considered {
		name := d.ActionName(c.Action)
		switch c.Reason {
		case resolver.ConditionsUnmet:
			conds := d.Conditions(c.Action)
			for _, u := range c.Unmet {
				if len(d.Servers(c.Action, u)) == 0 {
					say("%s needs %s, which does not hold, and no action's effect serves it: only the world can make it hold", name, conds[u])
				}
			}
		case resolver.NotCapable:
			say("%s could serve %s, but the agent's capabilities (--capabilities, or its kind's) leave it out", name, servedCondition(pr, tr, c))
		case resolver.NoTargetFound:
			t := d.Targets()[d.ActionTarget(c.Action)]
			say("%s could serve %s, but its target %s was not found (give it under targets: or with --target %s=X,Y)", name, servedCondition(pr, tr, c), t, t)
		case resolver.TooDeep:
			say("%s could serve %s, but the chain would be longer than %d actions (--max-depth)", name, servedCondition(pr, tr, c), maxDepthOf(pr))
		case resolver.Unreachable:
			say("%s could serve %s, but there is no way to its target, or the chain's cost would pass the float range", name, servedCondition(pr, tr, c))
		}
	}
	if len(x.Why) == 0 {
		say("every chain the resolve made comes back to an action already in it, or to a condition nothing serves")
	}
	return x
}

// limitHint says which flag raises the limit a resolve ran out of: the
// work limit is the resolver's own, and no flag raises it.
func limitHint(se *resolver.SearchError) string {
	switch {
	case se.Bound == search.Depth:
		return " (raise --max-depth)"
	case se.Work:
		return " (the resolver's own limit, which no flag raises: conditions that many actions serve make each step of the search dear)"
	}
	return " (raise --budget)"
}

// maxDepthOf is the depth limit the resolve used: Limits.MaxDepth over
// the deprecated MaxDepth (search.Limits.Or), 0 its default.
func maxDepthOf(pr EngineProblem) int {
	lim := pr.Opt.Limits.Or(search.Limits{MaxDepth: int64(pr.Opt.MaxDepth)})
	if lim.MaxDepth == 0 {
		return resolver.DefaultMaxDepth
	}
	return search.ClampInt(lim.MaxDepth)
}

func (x *EngineExplanation) WriteText(w io.Writer) {
	if x.Cost != nil {
		fmt.Fprintf(w, "%s from %s: %s, cost %s\n", x.Goal, x.start, JoinPlan(x.Plan), FormatCost(*x.Cost))
		if len(x.Plan) == 0 {
			return
		}
		if len(x.Candidates) <= 1 {
			fmt.Fprintln(w, "no other complete chain was made before this one was proven least-cost")
			return
		}
		fmt.Fprintln(w, "the chains the resolve completed, cheapest first:")
		for _, c := range x.Candidates {
			fmt.Fprintf(w, "  %s, cost %s", JoinPlan(c.Plan), FormatCost(c.Cost))
			switch {
			case slices.Equal(c.Plan, x.Plan):
				fmt.Fprintln(w, ": chosen")
			case c.More == 0:
				fmt.Fprintln(w, ", the same: a tie, which goes to the chain completed first")
			default:
				fmt.Fprintf(w, ", %s more\n", FormatCost(c.More))
			}
		}
		return
	}
	fmt.Fprintf(w, "no chain for %s from %s:\n", x.Goal, x.start)
	for _, why := range x.Why {
		fmt.Fprintf(w, "  %s\n", why)
	}
}

// Graph is the contract of `ploy graph --format json`.
type Graph struct {
	Domain        string          `json:"domain"`
	Goals         []graphNodeJSON `json:"goals"`
	Actions       []graphNodeJSON `json:"actions"`
	Edges         []graphEdgeJSON `json:"edges"`
	ServesNothing []string        `json:"serves_nothing"`
}

type graphNodeJSON struct {
	Name       string          `json:"name"`
	Target     string          `json:"target,omitempty"`
	Conditions []graphCondJSON `json:"conditions"`
}

type graphCondJSON struct {
	Condition string   `json:"condition"`
	Servers   []string `json:"servers"` // empty: only the world can meet it
}

// graphEdgeJSON is one edge: From serves condition Condition of To, a goal
// when Goal is true.
type graphEdgeJSON struct {
	From      string `json:"from"`
	To        string `json:"to"`
	Goal      bool   `json:"goal"`
	Condition string `json:"condition"`
}

// GraphOf is d's action graph as `ploy graph --format json` prints it.
func GraphOf(d *resolver.Domain) Graph {
	out := Graph{Domain: d.Name(), Goals: []graphNodeJSON{}, Actions: []graphNodeJSON{}, Edges: []graphEdgeJSON{}, ServesNothing: []string{}}
	for _, g := range d.Goals() {
		n := graphNodeJSON{Name: g.Name(), Conditions: []graphCondJSON{}}
		for i, c := range g.Conditions() {
			n.Conditions = append(n.Conditions, graphCondJSON{Condition: c.String(), Servers: ChainNames(d, g.Servers(i))})
		}
		out.Goals = append(out.Goals, n)
	}
	for a := range resolver.ActionID(d.NumActions()) {
		n := graphNodeJSON{Name: d.ActionName(a), Conditions: []graphCondJSON{}}
		if t := d.ActionTarget(a); t != resolver.NoTarget {
			n.Target = d.Targets()[t]
		}
		for i, c := range d.Conditions(a) {
			n.Conditions = append(n.Conditions, graphCondJSON{Condition: c.String(), Servers: ChainNames(d, d.Servers(a, i))})
		}
		out.Actions = append(out.Actions, n)
	}
	for _, e := range d.Edges() {
		je := graphEdgeJSON{From: d.ActionName(e.From), Condition: EdgeCondition(d, e).String()}
		if e.To == resolver.NoAction {
			je.To, je.Goal = d.Goals()[e.Goal].Name(), true
		} else {
			je.To = d.ActionName(e.To)
		}
		out.Edges = append(out.Edges, je)
	}
	out.ServesNothing = ChainNames(d, d.ServesNothing())
	return out
}

// EdgeCondition is the condition an edge serves.
func EdgeCondition(d *resolver.Domain, e resolver.Edge) resolver.Condition {
	if e.To == resolver.NoAction {
		return d.Goals()[e.Goal].Conditions()[e.Condition]
	}
	return d.Conditions(e.To)[e.Condition]
}

// ResolveOf is res as `ploy resolve --json` prints it; err is the
// resolve's error, which names the bound a budget_exhausted resolve hit.
func ResolveOf(d *resolver.Domain, res resolver.Result, err error) Resolve {
	out := Resolve{Status: resolver.StatusName(res.Status, res.Bound), Plan: ChainNames(d, res.Chain), Cost: res.Cost, Expanded: res.Expanded, Generated: res.Generated}
	if se, ok := err.(*resolver.SearchError); ok && se.Bound != search.Depth {
		out.Bound = "chains"
		if se.Work {
			out.Bound = "work"
		}
	}
	return out
}

// FormatPoint writes a position as the commands print it: (X, Y).
func FormatPoint(p resolver.Point) string {
	return fmt.Sprintf("(%s, %s)", FormatCost(p.X), FormatCost(p.Y))
}
