package pddl

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// unsupported names the constructs outside the language ploy reads and
// the requirement each belongs to, so that the error says what the file
// asks for.
var unsupported = map[string]string{
	"<":            ":numeric-fluents",
	">":            ":numeric-fluents",
	"<=":           ":numeric-fluents",
	">=":           ":numeric-fluents",
	"decrease":     ":numeric-fluents",
	"assign":       ":numeric-fluents",
	"scale-up":     ":numeric-fluents",
	"scale-down":   ":numeric-fluents",
	"preference":   ":preferences",
	"at-most-once": ":constraints",
}

// supportedRequirements are the language's; knownRequirements the rest of
// PDDL 3.1's (and :negation, PDDL 1.2's name for negative preconditions).
// Every known flag is accepted: a flag alone asks nothing of the planner,
// and the reference planners accept a file that declares :fluents and
// uses none of it. What is refused is a construct outside the language,
// at its position, whatever the file declares.
var (
	supportedRequirements = []string{":strips", ":typing", ":negative-preconditions", ":equality", ":action-costs",
		":adl", ":disjunctive-preconditions", ":existential-preconditions", ":universal-preconditions",
		":quantified-preconditions", ":conditional-effects", ":derived-predicates"}
	knownRequirements = []string{
		":fluents", ":numeric-fluents",
		":object-fluents", ":durative-actions", ":duration-inequalities",
		":continuous-effects", ":timed-initial-literals", ":preferences",
		":constraints", ":domain-axioms", ":safety-constraints", ":expression-evaluation",
		":open-world", ":true-negation", ":ucpop", ":action-expansions", ":foreach-expansions",
		":dag-expansions", ":subgoals-through-axioms", ":timed-initial-fluents", ":negation",
	}
)

// parser holds one file's errors, and what it has spent of a bound.
type parser struct {
	errors
	flattened int // variables and conditions copied into flattened effects (maxFlattened)
}

// header reads src's one (define (KIND NAME) sections...) form and returns
// its name and sections; ok is false if there is nothing to go on.
func (p *parser) header(src []byte, kind string) (name string, define Pos, sections []*node, ok bool) {
	if len(src) > MaxSize {
		p.add(Pos{}, "the file is %d bytes, more than the limit of %d", len(src), MaxSize)
		return "", Pos{}, nil, false
	}
	forms := read(src, &p.errors)
	if p.failed() {
		return "", Pos{}, nil, false
	}
	want := fmt.Sprintf(`"(define (%s NAME) ...)"`, kind)
	if len(forms) == 0 {
		p.add(Pos{1, 1}, "empty file: expected %s", want)
		return "", Pos{}, nil, false
	}
	def := forms[0]
	for _, extra := range forms[1:] {
		p.add(extra.pos, "unexpected %s after the definition", quote(extra.describe()))
	}
	if !def.isList || len(def.list) == 0 || !isWord(def.list[0], "define") {
		p.add(def.pos, "expected %s, got %s", want, quote(def.describe()))
		return "", Pos{}, nil, false
	}
	if len(def.list) < 2 || !def.list[1].isList || len(def.list[1].list) == 0 || !isWord(def.list[1].list[0], kind) {
		at := def.end
		got := "nothing"
		if len(def.list) >= 2 {
			at, got = def.list[1].pos, quote(def.list[1].describe())
		}
		if kind == "problem" && len(def.list) >= 2 && def.list[1].isList && len(def.list[1].list) > 0 && isWord(def.list[1].list[0], "domain") {
			p.add(at, "this is a domain file; expected a problem file, %s", want)
		} else if kind == "domain" && len(def.list) >= 2 && def.list[1].isList && len(def.list[1].list) > 0 && isWord(def.list[1].list[0], "problem") {
			p.add(at, "this is a problem file; expected a domain file, %s", want)
		} else {
			p.add(at, "expected (%s NAME) after define, got %s", kind, got)
		}
		return "", Pos{}, nil, false
	}
	h := def.list[1]
	if len(h.list) != 2 || h.list[1].isList || h.list[1].kind != tokName {
		p.add(h.pos, "expected (%s NAME) with one name", kind)
		return "", Pos{}, nil, false
	}
	return h.list[1].text, def.pos, def.list[2:], true
}

