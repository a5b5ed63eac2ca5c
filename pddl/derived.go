package pddl

import (
	"fmt"
	"strings"
)

// derivedRule reads (:derived (NAME ?v...) BODY): NAME a predicate of
// :predicates, with as many variables, each distinct, typed as the
// predicate's parameter unless the head gives it a type; BODY a formula
// over them. It returns nil if the head is unusable.
func (p *parser) derivedRule(d *Domain, s *node) *Derived {
	items := s.list[1:]
	if len(items) != 2 || !items[0].isList || len(items[0].list) == 0 ||
		items[0].list[0].isList || items[0].list[0].kind != tokName {
		p.add(s.pos, "expected (:derived (NAME ?variables...) FORMULA), got %s after :derived", describeArgs(items))
		return nil
	}
	head := items[0]
	name := head.list[0].text
	pr := d.preds[name]
	if pr == nil {
		p.add(head.pos, "undefined predicate %q: a derived predicate is declared in :predicates too%s",
			name, p.hint(name, func() []string { return predicateNames(d) }))
		return nil
	}
	r := &Derived{Name: name, Pos: head.pos}
	seen := map[string]Pos{}
	errorsBefore := p.reported
	vars := p.typedList(head.list[1:], true, "the head of derived predicate "+quote(name))
	// The arity is checked on a well-formed head only: with a constant
	// left out, the count would be a second error about the same thing.
	if p.reported == errorsBefore && len(vars) != len(pr.Params) {
		p.add(head.pos, "predicate %q takes %s, got %d", name, count(len(pr.Params), "argument"), len(vars))
	}
	for i, v := range vars {
		if prev, dup := seen[v.name]; dup {
			p.add(v.pos, "duplicate variable %q in the head of derived predicate %q (first at %s)", v.name, name, prev)
			continue
		}
		seen[v.name] = v.pos
		prm := Param{Name: v.name, Type: v.typ, Either: v.either, Pos: v.pos, typePos: v.typePos}
		switch {
		case v.typePos != Pos{}:
			p.checkType(d, v.typ, v.either, v.typePos)
		case i < len(pr.Params):
			// Untyped in the head: the declaration's type, checked there.
			prm.Type, prm.Either = pr.Params[i].Type, pr.Params[i].Either
		}
		r.Params = append(r.Params, prm)
	}
	r.Body = p.formula(items[1])
	if r.Body == nil {
		// Its error is reported; the rule still makes NAME derived, so
		// that an effect on it is reported too.
		r.Body = &Formula{Kind: And, Pos: items[1].pos}
	} else {
		p.resolve(r.Body, d, newScope(scopeDerived, r.Params), nil)
	}
	return r
}

func predicateNames(d *Domain) []string {
	names := make([]string, len(d.Predicates))
	for i, pr := range d.Predicates {
		names[i] = pr.Name
	}
	return names
}

// dependency is one occurrence of a derived predicate in the body of a
// rule: the rule's predicate depends on it, negatively under an odd
// number of negations (a "not", or the first part of an "imply").
type dependency struct {
	on       int // the derived predicate used, by number
	negative bool
	at       Pos
}

// stratified reports derived predicates that depend on their own
// negation, through the rules of derived predicates: such rules have no
// single meaning (is a true where (not a) holds?), and the planners
// evaluate rules stratum by stratum, each using only the negation of
// lower strata. Predicates are nodes, occurrences in bodies edges; a
// negative edge inside a strongly connected component (sccs, which the
// grounder's layers use too) closes such a cycle. One cycle is named per
// component, found by a breadth-first walk inside it; all of it is linear
// in the rules' size.
func (p *parser) stratified(d *Domain) {
	g := newDerivedGraph(d)
	reported := map[int32]bool{}
	for from, ds := range g.deps {
		for _, dep := range ds {
			c := g.component[from]
			if !dep.negative || g.component[dep.on] != c || reported[c] {
				continue
			}
			reported[c] = true
			p.add(dep.at, "derived predicate %q depends on its own negation (%s): the rules are not stratified, and have no single meaning",
				g.names[from], cycle(g.deps, g.component, g.names, from, dep))
		}
	}
}

// derivedGraph is which derived predicates each one's rules use, and how:
// the parser's stratification check, Replay's strata and the grounder's
// recursion groups all read it. Building it is linear in the rules.
type derivedGraph struct {
	names  []string       // the derived predicates, numbered in order of their first rule
	number map[string]int // name -> number
	deps   [][]dependency // each one's uses of derived predicates, with their polarity
	// component numbers each predicate's strongly connected component of
	// the uses (sccs); comps lists them, each after those it uses.
	component []int32
	comps     [][]int32
}

