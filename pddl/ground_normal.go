package pddl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Normalising ADL for the grounder. The join grounds rules whose
// conditions are conjunctions of literals (atoms, equalities and their
// negations) over typed variables. An ADL formula is brought to that form,
// exactly, in four steps:
//
//  1. Negation normal form: imply written as or, every not pushed down to
//     a literal (not over and is or, not over exists is forall, ...), and
//     every quantified variable renamed apart ("?x@3"), so that no name
//     is captured when quantifiers move.
//  2. Each universal condition (forall (?x) F) becomes (not (A ...)), A a
//     new derived predicate of the forall's free variables, defined by
//     (exists (?x) (not F)): "F fails for some ?x". This is how the
//     reference planners compile it; the axiom's own body is normalised
//     the same way.
//  3. Disjunctive normal form: each disjunct a conjunction of literals
//     with the existential variables it binds, which become extra
//     parameters of the rule. A rule of several disjuncts splits: an
//     action into one schema per disjunct (the plan names only the
//     action's own parameters), an effect into one effect per disjunct
//     (applying an atom twice is applying it once), a derived predicate
//     into one axiom per disjunct.
//  4. Where the disjunctive form would pass maxDisjuncts (an and of many
//     ors multiplies out), the ors in the way become derived predicates
//     instead, one axiom per disjunct, which keeps the result linear in
//     the formula.
//
// A goal that is not a conjunction of literals becomes the derived
// predicate "goal@", the task's one goal fact. The names of the
// predicates made here end in "@" and a number, which no PDDL name can
// hold, so they never clash with the file's.

// maxExpansion is the most bindings of a universal condition's variables
// for which it is written out as a conjunction over the objects, rather
// than made a negated derived predicate: both are exact, but the
// estimators see the conjunction's atoms, and ignore a negated derived
// fact (goals such as "every room lit" are estimated, not 0).
const maxExpansion = 16

// maxDisjuncts is the most disjuncts a formula splits into before its ors
// become derived predicates: each disjunct is a schema the join grounds
// separately, and an exact split keeps the estimates informed, while an
// axiom's negation is invisible to them.
const maxDisjuncts = 16

// conj is one disjunct: the literals, and the existential variables
// they bind, beyond the rule's own.
type conj struct {
	vars []Param
	lits []*Formula
}

// normAction is one schema of an action: its parameters (the action's,
// then its precondition's existential variables) and the literals of
// one disjunct of its precondition.
type normAction struct {
	params []Param
	lits   []*Formula
}

// normEffect is one conditional effect: for each binding of vars (the
// forall's, then its condition's existential variables) where lits
// hold, add and del apply.
type normEffect struct {
	vars     []Param
	lits     []*Formula
	add, del []AtomTerm
	pos      Pos
}

// normAxiom derives head where lits hold: params are the head's
// variables (nHead of them), then the body's existential variables.
type normAxiom struct {
	pred   *Predicate
	params []Param
	nHead  int
	lits   []*Formula
	pos    Pos
}

// normalizer holds one domain and problem's normalisation.
type normalizer struct {
	d *Domain
	p *Problem
	// group is, while a derived predicate's body is normalised, the
	// derived predicates of its recursion (its own included, if it
	// reads itself): a universal condition that reads one of them is
	// expanded over the objects rather than negated, which would put a
	// negation inside the recursion.
	group map[string]bool
	fresh int
	// types of every variable seen: renamed quantified ones are unique,
	// action parameters and derived heads are added per rule.
	types map[string]Param
	// objs caches objectsOf's answers by type.
	objs map[string][]string
	// preds are the derived predicates made here, in order.
	preds  []*Predicate
	axioms []normAxiom
	// work counts the nodes built, bounded by limit.
	work, limit int64
	err         error
}

func newNormalizer(d *Domain, p *Problem, limit int64) *normalizer {
	return &normalizer{d: d, p: p, types: map[string]Param{}, objs: map[string][]string{}, limit: limit}
}

