package pddl_test

import (
	"fmt"

	"github.com/ploy-ai/ploy/pddl"
)

const exampleDomain = `
; Trucks move between places at a cost given by the problem.
(define (domain trucks)
  (:requirements :typing :action-costs :negative-preconditions :equality)
  (:types truck place - object)
  (:predicates (at ?t - truck ?p - place) (road ?a ?b - place))
  (:functions (total-cost) - number (distance ?a ?b - place) - number)
  (:action drive
    :parameters (?t - truck ?from ?to - place)
    :precondition (and (at ?t ?from) (road ?from ?to) (not (= ?from ?to)))
    :effect (and (not (at ?t ?from)) (at ?t ?to)
                 (increase (total-cost) (distance ?from ?to)))))`

const exampleProblem = `
(define (problem deliver)
  (:domain trucks)
  (:objects t1 - TRUCK depot shop - place)
  (:init (at t1 depot) (road depot shop) (= (distance depot shop) 7) (= (total-cost) 0))
  (:goal (at t1 shop))
  (:metric minimize (total-cost)))`

func Example() {
	d, err := pddl.ParseDomain("trucks.pddl", []byte(exampleDomain))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := pddl.ParseProblem("deliver.pddl", []byte(exampleProblem))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := p.Check(d); err != nil {
		fmt.Println(err)
		return
	}
	a := d.Actions[0]
	fmt.Println(a.Name, len(a.Params), "parameters, cost from", a.Effect.Cost[0].Func.Name)
	fmt.Println(p.Objects[0].Name, "is a", p.Objects[0].Type)
	fmt.Println("minimize total-cost:", p.MinimizeTotalCost)

	// A typo is an error at its position, with the name meant.
	_, err = pddl.ParseDomain("typo.pddl", []byte(`(define (domain d)
  (:types truck)
  (:predicates (at ?t - truk)))`))
	fmt.Println(err)
	// Output:
	// drive 3 parameters, cost from distance
	// t1 is a truck
	// minimize total-cost: true
	// typo.pddl:3:25: undefined type "truk" (did you mean "truck"?)
}
