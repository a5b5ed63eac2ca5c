package pddl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/strips"
)

// These tests pin down choices of the ADL normalisation and grounding
// (ground_normal.go, ground_task.go) that the random comparisons with the
// PDDL semantics cannot see, found by a mutation pass: where a universal
// condition is written out and where it becomes a derived predicate, the
// same for a disjunction, the numbering of the strata, and an effect its
// action's precondition contradicts.

// objectList is "o1 o2 ... on - t".
func objectList(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "o%d ", i)
	}
	return sb.String() + "- t"
}

// sameCostAsThePDDL grounds d and p, and checks that the task's optimal
// cost is the one a search over the PDDL semantics finds, want.
func sameCostAsThePDDL(t *testing.T, d *pddl.Domain, p *pddl.Problem, want int64) *pddl.Grounding {
	t.Helper()
	lifted, ok, err := pddl.LiftedOptimalCost(d, p, 20000)
	if err != nil || !ok {
		t.Fatalf("the PDDL search: ok %v, %v", ok, err)
	}
	if lifted != want {
		t.Fatalf("the PDDL's optimal cost is %d, the test expects %d", lifted, want)
	}
	g, err := pddl.Ground(d, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Task.Validate(); err != nil {
		t.Fatal(err)
	}
	got, _, ok := dijkstra(g.Task, 1<<20)
	if !ok {
		t.Fatal("the ground task has too many states")
	}
	if g.Unsolvable != "" {
		got = -1
	}
	if got != want {
		t.Fatalf("the ground task's optimal cost is %d, the PDDL's %d", got, want)
	}
	return g
}

// TestADLWideForall: a universal condition over more objects than
// maxExpansion (16) becomes a negated derived predicate whose body is the
// negation of the forall's: here a body with a negative literal and a
// disjunction, in a precondition, an effect's condition and the goal.
func TestADLWideForall(t *testing.T) {
	dom := `(define (domain wide)
  (:requirements :adl)
  (:types t)
  (:predicates (p ?x - t) (bad ?x - t) (done) (lit))
  (:action fix
    :parameters (?x - t)
    :precondition (bad ?x)
    :effect (and (p ?x) (not (bad ?x))))
  (:action finish
    :precondition (forall (?x - t) (or (not (bad ?x)) (p ?x)))
    :effect (and (done)
      (when (forall (?y - t) (and (not (bad ?y)) (p ?y))) (lit)))))`
	// o1 and o2 are bad; o3 is not p: finishing at once is allowed (the
	// bad ones are not all p) only after fixing both; lit needs every
	// object p and none bad, which o3 never is.
	var init strings.Builder
	for i := 1; i <= 17; i++ {
		switch i {
		case 1, 2:
			fmt.Fprintf(&init, "(bad o%d) ", i)
		case 3:
		default:
			fmt.Fprintf(&init, "(p o%d) ", i)
		}
	}
	prob := func(goal string) string {
		return fmt.Sprintf("(define (problem w) (:domain wide) (:objects %s) (:init %s) (:goal %s))", objectList(17), init.String(), goal)
	}
	for _, c := range []struct {
		goal string
		want int64
	}{
		{"(done)", 3},
		{"(lit)", -1},
		{"(and (done) (forall (?z - t) (or (p ?z) (not (bad ?z)))))", 3},
		{"(forall (?z - t) (not (bad ?z)))", 2},
		{"(forall (?z - t) (p ?z))", -1},
	} {
		t.Run(c.goal, func(t *testing.T) {
			d, p := mustParse(t, dom, prob(c.goal))
			g := sameCostAsThePDDL(t, d, p, c.want)
			if c.want >= 0 && len(g.Task.Axioms) == 0 {
				t.Error("no axioms: the forall over 17 objects was written out")
			}
		})
	}
}

// TestADLExpansionThreshold: a universal condition with at most
// maxExpansion (16) bindings is written out as a conjunction, which the
// estimators see; one more, and it is a negated derived predicate.
func TestADLExpansionThreshold(t *testing.T) {
	dom := `(define (domain exp)
  (:requirements :adl)
  (:types t)
  (:predicates (p ?x - t) (done))
  (:action set :parameters (?x - t) :precondition (not (p ?x)) :effect (p ?x))
  (:action finish :precondition (forall (?x - t) (p ?x)) :effect (done)))`
	for _, n := range []int{16, 17} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			prob := fmt.Sprintf("(define (problem e) (:domain exp) (:objects %s) (:init (p o1)) (:goal (done)))", objectList(n))
			d, p := mustParse(t, dom, prob)
			g, err := pddl.Ground(d, p)
			if err != nil {
				t.Fatal(err)
			}
			var finish *strips.Op
			for i := range g.Task.Ops {
				if g.Task.Ops[i].Name == "(finish)" {
					finish = &g.Task.Ops[i]
				}
			}
			if finish == nil {
				t.Fatal("no ground action (finish)")
			}
			if n <= 16 {
				if len(g.Task.Axioms) != 0 || len(finish.Pre) != n-1 {
					t.Errorf("%d axioms, (finish) requires %d facts: want the forall written out, 0 axioms and %d facts (p o1 is static)", len(g.Task.Axioms), len(finish.Pre), n-1)
				}
				return
			}
			if len(g.Task.Axioms) == 0 || len(finish.PreNot) != 1 {
				t.Errorf("%d axioms, (finish) requires %d facts false: want the forall a negated derived fact", len(g.Task.Axioms), len(finish.PreNot))
			}
		})
	}
}

