package pddl_test

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/strips"
)

// Quirks of real competition files that the reference planners accept,
// each on a small file of our own with the construct as the real one has
// it.

// zenoDomain writes its atoms as zenotravel does, with no space before a
// variable: (aircraft?a).
const zenoDomain = `(define (domain zeno-mini)
  (:requirements :strips)
  (:predicates (at ?x ?c) (in ?p ?a) (aircraft ?a) (person ?p) (city ?c))
  (:action board :parameters (?p ?a ?c)
    :precondition (and (person?p) (aircraft?a) (at ?p ?c) (at?a?c))
    :effect (and (not (at ?p ?c)) (in ?p ?a)))
  (:action fly :parameters (?a ?c1 ?c2)
    :precondition (and (aircraft ?a) (city?c1) (city ?c2) (at ?a ?c1))
    :effect (and (not (at ?a ?c1)) (at ?a ?c2)))
  (:action debark :parameters (?p ?a ?c)
    :precondition (and (person ?p) (in ?p?a) (at ?a ?c))
    :effect (and (not (in ?p ?a)) (at ?p ?c))))`

const zenoProblem = `(define (problem zeno-1) (:domain zeno-mini)
  (:objects plane1 person1 city0 city1)
  (:init (aircraft plane1) (person person1) (city city0) (city city1)
         (at plane1 city0) (at person1 city0))
  (:goal (at person1 city1)))`

// TestQuirkNoSpaceBeforeVariable: "(aircraft?a)" reads as "(aircraft
// ?a)", so the domain grounds to the very task of the same domain with
// the spaces written.
func TestQuirkNoSpaceBeforeVariable(t *testing.T) {
	d, _ := mustParse(t, zenoDomain, zenoProblem)
	at := d.Actions[0].Precondition.Sub[3].Pred
	if at.Name != "at" || len(at.Args) != 2 || at.Args[0].Name != "?a" || at.Args[1].Name != "?c" {
		t.Fatalf("(at?a?c) read as %+v", at)
	}
	glued := regexp.MustCompile(`([^ (])\?`)
	spaced := glued.ReplaceAllString(zenoDomain, "$1 ?")
	if !glued.MatchString(zenoDomain) || glued.MatchString(spaced) {
		t.Fatal("the spaced copy still has a variable with no space before it") // the test's own check
	}
	got := describe(groundPair(t, zenoDomain, zenoProblem).Task)
	want := describe(groundPair(t, spaced, zenoProblem).Task)
	wantLines(t, "operators", got, want)
	if len(got) == 0 {
		t.Fatal("no operators")
	}
}

// storageDomain declares area twice, under object and under surface, as
// storage does, and uses either types in a predicate, an action's
// parameter, a constant and (in the problem) an object.
const storageDomain = `(define (domain storage-mini)
  (:requirements :typing)
  (:types hoist surface place area - object
          container depot - place
          storearea transitarea - area
          area crate - surface)
  (:constants loadarea - transitarea spare - (either crate storearea))
  (:predicates (in ?x - (either storearea crate) ?p - place) (at ?h - hoist ?a - area)
               (seen ?s - surface) (marked ?x - (either crate hoist)) (ready))
  (:action look :parameters (?h - hoist ?s - surface)
    :precondition (ready)
    :effect (seen ?s))
  (:action mark :parameters (?x - (either crate hoist))
    :precondition (ready)
    :effect (marked ?x)))`

const storageProblem = `(define (problem storage-1) (:domain storage-mini)
  (:objects h0 - hoist depot0 - depot c0 - container sa0 sa1 - storearea crate0 - crate
            odd - (either crate hoist))
  (:init (ready) (at h0 loadarea) (in crate0 c0) (in sa0 depot0))
  (:goal (seen crate0)))`

