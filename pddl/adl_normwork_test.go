package pddl_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// groundAlloc grounds an action whose precondition is an and of four
// (or (a) (b)) and m atoms (p), and returns the bytes grounding allocated.
func groundAlloc(t *testing.T, m int) uint64 {
	var b strings.Builder
	b.WriteString("(define (domain r) (:requirements :adl) (:predicates (p) (a) (b) (g))\n (:action act :parameters () :precondition ")
	b.WriteString("(and (or (a) (b)) (or (a) (b)) (or (a) (b)) (or (a) (b))")
	for range m {
		b.WriteString(" (p)")
	}
	b.WriteString(")\n :effect (g)))")
	d, p := mustParse(t, b.String(), `(define (problem x) (:domain r) (:init (p) (a)) (:goal (g)))`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := pddl.Ground(d, p)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// TestNormaliseLargeConjunctionLinearly: dnf's And case multiplies its parts
// out one at a time, each step copying every literal gathered so far
// into each of (up to 16) disjuncts: an and of m literals and a few ors
// costs 16*m*m/2 copies, none of them counted by MaxNormalWork (which
// counts m nodes). Four times the atoms should cost about four times the
// memory; it costs about sixteen. Measured: 60 000 atoms (a 240 KB
// precondition), wrapped in 200 ands, took 5 min 54 s and allocated
// 281 GB, while MaxNormalWork saw some 60 000 nodes.
func TestNormaliseLargeConjunctionLinearly(t *testing.T) {
	small, large := groundAlloc(t, 1000), groundAlloc(t, 4000)
	ratio := float64(large) / float64(small)
	t.Logf("1000 atoms: %d KB, 4000 atoms: %d KB, ratio %.1f", small>>10, large>>10, ratio)
	if ratio > 8 {
		t.Fatal(fmt.Sprintf("allocation grows as the square of the conjunction: ratio %.1f for 4x the atoms", ratio))
	}
}