func newDerivedGraph(d *Domain) *derivedGraph {
	g := &derivedGraph{number: map[string]int{}}
	for _, r := range d.Derived {
		if _, ok := g.number[r.Name]; !ok {
			g.number[r.Name] = len(g.names)
			g.names = append(g.names, r.Name)
		}
	}
	g.deps = make([][]dependency, len(g.names))
	edges := make([][]int32, len(g.names)) // deps without their polarity, for sccs
	for _, r := range d.Derived {
		from := g.number[r.Name]
		var walk func(f *Formula, negative bool)
		walk = func(f *Formula, negative bool) {
			if f == nil {
				return
			}
			switch f.Kind {
			case Atom:
				if to, ok := g.number[f.Pred.Name]; ok {
					g.deps[from] = append(g.deps[from], dependency{to, negative, f.Pred.Pos})
					edges[from] = append(edges[from], int32(to))
				}
			case Not:
				walk(f.Sub[0], !negative)
			case Imply:
				walk(f.Sub[0], !negative)
				walk(f.Sub[1], negative)
			default:
				for _, s := range f.Sub {
					walk(s, negative)
				}
			}
		}
		walk(r.Body, false)
	}
	g.component, g.comps = sccs(len(g.names), func(int32) bool { return true }, func(v int32) []int32 { return edges[v] })
	return g
}

// strata orders d's rules into strata, lowest first: a rule comes in the
// stratum of the predicates it uses positively or above, and above those
// it uses under a negation (or in an imply's premise). The components
// come out each after those it uses, so one pass sets the strata. ok is
// false where a predicate depends on its own negation, and at names a
// rule of such a cycle.
func (g *derivedGraph) strata(d *Domain) (strata [][]*Derived, ok bool, at *Derived) {
	level := make([]int, len(g.names))
	top := 0
	for ci, c := range g.comps {
		l := 0
		for _, v := range c {
			for _, dep := range g.deps[v] {
				switch {
				case g.component[dep.on] == int32(ci) && dep.negative:
					for _, r := range d.Derived {
						if g.number[r.Name] == int(v) {
							return nil, false, r
						}
					}
				case g.component[dep.on] != int32(ci) && dep.negative:
					l = max(l, level[dep.on]+1)
				case g.component[dep.on] != int32(ci):
					l = max(l, level[dep.on])
				}
			}
		}
		for _, v := range c {
			level[v] = l
		}
		top = max(top, l)
	}
	if len(g.names) == 0 {
		return nil, true, nil
	}
	strata = make([][]*Derived, top+1)
	for _, r := range d.Derived {
		l := level[g.number[r.Name]]
		strata[l] = append(strata[l], r)
	}
	return strata, true, nil
}

// cycle words the cycle that the negative dependency of from closes, as
// "a needs not b, b needs a": the dependency, then the shortest way back
// from its predicate to from within their component.
func cycle(deps [][]dependency, component []int32, names []string, from int, first dependency) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s needs not %s", names[from], names[first.on])
	if first.on == from {
		return sb.String()
	}
	// Breadth first from first.on to from, along dependencies inside the
	// component; via[x] is the dependency that reached x, and whose.
	type step struct {
		by  int
		dep dependency
	}
	via := map[int]step{first.on: {-1, dependency{}}}
	queue := []int{first.on}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if x == from {
			break
		}
		for _, dep := range deps[x] {
			if _, seen := via[dep.on]; !seen && component[dep.on] == component[from] {
				via[dep.on] = step{x, dep}
				queue = append(queue, dep.on)
			}
		}
	}
	var path []step
	for x := from; x != first.on; x = via[x].by {
		path = append(path, via[x])
	}
	for i := len(path) - 1; i >= 0; i-- {
		if shown := len(path) - 1 - i; shown == maxCycleShown && i > 0 {
			// A cycle through thousands of rules would make a message
			// of thousands of names: the last step closes it.
			fmt.Fprintf(&sb, ", %s more", count(i, "step"))
			i = 0
		}
		sb.WriteString(", ")
		not := ""
		if path[i].dep.negative {
			not = "not "
		}
		fmt.Fprintf(&sb, "%s needs %s%s", names[path[i].by], not, names[path[i].dep.on])
	}
	return sb.String()
}

// maxCycleShown is how many steps of a cycle an error names before the
// last one.
const maxCycleShown = 8