// TestQuirkTypeInTwoGroups: a type declared under two parents is a
// subtype of both (and so are its subtypes), for the parser, the
// grounding and the replay.
func TestQuirkTypeInTwoGroups(t *testing.T) {
	d, p := mustParse(t, storageDomain, storageProblem)
	if ty := d.Type("area"); ty == nil || !slices.Equal(ty.Parents, []string{"object", "surface"}) {
		t.Fatalf("area: %+v", ty)
	}
	for _, c := range []struct {
		t, of string
		want  bool
	}{
		{"area", "surface", true}, {"storearea", "surface", true}, {"transitarea", "surface", true},
		{"crate", "surface", true}, {"area", "object", true}, {"storearea", "area", true},
		{"crate", "area", false}, {"surface", "area", false}, {"hoist", "surface", false},
		{"depot", "surface", false},
	} {
		if got := d.IsSubtype(c.t, c.of); got != c.want {
			t.Errorf("IsSubtype(%q, %q) = %v", c.t, c.of, got)
		}
	}
	g, err := pddl.GroundReachable(d, p)
	if err != nil {
		t.Fatal(err)
	}
	// Every surface, whichever group makes it one; the either-typed
	// constant spare is a crate or a storearea, a surface either way;
	// odd may be a hoist, so it is not.
	wantLines(t, "look instances", opsOf(g.Task, "(look"),
		[]string{"(look h0 crate0)", "(look h0 loadarea)", "(look h0 sa0)", "(look h0 sa1)", "(look h0 spare)"})
	if _, err := pddl.Replay(d, p, []string{"(look h0 crate0)"}); err != nil {
		t.Error(err)
	}
	if _, err := pddl.Replay(d, p, []string{"(look h0 sa1)", "(look h0 crate0)"}); err != nil {
		t.Error(err)
	}
	if _, err := pddl.Replay(d, p, []string{"(look h0 odd)", "(look h0 crate0)"}); err == nil || !strings.Contains(err.Error(), "not a surface") {
		t.Errorf("an object that may be a hoist looked at as a surface: %v", err)
	}
}

// TestQuirkEither: a parameter of an either type takes the objects of
// each alternative; an object of an either type stands for a parameter
// only if every alternative does.
func TestQuirkEither(t *testing.T) {
	d, p := mustParse(t, storageDomain, storageProblem)
	in := d.Predicate("in")
	if in == nil || in.Params[0].Type != "(either storearea crate)" || !slices.Equal(in.Params[0].Either, []string{"storearea", "crate"}) {
		t.Fatalf("in: %+v", in)
	}
	if o := p.Object("odd"); o == nil || !slices.Equal(o.Either, []string{"crate", "hoist"}) {
		t.Fatalf("odd: %+v", o)
	}
	g, err := pddl.GroundReachable(d, p)
	if err != nil {
		t.Fatal(err)
	}
	// spare may be a storearea, which is neither a crate nor a hoist.
	wantLines(t, "mark instances", opsOf(g.Task, "(mark"),
		[]string{"(mark crate0)", "(mark h0)", "(mark odd)"})
	mark := d.Actions[1].Params[0]
	for _, c := range []struct {
		obj  string
		want bool
	}{{"crate0", true}, {"h0", true}, {"odd", true}, {"sa0", false}, {"depot0", false}} {
		if got := d.Fits(p.Object(c.obj), mark); got != c.want {
			t.Errorf("Fits(%s, %s) = %v", c.obj, mark.Type, got)
		}
	}
	if got := d.Fits(d.Constant("spare"), mark); got {
		t.Error("spare, maybe a storearea, fits (either crate hoist)")
	}
	// A type that is one alternative is that type.
	one := strings.Replace(storageDomain, "(?x - (either crate hoist))", "(?x - (either crate))", 1)
	d1, _ := mustParse(t, one, storageProblem)
	if prm := d1.Actions[1].Params[0]; prm.Type != "crate" || prm.Either != nil {
		t.Errorf("(either crate): %+v", prm)
	}
}

// opsOf lists the names of t's operators that start with prefix, sorted.
func opsOf(t *strips.Task, prefix string) []string {
	var out []string
	for _, o := range t.Ops {
		if strings.HasPrefix(o.Name, prefix) {
			out = append(out, o.Name)
		}
	}
	slices.Sort(out)
	return out
}

// TestQuirkRequirementDeclaredUnused: :adl and the rest of PDDL's flags
// are accepted when declared, as in data-network, labyrinth or
// slitherlink, and the domain is planned with when it uses none of
// their constructs; a construct outside the language is refused where it
// is used, whatever is declared (testdata/bad/nested.txtar).
func TestQuirkRequirementDeclaredUnused(t *testing.T) {
	dom := strings.Replace(zenoDomain, "(:requirements :strips)",
		"(:requirements :adl :typing :derived-predicates :conditional-effects :universal-preconditions :negation)", 1)
	g := groundPair(t, dom, zenoProblem)
	want := describe(groundPair(t, zenoDomain, zenoProblem).Task)
	wantLines(t, "operators", describe(g.Task), want)
	d, _ := mustParse(t, dom, zenoProblem)
	if !slices.Contains(d.Requirements, ":adl") || !slices.Contains(d.Requirements, ":negation") {
		t.Errorf("requirements %v", d.Requirements)
	}
}

