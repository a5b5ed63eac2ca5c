package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/resolver"
)

// How trace and explain, which take both kinds of file, tell their flags
// apart: the file's kind decides which planner runs, and a flag of the
// other planner's, given explicitly, is a usage error rather than
// silently ignored.
var (
	goapOnlyFlags   = []string{"search", "heuristic"}
	engineOnlyFlags = []string{"at", "target", "capabilities"}
)

func givenFlags(fset *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// checkFlagsForKind refuses flags of the other model's planner.
func checkFlagsForKind(e *env, fset *flag.FlagSet, f *domain.File) int {
	given := givenFlags(fset)
	wrong, kind := goapOnlyFlags, "an engine-model file (keys:), resolved by seed 003's resolver"
	if !f.EngineModel() {
		wrong, kind = engineOnlyFlags, "a state-space file (facts:), planned by GOAP"
	}
	for _, name := range wrong {
		if given[name] {
			return usageErr(e, fset, "--%s does not apply to %s, which %s is", name, kind, f.Path)
		}
	}
	return -1
}

// engineLimits turns the shared --budget and --max-depth into the
// resolver's: their defaults are the state-space planner's, so an unset
// flag means the resolver's own default, and a set one is bounded.
func engineLimits(e *env, fset *flag.FlagSet, sf searchFlags) (budget, maxDepth, status int) {
	given := givenFlags(fset)
	budget, maxDepth = resolver.DefaultBudget, resolver.DefaultMaxDepth
	if given["budget"] {
		if sf.budget < 1 || sf.budget > maxResolveBudget {
			return 0, 0, usageErr(e, fset, "--budget must be from 1 to %d for an engine-model file, not %d", maxResolveBudget, sf.budget)
		}
		budget = sf.budget
	}
	if sf.maxDepth < 0 || sf.maxDepth > maxResolveDepth {
		return 0, 0, usageErr(e, fset, "--max-depth must be from 0 (the resolver's default, %d) to %d for an engine-model file, not %d", resolver.DefaultMaxDepth, maxResolveDepth, sf.maxDepth)
	}
	if sf.maxDepth > 0 {
		maxDepth = sf.maxDepth
	}
	return budget, maxDepth, -1
}

// engineFromSearchFlags sets up an engine-model problem for trace and
// explain from their shared flags.
func engineFromSearchFlags(e *env, fset *flag.FlagSet, f *domain.File, sf searchFlags, ef engineFlags, p parsedEngineFlags) (engineProblem, int) {
	budget, maxDepth, st := engineLimits(e, fset, sf)
	if st >= 0 {
		return engineProblem{}, st
	}
	return engineSetup(e, fset, f, p, ef, sf.goal, budget, maxDepth)
}

// traceEngine runs `ploy trace` on an engine-model file.
func traceEngine(e *env, w *bufio.Writer, pr engineProblem, format string) int {
	var tr resolver.Trace
	pr.opt.Trace = &tr
	res, err := resolver.NewResolver(pr.d).Resolve(nil, pr.snap, pr.goal, pr.opt)
	if st := checkChainCost(e, "trace", res); st >= 0 {
		return st
	}
	switch format {
	case "json":
		if err := writeResolveTraceJSON(w, pr, &tr, res); err != nil {
			fmt.Fprintf(e.stderr, "ploy trace: %v\n", err)
			return exitInvalid
		}
	default:
		tr.WriteText(w)
		if res.Status != resolver.Found || len(res.Chain) == 0 {
			fmt.Fprintf(w, "%s\n", resolveOutcome(pr, res, err))
		}
	}
	if res.Status != resolver.Found {
		return exitNoPlan
	}
	return exitOK
}

// resolveOutcome is one line on a resolve that found no chain.
func resolveOutcome(pr engineProblem, res resolver.Result, err error) string {
	if err != nil {
		return "no chain: " + errorText(err)
	}
	if res.Status == resolver.Found && len(res.Chain) == 0 {
		return "the goal already holds: nothing to do"
	}
	return fmt.Sprintf("no chain for %s: run 'ploy explain --goal %s' with the same flags to see why", pr.goal.Name(), pr.goal.Name())
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

// writeResolveTraceJSON writes the trace as one JSON object, a piece at
// a time: {"goal", "status", "plan", "cost", "expanded", "generated",
// "nodes", "order", "considered", "chosen"}.
func writeResolveTraceJSON(w *bufio.Writer, pr engineProblem, tr *resolver.Trace, res resolver.Result) error {
	d := pr.d
	for _, n := range tr.Nodes {
		if math.IsInf(n.Cost, 0) || math.IsNaN(n.Cost) {
			return fmt.Errorf("a chain's cost in the trace is %s: make the domain's costs or distances smaller", formatCost(n.Cost))
		}
	}
	for _, c := range tr.Considered {
		if math.IsInf(c.Cost, 0) || math.IsNaN(c.Cost) {
			return fmt.Errorf("a chain's cost in the trace is %s: make the domain's costs or distances smaller", formatCost(c.Cost))
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
	put(res.Status.String())
	w.WriteString(",\n\"plan\": ")
	put(chainNames(d, res.Chain))
	w.WriteString(",\n\"cost\": ")
	put(res.Cost)
	fmt.Fprintf(w, ",\n\"expanded\": %d,\n\"generated\": %d,\n\"nodes\": [", res.Expanded, res.Generated)
	for i, n := range tr.Nodes {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n  ")
		put(resolveTraceNode{ID: i, Chain: chainNames(d, tr.Chain(i)), Parent: n.Parent, Cost: n.Cost, Depth: n.Depth, Complete: n.Complete})
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

func consideredJSON(pr engineProblem, tr *resolver.Trace, c resolver.Considered) resolveConsidered {
	d := pr.d
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
func servedCondition(pr engineProblem, tr *resolver.Trace, c resolver.Considered) resolver.Condition {
	if c.Node == 0 {
		return pr.goal.Conditions()[c.Condition]
	}
	return pr.d.Conditions(tr.Nodes[c.Node].Action)[c.Condition]
}

// engineExplanation is what explain finds about a resolve, and the
// contract of `ploy explain --json` on an engine-model file.
type engineExplanation struct {
	Goal   string   `json:"goal"`
	Status string   `json:"status"`
	Plan   []string `json:"plan"`
	Cost   *float64 `json:"cost"`
	// Candidates are the complete chains the resolve made, cheapest
	// first, the chosen one included: what the chain beat.
	Candidates []candidateJSON `json:"candidates"`
	// Why, for no chain: one sentence per cause.
	Why []string `json:"why"`

	start string
}

type candidateJSON struct {
	Plan []string `json:"plan"`
	Cost float64  `json:"cost"`
	More float64  `json:"more"` // than the chosen chain
}

func explainEngine(e *env, pr engineProblem, limit int, asJSON bool) int {
	var tr resolver.Trace
	pr.opt.Trace = &tr
	res, err := resolver.NewResolver(pr.d).Resolve(nil, pr.snap, pr.goal, pr.opt)
	if st := checkChainCost(e, "explain", res); st >= 0 {
		return st
	}
	x := explainResolve(pr, &tr, res, err, limit)
	if asJSON {
		if st := writeJSON(e, x); st >= 0 {
			return st
		}
	} else {
		x.writeText(e.stdout)
	}
	if res.Status != resolver.Found {
		return exitNoPlan
	}
	return exitOK
}

func explainResolve(pr engineProblem, tr *resolver.Trace, res resolver.Result, err error, limit int) *engineExplanation {
	d := pr.d
	x := &engineExplanation{Goal: pr.goal.Name(), Status: res.Status.String(), Plan: chainNames(d, res.Chain), Candidates: []candidateJSON{}, Why: []string{}, start: d.FormatSnapshot(pr.snap) + ", agent at " + formatPoint(pr.snap.At)}
	if res.Status == resolver.Found {
		cost := res.Cost
		x.Cost = &cost
		seen := map[string]bool{}
		for _, c := range tr.Candidates() {
			chain := append([]resolver.ActionID{c.Action}, tr.Chain(c.Node)...)
			names := chainNames(d, chain)
			key := strings.Join(names, "\x00")
			if seen[key] {
				continue
			}
			seen[key] = true
			x.Candidates = append(x.Candidates, candidateJSON{Plan: names, Cost: c.Cost, More: c.Cost - res.Cost})
		}
		slices.SortStableFunc(x.Candidates, func(a, b candidateJSON) int {
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
		x.Why = append(x.Why, errorText(err)+limitHint(se))
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
	for i, c := range pr.goal.Conditions() {
		if len(pr.goal.Servers(i)) == 0 && !d.Holds(c, pr.snap) {
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
			say("%s could serve %s, but the agent's --capabilities leave it out", name, servedCondition(pr, tr, c))
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
	case se.Status == resolver.DepthExceeded:
		return " (raise --max-depth)"
	case se.Work:
		return " (the resolver's own limit, which no flag raises: conditions that many actions serve make each step of the search dear)"
	}
	return " (raise --budget)"
}

func maxDepthOf(pr engineProblem) int {
	if pr.opt.MaxDepth == 0 {
		return resolver.DefaultMaxDepth
	}
	return pr.opt.MaxDepth
}

func (x *engineExplanation) writeText(w io.Writer) {
	if x.Cost != nil {
		fmt.Fprintf(w, "%s from %s: %s, cost %s\n", x.Goal, x.start, joinPlan(x.Plan), formatCost(*x.Cost))
		if len(x.Plan) == 0 {
			return
		}
		if len(x.Candidates) <= 1 {
			fmt.Fprintln(w, "no other complete chain was made before this one was proven least-cost")
			return
		}
		fmt.Fprintln(w, "the chains the resolve completed, cheapest first:")
		for _, c := range x.Candidates {
			fmt.Fprintf(w, "  %s, cost %s", joinPlan(c.Plan), formatCost(c.Cost))
			switch {
			case slices.Equal(c.Plan, x.Plan):
				fmt.Fprintln(w, ": chosen")
			case c.More == 0:
				fmt.Fprintln(w, ", the same: a tie, which goes to the chain completed first")
			default:
				fmt.Fprintf(w, ", %s more\n", formatCost(c.More))
			}
		}
		return
	}
	fmt.Fprintf(w, "no chain for %s from %s:\n", x.Goal, x.start)
	for _, why := range x.Why {
		fmt.Fprintf(w, "  %s\n", why)
	}
}
