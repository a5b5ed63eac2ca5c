package pddl

import (
	"maps"
	"slices"
)

// ParseDomain parses a domain file; name is the file name used in errors.
// The error, if any, is an ErrorList of every problem found (the first
// MaxErrors). A src of more than MaxSize bytes or MaxTokens tokens is
// refused: a caller reading from a file or network should stop reading at
// MaxSize+1 bytes.
func ParseDomain(name string, src []byte) (*Domain, error) {
	p := &parser{errors: errors{file: name}}
	d := p.domain(src)
	if err := p.err(); err != nil {
		return nil, err
	}
	return d, nil
}

// domainSections are the sections a domain may have, for suggestions;
// refusedSections are PDDL's others, refused by name.
var (
	domainSections  = []string{":requirements", ":types", ":constants", ":predicates", ":functions", ":action", ":derived"}
	refusedSections = map[string]string{
		":durative-action": ":durative-actions",
		":constraints":     ":constraints",
		":process":         "PDDL+ processes",
		":event":           "PDDL+ events",
		":axiom":           ":domain-axioms",
		":timeless":        "PDDL 1.2 timeless facts",
	}
)

func (p *parser) domain(src []byte) *Domain {
	name, _, sections, ok := p.header(src, "domain")
	if !ok {
		return nil
	}
	d := &Domain{File: p.file, Name: name,
		types: map[string]*Type{}, consts: map[string]*Object{},
		preds: map[string]*Predicate{}, funcs: map[string]*Function{}}

	// Sections are read by kind, types first, so that a reference to a
	// type does not depend on the order a file puts them in.
	byKind := map[string][]*node{}
	for _, s := range sections {
		kw, ok := p.section(s)
		if !ok {
			continue
		}
		switch {
		case slices.Contains(domainSections, kw):
			if kw != ":action" && kw != ":derived" && len(byKind[kw]) > 0 {
				p.add(s.pos, "duplicate %s section (the first is at %s)", kw, byKind[kw][0].pos)
				continue
			}
			byKind[kw] = append(byKind[kw], s)
		case refusedSections[kw] != "":
			p.addKind("unsupported "+kw, s.list[0].pos, "%s is not supported (%s is not implemented)", kw, refusedSections[kw])
		default:
			p.add(s.list[0].pos, "unknown domain section %q%s", kw, p.hint(kw, func() []string {
				return append(slices.Clone(domainSections), slices.Sorted(maps.Keys(refusedSections))...)
			}))
		}
	}
	for _, s := range byKind[":requirements"] {
		d.Requirements = p.requirements(s.list[1:])
	}
	for _, s := range byKind[":types"] {
		p.types(d, s.list[1:])
	}
	for _, s := range byKind[":constants"] {
		for _, c := range p.typedList(s.list[1:], false, ":constants") {
			if prev := d.consts[c.name]; prev != nil {
				p.add(c.pos, "duplicate constant %q (first declared at %s)", c.name, prev.Pos)
				continue
			}
			p.checkType(d, c.typ, c.either, c.typePos)
			o := &Object{Name: c.name, Type: c.typ, Either: c.either, Pos: c.pos}
			d.consts[c.name] = o
			d.Constants = append(d.Constants, o)
		}
	}
	for _, s := range byKind[":predicates"] {
		for _, n := range s.list[1:] {
			name, params, ok := p.signature(d, n, "predicate")
			if !ok {
				continue
			}
			if name == "=" {
				p.add(n.pos, `"=" is built in and cannot be declared`)
				continue
			}
			if prev := d.preds[name]; prev != nil {
				p.add(n.pos, "duplicate predicate %q (first declared at %s)", name, prev.Pos)
				continue
			}
			pr := &Predicate{Name: name, Params: params, Pos: n.pos}
			d.preds[name] = pr
			d.Predicates = append(d.Predicates, pr)
		}
	}
	for _, s := range byKind[":functions"] {
		p.functions(d, s.list[1:])
	}
	// The rules before the actions, whose effects must not change a
	// derived predicate.
	d.derived = map[string]*Derived{}
	for _, s := range byKind[":derived"] {
		if r := p.derivedRule(d, s); r != nil {
			if d.derived[r.Name] == nil {
				d.derived[r.Name] = r
			}
			d.Derived = append(d.Derived, r)
		}
	}
	p.stratified(d)
	names := map[string]Pos{}
	for _, s := range byKind[":action"] {
		if a := p.action(d, s); a != nil {
			if prev, dup := names[a.Name]; dup {
				p.add(a.Pos, "duplicate action %q (first declared at %s)", a.Name, prev)
				continue
			}
			names[a.Name] = a.Pos
			d.Actions = append(d.Actions, a)
		}
	}
	return d
}