// TestGeneralTypesBounded: resolving many either types over a hierarchy
// of many types counts against the join's work bound, and past it fails
// with an error at the parameter, not after unbounded time.
func TestGeneralTypesBounded(t *testing.T) {
	var dom, prob strings.Builder
	dom.WriteString("(define (domain many) (:requirements :typing)\n (:types t0 - object")
	for i := 1; i < 60; i++ {
		fmt.Fprintf(&dom, " t%d - t%d t%d - object", i, i-1, i) // each type under its predecessor and object
	}
	dom.WriteString(")\n (:predicates (p ?x))\n")
	for i := range 40 {
		fmt.Fprintf(&dom, " (:action a%d :parameters (?x - (either t%d t%d)) :precondition (p ?x) :effect (not (p ?x)))\n", i, i, i+20)
	}
	dom.WriteString(")")
	prob.WriteString("(define (problem many1) (:domain many) (:objects")
	for i := range 60 {
		fmt.Fprintf(&prob, " o%d - t%d", i, i)
	}
	prob.WriteString(") (:init (p o1)) (:goal (not (p o1))))")
	d, p := mustParse(t, dom.String(), prob.String())
	if len(d.Type("t5").Parents) != 2 {
		t.Fatalf("t5: %+v", d.Type("t5"))
	}
	if _, err := pddl.GroundLimited(d, p, 1<<20, 1<<20, 1<<20, 1<<20, 1<<28); err != nil {
		t.Fatalf("under the ordinary bound: %v", err)
	}
	_, err := pddl.GroundLimited(d, p, 1<<20, 1<<20, 2_000, 1<<20, 1<<28)
	var pe *pddl.Error
	if !errors.As(err, &pe) || pe.Pos.Line < 4 || !strings.Contains(pe.Msg, "resolving the parameters' types takes more than 2000 steps") {
		t.Fatalf("got %v", err)
	}
}

// yardDomain is a storage-like domain of our own where the quirks
// matter to the plan: crates stack on surfaces (a crate, or any area,
// area being declared under object and under surface), and "in" takes a
// storearea or a crate.
const yardDomain = `(define (domain yard)
  (:requirements :typing :adl)
  (:types hoist surface place area - object
          depot - place
          storearea transitarea - area
          area crate - surface)
  (:predicates (at ?h - hoist ?a - area) (on ?c - crate ?s - surface) (clear ?s - surface)
               (holding ?h - hoist ?c - crate) (free ?h - hoist) (conn ?a1 ?a2 - area)
               (under ?s - surface ?a - area) (in ?x - (either storearea crate) ?p - place))
  (:action move :parameters (?h - hoist ?from ?to - area)
    :precondition (and (at ?h ?from) (conn ?from ?to))
    :effect (and (not (at ?h ?from)) (at?h ?to)))
  (:action lift :parameters (?h - hoist ?c - crate ?s - surface ?a - area)
    :precondition (and (at ?h ?a) (free ?h) (on ?c ?s) (clear ?c) (under ?c ?a))
    :effect (and (not (on ?c ?s)) (clear ?s) (not (clear ?c)) (not (free ?h)) (holding ?h ?c)
                 (not (under ?c ?a))))
  (:action drop :parameters (?h - hoist ?c - crate ?s - surface ?a - area)
    :precondition (and (at ?h ?a) (holding ?h ?c) (clear ?s) (under ?s ?a))
    :effect (and (on ?c ?s) (not (clear ?s)) (clear ?c) (free ?h) (not (holding ?h ?c))
                 (under ?c ?a)))
  (:action store :parameters (?x - (either crate) ?a - storearea ?p - depot)
    :precondition (and (on ?x ?a) (in ?a ?p))
    :effect (in ?x ?p)))`

const yardProblem = `(define (problem yard1) (:domain yard)
  (:objects h0 - hoist ta0 - transitarea sa0 sa1 - storearea c0 c1 - crate dep - depot)
  (:init (at h0 ta0) (free h0) (conn ta0 sa0) (conn sa0 ta0) (conn ta0 sa1) (conn sa1 ta0)
         (under ta0 ta0) (under sa0 sa0) (under sa1 sa1) (on c0 ta0) (on c1 c0)
         (under c0 ta0) (under c1 ta0) (clear c1) (clear sa0) (clear sa1)
         (in sa0 dep) (in sa1 dep))
  (:goal (and (in c0 dep) (in c1 dep))))`

