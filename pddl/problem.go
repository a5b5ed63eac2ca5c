package pddl

import (
	"maps"
	"slices"
)

var (
	problemSections        = []string{":domain", ":requirements", ":objects", ":init", ":goal", ":metric"}
	refusedProblemSections = map[string]string{
		":constraints": ":constraints",
		":length":      "PDDL 1.2 plan length bounds",
	}
)

// ParseProblem parses a problem file; name is the file name used in
// errors. It checks what the file alone can tell (syntax, the subset,
// duplicate objects); Check then checks it against its domain. The error,
// if any, is an ErrorList of every problem found; the limits are
// ParseDomain's.
func ParseProblem(name string, src []byte) (*Problem, error) {
	p := &parser{errors: errors{file: name}}
	pr := p.problem(src)
	if err := p.err(); err != nil {
		return nil, err
	}
	return pr, nil
}

func (p *parser) problem(src []byte) *Problem {
	name, at, sections, ok := p.header(src, "problem")
	if !ok {
		return nil
	}
	pr := &Problem{File: p.file, Name: name, objects: map[string]*Object{}}
	seen := map[string]Pos{}
	for _, s := range sections {
		kw, ok := p.section(s)
		if !ok {
			continue
		}
		if why := refusedProblemSections[kw]; why != "" {
			p.add(s.list[0].pos, "%s is not supported (it needs %s)", kw, why)
			continue
		}
		if !slices.Contains(problemSections, kw) {
			p.add(s.list[0].pos, "unknown problem section %q%s", kw, p.hint(kw, func() []string {
				return append(slices.Clone(problemSections), slices.Sorted(maps.Keys(refusedProblemSections))...)
			}))
			continue
		}
		if prev, dup := seen[kw]; dup {
			p.add(s.pos, "duplicate %s section (the first is at %s)", kw, prev)
			continue
		}
		seen[kw] = s.pos
		body := s.list[1:]
		switch kw {
		case ":domain":
			if len(body) != 1 || body[0].isList || body[0].kind != tokName {
				p.add(s.pos, "expected (:domain NAME)")
				continue
			}
			pr.Domain, pr.DomainPos = body[0].text, body[0].pos
		case ":requirements":
			pr.Requirements = p.requirements(body)
		case ":objects":
			for _, o := range p.typedList(body, false, ":objects") {
				if prev := pr.objects[o.name]; prev != nil {
					p.add(o.pos, "duplicate object %q (first declared at %s)", o.name, prev.Pos)
					continue
				}
				obj := &Object{Name: o.name, Type: o.typ, Either: o.either, Pos: o.pos, typePos: o.typePos}
				pr.objects[o.name] = obj
				pr.Objects = append(pr.Objects, obj)
			}
		case ":init":
			p.init(pr, body)
		case ":goal":
			if len(body) != 1 {
				p.add(s.pos, "expected one goal formula, got %d", len(body))
				continue
			}
			pr.Goal = p.formula(body[0])
		case ":metric":
			pr.metricPos = s.pos
			p.metric(pr, s)
		}
	}
	if _, ok := seen[":domain"]; !ok {
		p.add(at, "missing (:domain NAME)")
	}
	if _, ok := seen[":goal"]; !ok {
		p.add(at, "missing (:goal ...)")
	}
	if pr.Goal == nil {
		pr.Goal = &Formula{Kind: And}
	}
	return pr
}

// formulaWords are the heads of formulas and effects that are not atoms:
// :init lists atoms only.
var formulaWords = map[string]bool{"and": true, "or": true, "imply": true, "exists": true, "forall": true, "when": true}