// TestADLDisjunctionThreshold: a precondition whose disjunctive form has
// at most maxDisjuncts (16) disjuncts splits into that many schemas, one
// ground action each, a conjunct of one disjunct counting once; past it,
// its ors become derived predicates.
func TestADLDisjunctionThreshold(t *testing.T) {
	for _, ors := range []int{4, 5} {
		t.Run(fmt.Sprint(ors), func(t *testing.T) {
			var preds, sets, pre, init strings.Builder
			pre.WriteString("(and (c)")
			for i := 1; i <= ors; i++ {
				fmt.Fprintf(&preds, "(a%d) (b%d) ", i, i)
				fmt.Fprintf(&sets, "(:action set%d :effect (and (a%d) (b%d)))\n", i, i, i)
				fmt.Fprintf(&pre, " (or (a%d) (b%d))", i, i)
			}
			pre.WriteString(")")
			init.WriteString("(c)")
			dom := fmt.Sprintf(`(define (domain dis)
  (:requirements :adl)
  (:predicates (c) (done) %s)
  (:action unset :precondition (c) :effect (not (c)))
  %s
  (:action act :precondition %s :effect (done)))`, preds.String(), sets.String(), pre.String())
			prob := fmt.Sprintf("(define (problem q) (:domain dis) (:init %s) (:goal (done)))", init.String())
			d, p := mustParse(t, dom, prob)
			g := sameCostAsThePDDL(t, d, p, int64(ors+1))
			acts := 0
			for _, o := range g.Task.Ops {
				if o.Name == "(act)" {
					acts++
				}
			}
			if ors == 4 && (acts != 16 || len(g.Task.Axioms) != 0) {
				t.Errorf("%d ground (act), %d axioms: want 16 and 0 (the precondition split)", acts, len(g.Task.Axioms))
			}
			if ors == 5 && (acts >= 32 || len(g.Task.Axioms) == 0) {
				t.Errorf("%d ground (act), %d axioms: want the ors derived, not 32 schemas", acts, len(g.Task.Axioms))
			}
		})
	}
}

// TestADLStrataAreLeast: each derived predicate gets the least layer
// stratification allows: 0 for one reading only basic facts, one above a
// predicate it reads negated, the layer of a predicate it reads
// positively. d2 reads d1 positively, which reads d0 negated: d2 in
// layer 0 would be evaluated before d1 is final.
func TestADLStrataAreLeast(t *testing.T) {
	dom := `(define (domain strata)
  (:requirements :adl :derived-predicates)
  (:predicates (b) (e) (d0) (d1) (d2) (done))
  (:derived (d0) (b))
  (:derived (d1) (and (e) (not (d0))))
  (:derived (d2) (d1))
  (:action setb :effect (b))
  (:action sete :effect (e))
  (:action unsetb :precondition (b) :effect (not (b)))
  (:action go :precondition (d2) :effect (done)))`
	prob := `(define (problem s) (:domain strata) (:init (b)) (:goal (done)))`
	d, p := mustParse(t, dom, prob)
	g := sameCostAsThePDDL(t, d, p, 3)
	layers := map[string]int32{}
	for _, a := range g.Task.Axioms {
		layers[g.Task.Facts[a.Head]] = a.Layer
	}
	want := map[string]int32{"(d0)": 0, "(d1)": 1, "(d2)": 1}
	if fmt.Sprint(layers) != fmt.Sprint(want) {
		t.Errorf("layers %v, want %v", layers, want)
	}
}