// yardUntyped is yardDomain as the reference planners compile types: no
// types, a unary predicate for each, true of every object of the type or
// of a subtype (written out by hand in yardUntypedProblem), and a
// precondition on it for each parameter.
const yardUntyped = `(define (domain yard)
  (:predicates (at ?h ?a) (on ?c ?s) (clear ?s) (holding ?h ?c) (free ?h) (conn ?a1 ?a2)
               (under ?s ?a) (in ?x ?p)
               (hoist ?x) (surface ?x) (area ?x) (crate ?x) (storearea ?x) (depot ?x))
  (:action move :parameters (?h ?from ?to)
    :precondition (and (hoist ?h) (area ?from) (area ?to) (at ?h ?from) (conn ?from ?to))
    :effect (and (not (at ?h ?from)) (at ?h ?to)))
  (:action lift :parameters (?h ?c ?s ?a)
    :precondition (and (hoist ?h) (crate ?c) (surface ?s) (area ?a)
                       (at ?h ?a) (free ?h) (on ?c ?s) (clear ?c) (under ?c ?a))
    :effect (and (not (on ?c ?s)) (clear ?s) (not (clear ?c)) (not (free ?h)) (holding ?h ?c)
                 (not (under ?c ?a))))
  (:action drop :parameters (?h ?c ?s ?a)
    :precondition (and (hoist ?h) (crate ?c) (surface ?s) (area ?a)
                       (at ?h ?a) (holding ?h ?c) (clear ?s) (under ?s ?a))
    :effect (and (on ?c ?s) (not (clear ?s)) (clear ?c) (free ?h) (not (holding ?h ?c))
                 (under ?c ?a)))
  (:action store :parameters (?x ?a ?p)
    :precondition (and (crate ?x) (storearea ?a) (depot ?p) (on ?x ?a) (in ?a ?p))
    :effect (in ?x ?p)))`

const yardUntypedProblem = `(define (problem yard1) (:domain yard)
  (:objects h0 ta0 sa0 sa1 c0 c1 dep)
  (:init (hoist h0) (area ta0) (surface ta0) (area sa0) (surface sa0) (storearea sa0)
         (area sa1) (surface sa1) (storearea sa1) (crate c0) (surface c0) (crate c1) (surface c1)
         (depot dep)
         (at h0 ta0) (free h0) (conn ta0 sa0) (conn sa0 ta0) (conn ta0 sa1) (conn sa1 ta0)
         (under ta0 ta0) (under sa0 sa0) (under sa1 sa1) (on c0 ta0) (on c1 c0)
         (under c0 ta0) (under c1 ta0) (clear c1) (clear sa0) (clear sa1)
         (in sa0 dep) (in sa1 dep))
  (:goal (and (in c0 dep) (in c1 dep))))`

// TestQuirksSolveAsTypePredicates: the yard, whose plan must drop crates
// on areas through parameters of type surface, is solved at the cost of
// its compilation into type predicates, and its plan replays on both.
func TestQuirksSolveAsTypePredicates(t *testing.T) {
	solve := func(dom, prob string) (*pddl.Domain, *pddl.Problem, []string, int64) {
		t.Helper()
		d, p := mustParse(t, dom, prob)
		g := groundPair(t, dom, prob)
		res, err := strips.Search(g.Task, strips.Options{})
		if err != nil || res.Status != strips.Found {
			t.Fatalf("%v, %v", res.Status, err)
		}
		var lines []string
		for _, a := range res.Plan {
			lines = append(lines, g.Task.Ops[a].Name)
		}
		return d, p, lines, res.Cost
	}
	d, p, plan, cost := solve(yardDomain, yardProblem)
	ud, up, _, ucost := solve(yardUntyped, yardUntypedProblem)
	if cost != ucost || cost != 9 {
		t.Errorf("cost %d, compiled into type predicates %d, want 9 both", cost, ucost)
	}
	for _, pair := range []struct {
		d *pddl.Domain
		p *pddl.Problem
	}{{d, p}, {ud, up}} {
		if c, err := pddl.Replay(pair.d, pair.p, plan); err != nil || c != cost {
			t.Errorf("the plan %v replays on %s to %d, %v", plan, pair.d.Name, c, err)
		}
	}
	t.Logf("%s", strings.Join(plan, " "))
}
