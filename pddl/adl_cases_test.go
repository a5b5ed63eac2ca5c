package pddl_test

import (
	"testing"
)

// TestADLCasesMatchTheSemantics: shadowing, quantifiers inside effect
// conditions, goals with existentials, derived facts in goals, wide
// foralls (the negated derived predicate), constants and equality, empty
// and either types, recursion under a forall: each against the lifted
// oracle (adlCheck).
func TestADLCasesMatchTheSemantics(t *testing.T) {
	big := adlObjs(18)
	head := "(define (domain r) (:requirements :adl :derived-predicates :action-costs) (:types t u - object) (:constants k c1 c2 - t)\n"
	cases := []struct{ name, dom, prob string }{
		{"forall-effect-shadows-param", head + `(:predicates (p ?x - t) (q ?x - t) (g))
  (:action a :parameters (?x - t) :precondition (p ?x) :effect (and (forall (?x - t) (q ?x)) (not (p ?x))))
  (:action b :parameters () :precondition (and (q c1) (q c2) (q k)) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects o1 o2 - t) (:init (p o1)) (:goal (g)))`},
		{"quantifier-in-when-reuses-forall-name", head + `(:predicates (p ?x - t) (q ?x - t) (g))
  (:action a :parameters () :effect (forall (?y - t) (when (exists (?y - t) (p ?y)) (q ?y))))
  (:action b :parameters () :precondition (and (q c1) (q c2) (q k)) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects o1 o2 - t) (:init (p o2)) (:goal (g)))`},
		{"exists-in-when", head + `(:predicates (p ?x - t) (q) (g))
  (:action a :parameters () :effect (when (exists (?y - t) (p ?y)) (q)))
  (:action b :parameters () :precondition (q) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects o1 o2 - t) (:init (p o2)) (:goal (g)))`},
		{"or-in-when-with-delete", head + `(:predicates (p ?x - t) (q) (h) (g))
  (:action a :parameters () :precondition (h) :effect (when (or (p c1) (p c2)) (and (q) (not (h)))))
  (:action b :parameters () :precondition (and (q) (not (h))) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects o1 o2 - t) (:init (h) (p c1) (p c2)) (:goal (g)))`},
		{"goal-exists", head + `(:predicates (p ?x - t) (q ?x - t))
  (:action a :parameters (?x - t) :precondition (p ?x) :effect (and (q ?x) (not (p ?x)))))`,
			`(define (problem x) (:domain r) (:objects o1 o2 - t) (:init (p o1) (p o2)) (:goal (exists (?x - t) (and (q ?x) (not (p ?x))))))`},
		{"goal-derived-neg", head + `(:predicates (p ?x - t) (d ?x - t))
  (:derived (d ?x - t) (p ?x))
  (:action a :parameters (?x - t) :precondition (p ?x) :effect (not (p ?x))))`,
			`(define (problem x) (:domain r) (:objects o1 o2 - t) (:init (p o1) (p o2)) (:goal (and (not (d o1)) (d o2))))`},
		{"forall-big-pre", head + `(:predicates (p ?x - t) (g))
  (:action set :parameters (?x - t) :precondition (not (p ?x)) :effect (p ?x))
  (:action b :parameters () :precondition (forall (?x - t) (or (= ?x k) (p ?x))) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects ` + big + ` - t) (:init (p o0) (p o1) (p o2) (p o3) (p o4) (p o5) (p o6) (p o7) (p o8) (p o9) (p o10) (p o11) (p o12) (p o13) (p o14) (p o15)) (:goal (g)))`},
		{"forall-big-goal", head + `(:predicates (p ?x - t))
  (:action set :parameters (?x - t) :precondition (not (p ?x)) :effect (p ?x)))`,
			`(define (problem x) (:domain r) (:objects ` + big + ` - t) (:init (p o0) (p o1) (p o2) (p o3) (p o4) (p o5) (p o6) (p o7) (p o8) (p o9) (p o10) (p o11) (p o12) (p o13) (p o14) (p o15)) (:goal (forall (?x - t) (p ?x))))`},
		{"forall-big-when", head + `(:predicates (p ?x - t) (q) (g))
  (:action set :parameters (?x - t) :precondition (not (p ?x)) :effect (p ?x))
  (:action a :parameters () :effect (when (forall (?x - t) (imply (not (= ?x k)) (p ?x))) (q)))
  (:action b :parameters () :precondition (q) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects ` + big + ` - t) (:init (p o0) (p o1) (p o2) (p o3) (p o4) (p o5) (p o6) (p o7) (p o8) (p o9) (p o10) (p o11) (p o12) (p o13) (p o14) (p o15)) (:goal (g)))`},
		{"forall-big-param", head + `(:predicates (p ?x ?y - t) (g ?x - t))
  (:action set :parameters (?x - t) :precondition (not (p ?x c1)) :effect (p ?x c1))
  (:action b :parameters (?y - t) :precondition (forall (?x - t) (or (= ?x ?y) (p ?x ?y))) :effect (g ?y)))`,
			`(define (problem x) (:domain r) (:objects ` + big + ` - t) (:init (p o0 c1) (p o1 c1) (p o2 c1) (p o3 c1) (p o4 c1) (p o5 c1) (p o6 c1) (p o7 c1) (p o8 c1) (p o9 c1) (p o10 c1) (p o11 c1) (p o12 c1) (p o13 c1) (p o14 c1) (p o15 c1)) (:goal (g c1)))`},
		{"empty-types", head + `(:predicates (p ?x - u) (q) (r) (s))
  (:action a :parameters () :precondition (forall (?x - u) (p ?x)) :effect (q))
  (:action b :parameters () :precondition (exists (?x - u) (p ?x)) :effect (r))
  (:action c :parameters () :effect (forall (?x - u) (p ?x))))`,
			`(define (problem x) (:domain r) (:objects o1 - t) (:init) (:goal (q)))`},
		{"either-quant", head + `(:predicates (p ?x) (q))
  (:action set :parameters (?x - (either t u)) :precondition (not (p ?x)) :effect (p ?x))
  (:action a :parameters () :precondition (forall (?x - (either t u)) (p ?x)) :effect (q)))`,
			`(define (problem x) (:domain r) (:objects o1 - t o2 - u o3) (:init) (:goal (q)))`},
		{"recursive-forall-big", head + `(:predicates (e ?x ?y - t) (ok ?x - t) (good ?x - t) (g))
  (:derived (ok ?x - t) (forall (?y - t) (imply (e ?x ?y) (ok ?y))))
  (:action fix :parameters (?x ?y - t) :precondition (e ?x ?y) :effect (not (e ?x ?y)))
  (:action b :parameters () :precondition (ok c1) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects ` + big + ` - t) (:init (e c1 o1) (e o1 c1) (e o2 o3)) (:goal (g)))`},
		{"nested-forall-effect-shadow", head + `(:predicates (p ?x ?y - t) (q ?x - t) (g))
  (:action a :parameters (?x - t) :precondition (q ?x) :effect (forall (?y - t) (when (q ?y) (forall (?z - t) (p ?y ?z)))))
  (:action b :parameters () :precondition (and (p c1 c2) (p c2 k) (not (p k c1))) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects o1 o2 - t) (:init (q c1) (q c2)) (:goal (g)))`},
		{"split-costs", head + `(:predicates (p ?x - t) (q ?x - t) (g)) (:functions (total-cost) - number (c ?x - t) - number)
  (:action a :parameters (?x - t) :precondition (or (p ?x) (exists (?y - t) (q ?y))) :effect (and (g) (increase (total-cost) (c ?x)))))`,
			`(define (problem x) (:domain r) (:objects o1 o2 - t) (:init (q o2) (p o1) (= (c o1) 5) (= (c o2) 3) (= (c k) 7)) (:goal (g)) (:metric minimize (total-cost)))`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := adlCheck(t, c.dom, c.prob)
			t.Logf("cost %d", w)
		})
	}
}

