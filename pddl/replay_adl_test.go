package pddl

import (
	stderrors "errors"
	"strconv"
	"strings"
	"testing"
)

// Until the parser reads ADL, these tests parse a STRIPS domain and put
// hand-built ADL nodes in its actions, goal and :derived rules.

// adlDomain declares the predicates and types the hand-built formulas
// use: ghost is a type without objects, small a subtype of block, and k a
// block constant that quantifiers must reach as well as the problem's
// objects.
const adlDomain = `(define (domain adl)
  (:requirements :typing)
  (:types block ghost node - object small - block)
  (:constants k - block)
  (:predicates (red ?x - block) (blue ?x - block) (on ?x ?y - block) (done)
               (edge ?x ?y - node) (reach ?x ?y - node) (unreach ?x ?y - node) (ok ?x - node))
  (:action act :parameters (?x - block) :precondition (and) :effect (and))
  (:action two :parameters (?x ?y - block) :precondition (and) :effect (and)))`

func adlPair(t *testing.T, objects, init string) (*Domain, *Problem) {
	t.Helper()
	d, err := ParseDomain("d.pddl", []byte(adlDomain))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseProblem("p.pddl", []byte(`(define (problem p) (:domain adl)
  (:objects `+objects+`) (:init `+init+`) (:goal (and)))`))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(d); err != nil {
		t.Fatal(err)
	}
	return d, p
}

func action(d *Domain, name string) *Action {
	for _, a := range d.Actions {
		if a.Name == name {
			return a
		}
	}
	panic("no action " + name)
}

func terms(args []string) []Term {
	ts := make([]Term, len(args))
	for i, a := range args {
		ts[i] = Term{Name: a}
	}
	return ts
}

func fAtom(name string, args ...string) *Formula {
	return &Formula{Kind: Atom, Pred: AtomTerm{Name: name, Args: terms(args)}}
}
func fEq(a, b string) *Formula {
	return &Formula{Kind: Equal, Pred: AtomTerm{Name: "=", Args: terms([]string{a, b})}}
}
func fAnd(sub ...*Formula) *Formula { return &Formula{Kind: And, Sub: sub} }
func fOr(sub ...*Formula) *Formula  { return &Formula{Kind: Or, Sub: sub} }
func fNot(f *Formula) *Formula      { return &Formula{Kind: Not, Sub: []*Formula{f}} }
func fImply(a, b *Formula) *Formula { return &Formula{Kind: Imply, Sub: []*Formula{a, b}} }
func fForall(vars []Param, f *Formula) *Formula {
	return &Formula{Kind: Forall, Vars: vars, Sub: []*Formula{f}}
}
func fExists(vars []Param, f *Formula) *Formula {
	return &Formula{Kind: Exists, Vars: vars, Sub: []*Formula{f}}
}
func vars(nameType ...string) []Param {
	var ps []Param
	for i := 0; i < len(nameType); i += 2 {
		ps = append(ps, Param{Name: nameType[i], Type: nameType[i+1]})
	}
	return ps
}
func at(name string, args ...string) AtomTerm { return AtomTerm{Name: name, Args: terms(args)} }