// TestADLContradictedEffectDropped: a conditional effect whose condition
// the action's precondition contradicts never applies, and is dropped
// when the actions are built, so that what only it adds is known
// unreachable (and the action needing that is dropped too).
func TestADLContradictedEffectDropped(t *testing.T) {
	dom := `(define (domain contra)
  (:requirements :adl)
  (:predicates (p) (q) (x) (done))
  (:action a :precondition (not (p)) :effect (and (x) (when (p) (q))))
  (:action setp :effect (p))
  (:action b :precondition (q) :effect (done))
  (:action c :precondition (x) :effect (done)))`
	prob := `(define (problem c) (:domain contra) (:init) (:goal (done)))`
	d, p := mustParse(t, dom, prob)
	g := sameCostAsThePDDL(t, d, p, 2)
	for _, o := range g.Task.Ops {
		switch o.Name {
		case "(a)":
			if len(o.Effects) != 0 {
				t.Errorf("(a) has %d conditional effects, want none: (when (p) (q)) contradicts its precondition", len(o.Effects))
			}
		case "(b)":
			t.Error("(b) is in the task, but nothing can add its precondition (q)")
		}
	}
}

// TestADLDroppedActionsEffectsPropagate: when simplification drops an
// action whose precondition a constant contradicts, what only it added
// (by its own adds or its conditional effects) becomes constant false,
// what only it deleted and was true initially constant true, and the
// actions needing the opposite are dropped in turn; a fact another action
// still adds, or one false initially, is left alone. (x) requires (not
// (k)), and (k) is true initially and deleted by no action that can
// apply ((z) is never true), so (x) never applies; the grounder cannot
// see that before simplification, as (k) is no static predicate.
func TestADLDroppedActionsEffectsPropagate(t *testing.T) {
	dom := `(define (domain prop)
  (:requirements :adl)
  (:predicates (k) (z) (m) (q) (r) (w) (v) (u) (done))
  (:action delk :precondition (z) :effect (not (k)))
  (:action x :precondition (not (k))
    :effect (and (r) (not (w)) (not (u)) (when (m) (and (q) (not (v))))))
  (:action setm :effect (m))
  (:action setr :effect (r))
  (:action setu :effect (u))
  (:action b :precondition (q) :effect (done))
  (:action bw :precondition (not (w)) :effect (done))
  (:action bv :precondition (not (v)) :effect (done))
  (:action c :precondition (and (m) (r) (u)) :effect (done)))`
	prob := `(define (problem p) (:domain prop) (:init (k) (w) (v)) (:goal (done)))`
	d, p := mustParse(t, dom, prob)
	g := sameCostAsThePDDL(t, d, p, 4)
	names := map[string]bool{}
	for _, o := range g.Task.Ops {
		names[o.Name] = true
	}
	for _, name := range []string{"(x)", "(b)", "(bw)", "(bv)"} {
		if names[name] {
			t.Errorf("%s is in the task: (x) never applies, so (q) is never added, (w) and (v) never deleted", name)
		}
	}
	if !names["(c)"] {
		t.Error("(c) was dropped: (r) and (u) are still added by (setr) and (setu)")
	}
}