// TestADLCasesFar: untyped domains and either types under wide foralls,
// in a derived predicate too, against the lifted oracle.
func TestADLCasesFar(t *testing.T) {
	big := adlObjs(18)
	cases := []struct{ name, dom, prob string }{
		{"untyped-forall-big", `(define (domain r) (:requirements :adl) (:constants k)
 (:predicates (p ?x) (g))
  (:action set :parameters (?x) :precondition (not (p ?x)) :effect (p ?x))
  (:action b :parameters () :precondition (forall (?x) (or (= ?x k) (p ?x))) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects ` + big + `) (:init (p o0) (p o1) (p o2) (p o3) (p o4) (p o5) (p o6) (p o7) (p o8) (p o9) (p o10) (p o11) (p o12) (p o13) (p o14) (p o15)) (:goal (g)))`},
		{"either-forall-big-derived", `(define (domain r) (:requirements :adl :derived-predicates) (:types t u) (:constants k - t)
 (:predicates (p ?x) (g) (all))
  (:derived (all) (forall (?x - (either t u)) (or (= ?x k) (p ?x))))
  (:action set :parameters (?x - (either t u)) :precondition (not (p ?x)) :effect (p ?x))
  (:action b :parameters () :precondition (all) :effect (g)))`,
			`(define (problem x) (:domain r) (:objects o0 o1 o2 o3 o4 o5 o6 o7 o8 - t o9 o10 o11 o12 o13 o14 o15 o16 o17 - u) (:init (p o0) (p o1) (p o2) (p o3) (p o4) (p o5) (p o6) (p o7) (p o8) (p o9) (p o10) (p o11) (p o12) (p o13) (p o14) (p o15)) (:goal (g)))`},
		{"goal-or-empty", `(define (domain r) (:requirements :adl) (:predicates (p))
  (:action set :parameters () :precondition (not (p)) :effect (p)))`,
			`(define (problem x) (:domain r) (:init) (:goal (or)))`},
		{"goal-derived-only-forall-neg", `(define (domain r) (:requirements :adl :derived-predicates) (:predicates (p ?x) (d ?x))
  (:derived (d ?x) (p ?x))
  (:action set :parameters (?x) :precondition (not (p ?x)) :effect (p ?x)))`,
			`(define (problem x) (:domain r) (:objects ` + big + `) (:init) (:goal (and (d o3) (forall (?x) (imply (not (= ?x o3)) (not (d ?x)))))))`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := adlCheck(t, c.dom, c.prob)
			t.Logf("cost %d", w)
		})
	}
}