// simpleFormula says whether f is a conjunction of literals: the
// STRIPS subset, which the grounder reads as it is.
func simpleFormula(f *Formula) bool {
	switch f.Kind {
	case And:
		for _, s := range f.Sub {
			if !simpleFormula(s) {
				return false
			}
		}
		return true
	case Not:
		k := f.Sub[0].Kind
		return k == Atom || k == Equal
	case Atom, Equal:
		return true
	}
	return false
}

// count charges one node of work (see charge).
func (n *normalizer) count(pos Pos) bool { return n.charge(1, pos) }

// charge counts k steps of copying; past the limit the normalisation
// stops with an error at pos.
func (n *normalizer) charge(k int, pos Pos) bool {
	if n.err != nil {
		return false
	}
	if n.work += int64(k); n.work > n.limit {
		n.err = &Error{File: n.d.File, Pos: pos, Msg: fmt.Sprintf("normalising the formulas takes more than %d steps (pddl.MaxNormalWork): a universal condition or a disjunction here multiplies out too far", n.limit)}
		return false
	}
	return true
}

// nnf returns f in negation normal form, negated if neg, with quantified
// variables renamed by ren (extended for each quantifier).
func (n *normalizer) nnf(f *Formula, neg bool, ren map[string]string) *Formula {
	if !n.count(f.Pos) {
		return &Formula{Kind: And, Pos: f.Pos}
	}
	switch f.Kind {
	case Atom, Equal:
		lit := &Formula{Kind: f.Kind, Pred: renameAtom(f.Pred, ren), Pos: f.Pos}
		if neg {
			return &Formula{Kind: Not, Sub: []*Formula{lit}, Pos: f.Pos}
		}
		return lit
	case Not:
		return n.nnf(f.Sub[0], !neg, ren)
	case And, Or:
		kind := f.Kind
		if neg {
			kind = And + Or - kind
		}
		out := &Formula{Kind: kind, Pos: f.Pos}
		for _, s := range f.Sub {
			out.Sub = append(out.Sub, n.nnf(s, neg, ren))
		}
		return out
	case Imply:
		// a -> b is (or (not a) b); its negation (and a (not b)).
		if neg {
			return &Formula{Kind: And, Sub: []*Formula{n.nnf(f.Sub[0], false, ren), n.nnf(f.Sub[1], true, ren)}, Pos: f.Pos}
		}
		return &Formula{Kind: Or, Sub: []*Formula{n.nnf(f.Sub[0], true, ren), n.nnf(f.Sub[1], false, ren)}, Pos: f.Pos}
	case Exists, Forall:
		kind := f.Kind
		if neg {
			kind = Exists + Forall - kind
		}
		vars, inner := n.renameVars(f.Vars, ren)
		return &Formula{Kind: kind, Vars: vars, Sub: []*Formula{n.nnf(f.Sub[0], neg, inner)}, Pos: f.Pos}
	}
	n.err = &Error{File: n.d.File, Pos: f.Pos, Msg: "an unknown formula"}
	return &Formula{Kind: And, Pos: f.Pos}
}

// renameVars gives each of vars a fresh name, recorded in a copy of ren
// and in n.types.
func (n *normalizer) renameVars(vars []Param, ren map[string]string) ([]Param, map[string]string) {
	inner := make(map[string]string, len(ren)+len(vars))
	for k, v := range ren {
		inner[k] = v
	}
	out := make([]Param, len(vars))
	for i, v := range vars {
		n.fresh++
		nv := v
		nv.Name = v.Name + "@" + strconv.Itoa(n.fresh)
		inner[v.Name] = nv.Name
		n.types[nv.Name] = nv
		out[i] = nv
	}
	return out, inner
}

