package pddl

import (
	"strings"
	"testing"
)

const replayDomain = `(define (domain trucks)
  (:requirements :typing :action-costs :negative-preconditions :equality)
  (:types truck place - object)
  (:constants hub - place)
  (:predicates (at ?t - truck ?p - place) (road ?a ?b - place) (busy ?t - truck))
  (:functions (total-cost) - number (distance ?a ?b - place) - number)
  (:action drive
    :parameters (?t - truck ?from ?to - place)
    :precondition (and (at ?t ?from) (road ?from ?to) (not (= ?from ?to)) (not (busy ?t)))
    :effect (and (not (at ?t ?from)) (at ?t ?to) (increase (total-cost) (distance ?from ?to))))
  (:action load
    :parameters (?t - truck ?p - place)
    :precondition (at ?t ?p)
    :effect (and (busy ?t) (not (busy ?t)) (increase (total-cost) 2))))`

func replayProblem(metric string) string {
	return `(define (problem p) (:domain trucks)
  (:objects t1 - truck depot shop - place)
  (:init (at t1 depot) (road depot hub) (road hub shop) (road shop depot)
         (= (distance depot hub) 3) (= (distance hub shop) 4))
  (:goal (and (at t1 shop) (not (busy t1))))` + metric + `)`
}

func TestReplay(t *testing.T) {
	d, err := ParseDomain("d.pddl", []byte(replayDomain))
	if err != nil {
		t.Fatal(err)
	}
	withMetric, err := ParseProblem("p.pddl", []byte(replayProblem("(:metric minimize (total-cost))")))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ParseProblem("p.pddl", []byte(replayProblem("")))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Problem{withMetric, plain} {
		if err := p.Check(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		p    *Problem
		plan []string
		cost int64
		err  string
	}{
		{withMetric, []string{"(drive t1 depot hub)", "( DRIVE t1 hub shop )"}, 7, ""},
		{plain, []string{"(drive t1 depot hub)", "(drive t1 hub shop)"}, 2, ""},
		// An IPC plan file's lines, comments and all.
		{withMetric, []string{"; a plan", "(drive t1 depot hub) ; first", "", "(drive t1 hub shop)", "; cost = 7 (general cost)"}, 7, ""},
		// load adds and deletes busy: the add wins, and busy blocks driving.
		{withMetric, []string{"(load t1 depot)", "(drive t1 depot hub)"}, 0, "step 2 (drive t1 depot hub): the precondition does not hold"},
		{withMetric, []string{"(drive t1 depot hub)"}, 0, "the goal does not hold after the plan's 1 steps"},
		{withMetric, []string{"(drive t1 shop depot)"}, 0, "the precondition does not hold"},
		{withMetric, []string{"(drive t1 depot hub)", "(drive t1 hub shop)", "(drive t1 shop depot)"}, 0, "(distance shop depot) has no value in :init"},
		{withMetric, []string{"(fly t1)"}, 0, `no action "fly"`},
		{withMetric, []string{"(drive t1 depot)"}, 0, "takes 3 arguments, not 2"},
		{withMetric, []string{"(drive depot t1 hub)"}, 0, "depot is a place, not a truck"},
		{withMetric, []string{"(drive t1 depot mars)"}, 0, `no object "mars"`},
		{withMetric, []string{"drive t1 depot hub"}, 0, "not a plan line"},
	} {
		cost, err := Replay(d, c.p, c.plan)
		if c.err == "" {
			if err != nil || cost != c.cost {
				t.Errorf("%v: cost %d, %v; want %d", c.plan, cost, err, c.cost)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: %v, want an error containing %q", c.plan, err, c.err)
		}
	}
}