func isWord(n *node, w string) bool {
	return !n.isList && (n.kind == tokName || n.kind == tokSymbol) && n.text == w
}

// section checks that n is a (:keyword ...) section and returns its keyword.
func (p *parser) section(n *node) (string, bool) {
	if !n.isList || len(n.list) == 0 || n.list[0].isList || n.list[0].kind != tokKeyword {
		p.add(n.pos, "expected a section such as (:requirements ...), got %s", quote(n.describe()))
		return "", false
	}
	return n.list[0].text, true
}

// requirements reads a :requirements section's body.
func (p *parser) requirements(items []*node) []string {
	var out []string
	for _, it := range items {
		if it.isList || it.kind != tokKeyword {
			p.add(it.pos, "expected a requirement such as :strips, got %s", quote(it.describe()))
			continue
		}
		switch {
		case slices.Contains(supportedRequirements, it.text), slices.Contains(knownRequirements, it.text):
			out = append(out, it.text)
		default:
			p.add(it.pos, "unknown requirement %q%s", it.text,
				p.hint(it.text, func() []string { return append(slices.Clone(supportedRequirements), knownRequirements...) }))
		}
	}
	return out
}

// typedName is one entry of a typed list: NAME or NAME - TYPE, TYPE
// being a name or (either NAME...).
type typedName struct {
	name, typ    string
	either       []string // the alternatives of an either type, typ being "(either a b)"
	pos, typePos Pos
}

// typedList reads "a b - t c - (either u v) d": names (or variables, if
// vars) with their types, "object" where none is given.
func (p *parser) typedList(items []*node, vars bool, what string) []typedName {
	out := make([]typedName, 0, len(items))
	pending := 0 // entries at the end of out still waiting for a type
	want, wantKind := "name", tokName
	if vars {
		want, wantKind = "variable", tokVariable
	}
	for i := 0; i < len(items); i++ {
		it := items[i]
		if isWord(it, "-") {
			if pending == 0 {
				p.add(it.pos, `"-" with no %s before it in %s`, want, what)
			}
			if i+1 == len(items) {
				p.add(it.pos, `expected a type after "-" in %s`, what)
				break
			}
			i++
			t := items[i]
			typ, either := "", []string(nil)
			switch {
			case t.isList && len(t.list) > 0 && isWord(t.list[0], "either"):
				typ, either = p.either(t, what)
			case t.isList || t.kind != tokName:
				p.add(t.pos, `expected a type name after "-", got %s`, quote(t.describe()))
			default:
				typ = t.text
			}
			for k := len(out) - pending; k < len(out); k++ {
				out[k].typ, out[k].either, out[k].typePos = typ, either, t.pos
			}
			pending = 0
			continue
		}
		if it.isList || it.kind != wantKind {
			p.add(it.pos, "expected a %s in %s, got %s", want, what, quote(it.describe()))
			continue
		}
		out = append(out, typedName{name: it.text, typ: "object", pos: it.pos})
		pending++
	}
	return out
}

// either reads (either NAME...), a union type: its written form, such as
// "(either a b)", and its alternatives without repeats ("" and nil if it
// is malformed). Of one alternative, it is that type.
func (p *parser) either(t *node, what string) (string, []string) {
	var alts []string
	ok := true
	for _, a := range t.list[1:] {
		if a.isList || a.kind != tokName {
			p.add(a.pos, "expected a type name in (either ...) in %s, got %s", what, quote(a.describe()))
			ok = false
			continue
		}
		if !slices.Contains(alts, a.text) {
			alts = append(alts, a.text)
		}
	}
	switch {
	case !ok:
		return "", nil
	case len(alts) == 0:
		p.add(t.pos, "(either) names no type in %s", what)
		return "", nil
	case len(alts) == 1:
		return alts[0], nil
	}
	return "(either " + strings.Join(alts, " ") + ")", alts
}