// replayWants runs the plan and checks its outcome: no error when want is
// "", else an error containing want.
func replayWants(t *testing.T, d *Domain, p *Problem, plan []string, want string) {
	t.Helper()
	_, err := Replay(d, p, plan)
	switch {
	case want == "" && err != nil:
		t.Errorf("%v: %v", plan, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%v: %v, want an error containing %q", plan, err, want)
	}
}

// TestReplayConditionsReadThePreState: two whens swap red and blue, which
// works only if the second reads the state before the first applied.
func TestReplayConditionsReadThePreState(t *testing.T) {
	d, p := adlPair(t, "a b - block", "(red a) (blue b)")
	action(d, "act").Effect.Conditional = []CondEffect{
		{Cond: fAtom("red", "?x"), Add: []AtomTerm{at("blue", "?x")}, Delete: []AtomTerm{at("red", "?x")}},
		{Cond: fAtom("blue", "?x"), Add: []AtomTerm{at("red", "?x")}, Delete: []AtomTerm{at("blue", "?x")}},
	}
	p.Goal = fAnd(fAtom("blue", "a"), fNot(fAtom("red", "a")), fAtom("red", "b"), fNot(fAtom("blue", "b")))
	replayWants(t, d, p, []string{"(act a)", "(act b)"}, "")
	// Twice more swaps back.
	replayWants(t, d, p, []string{"(act a)", "(act b)", "(act a)", "(act b)"}, "the goal does not hold")
	// A forall whose when reads what an earlier binding changed: every
	// block on a red one turns red, from the state before, so the chain
	// c on b on a with a red reddens b only, though c's binding comes
	// after b's.
	d, p = adlPair(t, "a b c - block", "(on c b) (on b a) (red a)")
	action(d, "act").Effect.Conditional = []CondEffect{{
		Vars: vars("?y", "block", "?z", "block"),
		Cond: fAnd(fAtom("on", "?y", "?z"), fAtom("red", "?z")),
		Add:  []AtomTerm{at("red", "?y")},
	}}
	p.Goal = fAnd(fAtom("red", "b"), fNot(fAtom("red", "c")))
	replayWants(t, d, p, []string{"(act a)"}, "")
	replayWants(t, d, p, []string{"(act a)", "(act a)"}, "the goal does not hold")
}

// TestReplayDeletesBeforeAdds: an atom both added and deleted by a step
// is true after it, whichever of the two is conditional.
func TestReplayDeletesBeforeAdds(t *testing.T) {
	d, p := adlPair(t, "a - block", "(red a)")
	act := action(d, "act")
	act.Effect.Add = []AtomTerm{at("red", "?x")}
	act.Effect.Conditional = []CondEffect{{Cond: fAtom("red", "?x"), Delete: []AtomTerm{at("red", "?x"), at("blue", "?x")}}}
	two := action(d, "two")
	two.Effect.Delete = []AtomTerm{at("blue", "?x")}
	two.Effect.Conditional = []CondEffect{{Vars: vars("?z", "block"), Add: []AtomTerm{at("blue", "?z")}}}
	p.Goal = fAnd(fAtom("red", "a"), fAtom("blue", "a"), fAtom("blue", "k"))
	replayWants(t, d, p, []string{"(act a)", "(two a a)"}, "")
	replayWants(t, d, p, []string{"(two a a)", "(act a)"}, "(blue a) at p.pddl")
}

// TestReplayEmptyTypes: a forall over a type with no objects is true, an
// exists over it false, whatever the body; a constant is an object of its
// type for the quantifiers.
func TestReplayEmptyTypes(t *testing.T) {
	d, p := adlPair(t, "a - block", "(red a)")
	for _, c := range []struct {
		goal *Formula
		want string
	}{
		{fForall(vars("?g", "ghost"), fOr()), ""},
		{fExists(vars("?g", "ghost"), fAnd()), "the goal does not hold"},
		{fForall(vars("?x", "block", "?g", "ghost"), fOr()), ""},
		{fExists(vars("?x", "block", "?g", "ghost"), fAnd()), "the goal does not hold"},
		{fExists(vars("?x", "block"), fNot(fAtom("red", "?x"))), ""}, // k is not red
		{fForall(vars("?x", "block"), fAtom("red", "?x")), "the goal does not hold"},
		{fForall(vars("?x", "block"), fImply(fNot(fEq("?x", "k")), fAtom("red", "?x"))), ""},
		{fExists(vars("?x", "small"), fAnd()), "the goal does not hold"}, // small has no objects
	} {
		p.Goal = c.goal
		replayWants(t, d, p, nil, c.want)
	}
}

// TestReplayShadowing: a quantified variable hides the action's parameter
// of the same name inside its scope only.
func TestReplayShadowing(t *testing.T) {
	d, p := adlPair(t, "a b - block", "(red a) (blue b) (blue k)")
	act := action(d, "act")
	// ?x is a: some block (?x inside) is blue, and after the exists ?x is a
	// again, which is red.
	act.Precondition = fAnd(fExists(vars("?x", "block"), fAtom("blue", "?x")), fAtom("red", "?x"))
	// Every other block turns red; the parameter turns blue.
	act.Effect.Conditional = []CondEffect{{Vars: vars("?x", "block"), Cond: fNot(fAtom("red", "?x")), Add: []AtomTerm{at("red", "?x")}}}
	act.Effect.Add = []AtomTerm{at("blue", "?x")}
	p.Goal = fAnd(fAtom("red", "b"), fAtom("blue", "a"), fAtom("red", "k"))
	replayWants(t, d, p, []string{"(act a)"}, "")
	replayWants(t, d, p, []string{"(act b)"}, "step 1 (act b): the precondition does not hold: (red b) at")
	// Nested: the inner ?x is the one compared.
	p.Goal = fForall(vars("?x", "block"), fExists(vars("?x", "block"), fNot(fAtom("red", "?x"))))
	replayWants(t, d, p, nil, "")
	p.Goal = fForall(vars("?x", "block"), fExists(vars("?y", "block"), fAnd(fEq("?x", "?y"), fNot(fAtom("red", "?x")))))
	replayWants(t, d, p, nil, "for ?x = a")
}

// TestReplayDerived: derived atoms are computed from the state, recursion
// to a fixpoint and negation over a lower stratum, before every step and
// the goal; they never enter the state.
func TestReplayDerived(t *testing.T) {
	d, p := adlPair(t, "n1 n2 n3 - node", "(edge n1 n2) (edge n2 n3)")
	addReachRules(d)
	cut := action(d, "two")
	cut.Params = vars("?x", "node", "?y", "node")
	cut.Precondition = fAnd(fAtom("reach", "?x", "?y"))
	cut.Effect.Delete = []AtomTerm{at("edge", "?x", "?y")}
	link := action(d, "act")
	link.Params = vars("?x", "node")
	link.Precondition = fAtom("unreach", "?x", "n1")
	link.Effect.Add = []AtomTerm{at("edge", "?x", "n1")}
	p.Goal = fAnd(fAtom("reach", "n1", "n3"), fAtom("unreach", "n3", "n1"), fAtom("unreach", "n1", "n1"))
	replayWants(t, d, p, nil, "")
	// Cutting n1-n2 leaves n1 reaching nothing: the goal's derived atoms
	// are derived again at the end.
	replayWants(t, d, p, []string{"(two n1 n2)"}, "the goal does not hold after the plan's 1 steps: (reach n1 n3)")
	// ... and before each step: n1 no longer reaches n2.
	replayWants(t, d, p, []string{"(two n1 n2)", "(two n1 n2)"}, "step 2 (two n1 n2): the precondition does not hold: (reach n1 n2)")
	// Linking n3 to n1 makes a cycle: n1 reaches itself, unreach falls.
	replayWants(t, d, p, []string{"(act n3)"}, "(unreach n3 n1) at p.pddl")
	replayWants(t, d, p, []string{"(act n3)", "(act n3)"}, "step 2 (act n3): the precondition does not hold")
	// A derived atom in :init or an effect is refused, not read.
	p.Init = append(p.Init, at("reach", "n3", "n1"))
	replayWants(t, d, p, nil, "p.pddl:0:0: :init holds (reach n3 n1), a derived predicate's atom")
	p.Init = p.Init[:len(p.Init)-1]
	link.Effect.Add = append(link.Effect.Add, at("reach", "?x", "?x"))
	replayWants(t, d, p, []string{"(act n3)"}, "step 1 (act n3): the effect at d.pddl:0:0 changes (reach n3 n3)")
}

// addReachRules appends reach, the transitive closure of edge, and
// unreach, its negation, to d, the user of the negation first as a file
// may list it.
func addReachRules(d *Domain) {
	xy := vars("?x", "node", "?y", "node")
	d.Derived = append(d.Derived,
		&Derived{Name: "unreach", Params: xy, Body: fNot(fAtom("reach", "?x", "?y"))},
		&Derived{Name: "reach", Params: xy, Body: fAtom("edge", "?x", "?y")},
		&Derived{Name: "reach", Params: xy, Body: fExists(vars("?z", "node"), fAnd(fAtom("edge", "?x", "?z"), fAtom("reach", "?z", "?y")))},
	)
}

// TestReplayNotStratified: a derived predicate that depends on its own
// negation, directly, through another or through an imply's premise, has
// no meaning; Replay says so rather than answer.
func TestReplayNotStratified(t *testing.T) {
	xy := vars("?x", "node", "?y", "node")
	for _, rules := range [][]*Derived{
		{{Name: "reach", Params: xy, Body: fNot(fAtom("reach", "?x", "?y"))}},
		{
			{Name: "reach", Params: xy, Body: fAtom("unreach", "?y", "?x")},
			{Name: "unreach", Params: xy, Body: fForall(vars("?z", "node"), fNot(fAtom("reach", "?x", "?z")))},
		},
		{
			{Name: "reach", Params: xy, Body: fImply(fAtom("unreach", "?x", "?y"), fAtom("edge", "?x", "?y"))},
			{Name: "unreach", Params: xy, Body: fOr(fAtom("edge", "?x", "?y"), fAtom("reach", "?x", "?y"))},
		},
	} {
		d, p := adlPair(t, "n1 - node", "")
		d.Derived = rules
		replayWants(t, d, p, nil, "the derived predicates are not stratified")
	}
	// Negation of a lower stratum, and doubled negation of one's own, are
	// fine.
	d, p := adlPair(t, "n1 - node", "")
	d.Derived = []*Derived{
		{Name: "reach", Params: xy, Body: fNot(fNot(fAtom("reach", "?y", "?x")))},
		{Name: "unreach", Params: xy, Body: fImply(fAtom("reach", "?x", "?y"), fAtom("edge", "?x", "?y"))},
	}
	p.Goal = fAtom("unreach", "n1", "n1")
	replayWants(t, d, p, nil, "")
}

// TestReplayLimit: a check that would pass its work limit stops with
// ErrReplayLimit, in a quantifier, a derivation or an effect, and names
// where it was.
func TestReplayLimit(t *testing.T) {
	objects := ""
	for i := range 40 {
		objects += " b" + strconv.Itoa(i)
	}
	d, p := adlPair(t, objects+" - block", "")
	wide := vars("?x", "block", "?y", "block", "?z", "block")
	p.Goal = fForall(wide, fNot(fAtom("on", "?x", "?y")))
	// 41³ bindings, each a unit and two nodes: near 200 000 units.
	if _, _, err := replayWithin(d, p, nil, 300_000); err != nil {
		t.Fatalf("under the limit: %v", err)
	}
	for _, c := range []struct {
		setup func()
		plan  []string
		want  string
	}{
		{func() {}, nil, "the goal after the plan's 0 steps: the check passed its limit of 100000 units"},
		{func() {
			action(d, "act").Precondition = fExists(wide, fAtom("on", "?x", "?z"))
		}, []string{"(act b1)"}, "step 1 (act b1): the precondition: the check passed its limit"},
		{func() {
			action(d, "act").Precondition = fAnd()
			action(d, "act").Effect.Conditional = []CondEffect{{Vars: wide, Add: []AtomTerm{at("on", "?x", "?y")}}}
		}, []string{"(act b1)"}, "step 1 (act b1): the effect: the check passed its limit"},
		{func() {
			action(d, "act").Effect.Conditional = nil
			d.Derived = []*Derived{{Name: "done", Body: fForall(wide, fAnd())}}
		}, []string{"(act b1)"}, "step 1 (act b1): deriving the state's derived predicates: the check passed its limit"},
	} {
		c.setup()
		_, _, err := replayWithin(d, p, c.plan, 100_000)
		if !stderrors.Is(err, ErrReplayLimit) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want ErrReplayLimit and %q", c.plan, err, c.want)
		}
	}
}