// TestGroundNilPrecondition: a Domain built in Go rather than parsed may
// leave an action's Precondition nil, which means no precondition; the
// parser writes an empty conjunction instead, so only this test passes
// nil, for a STRIPS action and for one with a conditional effect.
func TestGroundNilPrecondition(t *testing.T) {
	dom := `(define (domain nilpre)
  (:requirements :adl)
  (:predicates (p) (q) (done))
  (:action a :effect (p))
  (:action b :effect (when (p) (q)))
  (:action c :precondition (q) :effect (done)))`
	prob := `(define (problem n) (:domain nilpre) (:init) (:goal (done)))`
	d, p := mustParse(t, dom, prob)
	for _, a := range d.Actions[:2] {
		a.Precondition = nil
	}
	sameCostAsThePDDL(t, d, p, 3)
}

// TestADLDroppedActionsDeleteOfANewFact: a fact false initially that
// only a dropped action deleted is not made constant true. (u) is the
// first fact grounding reaches beyond :init (setu, first, adds it), the
// edge of the initial facts' numbering; (x) never applies, as in
// TestADLDroppedActionsEffectsPropagate.
func TestADLDroppedActionsDeleteOfANewFact(t *testing.T) {
	dom := `(define (domain newfact)
  (:requirements :adl)
  (:predicates (k) (z) (u) (done))
  (:action setu :effect (u))
  (:action delk :precondition (z) :effect (not (k)))
  (:action x :precondition (not (k)) :effect (not (u)))
  (:action c :precondition (u) :effect (done)))`
	prob := `(define (problem n) (:domain newfact) (:init (k)) (:goal (done)))`
	d, p := mustParse(t, dom, prob)
	sameCostAsThePDDL(t, d, p, 2)
}

// TestADLRecursionExpandsOnlyWhatItReads: in the body of a recursive
// derived predicate, a universal condition over its own recursion is
// written out over the objects (a negation there would break the
// strata), but one over basic facts only, too large to write out, is a
// negated derived predicate as anywhere else.
func TestADLRecursionExpandsOnlyWhatItReads(t *testing.T) {
	dom := `(define (domain rec)
  (:requirements :adl :derived-predicates)
  (:types t)
  (:predicates (ok ?x - t) (start ?x - t) (edge ?x ?y - t) (reach ?x - t))
  (:derived (reach ?x - t) (or (start ?x)
    (and (forall (?z - t) (ok ?z)) (exists (?y - t) (and (reach ?y) (edge ?y ?x))))))
  (:action setok :parameters (?x - t) :precondition (not (ok ?x)) :effect (ok ?x)))`
	var init strings.Builder
	init.WriteString("(start o1) (edge o1 o2) (edge o2 o3) ")
	for i := 1; i <= 17; i++ {
		if i != 5 {
			fmt.Fprintf(&init, "(ok o%d) ", i)
		}
	}
	prob := fmt.Sprintf("(define (problem r) (:domain rec) (:objects %s) (:init %s) (:goal (reach o3)))", objectList(17), init.String())
	d, p := mustParse(t, dom, prob)
	g := sameCostAsThePDDL(t, d, p, 1)
	made := 0
	for _, a := range g.Task.Axioms {
		if strings.HasPrefix(g.Task.Facts[a.Head], "(axiom@") {
			made++
		}
	}
	if made == 0 {
		t.Error("no axiom@ predicate: the forall over 17 objects of (ok) was written out")
	}
}

// TestADLRecursionWideForall: a universal condition over the recursion
// of the derived predicate being defined is written out over the
// objects even past 16 bindings, since a negated derived predicate there
// would read its own recursion negated (not stratified). (all ?x): ?x is
// a start, or every predecessor of ?x is (all); o1, o2, o3 form a cycle,
// so nothing on it holds until one of them is made a start.
func TestADLRecursionWideForall(t *testing.T) {
	dom := `(define (domain recwide)
  (:requirements :adl :derived-predicates)
  (:types t)
  (:predicates (start ?x - t) (edge ?x ?y - t) (all ?x - t))
  (:derived (all ?x - t) (or (start ?x) (forall (?z - t) (or (not (edge ?z ?x)) (all ?z)))))
  (:action mkstart :parameters (?x - t) :effect (start ?x)))`
	prob := fmt.Sprintf("(define (problem r) (:domain recwide) (:objects %s) (:init (edge o1 o2) (edge o2 o3) (edge o3 o1)) (:goal (all o3)))", objectList(17))
	d, p := mustParse(t, dom, prob)
	sameCostAsThePDDL(t, d, p, 1)
}