// init reads :init: atoms of objects, and (= (f objects) value).
func (p *parser) init(pr *Problem, items []*node) {
	for _, n := range items {
		if !n.isList || len(n.list) == 0 || n.list[0].isList || (n.list[0].kind != tokName && n.list[0].kind != tokSymbol) {
			p.add(n.pos, "expected an atom such as (at truck1 depot) in :init, got %s", quote(n.describe()))
			continue
		}
		head := n.list[0]
		switch {
		case head.text == "not":
			p.add(n.pos, `:init lists the true atoms; a "not" there is not supported (every atom not listed is false)`)
			continue
		case head.text == "at" && len(n.list) == 3 && !n.list[1].isList && n.list[1].kind == tokNumber:
			p.add(n.pos, "timed initial literals are not supported (they need :timed-initial-literals)")
			continue
		case head.text == "=":
			p.numericInit(pr, n)
			continue
		case head.kind == tokSymbol || formulaWords[head.text]:
			p.add(head.pos, "expected an atom in :init, got %q", head.text)
			continue
		}
		if p.refuse(n) {
			continue
		}
		if a, ok := p.atom(n); ok {
			pr.Init = append(pr.Init, a)
		}
	}
}

func (p *parser) numericInit(pr *Problem, n *node) {
	if len(n.list) != 3 || !n.list[1].isList || len(n.list[1].list) == 0 || n.list[1].list[0].isList || n.list[1].list[0].kind != tokName {
		p.add(n.pos, "expected (= (FUNCTION objects...) NUMBER)")
		return
	}
	f, ok := p.atom(n.list[1])
	if !ok {
		return
	}
	v, isNum := p.wholeNumber(n.list[2], "a function value")
	if !isNum {
		p.add(n.list[2].pos, "expected a whole number, got %s", quote(n.list[2].describe()))
		return
	}
	pr.NumericInit = append(pr.NumericInit, NumericValue{Func: f, Value: v, Pos: n.pos})
}

// metric accepts (:metric minimize (total-cost)) only.
func (p *parser) metric(pr *Problem, s *node) {
	body := s.list[1:]
	if len(body) == 2 && isWord(body[0], "minimize") && body[1].isList && len(body[1].list) == 1 && isWord(body[1].list[0], "total-cost") {
		pr.MinimizeTotalCost = true
		return
	}
	if len(body) > 0 && isWord(body[0], "maximize") {
		p.add(body[0].pos, "maximize is not supported: the only metric is (:metric minimize (total-cost))")
		return
	}
	p.add(s.pos, "only (:metric minimize (total-cost)) is supported")
}

// Check checks the problem against its domain: the domain's name, the
// objects' types, and every atom's predicate, arity and objects. The
// error, if any, is an ErrorList with positions in the problem file.
func (pr *Problem) Check(d *Domain) error {
	p := &parser{errors: errors{file: pr.File}}
	if pr.Domain != d.Name {
		p.add(pr.DomainPos, "the problem is for domain %q, but the domain is %q", pr.Domain, d.Name)
	}
	for _, o := range pr.Objects {
		if c := d.consts[o.Name]; c != nil && c.Type != o.Type {
			p.add(o.Pos, "object %q is a constant of the domain (of type %q), here of type %q", o.Name, c.Type, o.Type)
		}
		p.checkType(d, o.Type, o.Either, o.typePos)
	}
	objectsOnly := newScope(scopeObjects, nil)
	for i := range pr.Init {
		a := pr.Init[i]
		if r := d.derived[a.Name]; r != nil {
			p.add(a.Pos, "derived predicate %q cannot be in :init: it holds exactly where its :derived rule (at %s:%s) says", a.Name, d.File, r.Pos)
			continue
		}
		p.resolve(&Formula{Kind: Atom, Pred: a}, d, objectsOnly, pr.objects)
	}
	set := map[string]Pos{}
	for i := range pr.NumericInit {
		v := &pr.NumericInit[i]
		if !p.resolveFunc(&v.Func, d, objectsOnly, pr.objects) {
			continue
		}
		key := v.Func.Name
		for _, a := range v.Func.Args {
			key += " " + a.Name
		}
		if prev, dup := set[key]; dup {
			p.add(v.Pos, "the value of (%s) is already given at %s", key, prev)
		}
		set[key] = v.Pos
	}
	p.resolve(pr.Goal, d, objectsOnly, pr.objects)
	if pr.MinimizeTotalCost && d.funcs["total-cost"] == nil {
		p.add(pr.metricPos, `the metric minimizes "total-cost", which the domain does not declare`)
	}
	return p.err()
}
