package pddl_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// TestReplayNumbersStepsNotLines: Replay's error names "step N" by
// the plan's line, counting comments and blank lines, while its goal
// message counts steps (commit 5a6d51f). A plan whose first line is the
// usual "; cost = ..." comment reports its first action as step 2.
func TestReplayNumbersStepsNotLines(t *testing.T) {
	d, p := mustParse(t, `(define (domain r) (:requirements :strips) (:predicates (p) (q))
  (:action a :parameters () :precondition (p) :effect (q)))`,
		`(define (problem x) (:domain r) (:init) (:goal (q)))`)
	_, err := pddl.Replay(d, p, []string{"; cost = 1 (unit cost)", "", "(a)"})
	if err == nil {
		t.Fatal("an inapplicable step accepted")
	}
	if !strings.Contains(err.Error(), "step 1 ") {
		t.Fatalf("the plan's only step is reported as %q", err)
	}
}

// TestGroundEmptyOrGoalIsUnreachable: a goal (or) grounds to the internal
// predicate goal@ with no axiom, which setup then takes for a static
// predicate: the reason names "(goal@)" as a static goal atom, a name the
// user never wrote.
func TestGroundEmptyOrGoalIsUnreachable(t *testing.T) {
	d, p := mustParse(t, `(define (domain r) (:requirements :adl) (:predicates (p))
  (:action set :parameters () :precondition (not (p)) :effect (p)))`,
		`(define (problem x) (:domain r) (:init) (:goal (or)))`)
	g, err := pddl.Ground(d, p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(g.Unsolvable, "static") || !strings.Contains(g.Unsolvable, "the goal is not reachable") {
		t.Fatalf("unsolvable because %q", g.Unsolvable)
	}
}

// TestGroundStaticStageWithinTyped: the "static" stage
// (instantiations whose static preconditions hold) is documented as a
// subset of "typed", but it counts each disjunct's schema and each
// existential witness as an instantiation: one action of one parameter
// over 3 objects, with (exists (?y) ...) over 20, counts 60 static
// instantiations of 3 typed.
func TestGroundStaticStageWithinTyped(t *testing.T) {
	d, p := mustParse(t, `(define (domain r) (:requirements :adl) (:types t u)
 (:predicates (s ?y - u) (q ?x - t))
  (:action a :parameters (?x - t) :precondition (or (exists (?y - u) (s ?y)) (q ?x)) :effect (q ?x)))`,
		`(define (problem x) (:domain r) (:objects x1 x2 x3 - t `+adlObjs(20)+` - u)
 (:init (s o0) (s o1) (s o2) (s o3) (s o4) (s o5) (s o6) (s o7) (s o8) (s o9) (s o10) (s o11) (s o12) (s o13) (s o14) (s o15) (s o16) (s o17) (s o18) (s o19)) (:goal (q x1)))`)
	g, err := pddl.Ground(d, p)
	if err != nil {
		t.Fatal(err)
	}
	typed, static := g.Stages[0], g.Stages[1]
	if static.Actions > typed.Actions {
		t.Fatalf("typed %d actions, static %d: more instantiations pass the static preconditions than exist", typed.Actions, static.Actions)
	}
}
