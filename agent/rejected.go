package agent

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// DecisionRejected is an alternative a traced search turned down
// (Decision.Rejected): an action, or a whole plan or chain the chosen
// one beat (Plan, with its Cost), and why.
type DecisionRejected struct {
	Action string   `json:"action"`
	Reason string   `json:"reason"`
	Plan   []string `json:"plan,omitempty"`
	Cost   float64  `json:"cost,omitempty"`
}

// MaxRejected is the most alternatives a decision lists as turned down:
// the cheapest alternative plans first, then the actions.
const MaxRejected = 20

// ResolverRejected appends to dst what a traced resolve turned down: the
// complete chains the chosen one (chosen, of cost cost; nil if none)
// beat, cheapest first, each once, and each action the resolve could not
// use (not capable, no target found, too deep, unreachable), each once
// per reason. At most MaxRejected in all.
func ResolverRejected(dst []DecisionRejected, d *resolver.Domain, tr *resolver.Trace, chosen []resolver.ActionID, cost float64) []DecisionRejected {
	start := len(dst)
	seen := map[string]bool{chainKey(d, chosen): true}
	for _, c := range tr.Candidates() {
		chain := append([]resolver.ActionID{c.Action}, tr.Chain(c.Node)...)
		key := chainKey(d, chain)
		if seen[key] {
			continue
		}
		seen[key] = true
		names := strings.Split(key, " → ")
		reason := "no chain was found"
		if chosen != nil {
			reason = "its chain costs " + strconv.FormatFloat(c.Cost-cost, 'g', -1, 64) + " more"
		}
		dst = append(dst, DecisionRejected{Action: names[0], Reason: reason, Plan: names, Cost: c.Cost})
	}
	slices.SortStableFunc(dst[start:], func(a, b DecisionRejected) int { return cmp.Compare(a.Cost, b.Cost) })
	dst = dst[:start+min(len(dst)-start, MaxRejected)]
	for _, c := range tr.Considered {
		switch c.Reason {
		case resolver.NotCapable, resolver.NoTargetFound, resolver.TooDeep, resolver.Unreachable:
		default:
			continue
		}
		if len(dst)-start == MaxRejected {
			break
		}
		name := d.ActionName(c.Action)
		if key := name + "\x00" + c.Reason.String(); !seen[key] {
			seen[key] = true
			dst = append(dst, DecisionRejected{Action: name, Reason: c.Reason.String()})
		}
	}
	return dst
}

func chainKey(d *resolver.Domain, chain []resolver.ActionID) string {
	var b strings.Builder
	for i, a := range chain {
		if i > 0 {
			b.WriteString(" → ")
		}
		b.WriteString(d.ActionName(a))
	}
	return b.String()
}

// GOAPRejected appends to dst what a traced GOAP search turned down at
// its first expansion, from the state the agent was in: each action that
// could not start there, and why (preconditions unmet, not capable, a
// no-op), and each that could but begins no plan cheaper than plan (the
// search found the least-cost plan, so none does). At most MaxRejected.
func GOAPRejected(dst []DecisionRejected, d *goap.Domain, tr *goap.Trace, plan []goap.ActionID) []DecisionRejected {
	if len(tr.Expansions) == 0 {
		return dst
	}
	start := len(dst)
	e := tr.Expansions[0]
	for _, edge := range tr.Edges[e.FirstEdge:e.EndEdge] {
		if len(dst)-start == MaxRejected {
			break
		}
		name := d.ActionName(edge.Action)
		switch edge.Reason {
		case goap.PreconditionsUnmet, goap.NotCapable, goap.NoOp:
			dst = append(dst, DecisionRejected{Action: name, Reason: edge.Reason.String() + " at the start"})
		case goap.Generated, goap.NotCheaper:
			if len(plan) > 0 && edge.Action != plan[0] && tr.Goal >= 0 {
				dst = append(dst, DecisionRejected{Action: name, Reason: "could start, but begins no cheaper plan"})
			}
		}
	}
	return dst
}
