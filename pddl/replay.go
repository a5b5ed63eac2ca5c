package pddl

import (
	stderrors "errors" // "errors" names this package's own collector of a file's errors
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxReplayWork bounds the work of one Replay call, counted in units: a
// formula node evaluated, a binding of quantified variables tried, a
// derived-predicate rule applied to a binding of its head (or looked at
// while ordering the rules into strata), an effect atom collected. A
// forall over a large type nested a few times, or a derived predicate
// over many objects, would otherwise make the check run for hours; past
// the limit Replay stops with ErrReplayLimit. 1<<26 units take 3 to 5 s
// on the project's 2-core machine (BenchmarkReplayADL); a three-step plan of psr-middle, whose
// derived predicates are recomputed before each step, takes about 1 M.
const MaxReplayWork = 1 << 26

// ErrReplayLimit is what Replay's error wraps when the check passed
// MaxReplayWork: the plan is neither accepted nor refused.
var ErrReplayLimit = stderrors.New("the check passed its limit")

// Replay checks a plan against the PDDL semantics directly, without
// grounding: each step, an IPC plan line such as "(pick ball1 rooma
// left)", names an action and objects of its parameters' types; its
// precondition must hold in the state reached so far, where :init gives
// the start; and the goal must hold at the end; a ";" starts a comment,
// and blank lines are skipped. It returns the plan's cost: the sum of
// total-cost's increases under the problem's metric, the number of steps
// without one. The error names the first step that fails and why. It is
// the grounding's oracle, sharing none of its code.
//
// ADL is read as written. exists and forall range over every object and
// constant of the variable's type (subtypes included, either types as
// Domain.Fits reads them); an inner variable hides an outer one of the
// same name. Derived predicates are false unless derived: before every
// precondition and the goal they are computed afresh from the state's
// other atoms, stratum by stratum (a predicate used under a negation is
// complete before its users), each to a fixpoint. An action's effect
// conditions, universal and conditional, are all read in the state
// before it; then every delete applies, then every add. The work is
// bounded by MaxReplayWork.
func Replay(d *Domain, p *Problem, plan []string) (int64, error) {
	cost, _, err := replayWithin(d, p, plan, MaxReplayWork)
	return cost, err
}

// replayWithin is Replay under another limit, for the tests, and says how
// much work the check took.
func replayWithin(d *Domain, p *Problem, plan []string, limit int64) (cost, work int64, err error) {
	r := replay{
		d: d, p: p, limit: limit,
		state:   map[string]bool{},
		derived: map[string]bool{},
		values:  map[string]int64{},
		ofType:  map[string][]string{},
	}
	cost, err = r.run(plan)
	return cost, r.work, err
}

func (r *replay) run(plan []string) (int64, error) {
	p := r.p
	if err := r.stratify(); err != nil {
		return 0, err
	}
	for _, a := range p.Init {
		if r.isDerived[a.Name] {
			return 0, fmt.Errorf("pddl: %s:%d:%d: :init holds %s, a derived predicate's atom: only its rules make it true", p.File, a.Pos.Line, a.Pos.Col, r.atom(a))
		}
		r.state[r.key(a.Name, a.Args)] = true
	}
	for _, v := range p.NumericInit {
		r.values[r.key(v.Func.Name, v.Func.Args)] = v.Value
	}
	var cost int64
	steps := 0
	for i, line := range plan {
		if line, _, _ = strings.Cut(line, ";"); strings.TrimSpace(line) == "" {
			continue // a comment, such as "; cost = 8 (general cost)", or a blank line
		}
		steps++
		c, err := r.step(line)
		if err != nil {
			where := fmt.Sprintf("step %d", steps)
			if steps != i+1 { // comments or blank lines before it
				where += fmt.Sprintf(" (line %d)", i+1)
			}
			return 0, fmt.Errorf("pddl: %s %s: %w", where, line, err)
		}
		cost += c
	}
	r.bind = map[string]string{}
	r.derive()
	ok := r.err == nil && r.holds(p.Goal)
	if r.err != nil {
		return 0, fmt.Errorf("pddl: the goal after the plan's %d steps: %w", steps, r.err)
	}
	if !ok {
		return 0, fmt.Errorf("pddl: the goal does not hold after the plan's %d steps%s", steps, r.why(p.Goal, p.File))
	}
	return cost, nil
}

type replay struct {
	d *Domain
	p *Problem
	// state holds the true atoms other than derived ones, as keys;
	// derived holds the derived atoms true in it, computed by derive.
	state, derived map[string]bool
	values         map[string]int64
	// bind maps the variables in scope to the objects they stand for.
	bind map[string]string

	// isDerived names the predicates some :derived rule defines; strata
	// holds the rules, those of each stratum together, lowest first.
	isDerived map[string]bool
	strata    [][]*Derived

	// ofType caches the objects of each type a variable may have.
	ofType map[string][]string

	work, limit int64
	// err is set once the work passed its limit; every evaluation then
	// answers false at once, and the caller reports err.
	err error
}

// spend counts n units of work and says whether the check may go on.
func (r *replay) spend(n int) bool {
	if r.err != nil {
		return false
	}
	r.work += int64(n)
	if r.work > r.limit {
		r.err = fmt.Errorf("%w of %d units of work (quantifier bindings tried, formula nodes and derived-predicate rules evaluated; pddl.MaxReplayWork)", ErrReplayLimit, r.limit)
		return false
	}
	return true
}

// key is a ground atom's name as a map key, the variables in scope
// replaced by their objects: "at t1 depot".
func (r *replay) key(name string, args []Term) string {
	var b strings.Builder
	b.WriteString(name)
	for _, a := range args {
		b.WriteByte(' ')
		if v, ok := r.bind[a.Name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(a.Name)
		}
	}
	return b.String()
}

// atom renders a ground atom as PDDL, "(at t1 depot)", for messages.
func (r *replay) atom(a AtomTerm) string { return "(" + r.key(a.Name, a.Args) + ")" }

func (r *replay) object(name string) *Object {
	if o := r.p.Object(name); o != nil {
		return o
	}
	return r.d.Constant(name)
}

// objectsOf lists the names of the objects a variable of prm's type may
// stand for: problem objects, then the domain constants no problem object
// hides, in the order the files declare them.
func (r *replay) objectsOf(prm Param) []string {
	k := prm.Type
	if prm.Either != nil {
		k = "(either " + strings.Join(prm.Either, " ") + ")"
	}
	if names, ok := r.ofType[k]; ok {
		return names
	}
	names := []string{}
	for _, o := range r.p.Objects {
		if r.d.Fits(o, prm) {
			names = append(names, o.Name)
		}
	}
	for _, o := range r.d.Constants {
		if r.p.Object(o.Name) == nil && r.d.Fits(o, prm) {
			names = append(names, o.Name)
		}
	}
	r.ofType[k] = names
	return names
}

// each binds vars to every combination of objects of their types in
// turn, the last variable changing fastest, and calls visit under each
// binding until visit answers false. Each binding tried is a unit of
// work. The variables hide outer ones of the same names while it runs, and
// it restores them after; it answers false if visit did or the work passed
// its limit. A variable whose type has no objects leaves no binding, so
// visit is never called; no variables leave one, the empty binding.
func (r *replay) each(vars []Param, visit func() bool) bool {
	domains := make([][]string, len(vars))
	for i, v := range vars {
		if domains[i] = r.objectsOf(v); len(domains[i]) == 0 {
			return true
		}
	}
	type prior struct {
		object string
		bound  bool
	}
	hidden := make([]prior, len(vars))
	for i, v := range vars {
		hidden[i].object, hidden[i].bound = r.bind[v.Name]
	}
	defer func() {
		// In reverse, so that a name listed twice gets its outer
		// binding back, not the first listing's.
		for i := len(vars) - 1; i >= 0; i-- {
			if hidden[i].bound {
				r.bind[vars[i].Name] = hidden[i].object
			} else {
				delete(r.bind, vars[i].Name)
			}
		}
	}()
	// An odometer, not recursion: a forall of many variables must not
	// recurse once per variable.
	at := make([]int, len(vars))
	for {
		if !r.spend(1) {
			return false
		}
		for i, v := range vars {
			r.bind[v.Name] = domains[i][at[i]]
		}
		if !visit() {
			return false
		}
		i := len(vars) - 1
		for ; i >= 0; i-- {
			if at[i]++; at[i] < len(domains[i]) {
				break
			}
			at[i] = 0
		}
		if i < 0 {
			return true
		}
	}
}

// holds evaluates a formula in the state under the bindings in scope. A
// nil formula (an effect without a when) is true. It recurses once per
// level of the formula's nesting, which the parser bounds, and no deeper.
func (r *replay) holds(f *Formula) bool {
	if f == nil {
		return true
	}
	if !r.spend(1) {
		return false
	}
	switch f.Kind {
	case And:
		for _, s := range f.Sub {
			if !r.holds(s) {
				return false
			}
		}
		return true
	case Or:
		for _, s := range f.Sub {
			if r.holds(s) {
				return true
			}
		}
		return false
	case Not:
		// Past the limit holds answers false; the caller reports r.err
		// whatever a negation made of it.
		return !r.holds(f.Sub[0])
	case Imply:
		return !r.holds(f.Sub[0]) || r.holds(f.Sub[1])
	case Forall:
		return r.each(f.Vars, func() bool { return r.holds(f.Sub[0]) }) && r.err == nil
	case Exists:
		found := false
		r.each(f.Vars, func() bool {
			found = r.holds(f.Sub[0])
			return !found
		})
		return found && r.err == nil
	case Equal:
		return r.key("", f.Pred.Args[:1]) == r.key("", f.Pred.Args[1:])
	}
	if r.isDerived[f.Pred.Name] {
		return r.derived[r.key(f.Pred.Name, f.Pred.Args)]
	}
	return r.state[r.key(f.Pred.Name, f.Pred.Args)]
}

// stratify orders the derived predicates' rules into strata: a rule whose
// body uses a derived predicate under a negation (or in an imply's
// premise) comes in a stratum above that predicate's rules, one that uses
// it positively in the same stratum or above. Definitions where a
// predicate depends on its own negation, directly or through others, have
// no such order and no meaning: Replay refuses them.
func (r *replay) stratify() error {
	r.isDerived = map[string]bool{}
	for _, rule := range r.d.Derived {
		r.isDerived[rule.Name] = true
	}
	if len(r.d.Derived) == 0 {
		return nil
	}
	strata, ok, at := newDerivedGraph(r.d).strata(r.d)
	if !ok {
		return fmt.Errorf("pddl: %s:%d:%d: the derived predicates are not stratified: %s depends on its own negation, through the rules that use it", r.d.File, at.Pos.Line, at.Pos.Col, at.Name)
	}
	r.strata = strata
	return nil
}

// derive computes the derived atoms of the state afresh: per stratum,
// lowest first, each rule over every binding of its head's variables,
// again and again until a round adds nothing. A rule may use its own
// stratum's predicates only positively, so what a round finds stays true
// and the rounds end. Past the work limit it stops with r.err set.
func (r *replay) derive() {
	clear(r.derived)
	if len(r.strata) == 0 {
		return
	}
	outer := r.bind
	defer func() { r.bind = outer }()
	for _, rules := range r.strata {
		for grew := true; grew && r.err == nil; {
			grew = false
			for _, rule := range rules {
				r.bind = map[string]string{}
				r.each(rule.Params, func() bool {
					head := rule.Name
					for _, prm := range rule.Params {
						head += " " + r.bind[prm.Name]
					}
					if !r.derived[head] && r.holds(rule.Body) {
						r.derived[head] = true
						grew = true
					}
					return r.err == nil
				})
			}
		}
	}
}

func (r *replay) step(line string) (int64, error) {
	s := strings.TrimSpace(strings.ToLower(line))
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return 0, fmt.Errorf("not a plan line: expected (ACTION OBJECTS...)")
	}
	words := strings.Fields(s[1 : len(s)-1])
	if len(words) == 0 {
		return 0, fmt.Errorf("no action named")
	}
	var act *Action
	for _, a := range r.d.Actions {
		if a.Name == words[0] {
			act = a
		}
	}
	if act == nil {
		return 0, fmt.Errorf("no action %q in domain %s", words[0], r.d.Name)
	}
	args := words[1:]
	if len(args) != len(act.Params) {
		return 0, fmt.Errorf("%s takes %d arguments, not %d", act.Name, len(act.Params), len(args))
	}
	r.bind = map[string]string{}
	for i, prm := range act.Params {
		o := r.object(args[i])
		if o == nil {
			return 0, fmt.Errorf("no object %q", args[i])
		}
		if !r.d.Fits(o, prm) {
			return 0, fmt.Errorf("%s is a %s, not a %s (parameter %s)", o.Name, o.Type, prm.Type, prm.Name)
		}
		r.bind[prm.Name] = o.Name
	}
	if r.derive(); r.err != nil {
		return 0, fmt.Errorf("deriving the state's derived predicates: %w", r.err)
	}
	ok := r.holds(act.Precondition)
	if r.err != nil {
		return 0, fmt.Errorf("the precondition: %w", r.err)
	}
	if !ok {
		return 0, fmt.Errorf("the precondition does not hold%s", r.why(act.Precondition, r.d.File))
	}
	cost := int64(1)
	if r.p.MinimizeTotalCost {
		cost = 0
		for _, c := range act.Effect.Cost {
			if c.Func == nil {
				cost += c.Value
				continue
			}
			v, ok := r.values[r.key(c.Func.Name, c.Func.Args)]
			if !ok {
				return 0, fmt.Errorf("%s has no value in :init", r.atom(*c.Func))
			}
			cost += v
		}
	}
	// Every condition reads the state before the action: collect the
	// changes first, apply them after.
	var adds, dels []string
	collect := func(add, del []AtomTerm) error {
		if !r.spend(len(add) + len(del)) {
			return r.err
		}
		for _, list := range [][]AtomTerm{del, add} {
			for _, a := range list {
				if r.isDerived[a.Name] {
					return fmt.Errorf("the effect at %s:%d:%d changes %s, a derived predicate's atom: only its rules make it true", r.d.File, a.Pos.Line, a.Pos.Col, r.atom(a))
				}
			}
		}
		for _, a := range del {
			dels = append(dels, r.key(a.Name, a.Args))
		}
		for _, a := range add {
			adds = append(adds, r.key(a.Name, a.Args))
		}
		return nil
	}
	if err := collect(act.Effect.Add, act.Effect.Delete); err != nil {
		return 0, err
	}
	for _, ce := range act.Effect.Conditional {
		var err error
		r.each(ce.Vars, func() bool {
			if r.holds(ce.Cond) {
				err = collect(ce.Add, ce.Delete)
			}
			return err == nil && r.err == nil
		})
		if err == nil {
			err = r.err
		}
		if err != nil {
			return 0, fmt.Errorf("the effect: %w", err)
		}
	}
	for _, k := range dels {
		delete(r.state, k)
	}
	for _, k := range adds {
		r.state[k] = true
	}
	return cost, nil
}