// TestReplayNamesTheFalseConjunct: a precondition or goal that does not
// hold says which conjunct is false, where it is written, and for a
// forall, a binding that makes it false; a long one is cut.
func TestReplayNamesTheFalseConjunct(t *testing.T) {
	d, p := adlPair(t, "a b - block", "(red a) (red b)")
	act := action(d, "act")
	body := fAtom("red", "?x")
	body.Pos = Pos{Line: 9, Col: 4}
	long := fOr()
	for range 100 {
		long.Sub = append(long.Sub, fAtom("blue", "?x"))
	}
	act.Precondition = fAnd(body, fForall(vars("?y", "block"), fNot(fAtom("on", "?x", "?y"))), long)
	act.Precondition.Sub[1].Pos = Pos{Line: 10, Col: 5}
	p.Init = append(p.Init, at("on", "b", "k"))
	replayWants(t, d, p, []string{"(act k)"}, "step 1 (act k): the precondition does not hold: (red k) at d.pddl:9:4 is false")
	replayWants(t, d, p, []string{"(act b)"}, "the precondition does not hold: (forall (?y - block) (not (on b ?y))) at d.pddl:10:5 is false for ?y = k")
	_, err := Replay(d, p, []string{"(act a)"})
	if err == nil || !strings.Contains(err.Error(), "(or (blue a) (blue a)") || !strings.HasSuffix(err.Error(), "... at d.pddl:0:0 is false") || len(err.Error()) > 300 {
		t.Errorf("a long conjunct: %v", err)
	}
}