func renameAtom(a AtomTerm, ren map[string]string) AtomTerm {
	if len(ren) == 0 {
		return a
	}
	out := AtomTerm{Name: a.Name, Pos: a.Pos, Args: make([]Term, len(a.Args))}
	for i, t := range a.Args {
		if nv, ok := ren[t.Name]; ok && t.IsVariable() {
			t.Name = nv
		}
		out.Args[i] = t
	}
	return out
}

// negate negates f, in negation normal form, keeping that form.
func negate(f *Formula) *Formula {
	switch f.Kind {
	case Not:
		return f.Sub[0]
	case Atom, Equal:
		return &Formula{Kind: Not, Sub: []*Formula{f}, Pos: f.Pos}
	}
	out := &Formula{Pos: f.Pos, Vars: f.Vars}
	switch f.Kind {
	case And:
		out.Kind = Or
	case Or:
		out.Kind = And
	case Exists:
		out.Kind = Forall
	case Forall:
		out.Kind = Exists
	}
	for _, s := range f.Sub {
		out.Sub = append(out.Sub, negate(s))
	}
	return out
}

// freeVars lists f's variables not bound within it, in order of first
// occurrence, typed.
func (n *normalizer) freeVars(f *Formula) []Param {
	var out []Param
	seen := map[string]bool{}
	bound := map[string]bool{}
	var walk func(f *Formula)
	walk = func(f *Formula) {
		for _, v := range f.Vars {
			bound[v.Name] = true
		}
		for _, t := range f.Pred.Args {
			if t.IsVariable() && !bound[t.Name] && !seen[t.Name] {
				seen[t.Name] = true
				out = append(out, n.types[t.Name])
			}
		}
		for _, s := range f.Sub {
			walk(s)
		}
	}
	walk(f)
	return out
}

// derive makes a new derived predicate of f's free variables, defined by
// the disjuncts ds of f, and returns the literal that stands for f.
func (n *normalizer) derive(f *Formula, ds []conj) *Formula {
	free := n.freeVars(f)
	p := &Predicate{Name: "axiom@" + strconv.Itoa(len(n.preds)+1), Params: free, Pos: f.Pos}
	n.preds = append(n.preds, p)
	head := AtomTerm{Name: p.Name, Pos: f.Pos}
	for _, v := range free {
		head.Args = append(head.Args, Term{Name: v.Name, Pos: f.Pos})
	}
	for _, d := range ds {
		n.axioms = append(n.axioms, normAxiom{pred: p, params: append(slices.Clip(free), d.vars...), nHead: len(free), lits: d.lits, pos: f.Pos})
	}
	return &Formula{Kind: Atom, Pred: head, Pos: f.Pos}
}

