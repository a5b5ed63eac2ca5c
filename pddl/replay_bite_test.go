package pddl

import (
	"strings"
	"testing"
)

// A hierarchy three deep: electric is a truck is a vehicle.
const fleetDomain = `(define (domain fleet)
  (:requirements :typing)
  (:types vehicle place - object truck van - vehicle electric - truck)
  (:constants spare - electric)
  (:predicates (at ?v - vehicle ?p - place) (charged ?e - electric))
  (:action drive
    :parameters (?v - vehicle ?from ?to - place)
    :precondition (at ?v ?from)
    :effect (and (not (at ?v ?from)) (at ?v ?to)))
  (:action charge
    :parameters (?e - electric ?p - place)
    :precondition (at ?e ?p)
    :effect (charged ?e)))`

const fleetProblem = `(define (problem p) (:domain fleet)
  (:objects e1 - electric t1 - truck v1 - van car - vehicle a b - place)
  (:init (at e1 a) (at t1 a) (at v1 a) (at car a) (at spare a))
  (:goal (at e1 b)))`

// TestReplayTypesAndArity: the plan checker takes an object of any
// subtype, however deep, where a parameter wants its supertype, and
// refuses a supertype where a subtype is wanted, and a line with too many
// arguments as well as too few.
func TestReplayTypesAndArity(t *testing.T) {
	d, err := ParseDomain("d.pddl", []byte(fleetDomain))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseProblem("p.pddl", []byte(fleetProblem))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(d); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		plan []string
		err  string
	}{
		{[]string{"(drive e1 a b)"}, ""},                                          // electric, two levels below vehicle
		{[]string{"(drive t1 a b)", "(drive e1 a b)"}, ""},                        // truck, one level below
		{[]string{"(drive v1 a b)", "(drive car a b)", "(drive e1 a b)"}, ""},     // van; vehicle itself
		{[]string{"(charge e1 a)", "(drive e1 a b)"}, ""},                         // the type itself
		{[]string{"(charge spare a)", "(drive spare a b)", "(drive e1 a b)"}, ""}, // a constant of the subtype
		{[]string{"(charge t1 a)"}, "t1 is a truck, not a electric (parameter ?e)"},
		{[]string{"(charge car a)"}, "car is a vehicle, not a electric"},
		{[]string{"(charge v1 a)"}, "v1 is a van, not a electric"},
		{[]string{"(drive a a b)"}, "a is a place, not a vehicle"},
		{[]string{"(drive e1 a b b)"}, "drive takes 3 arguments, not 4"},
		{[]string{"(drive e1 a)"}, "drive takes 3 arguments, not 2"},
		{[]string{"(charge)"}, "charge takes 2 arguments, not 0"},
	} {
		_, err := Replay(d, p, c.plan)
		if c.err == "" {
			if err != nil {
				t.Errorf("%v: %v", c.plan, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: %v, want an error containing %q", c.plan, err, c.err)
		}
	}
}