// why says, for a precondition or goal that does not hold, which of its
// top-level conjuncts (or itself, if not a conjunction) is false, and for
// a false forall, a binding under which its body is. It repeats part of
// the evaluation, under the same limit.
func (r *replay) why(f *Formula, file string) string {
	conjuncts := []*Formula{f}
	if f.Kind == And {
		conjuncts = f.Sub
	}
	for _, s := range conjuncts {
		if r.holds(s) || r.err != nil {
			continue
		}
		msg := fmt.Sprintf(": %s at %s:%d:%d is false", r.show(s), file, s.Pos.Line, s.Pos.Col)
		if s.Kind == Forall {
			var under []string
			r.each(s.Vars, func() bool {
				if r.holds(s.Sub[0]) {
					return true
				}
				for _, v := range s.Vars {
					under = append(under, v.Name+" = "+r.bind[v.Name])
				}
				return false
			})
			if under != nil {
				msg += " for " + strings.Join(under, ", ")
			}
		}
		return msg
	}
	return ""
}

// maxShown is the longest formula a message renders, in bytes; a longer
// one ends in "...".
const maxShown = 200

// show renders a formula as PDDL, the variables in scope replaced by
// their objects, cut at maxShown.
func (r *replay) show(f *Formula) string {
	var b strings.Builder
	r.write(&b, f)
	s := b.String()
	if len(s) <= maxShown {
		return s
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

func (r *replay) write(b *strings.Builder, f *Formula) {
	if b.Len() > maxShown {
		return // show cuts here anyway
	}
	switch f.Kind {
	case Atom:
		b.WriteString(r.atom(f.Pred))
		return
	case Equal:
		b.WriteString("(= " + strings.TrimPrefix(r.key("", f.Pred.Args), " ") + ")")
		return
	}
	b.WriteString("(" + [...]string{And: "and", Not: "not", Or: "or", Imply: "imply", Exists: "exists", Forall: "forall"}[f.Kind])
	if f.Kind == Exists || f.Kind == Forall {
		b.WriteString(" (")
		for i, v := range f.Vars {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(v.Name + " - " + v.Type)
		}
		b.WriteByte(')')
		// The quantifier's variables hide outer bindings of their
		// names: show them as variables.
		hidden := map[string]string{}
		for _, v := range f.Vars {
			if o, ok := r.bind[v.Name]; ok {
				hidden[v.Name] = o
				delete(r.bind, v.Name)
			}
		}
		defer func() {
			for name, o := range hidden {
				r.bind[name] = o
			}
		}()
	}
	for _, s := range f.Sub {
		b.WriteByte(' ')
		r.write(b, s)
	}
	b.WriteByte(')')
}