// dnf returns f, in negation normal form, as disjuncts. A forall becomes
// a negated derived predicate (step 2), and ors that would multiply past
// maxDisjuncts derived predicates (step 4).
func (n *normalizer) dnf(f *Formula) []conj {
	if !n.count(f.Pos) {
		return []conj{{}}
	}
	switch f.Kind {
	case Atom, Equal, Not:
		return []conj{{lits: []*Formula{f}}}
	case Forall:
		if n.group != nil && n.reads(f.Sub[0]) || n.copies(f.Vars) <= maxExpansion {
			return n.dnf(n.expand(f))
		}
		// (forall V F) is (not (exists V (not F))).
		body := &Formula{Kind: Exists, Vars: f.Vars, Sub: []*Formula{negate(f.Sub[0])}, Pos: f.Pos}
		lit := n.derive(f, n.dnf(body))
		return []conj{{lits: []*Formula{{Kind: Not, Sub: []*Formula{lit}, Pos: f.Pos}}}}
	case Exists:
		ds := n.dnf(f.Sub[0])
		for i := range ds {
			ds[i].vars = append(slices.Clip(f.Vars), ds[i].vars...)
		}
		return ds
	case Or:
		var ds []conj
		for _, s := range f.Sub {
			ds = append(ds, n.dnf(s)...)
		}
		if len(ds) > maxDisjuncts {
			return []conj{{lits: []*Formula{n.derive(f, ds)}}}
		}
		return ds
	}
	// And: the product of its parts' disjuncts; a part that would make
	// it too large is derived instead, the largest first.
	parts := make([][]conj, len(f.Sub))
	size := 1
	for i, s := range f.Sub {
		parts[i] = n.dnf(s)
		size = min(size*max(len(parts[i]), 1), maxDisjuncts+1)
		if len(parts[i]) == 0 {
			return nil // a false conjunct
		}
	}
	for size > maxDisjuncts {
		big := 0
		for i := range parts {
			if len(parts[i]) > len(parts[big]) {
				big = i
			}
		}
		parts[big] = []conj{{lits: []*Formula{n.derive(f.Sub[big], parts[big])}}}
		size = 1
		for _, p := range parts {
			size = min(size*len(p), maxDisjuncts+1)
		}
	}
	// The parts of one disjunct join one base, in one pass; only the
	// parts of several (at most four, as the product is at most 16)
	// multiply, and the base joins each product once: linear in the
	// conjunction. Every literal copied is counted.
	var base conj
	var several [][]conj
	for _, p := range parts {
		if len(p) == 1 {
			base.vars = append(base.vars, p[0].vars...)
			base.lits = append(base.lits, p[0].lits...)
		} else {
			several = append(several, p)
		}
	}
	out := []conj{base}
	for _, p := range several {
		next := make([]conj, 0, len(out)*len(p))
		for _, a := range out {
			for _, b := range p {
				if !n.charge(len(a.lits)+len(b.lits), f.Pos) {
					return []conj{{}}
				}
				next = append(next, conj{
					vars: append(slices.Clip(a.vars), b.vars...),
					lits: append(slices.Clip(a.lits), b.lits...),
				})
			}
		}
		out = next
	}
	return out
}

// reads says whether f mentions a predicate of n.group.
func (n *normalizer) reads(f *Formula) bool {
	if f.Kind == Atom && n.group[f.Pred.Name] {
		return true
	}
	for _, s := range f.Sub {
		if n.reads(s) {
			return true
		}
	}
	return false
}