// refuse reports n, a formula or effect, if its head is a construct
// outside the language, and then every such construct nested in it, so
// that one run lists them all (a comparison inside a preference), not
// only the outermost.
func (p *parser) refuse(n *node) bool {
	head := n.list[0]
	if head.isList {
		return false
	}
	req, ok := unsupported[head.text]
	if !ok {
		return false
	}
	p.addKind("unsupported "+strconv.Quote(head.text), head.pos, "%q is not supported (%s is not implemented)", head.text, req)
	if head.text == "preference" && len(n.list) > 1 {
		p.scan(n.list[len(n.list)-1]) // (preference [NAME] GD)
	}
	return true
}

// scan reports the constructs outside the language in n, part of a
// construct already refused: only those, as the rest is not read. It
// walks every list (a formula's, an effect's, a quantifier's variables),
// as whatever is in a refused construct is not checked otherwise. It
// recurses once per nesting level, which read bounds by MaxDepth.
func (p *parser) scan(n *node) {
	if !n.isList || len(n.list) == 0 {
		return
	}
	if p.refuse(n) {
		return
	}
	for _, c := range n.list {
		p.scan(c)
	}
}

// formula reads a precondition, goal, effect condition or derived
// predicate's body: (and ...), (or ...), (not F), (imply F G), (exists
// (VARS) F), (forall (VARS) F), atoms and equalities. (not (not F)) is F.
// Anything else is reported and dropped. The terms are checked later, by
// resolve, which knows the variables in scope. It recurses once per
// nesting level, which read bounds by MaxDepth.
func (p *parser) formula(n *node) *Formula {
	if !n.isList {
		p.add(n.pos, "expected a formula in parentheses, got %s", quote(n.describe()))
		return nil
	}
	if len(n.list) == 0 {
		return &Formula{Kind: And, Pos: n.pos}
	}
	head := n.list[0]
	if head.isList || (head.kind != tokName && head.kind != tokSymbol) {
		p.add(head.pos, "expected a predicate, \"and\", \"or\", \"not\", \"imply\", \"exists\", \"forall\" or \"=\", got %s", quote(head.describe()))
		return nil
	}
	if p.refuse(n) {
		return nil
	}
	args := n.list[1:]
	switch head.text {
	case "and", "or":
		f := &Formula{Kind: And, Pos: n.pos}
		if head.text == "or" {
			f.Kind = Or
		}
		for _, c := range args {
			// A part that is wrong is reported and left out; the others
			// are still checked, so that one run reports them all.
			if sub := p.formula(c); sub != nil {
				f.Sub = append(f.Sub, sub)
			}
		}
		return f
	case "not":
		if len(args) != 1 {
			p.add(n.pos, `"not" takes one formula, got %d`, len(args))
			return nil
		}
		sub := p.formula(args[0])
		if sub == nil {
			return nil
		}
		if sub.Kind == Not {
			return sub.Sub[0] // double negation
		}
		return &Formula{Kind: Not, Sub: []*Formula{sub}, Pos: n.pos}
	case "imply":
		if len(args) != 2 {
			p.add(n.pos, `"imply" takes two formulas, got %d`, len(args))
			return nil
		}
		premise, conclusion := p.formula(args[0]), p.formula(args[1])
		if premise == nil || conclusion == nil {
			return nil
		}
		return &Formula{Kind: Imply, Sub: []*Formula{premise, conclusion}, Pos: n.pos}
	case "exists", "forall":
		vars, body, ok := p.quantifier(n, "formula")
		if !ok {
			return nil
		}
		sub := p.formula(body)
		if sub == nil {
			return nil
		}
		f := &Formula{Kind: Exists, Sub: []*Formula{sub}, Vars: vars, Pos: n.pos}
		if head.text == "forall" {
			f.Kind = Forall
		}
		return f
	case "when":
		p.add(head.pos, `"when" is a conditional effect: it cannot be part of a condition`)
		return nil
	case "=":
		a, ok := p.atom(n)
		if !ok {
			return nil
		}
		if len(a.Args) != 2 {
			p.add(n.pos, `"=" takes two terms, got %d`, len(a.Args))
			return nil
		}
		return &Formula{Kind: Equal, Pred: a, Pos: n.pos}
	}
	if head.kind == tokSymbol {
		p.add(head.pos, "expected a predicate, \"and\", \"or\", \"not\", \"imply\", \"exists\", \"forall\" or \"=\", got %q", head.text)
		return nil
	}
	a, ok := p.atom(n)
	if !ok {
		return nil
	}
	return &Formula{Kind: Atom, Pred: a, Pos: n.pos}
}

