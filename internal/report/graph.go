package report

import (
	"encoding/json"
	"io"

	"github.com/ploy-ai/ploy/resolver"
)

// An action graph's JSON grows with its edges, and a file of a few
// hundred kilobytes may have a million of them (resolver caps the graph
// there): hundreds of megabytes of JSON. GraphJSONSize says how many
// bytes WriteGraphJSON would write, from the names and the counts, without
// building anything, so that a caller refuses a graph too large before
// rendering it; WriteGraphJSON then writes it a piece at a time. Both walk
// the graph through one function, so that they cannot disagree.

// The pieces of the graph's JSON between its names.
var (
	jsonName          = []byte(`{"name":`)
	jsonTarget        = []byte(`,"target":`)
	jsonConditions    = []byte(`,"conditions":[`)
	jsonCondition     = []byte(`{"condition":`)
	jsonServers       = []byte(`,"servers":[`)
	jsonCloseObjList  = []byte("]}")
	jsonDomain        = []byte(`{"domain":`)
	jsonGoals         = []byte(`,"goals":[`)
	jsonActions       = []byte(`,"actions":[`)
	jsonEdges         = []byte(`,"edges":[`)
	jsonNotGoal       = []byte(`,"goal":false,"condition":`)
	jsonIsGoal        = []byte(`,"goal":true,"condition":`)
	jsonFrom          = []byte(`{"from":`)
	jsonTo            = []byte(`,"to":`)
	jsonCloseObj      = []byte("}")
	jsonServesNothing = []byte(`,"serves_nothing":[`)
	jsonEnd           = []byte("]}\n")
	comma             = []byte(",")
	closeList         = []byte("]")
)

// GraphJSONSize is the exact length of WriteGraphJSON's output for d: the
// bytes `ploy graph --format json` prints, newline included.
func GraphJSONSize(d *resolver.Domain) int64 {
	var n int64
	walkGraphJSON(d, func(b []byte) bool {
		n += int64(len(b))
		return true
	})
	return n
}

// GraphEdges is the number of d's edges, counted without listing them.
func GraphEdges(d *resolver.Domain) int {
	n := 0
	for _, g := range d.Goals() {
		for i := range g.Conditions() {
			n += len(g.Servers(i))
		}
	}
	for a := range resolver.ActionID(d.NumActions()) {
		for i := range d.Conditions(a) {
			n += len(d.Servers(a, i))
		}
	}
	return n
}

// WriteGraphJSON writes GraphOf(d) as json.Encoder encodes it, without
// holding it: the same bytes, a piece at a time. It stops at the first
// write error and returns it.
func WriteGraphJSON(w io.Writer, d *resolver.Domain) error {
	var err error
	walkGraphJSON(d, func(b []byte) bool {
		_, err = w.Write(b)
		return err == nil
	})
	return err
}

// walkGraphJSON emits the graph's JSON in pieces, stopping when emit
// returns false. Every name and condition is quoted once, as
// encoding/json quotes it (HTML characters escaped, invalid UTF-8
// replaced).
func walkGraphJSON(d *resolver.Domain, emit func([]byte) bool) {
	quote := func(s string) []byte {
		b, _ := json.Marshal(s) // a string always encodes
		return b
	}
	actions := make([][]byte, d.NumActions())
	for a := range actions {
		actions[a] = quote(d.ActionName(resolver.ActionID(a)))
	}
	targets := make([][]byte, len(d.Targets()))
	for t, name := range d.Targets() {
		targets[t] = quote(name)
	}
	quoteConds := func(cs []resolver.Condition) [][]byte {
		out := make([][]byte, len(cs))
		for i, c := range cs {
			out[i] = quote(c.String())
		}
		return out
	}
	actionConds := make([][][]byte, d.NumActions())
	for a := range actionConds {
		actionConds[a] = quoteConds(d.Conditions(resolver.ActionID(a)))
	}
	goals := d.Goals()
	goalConds := make([][][]byte, len(goals))
	for g, goal := range goals {
		goalConds[g] = quoteConds(goal.Conditions())
	}

	ok := true
	put := func(parts ...[]byte) {
		for _, p := range parts {
			if ok {
				ok = emit(p)
			}
		}
	}
	// node writes a goal's or an action's object: its conditions, each
	// with the actions serving it.
	node := func(name, target []byte, conds [][]byte, servers func(i int) []resolver.ActionID) {
		put(jsonName, name)
		if target != nil {
			put(jsonTarget, target)
		}
		put(jsonConditions)
		for i, c := range conds {
			if i > 0 {
				put(comma)
			}
			put(jsonCondition, c, jsonServers)
			for j, s := range servers(i) {
				if j > 0 {
					put(comma)
				}
				put(actions[s])
			}
			put(jsonCloseObjList)
			if !ok {
				return
			}
		}
		put(jsonCloseObjList)
	}

	put(jsonDomain, quote(d.Name()), jsonGoals)
	for g, goal := range goals {
		if g > 0 {
			put(comma)
		}
		node(quote(goal.Name()), nil, goalConds[g], goal.Servers)
	}
	put(closeList, jsonActions)
	for a := range actions {
		if a > 0 {
			put(comma)
		}
		var target []byte
		if t := d.ActionTarget(resolver.ActionID(a)); t != resolver.NoTarget {
			target = targets[t]
		}
		node(actions[a], target, actionConds[a], func(i int) []resolver.ActionID { return d.Servers(resolver.ActionID(a), i) })
		if !ok {
			return
		}
	}
	// The edges in Domain.Edges' order, without making its slice: the
	// goals' first, then the actions'.
	put(closeList, jsonEdges)
	first := true
	used := make([]bool, len(actions))
	edge := func(from resolver.ActionID, to []byte, goal bool, cond []byte) {
		used[from] = true
		if !first {
			put(comma)
		}
		first = false
		isGoal := jsonNotGoal
		if goal {
			isGoal = jsonIsGoal
		}
		put(jsonFrom, actions[from], jsonTo, to, isGoal, cond, jsonCloseObj)
	}
	for g, goal := range goals {
		name := quote(goal.Name())
		for i, c := range goalConds[g] {
			for _, s := range goal.Servers(i) {
				edge(s, name, true, c)
			}
			if !ok {
				return
			}
		}
	}
	for a := range actions {
		for i, c := range actionConds[a] {
			for _, s := range d.Servers(resolver.ActionID(a), i) {
				edge(s, actions[a], false, c)
			}
			if !ok {
				return
			}
		}
	}
	put(closeList, jsonServesNothing)
	firstIdle := true
	for a, u := range used {
		if u {
			continue
		}
		if !firstIdle {
			put(comma)
		}
		firstIdle = false
		put(actions[a])
	}
	put(jsonEnd)
}