// TestReplayDeepStrata: fifty derived predicates, each the negation of the
// one before, listed last first, take fifty strata: p0 holds, p1 does
// not, and so on. Ordering them is linear: 5 000 of them check within a
// million units, where raising strata round by round took 25 million.
func TestReplayDeepStrata(t *testing.T) {
	d, p := adlPair(t, "a - block", "")
	for i := 49; i >= 0; i-- {
		body := fAnd()
		if i > 0 {
			body = fNot(fAtom("p" + strconv.Itoa(i-1)))
		}
		d.Derived = append(d.Derived, &Derived{Name: "p" + strconv.Itoa(i), Body: body})
	}
	p.Goal = fAnd(fAtom("p48"), fNot(fAtom("p49")), fAtom("p0"), fNot(fAtom("p1")))
	replayWants(t, d, p, nil, "")
	p.Goal = fAtom("p49")
	replayWants(t, d, p, nil, "the goal does not hold")
	d.Derived = nil
	for i := 4999; i >= 0; i-- {
		body := fAnd()
		if i > 0 {
			body = fNot(fAtom("p" + strconv.Itoa(i-1)))
		}
		d.Derived = append(d.Derived, &Derived{Name: "p" + strconv.Itoa(i), Body: body})
	}
	p.Goal = fAnd(fAtom("p4998"), fNot(fAtom("p4999")))
	if _, _, err := replayWithin(d, p, nil, 1_000_000); err != nil {
		t.Errorf("5 000 strata within a million units: %v", err)
	}
}