// quantifier reads the variables and the body of n, (exists (VARS) BODY)
// or (forall (VARS) BODY), BODY being a formula or an effect (what); ok
// is false if n has not that shape. The variables are typed as
// parameters are, either types included; their types are checked by
// resolve, which has the domain.
func (p *parser) quantifier(n *node, what string) (vars []Param, body *node, ok bool) {
	name := n.list[0].text
	if len(n.list) != 3 || !n.list[1].isList {
		p.add(n.pos, "%q takes a variable list in parentheses and one %s, such as (%s (?x - t) (p ?x)), got %s",
			name, what, name, describeArgs(n.list[1:]))
		return nil, nil, false
	}
	seen := map[string]Pos{}
	for _, v := range p.typedList(n.list[1].list, true, "the variables of "+quote(name)) {
		if prev, dup := seen[v.name]; dup {
			p.add(v.pos, "duplicate variable %q in %q (first at %s)", v.name, name, prev)
			continue
		}
		seen[v.name] = v.pos
		vars = append(vars, Param{Name: v.name, Type: v.typ, Either: v.either, Pos: v.pos, typePos: v.typePos})
	}
	return vars, n.list[2], true
}

// describeArgs says what a malformed construct was given: "nothing", or
// how many arguments and the first.
func describeArgs(args []*node) string {
	if len(args) == 0 {
		return "nothing"
	}
	return count(len(args), "argument") + ", the first " + quote(args[0].describe())
}

// atom reads (NAME term...), the terms being names or variables.
func (p *parser) atom(n *node) (AtomTerm, bool) {
	a := AtomTerm{Name: n.list[0].text, Pos: n.pos}
	ok := true
	for _, t := range n.list[1:] {
		switch {
		case t.isList:
			p.add(t.pos, "function terms such as %s are not supported (they need :object-fluents)", quote(t.describe()))
			ok = false
		case t.kind == tokName || t.kind == tokVariable:
			a.Args = append(a.Args, Term{Name: t.text, Pos: t.pos})
		default:
			p.add(t.pos, "expected an object or a variable, got %s", quote(t.describe()))
			ok = false
		}
	}
	return a, ok
}

// wholeNumber reads a non-negative whole number, for costs.
func (p *parser) wholeNumber(n *node, what string) (int64, bool) {
	if n.isList || n.kind != tokNumber {
		return 0, false
	}
	switch v, err := strconv.ParseInt(strings.TrimPrefix(n.text, "+"), 10, 64); {
	case strings.HasPrefix(n.text, "-"):
		p.add(n.pos, "%s cannot be negative, got %s", what, n.text)
	case strings.Contains(n.text, "."):
		p.add(n.pos, "%s must be a whole number, got %s", what, n.text)
	case err != nil:
		p.add(n.pos, "%s of %s is too large (at most %d)", what, n.text, int64(math.MaxInt64))
	default:
		return v, true
	}
	return 0, true
}

// count says "1 argument" or "2 arguments".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