// types reads the :types section and checks the hierarchy. A type
// declared again adds a parent: (:types area - object area - surface)
// makes area a subtype of both.
func (p *parser) types(d *Domain, items []*node) {
	for _, t := range p.typedList(items, false, ":types") {
		if t.either != nil {
			p.add(t.typePos, `the parent of type %q cannot be an "either" type: declare the type once under each parent instead`, t.name)
			t.typ = ""
		}
		if t.name == "object" {
			if t.typ != "object" {
				p.add(t.pos, `the root type "object" cannot have a parent`)
			}
			continue
		}
		if t.name == "number" {
			p.add(t.pos, `"number" is built in and cannot be declared as a type`)
			continue
		}
		parent, at := t.typ, t.typePos
		if parent == "" {
			parent, at = "object", t.pos // its error is reported; go on as if object
		}
		ty := d.types[t.name]
		if ty == nil {
			ty = &Type{Name: t.name, Pos: t.pos}
			d.types[t.name] = ty
			d.Types = append(d.Types, ty)
		}
		if !slices.Contains(ty.Parents, parent) {
			ty.Parents = append(ty.Parents, parent)
			ty.parentPos = append(ty.parentPos, at)
		}
	}
	for _, ty := range d.Types {
		for i, up := range ty.Parents {
			if up != "object" && d.types[up] == nil {
				p.add(ty.parentPos[i], "undefined parent type %q of %q%s", up, ty.Name, p.hint(up, func() []string { return typeNames(d) }))
				ty.Parents[i] = "object"
			}
		}
	}
	// A cycle: a walk up from a type, depth first through every parent,
	// meets a type of the walk. Each type is walked through once (later
	// walks stop at a type already done), so this is linear; a cycle is
	// reported at the type where it closes, and cut there.
	const (
		unseen = iota
		walking
		done
	)
	state := make(map[string]uint8, len(d.Types))
	type frame struct {
		ty   *Type
		next int // the parent to walk to next
	}
	var stack []frame
	for _, start := range d.Types {
		if state[start.Name] != unseen {
			continue
		}
		state[start.Name] = walking
		stack = append(stack[:0], frame{start, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == len(top.ty.Parents) {
				state[top.ty.Name] = done
				stack = stack[:len(stack)-1]
				continue
			}
			i := top.next
			top.next++
			up := d.types[top.ty.Parents[i]]
			if up == nil {
				continue // object
			}
			switch state[up.Name] {
			case walking:
				p.add(up.Pos, "type %q is its own ancestor", up.Name)
				top.ty.Parents[i] = "object"
			case unseen:
				state[up.Name] = walking
				stack = append(stack, frame{up, 0})
			}
		}
	}
}

func typeNames(d *Domain) []string {
	names := []string{"object"}
	for _, t := range d.Types {
		names = append(names, t.Name)
	}
	return names
}

// checkType reports an undefined type ("" is an error already reported),
// or each undefined alternative of an either type.
func (p *parser) checkType(d *Domain, name string, either []string, pos Pos) bool {
	ok := true
	for _, t := range alternatives(name, either) {
		if t == "" {
			return false
		}
		if t == "object" || d.types[t] != nil {
			continue
		}
		p.add(pos, "undefined type %q%s", t, p.hint(t, func() []string { return typeNames(d) }))
		ok = false
	}
	return ok
}

// params reads a typed variable list, checking types and, for actions,
// duplicates: a predicate's parameter names say nothing, and a
// competition domain declares (in ?obj ?obj).
func (p *parser) params(d *Domain, items []*node, what string, distinct bool) []Param {
	var out []Param
	seen := map[string]Pos{}
	for _, v := range p.typedList(items, true, what) {
		if prev, dup := seen[v.name]; dup && distinct {
			p.add(v.pos, "duplicate parameter %q (first at %s)", v.name, prev)
			continue
		}
		seen[v.name] = v.pos
		p.checkType(d, v.typ, v.either, v.typePos)
		out = append(out, Param{Name: v.name, Type: v.typ, Either: v.either, Pos: v.pos, typePos: v.typePos})
	}
	return out
}

// signature reads (NAME ?a - t ...), a predicate's or function's.
func (p *parser) signature(d *Domain, n *node, what string) (string, []Param, bool) {
	if !n.isList || len(n.list) == 0 || n.list[0].isList || (n.list[0].kind != tokName && !isWord(n.list[0], "=")) {
		p.add(n.pos, "expected a %s such as (NAME ?x - TYPE), got %s", what, quote(n.describe()))
		return "", nil, false
	}
	name := n.list[0].text
	return name, p.params(d, n.list[1:], what+" "+quote(name), false), true
}

// functions reads :functions: (f ?x - t) entries, each optionally
// followed by "- number".
func (p *parser) functions(d *Domain, items []*node) {
	for i := 0; i < len(items); i++ {
		n := items[i]
		if isWord(n, "-") {
			if i+1 == len(items) {
				p.add(n.pos, `expected "number" after "-"`)
				break
			}
			i++
			if t := items[i]; !isWord(t, "number") {
				p.add(t.pos, "function type %s is not supported (only number; other types need :object-fluents)", quote(t.describe()))
			}
			continue
		}
		name, params, ok := p.signature(d, n, "function")
		if !ok {
			continue
		}
		if prev := d.funcs[name]; prev != nil {
			p.add(n.pos, "duplicate function %q (first declared at %s)", name, prev.Pos)
			continue
		}
		if name == "total-cost" && len(params) > 0 {
			p.add(n.pos, `"total-cost" takes no arguments`)
		}
		f := &Function{Name: name, Params: params, Pos: n.pos}
		d.funcs[name] = f
		d.Functions = append(d.Functions, f)
	}
}

// action reads (:action NAME :parameters (...) :precondition F :effect E).
func (p *parser) action(d *Domain, s *node) *Action {
	items := s.list[1:]
	if len(items) == 0 || items[0].isList || items[0].kind != tokName {
		at := s.end
		if len(items) > 0 {
			at = items[0].pos
		}
		p.add(at, "expected the action's name after :action")
		return nil
	}
	a := &Action{Name: items[0].text, Pos: items[0].pos}
	var pre, eff *node
	seen := map[string]Pos{}
	for i := 1; i < len(items); i++ {
		k := items[i]
		if k.isList || k.kind != tokKeyword {
			p.add(k.pos, "expected :parameters, :precondition or :effect in action %q, got %s", a.Name, quote(k.describe()))
			continue
		}
		if i+1 == len(items) {
			p.add(k.pos, "%s of action %q has no value", k.text, a.Name)
			break
		}
		i++
		v := items[i]
		switch k.text {
		case ":parameters", ":precondition", ":effect":
		case ":duration", ":condition":
			p.add(k.pos, "%s belongs to durative actions, which are not supported (they need :durative-actions)", k.text)
			continue
		default:
			p.add(k.pos, "unknown action key %q%s", k.text, p.hint(k.text, func() []string { return []string{":parameters", ":precondition", ":effect"} }))
			continue
		}
		if prev, dup := seen[k.text]; dup {
			p.add(k.pos, "duplicate %s in action %q (the first is at %s)", k.text, a.Name, prev)
			continue
		}
		seen[k.text] = k.pos
		switch k.text {
		case ":parameters":
			if !v.isList {
				p.add(v.pos, "expected a parameter list in parentheses, got %s", quote(v.describe()))
				continue
			}
			a.Params = p.params(d, v.list, "the parameters of "+quote(a.Name), true)
		case ":precondition":
			pre = v
		case ":effect":
			eff = v
		}
	}
	sc := newScope(scopeAction, a.Params)
	a.Precondition = &Formula{Kind: And, Pos: a.Pos}
	if pre != nil {
		if f := p.formula(pre); f != nil {
			p.resolve(f, d, sc, nil)
			a.Precondition = f
		}
	}
	if eff != nil {
		p.effect(d, sc, eff, &a.Effect, effectContext{slot: -1, taken: map[string]int{}})
		// A forall or when with no atom of its own, such as one holding
		// only other whens, (and), or atoms already reported, leaves an
		// empty entry: it changes nothing, so it goes.
		a.Effect.Conditional = slices.DeleteFunc(a.Effect.Conditional, func(c CondEffect) bool {
			return len(c.Add) == 0 && len(c.Delete) == 0
		})
	}
	return a
}

// effectContext is what encloses a part of an effect: the variables of
// the foralls around it, outermost first, the conditions of the whens,
// and the entry of Effect.Conditional its atoms go to (-1: the effect's
// own Add and Delete, outside every forall and when).
type effectContext struct {
	vars  []Param
	conds []*Formula
	slot  int
	// taken counts the names the enclosing foralls bind and the
	// enclosing whens' conditions use free, which a nested forall may
	// not bind again (see forallEffect). One map serves the whole
	// effect: each forall and when adds its names on entering and takes
	// them back on leaving.
	taken map[string]int
}

// maxFlattened bounds the variables and conditions copied into the
// entries of Effect.Conditional, over a whole domain: each entry lists
// those of every forall and when around it, so a file of many foralls
// under a deep one would otherwise cost its depth (up to MaxDepth) times
// its size. The ADL domains of ../shared/pddl-adl copy none: a when
// directly in a forall shares its variables, and none nests deeper.
const maxFlattened = 1 << 18

// effect reads an effect into e: (and ...) of atoms, (not atom),
// (increase (total-cost) X), (forall (VARS) EFFECT) and (when COND
// EFFECT), nested in any order, each forall and when flattened into an
// entry of e.Conditional as CondEffect says. It recurses once per nesting
// level, which read bounds by MaxDepth.
func (p *parser) effect(d *Domain, sc *scope, n *node, e *Effect, ctx effectContext) {
	if !n.isList {
		p.add(n.pos, "expected an effect in parentheses, got %s", quote(n.describe()))
		return
	}
	if len(n.list) == 0 {
		return
	}
	head := n.list[0]
	if head.isList || (head.kind != tokName && head.kind != tokSymbol) {
		p.add(head.pos, "expected a predicate, \"and\", \"not\", \"forall\", \"when\" or \"increase\", got %s", quote(head.describe()))
		return
	}
	if p.refuse(n) {
		return
	}
	switch head.text {
	case "and":
		for _, c := range n.list[1:] {
			p.effect(d, sc, c, e, ctx)
		}
		return
	case "forall":
		p.forallEffect(d, sc, n, e, ctx)
		return
	case "when":
		p.whenEffect(d, sc, n, e, ctx)
		return
	case "increase":
		if ctx.slot >= 0 {
			p.add(n.pos, "a conditional cost is not supported: (increase (total-cost) ...) cannot be inside a forall or when effect")
			return
		}
		p.increase(d, sc, n, e)
		return
	case "=":
		p.add(head.pos, `"=" cannot be an effect`)
		return
	case "or", "imply", "exists":
		p.add(head.pos, "%q is a condition, not an effect (an effect adds and deletes atoms, under forall and when)", head.text)
		return
	case "not":
		if len(n.list) != 2 {
			p.add(n.pos, `"not" takes one atom, got %d`, len(n.list)-1)
			return
		}
		f := p.formula(n.list[1])
		if f == nil {
			return
		}
		if f.Kind != Atom {
			p.add(n.list[1].pos, `an effect can only delete an atom`)
			return
		}
		if p.resolve(f, d, sc, nil) && p.notDerived(d, f.Pred) {
			if ctx.slot < 0 {
				e.Delete = append(e.Delete, f.Pred)
			} else {
				e.Conditional[ctx.slot].Delete = append(e.Conditional[ctx.slot].Delete, f.Pred)
			}
		}
		return
	}
	f := p.formula(n)
	if f == nil {
		return
	}
	if f.Kind != Atom {
		p.add(n.pos, `an effect can only add an atom`) // (not ...) and (= ...) are handled above
		return
	}
	if p.resolve(f, d, sc, nil) && p.notDerived(d, f.Pred) {
		if ctx.slot < 0 {
			e.Add = append(e.Add, f.Pred)
		} else {
			e.Conditional[ctx.slot].Add = append(e.Conditional[ctx.slot].Add, f.Pred)
		}
	}
}

// notDerived reports an effect on a derived predicate, which holds
// exactly where its rule's body does.
func (p *parser) notDerived(d *Domain, a AtomTerm) bool {
	if r := d.derived[a.Name]; r != nil {
		p.add(a.Pos, "derived predicate %q cannot be added or deleted by an effect: it holds exactly where its :derived rule (at %s) says", a.Name, r.Pos)
		return false
	}
	return true
}

// forallEffect reads (forall (VARS) EFFECT) into a new entry of
// e.Conditional, its variables after the enclosing foralls'.
//
// Flattening puts a nested forall's variables beside those of the
// foralls and the conditions of the whens around it, so a variable of
// the nested forall must not have the name of one of those: in (when (p
// ?x) (forall (?x) (q ?x))) the condition's ?x is the action's and the
// atom's the forall's, but flattened both would be the forall's. That is
// refused, asking for a new name; a forall shadowing an action's
// parameter with nothing between them is fine, the entry's Vars shadow
// the parameters.
func (p *parser) forallEffect(d *Domain, sc *scope, n *node, e *Effect, ctx effectContext) {
	vars, body, ok := p.quantifier(n, "effect")
	if !ok {
		return
	}
	for _, v := range vars {
		p.checkType(d, v.Type, v.Either, v.typePos)
		if ctx.taken[v.Name] > 0 {
			p.add(v.Pos, "variable %q of this forall is already used by an enclosing forall or when: give it another name (nested foralls and whens are read as one, where the two would be the same variable)", v.Name)
		}
	}
	inner := ctx
	// The copies: the enclosing variables, and the conditions into the
	// entry's conjunction.
	if p.spend(len(ctx.vars)+len(ctx.conds), n.pos) {
		inner.vars = append(slices.Clip(ctx.vars), vars...)
	}
	inner.slot = p.newCondEffect(e, inner, n.pos)
	sc.push(vars)
	for _, v := range vars {
		ctx.taken[v.Name]++
	}
	p.effect(d, sc, body, e, inner)
	for _, v := range vars {
		ctx.taken[v.Name]--
	}
	sc.pop(vars)
}

// whenEffect reads (when COND EFFECT) into a new entry of e.Conditional,
// its condition conjoined with the enclosing whens'.
func (p *parser) whenEffect(d *Domain, sc *scope, n *node, e *Effect, ctx effectContext) {
	if len(n.list) != 3 {
		p.add(n.pos, `"when" takes a condition and an effect, such as (when (p ?x) (not (q ?x))), got %s`, describeArgs(n.list[1:]))
		return
	}
	cond := p.formula(n.list[1])
	if cond != nil {
		p.resolve(cond, d, sc, nil)
	} else {
		cond = &Formula{Kind: And, Pos: n.list[1].pos} // its error is reported; the effect is still checked
	}
	inner := ctx
	if p.spend(2*len(ctx.conds), n.pos) { // the list, and the entry's conjunction
		inner.conds = append(slices.Clip(ctx.conds), cond)
	}
	inner.slot = p.newCondEffect(e, inner, n.pos)
	var free []string
	freeVariables(cond, func(v string) { free = append(free, v) })
	for _, v := range free {
		ctx.taken[v]++
	}
	p.effect(d, sc, n.list[2], e, inner)
	for _, v := range free {
		ctx.taken[v]--
	}
}

// newCondEffect appends the entry of a forall or when whose variables and
// conditions ctx holds, ctx.slot being the entry of what encloses it (or
// -1), and returns its index. The outermost
// forall or when gives every entry nested in it its position.
func (p *parser) newCondEffect(e *Effect, ctx effectContext, at Pos) int {
	pos := at
	if ctx.slot >= 0 {
		pos = e.Conditional[ctx.slot].Pos
	}
	c := CondEffect{Vars: ctx.vars, Pos: pos}
	switch len(ctx.conds) {
	case 0:
	case 1:
		c.Cond = ctx.conds[0]
	default:
		if p.flattened > maxFlattened {
			break // reported: no more copies
		}
		c.Cond = &Formula{Kind: And, Sub: slices.Clone(ctx.conds), Pos: ctx.conds[0].Pos}
	}
	e.Conditional = append(e.Conditional, c)
	return len(e.Conditional) - 1
}

// spend counts n variables and conditions copied into flattened effects,
// and says whether they are within maxFlattened; past it, the first
// forall or when is reported, and the rest go uncopied (the file has
// failed).
func (p *parser) spend(n int, at Pos) bool {
	if p.flattened > maxFlattened {
		return false
	}
	if p.flattened += n; p.flattened > maxFlattened {
		p.add(at, "the foralls and whens nest too much: read as one effect each, they would copy more than %d variables and conditions", maxFlattened)
		return false
	}
	return true
}

// freeVariables calls visit with each variable f uses that no quantifier
// of f binds, once each, in the order of first use. It is linear in f,
// and recurses once per nesting level.
func freeVariables(f *Formula, visit func(string)) {
	bound := map[string]int{}
	seen := map[string]bool{}
	var walk func(f *Formula)
	walk = func(f *Formula) {
		for _, v := range f.Vars {
			bound[v.Name]++
		}
		for _, t := range f.Pred.Args {
			if t.IsVariable() && bound[t.Name] == 0 && !seen[t.Name] {
				seen[t.Name] = true
				visit(t.Name)
			}
		}
		for _, s := range f.Sub {
			walk(s)
		}
		for _, v := range f.Vars {
			bound[v.Name]--
		}
	}
	walk(f)
}

// increase reads (increase (total-cost) N) or (increase (total-cost) (f
// args)); increasing anything else is a numeric fluent.
func (p *parser) increase(d *Domain, sc *scope, n *node, e *Effect) {
	if len(n.list) != 3 {
		p.add(n.pos, `"increase" takes a function and a value, got %s`, count(len(n.list)-1, "argument"))
		return
	}
	target, value := n.list[1], n.list[2]
	if !target.isList || len(target.list) != 1 || !isWord(target.list[0], "total-cost") {
		p.add(target.pos, `only (increase (total-cost) ...) is supported, not of %s (other numeric fluents need :numeric-fluents)`, quote(target.describe()))
		return
	}
	if d.funcs["total-cost"] == nil {
		p.add(target.pos, `"total-cost" is not declared in :functions`)
	}
	c := Cost{Pos: n.pos}
	if v, isNum := p.wholeNumber(value, "an action cost"); isNum {
		c.Value = v
		e.Cost = append(e.Cost, c)
		return
	}
	if !value.isList || len(value.list) == 0 || value.list[0].isList || value.list[0].kind != tokName {
		p.add(value.pos, "expected a whole number or (FUNCTION args...) as the cost, got %s", quote(value.describe()))
		return
	}
	if p.refuse(value) {
		return
	}
	a, ok := p.atom(value)
	if !ok {
		return
	}
	if a.Name == "total-cost" {
		p.add(value.pos, `a cost cannot be read from "total-cost" itself`)
		return
	}
	if !p.resolveFunc(&a, d, sc, nil) {
		return
	}
	c.Func = &a
	e.Cost = append(e.Cost, c)
}

// scopeOwner is what binds the variables a formula may use outside its
// own quantifiers.
type scopeOwner uint8

const (
	scopeObjects scopeOwner = iota // none: a goal or :init, of objects
	scopeAction                    // an action's parameters
	scopeDerived                   // a derived predicate's head
)

// scope is the variables a formula or effect may use at a place: those of
// its owner and of the quantifiers (and forall effects) around the place,
// each counted, so that a quantifier may bind a name again and give it
// back on leaving.
type scope struct {
	owner       scopeOwner
	bound       map[string]int
	quantifiers int // how many quantifiers enclose the place
}

func newScope(owner scopeOwner, params []Param) *scope {
	sc := &scope{owner: owner, bound: make(map[string]int, len(params))}
	for _, prm := range params {
		sc.bound[prm.Name]++
	}
	return sc
}

func (sc *scope) push(vars []Param) {
	for _, v := range vars {
		sc.bound[v.Name]++
	}
	sc.quantifiers++
}

func (sc *scope) pop(vars []Param) {
	for _, v := range vars {
		if sc.bound[v.Name]--; sc.bound[v.Name] == 0 {
			delete(sc.bound, v.Name)
		}
	}
	sc.quantifiers--
}

// undefinedVariable words the error for a variable not in scope, by
// owner and by whether a quantifier encloses it (then it could have bound
// it).
var undefinedVariable = [3][2]string{
	scopeObjects: {"variable %q where only objects are allowed%s",
		"undefined variable %q: not bound by an enclosing forall or exists%s"},
	scopeAction: {"undefined variable %q: not a parameter of the action%s",
		"undefined variable %q: neither a parameter of the action nor bound by an enclosing forall or exists%s"},
	scopeDerived: {"undefined variable %q: not in the head of the derived predicate%s",
		"undefined variable %q: neither in the head of the derived predicate nor bound by an enclosing forall or exists%s"},
}

// resolve checks a formula's predicates, arities and terms, and the types
// of its quantifiers' variables: variables must be in scope, names must
// be constants or, in a problem (objects not nil), objects. It reports
// whether all was well. It recurses once per nesting level.
func (p *parser) resolve(f *Formula, d *Domain, sc *scope, objects map[string]*Object) bool {
	switch f.Kind {
	case And, Or, Not, Imply:
		ok := true
		for _, s := range f.Sub {
			ok = p.resolve(s, d, sc, objects) && ok
		}
		return ok
	case Exists, Forall:
		ok := true
		for _, v := range f.Vars {
			ok = p.checkType(d, v.Type, v.Either, v.typePos) && ok
		}
		sc.push(f.Vars)
		for _, s := range f.Sub {
			ok = p.resolve(s, d, sc, objects) && ok
		}
		sc.pop(f.Vars)
		return ok
	case Equal:
		return p.terms(f.Pred.Args, d, sc, objects)
	}
	pr := d.preds[f.Pred.Name]
	if pr == nil {
		p.add(f.Pred.Pos, "undefined predicate %q%s", f.Pred.Name, p.hint(f.Pred.Name, func() []string { return slices.Sorted(maps.Keys(d.preds)) }))
		return false
	}
	ok := true
	if len(f.Pred.Args) != len(pr.Params) {
		p.add(f.Pred.Pos, "predicate %q takes %s, got %d", pr.Name, count(len(pr.Params), "argument"), len(f.Pred.Args))
		ok = false
	}
	return p.terms(f.Pred.Args, d, sc, objects) && ok
}

// resolveFunc checks a function term like resolve does an atom.
func (p *parser) resolveFunc(a *AtomTerm, d *Domain, sc *scope, objects map[string]*Object) bool {
	fn := d.funcs[a.Name]
	if fn == nil {
		p.add(a.Pos, "undefined function %q%s", a.Name, p.hint(a.Name, func() []string { return slices.Sorted(maps.Keys(d.funcs)) }))
		return false
	}
	ok := true
	if len(a.Args) != len(fn.Params) {
		p.add(a.Pos, "function %q takes %s, got %d", fn.Name, count(len(fn.Params), "argument"), len(a.Args))
		ok = false
	}
	return p.terms(a.Args, d, sc, objects) && ok
}

func (p *parser) terms(args []Term, d *Domain, sc *scope, objects map[string]*Object) bool {
	ok := true
	for _, t := range args {
		switch {
		case t.IsVariable() && sc.bound[t.Name] == 0:
			quantified := 0
			if sc.quantifiers > 0 {
				quantified = 1
			}
			p.add(t.Pos, undefinedVariable[sc.owner][quantified], t.Name, p.hint(t.Name, func() []string { return slices.Sorted(maps.Keys(sc.bound)) }))
			ok = false
		case t.IsVariable() || d.consts[t.Name] != nil:
		case objects == nil:
			p.add(t.Pos, "undefined constant %q%s", t.Name, p.hint(t.Name, func() []string { return slices.Sorted(maps.Keys(d.consts)) }))
			ok = false
		case objects[t.Name] == nil:
			cands := slices.Sorted(maps.Keys(objects))
			p.add(t.Pos, "undefined object %q%s", t.Name, p.hint(t.Name, func() []string { return append(cands, slices.Sorted(maps.Keys(d.consts))...) }))
			ok = false
		}
	}
	return ok
}