// expand writes (forall V F) as the conjunction of F over every binding
// of V to objects of their types: exact, and free of negation.
func (n *normalizer) expand(f *Formula) *Formula {
	out := &Formula{Kind: And, Pos: f.Pos}
	bind := map[string]string{}
	var rec func(i int)
	rec = func(i int) {
		if i == len(f.Vars) {
			out.Sub = append(out.Sub, n.subst(f.Sub[0], bind))
			return
		}
		for _, o := range n.objectsOf(f.Vars[i]) {
			if !n.count(f.Pos) {
				return
			}
			bind[f.Vars[i].Name] = o
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

// copies is how many bindings vars have, saturating past maxExpansion.
func (n *normalizer) copies(vars []Param) int {
	c := 1
	for _, v := range vars {
		c = min(c*len(n.objectsOf(v)), maxExpansion+1)
	}
	return c
}

// objectsOf lists the objects a variable of prm's type may stand for:
// the problem's, then the domain's constants.
func (n *normalizer) objectsOf(prm Param) []string {
	k := prm.Type + " " + strings.Join(prm.Either, " ")
	if out, ok := n.objs[k]; ok {
		return out
	}
	out := []string{}
	defer func() { n.objs[k] = out }()
	seen := map[string]bool{}
	for _, l := range [][]*Object{n.p.Objects, n.d.Constants} {
		for _, o := range l {
			if !seen[o.Name] && n.d.Fits(o, prm) {
				seen[o.Name] = true
				out = append(out, o.Name)
			}
		}
	}
	return out
}

// subst copies f with the variables of bind replaced by objects. The
// variables f's quantifiers bind are renamed apart in the copy, so that
// copies of one body, each a conjunct, bind their own.
func (n *normalizer) subst(f *Formula, bind map[string]string) *Formula {
	if !n.count(f.Pos) {
		return &Formula{Kind: And, Pos: f.Pos}
	}
	if len(f.Vars) > 0 {
		vars, inner := n.renameVars(f.Vars, bind)
		return &Formula{Kind: f.Kind, Vars: vars, Pos: f.Pos, Sub: []*Formula{n.subst(f.Sub[0], inner)}}
	}
	out := &Formula{Kind: f.Kind, Pos: f.Pos, Pred: f.Pred}
	if len(f.Pred.Args) > 0 {
		out.Pred.Args = make([]Term, len(f.Pred.Args))
		for i, t := range f.Pred.Args {
			if o, ok := bind[t.Name]; ok && t.IsVariable() {
				t.Name = o
			}
			out.Pred.Args[i] = t
		}
	}
	for _, s := range f.Sub {
		out.Sub = append(out.Sub, n.subst(s, bind))
	}
	return out
}

// recursion finds, for each derived predicate that reads itself (through
// others or not), the predicates of its recursion: its component of the
// graph of which derived predicates each one's rules mention.
func (n *normalizer) recursion() map[string]map[string]bool {
	g := newDerivedGraph(n.d)
	out := map[string]map[string]bool{}
	for _, c := range g.comps {
		if len(c) == 1 && !slices.ContainsFunc(g.deps[c[0]], func(d dependency) bool { return d.on == int(c[0]) }) {
			continue
		}
		group := map[string]bool{}
		for _, v := range c {
			group[g.names[v]] = true
		}
		for _, v := range c {
			out[g.names[v]] = group
		}
	}
	return out
}

// condition normalises a formula read under the parameters in scope
// (already in n.types) into disjuncts.
func (n *normalizer) condition(f *Formula, ren map[string]string) []conj {
	return n.dnf(n.nnf(f, false, ren))
}

func (n *normalizer) scope(params []Param) {
	for _, p := range params {
		n.types[p.Name] = p
	}
}

// action normalises a, which is not simple: its schemas, one per
// disjunct of its precondition (none if it is false), and its
// conditional effects, shared by all of them.
func (n *normalizer) action(a *Action, pre *Formula) ([]normAction, []normEffect) {
	n.scope(a.Params)
	var acts []normAction
	for _, d := range n.condition(pre, nil) {
		acts = append(acts, normAction{params: append(slices.Clip(a.Params), d.vars...), lits: d.lits})
	}
	var effs []normEffect
	for _, ce := range a.Effect.Conditional {
		vars, ren := n.renameVars(ce.Vars, nil)
		add := make([]AtomTerm, len(ce.Add))
		for i, at := range ce.Add {
			add[i] = renameAtom(at, ren)
		}
		del := make([]AtomTerm, len(ce.Delete))
		for i, at := range ce.Delete {
			del[i] = renameAtom(at, ren)
		}
		ds := []conj{{}}
		if ce.Cond != nil {
			ds = n.condition(ce.Cond, ren)
		}
		for _, d := range ds {
			effs = append(effs, normEffect{vars: append(slices.Clip(vars), d.vars...), lits: d.lits, add: add, del: del, pos: ce.Pos})
		}
	}
	return acts, effs
}

// derived normalises a :derived rule into axioms.
func (n *normalizer) derived(dr *Derived, pred *Predicate, group map[string]bool) {
	n.group = group
	defer func() { n.group = nil }()
	n.scope(dr.Params)
	for _, d := range n.condition(dr.Body, nil) {
		n.axioms = append(n.axioms, normAxiom{pred: pred, params: append(slices.Clip(dr.Params), d.vars...), nHead: len(dr.Params), lits: d.lits, pos: dr.Pos})
	}
}

// goal normalises a goal that is not simple into the derived predicate
// goal@, and returns the goal that stands for it.
func (n *normalizer) goal(f *Formula) *Formula {
	p := &Predicate{Name: "goal@", Pos: f.Pos}
	n.preds = append(n.preds, p)
	for _, d := range n.condition(f, nil) {
		n.axioms = append(n.axioms, normAxiom{pred: p, params: d.vars, lits: d.lits, pos: f.Pos})
	}
	return &Formula{Kind: Atom, Pred: AtomTerm{Name: p.Name, Pos: f.Pos}, Pos: f.Pos}
}

// rule is what compile reads: an action schema as the file gives it or
// as normalisation split it, a conditional effect, or an axiom.
type rule struct {
	kind     schemaKind
	a        *Action // nil for an axiom
	what     string  // for errors: `action "pick"`
	name     string  // the action's or predicate's, for size estimates
	pos      Pos
	params   []Param
	nameArgs int
	// pre is a conjunction of literals: the precondition; for an effect,
	// its action's and its own condition's; for an axiom, its body.
	pre      *Formula
	add, del []AtomTerm // an axiom's add is its head
	costs    []Cost
	// effects are an action's conditional effects; cond is an effect's
	// own condition.
	effects []rule
	cond    *Formula
}

func conjunction(lits []*Formula, pos Pos) *Formula {
	return &Formula{Kind: And, Sub: lits, Pos: pos}
}

// normalise turns the domain's actions, derived predicates and the
// problem's goal into rules the join grounds: a STRIPS action as it is,
// an ADL one normalised. It sets g.preds and g.goalF.
func (g *grounder) normalise() ([]rule, error) {
	d, p := g.d, g.p
	n := newNormalizer(d, p, min(g.lim.joinWork, MaxNormalWork))
	var rules []rule
	for _, a := range d.Actions {
		r := rule{kind: kindAction, a: a, what: fmt.Sprintf("action %q", a.Name), name: a.Name, pos: a.Pos,
			params: a.Params, nameArgs: len(a.Params), pre: a.Precondition, add: a.Effect.Add, del: a.Effect.Delete, costs: a.Effect.Cost}
		if (a.Precondition == nil || simpleFormula(a.Precondition)) && len(a.Effect.Conditional) == 0 {
			rules = append(rules, r)
			continue
		}
		pre := a.Precondition
		if pre == nil {
			pre = conjunction(nil, a.Pos)
		}
		acts, effs := n.action(a, pre)
		for _, na := range acts {
			r := r
			r.params, r.pre = na.params, conjunction(na.lits, a.Pos)
			for _, e := range effs {
				r.effects = append(r.effects, rule{kind: kindEffect, a: a, what: fmt.Sprintf("a conditional effect of action %q", a.Name), name: a.Name, pos: e.pos,
					params: append(slices.Clip(na.params), e.vars...), nameArgs: len(a.Params),
					pre:  conjunction(append(slices.Clip(na.lits), e.lits...), e.pos),
					cond: conjunction(e.lits, e.pos), add: e.add, del: e.del})
			}
			rules = append(rules, r)
		}
	}
	groups := n.recursion()
	for _, dr := range d.Derived {
		pred := d.Predicate(dr.Name)
		if pred == nil {
			return nil, &Error{File: d.File, Pos: dr.Pos, Msg: fmt.Sprintf("derived predicate %q is not declared in :predicates", dr.Name)}
		}
		n.derived(dr, pred, groups[dr.Name])
	}
	g.goalF = p.Goal
	if !simpleFormula(p.Goal) {
		g.goalF = n.goal(p.Goal)
	}
	if n.err != nil {
		return nil, n.err
	}
	g.preds = append(slices.Clip(d.Predicates), n.preds...)
	for _, ax := range n.axioms {
		head := AtomTerm{Name: ax.pred.Name, Pos: ax.pos}
		for _, v := range ax.params[:ax.nHead] {
			head.Args = append(head.Args, Term{Name: v.Name, Pos: v.Pos})
		}
		rules = append(rules, rule{kind: kindAxiom, what: fmt.Sprintf("derived predicate %q", ax.pred.Name), name: ax.pred.Name, pos: ax.pos,
			params: ax.params, nameArgs: ax.nHead, pre: conjunction(ax.lits, ax.pos), add: []AtomTerm{head}})
	}
	return rules, nil
}

// sccs finds the strongly connected components of the graph of n
// vertices whose edges from v are out(v), among the vertices from which
// keep is true (Tarjan's algorithm, without recursion, so that a long
// chain cannot overflow the stack). Each component comes out after every
// component it reaches: comp numbers them in that order.
func sccs(n int, keep func(v int32) bool, out func(v int32) []int32) (comp []int32, comps [][]int32) {
	index := make([]int32, n)
	low := make([]int32, n)
	comp = make([]int32, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int32
	type frame struct {
		v    int32
		next int
	}
	next := int32(0)
	for root := range int32(n) {
		if !keep(root) || index[root] >= 0 {
			continue
		}
		calls := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if edges := out(f.v); f.next < len(edges) {
				w := edges[f.next]
				f.next++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					calls = append(calls, frame{w, 0})
				} else if comp[w] < 0 {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				var c []int32
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = int32(len(comps))
					c = append(c, w)
					if w == v {
						break
					}
				}
				comps = append(comps, c)
			}
		}
	}
	return comp, comps
}

// stratify gives each derived predicate its layer: a body's derived
// predicate is of the head's layer or lower, a negated one of a lower
// layer. The dependencies' components come out bodies first, so one pass
// over them sets the layers: linear in the axioms.
func (g *grounder) stratify() error {
	np := len(g.preds)
	g.layers = make([]int32, np)
	var adj, neg [][]int32 // each derived predicate's body predicates, and whether negated
	for _, s := range g.schemas {
		if s.kind != kindAxiom {
			continue
		}
		if adj == nil {
			adj, neg = make([][]int32, np), make([][]int32, np)
		}
		h := s.add[0].pred
		for _, l := range s.posFluent {
			if g.derived[l.pred] {
				adj[h] = append(adj[h], l.pred)
			}
		}
		for _, l := range s.negFluent {
			if g.derived[l.pred] {
				adj[h] = append(adj[h], l.pred)
				neg[h] = append(neg[h], l.pred)
			}
		}
	}
	if adj == nil {
		return nil
	}
	comp, comps := sccs(np, func(v int32) bool { return g.derived[v] }, func(v int32) []int32 { return adj[v] })
	for ci, c := range comps {
		layer := int32(0)
		for _, v := range c {
			for _, w := range adj[v] {
				if comp[w] != int32(ci) {
					layer = max(layer, g.layers[w])
				}
			}
			for _, w := range neg[v] {
				if comp[w] == int32(ci) {
					return g.unstratified(v, w, c)
				}
				layer = max(layer, g.layers[w]+1)
			}
		}
		for _, v := range c {
			g.layers[v] = layer
		}
	}
	return nil
}

// unstratified is the error for v reading the negation of w, both of
// component c. The parser refuses a domain's own cycles through negation,
// so one here comes from normalisation, which keeps recursion positive
// (a universal condition over the predicate defined is expanded over the
// objects): it is reported all the same, naming the file's predicates.
func (g *grounder) unstratified(v, w int32, c []int32) error {
	name := g.preds[v].Name
	for _, u := range c {
		if !strings.Contains(g.preds[u].Name, "@") {
			name = g.preds[u].Name
			break
		}
	}
	return g.fail(g.preds[v].Pos, "derived predicate %q depends on the negation of %q, which depends on it: the derived predicates are not stratified", name, g.preds[w].Name)
}

// hasADL says whether the grounding has conditional effects or axioms.
func (g *grounder) hasADL() bool {
	for _, s := range g.schemas {
		if s.kind != kindAction {
			return true
		}
	}
	return false
}