// TestADLCasesMore: a derived fact never reached, negated in a when;
// relevance reached only through a when that reads an axiom; a
// conditional delete against an unconditional add.
func TestADLCasesMore(t *testing.T) {
	cases := []struct{ name, dom, prob string }{
		{"unreached-derived-neg-in-when", `(define (domain r) (:requirements :adl :derived-predicates) (:predicates (p) (never) (d) (q) (g))
  (:derived (d) (never))
  (:action a :parameters () :effect (when (not (d)) (q)))
  (:action b :parameters () :precondition (q) :effect (g)))`,
			`(define (problem x) (:domain r) (:init) (:goal (g)))`},
		{"relevant-through-when-axiom", `(define (domain r) (:requirements :adl :derived-predicates) (:predicates (p) (d) (q) (h) (g))
  (:derived (d) (and (p) (not (h))))
  (:action setp :parameters () :effect (p))
  (:action seth :parameters () :effect (h))
  (:action a :parameters () :effect (and (when (d) (q)) (when (not (d)) (not (q)))))
  (:action b :parameters () :precondition (q) :effect (g)))`,
			`(define (problem x) (:domain r) (:init (h)) (:goal (g)))`},
		{"cond-delete-vs-uncond-add", `(define (domain r) (:requirements :adl) (:predicates (p) (q) (g))
  (:action a :parameters () :effect (and (q) (when (p) (not (q)))))
  (:action c :parameters () :precondition (q) :effect (and (not (q)) (p)))
  (:action b :parameters () :precondition (and (p) (q)) :effect (g)))`,
			`(define (problem x) (:domain r) (:init) (:goal (g)))`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := adlCheck(t, c.dom, c.prob)
			t.Logf("cost %d", w)
		})
	}
}
