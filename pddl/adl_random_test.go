package pddl_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/strips"
)

// adlGen writes small random ADL domains and problems: preconditions,
// goals and effect conditions of and, or, not, imply, exists, forall,
// atoms and equalities nested three deep; universal and conditional
// effects, nested; two derived predicates, d0 recursive and d1 reading
// d0 under negation (so stratified, as PDDL requires), used anywhere in
// actions and goals; costs under the metric.
type adlGen struct {
	rng   *rand.Rand
	arity []int // of the basic predicates p0...
	objs  []string
	fresh int
}

type genVar struct{ name, typ string }

var adlTypes = []string{"object", "a", "b"}

func (g *adlGen) pick(l []string) string { return l[g.rng.IntN(len(l))] }

// term is a variable in scope or an object (a constant in the domain).
func (g *adlGen) term(scope []genVar, objs []string) string {
	if len(scope) > 0 && g.rng.IntN(100) < 85 {
		return scope[g.rng.IntN(len(scope))].name
	}
	return g.pick(objs)
}

// atom is a basic atom, or a derived one where self allows: self is the
// derived predicate being defined (-1: none), pos the polarity.
func (g *adlGen) atom(scope []genVar, objs []string, self int, pos, underForall bool, basicOnly bool) string {
	if !basicOnly && g.rng.IntN(100) < 30 {
		d := g.rng.IntN(2)
		ok := self < 0 || d < self || d == self && pos && !underForall
		if ok {
			return fmt.Sprintf("(d%d %s)", d, g.term(scope, objs))
		}
	}
	p := g.rng.IntN(len(g.arity))
	s := fmt.Sprintf("(p%d", p)
	for range g.arity[p] {
		s += " " + g.term(scope, objs)
	}
	return s + ")"
}

func (g *adlGen) formula(depth int, scope []genVar, objs []string, self int, pos, underForall bool) string {
	if depth == 0 || g.rng.IntN(100) < 25 {
		switch r := g.rng.IntN(100); {
		case r < 70:
			return g.atom(scope, objs, self, pos, underForall, false)
		case r < 85:
			return "(not " + g.atom(scope, objs, self, !pos, underForall, false) + ")"
		case r < 95:
			return fmt.Sprintf("(= %s %s)", g.term(scope, objs), g.term(scope, objs))
		default:
			return fmt.Sprintf("(not (= %s %s))", g.term(scope, objs), g.term(scope, objs))
		}
	}
	sub := func(p bool) string { return g.formula(depth-1, scope, objs, self, p, underForall) }
	switch g.rng.IntN(6) {
	case 0:
		s := "(and"
		for range 1 + g.rng.IntN(3) {
			s += " " + sub(pos)
		}
		return s + ")"
	case 1:
		return "(or " + sub(pos) + " " + sub(pos) + ")"
	case 2:
		return "(not " + sub(!pos) + ")"
	case 3:
		return "(imply " + sub(!pos) + " " + sub(pos) + ")"
	}
	g.fresh++
	v := genVar{fmt.Sprintf("?q%d", g.fresh), g.pick(adlTypes)}
	if g.rng.IntN(4) == 0 && len(scope) > 0 {
		v.name = scope[g.rng.IntN(len(scope))].name // shadowing
	}
	inner := append(append([]genVar(nil), scope...), v)
	kind := "exists"
	forall := underForall
	if g.rng.IntN(2) == 0 {
		kind, forall = "forall", true
	}
	// ploy compiles a forall into a negated derived predicate, so one
	// in a definition must not read the predicate defined: atom sees
	// underForall.
	return fmt.Sprintf("(%s (%s - %s) %s)", kind, v.name, v.typ, g.formula(depth-1, inner, objs, self, pos, forall))
}

// effect writes an effect over scope: atoms added and deleted, and
// universal and conditional effects, nested once.
func (g *adlGen) effect(scope []genVar, objs []string, nest int) string {
	s := "(and"
	for range g.rng.IntN(3) {
		s += " " + g.atom(scope, objs, -1, true, false, true)
	}
	for range g.rng.IntN(2) {
		s += " (not " + g.atom(scope, objs, -1, true, false, true) + ")"
	}
	if nest > 0 {
		for range g.rng.IntN(3) {
			inner := scope
			pre := ""
			if g.rng.IntN(2) == 0 {
				g.fresh++
				v := genVar{fmt.Sprintf("?e%d", g.fresh), g.pick(adlTypes)}
				inner = append(append([]genVar(nil), scope...), v)
				pre = fmt.Sprintf("(forall (%s - %s) ", v.name, v.typ)
			}
			body := g.effect(inner, objs, nest-1)
			if g.rng.IntN(3) > 0 {
				body = "(when " + g.formula(2, inner, objs, -1, true, false) + " " + body + ")"
			}
			if pre != "" {
				body = pre + body + ")"
			}
			s += " " + body
		}
	}
	return s + ")"
}

// randomADL writes a domain and problem.
func randomADL(rng *rand.Rand) (dom, prob string) {
	g := &adlGen{rng: rng}
	consts := []string{"k0"}
	var sb strings.Builder
	sb.WriteString("(define (domain r) (:requirements :adl :derived-predicates :action-costs)\n")
	sb.WriteString(" (:types a - object b - a) (:constants k0 - a)\n (:predicates")
	np := 2 + rng.IntN(3)
	g.arity = make([]int, np)
	for i := range np {
		g.arity[i] = rng.IntN(3)
		fmt.Fprintf(&sb, " (p%d", i)
		for j := range g.arity[i] {
			fmt.Fprintf(&sb, " ?x%d", j)
		}
		sb.WriteString(")")
	}
	sb.WriteString(" (d0 ?x) (d1 ?x))\n (:functions (total-cost) - number)\n")
	for d := range 2 {
		x := genVar{"?x", "object"}
		fmt.Fprintf(&sb, " (:derived (d%d ?x) %s)\n", d, g.formula(3, []genVar{x}, consts, d, true, false))
	}
	for i := range 1 + rng.IntN(3) {
		var params []genVar
		fmt.Fprintf(&sb, " (:action act%d :parameters (", i)
		for j := range rng.IntN(3) {
			v := genVar{fmt.Sprintf("?v%d", j), g.pick(adlTypes)}
			params = append(params, v)
			fmt.Fprintf(&sb, " %s - %s", v.name, v.typ)
		}
		sb.WriteString(")\n  :precondition " + g.formula(3, params, consts, -1, true, false))
		eff := g.effect(params, consts, 2)
		if c := rng.IntN(4); c > 0 {
			eff = eff[:len(eff)-1] + fmt.Sprintf(" (increase (total-cost) %d))", c-1)
		}
		sb.WriteString("\n  :effect " + eff + ")\n")
	}
	sb.WriteString(")")
	dom = sb.String()

	sb.Reset()
	sb.WriteString("(define (problem rp) (:domain r) (:objects")
	objs := append([]string(nil), consts...)
	for i := range 1 + rng.IntN(3) {
		fmt.Fprintf(&sb, " o%d - %s", i, g.pick(adlTypes))
		objs = append(objs, fmt.Sprintf("o%d", i))
	}
	sb.WriteString(")\n (:init")
	for p, n := range g.arity {
		var rec func(k int, s string)
		rec = func(k int, s string) {
			if k == n {
				if rng.IntN(100) < 35 {
					fmt.Fprintf(&sb, " (p%d%s)", p, s)
				}
				return
			}
			for _, o := range objs {
				rec(k+1, s+" "+o)
			}
		}
		rec(0, "")
	}
	sb.WriteString(")\n (:goal " + g.formula(2, nil, objs, -1, true, false) + ")")
	if rng.IntN(2) == 0 {
		sb.WriteString(" (:metric minimize (total-cost))")
	}
	sb.WriteString(")")
	return dom, sb.String()
}

// TestADLGroundingMatchesTheSemantics grounds random ADL problems and
// checks the task against the PDDL semantics: its optimal cost (Dijkstra
// on the task, with axioms derived in each state) equals the optimal cost
// of a search over the PDDL itself (pddl.LiftedOptimalCost, Replay's
// semantics, sharing no code with grounding), the task as reached has the
// same, and the default search's plan replays on the PDDL at that cost.
func TestADLGroundingMatchesTheSemantics(t *testing.T) {
	n := 400
	if testing.Short() || race.Enabled {
		n = 100
	}
	solved, unsolvable, skipped := 0, 0, 0
	for seed := range n {
		rng := rand.New(rand.NewPCG(uint64(seed), 27))
		dom, prob := randomADL(rng)
		ok := t.Run(strconv.Itoa(seed), func(t *testing.T) {
			d, p := mustParse(t, dom, prob)
			want, ok, err := pddl.LiftedOptimalCost(d, p, 3000)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				skipped++
				return
			}
			g, err := pddl.Ground(d, p)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Task.Validate(); err != nil {
				t.Fatal(err)
			}
			full, err := pddl.GroundReachable(d, p)
			if err != nil {
				t.Fatal(err)
			}
			if err := full.Task.Validate(); err != nil {
				t.Fatal(err)
			}
			got, _, ok1 := dijkstra(g.Task, 1<<20)
			reached, _, ok2 := dijkstra(full.Task, 1<<20)
			if !ok1 || !ok2 {
				t.Fatal("the ground task has more states than the PDDL")
			}
			if full.Unsolvable != "" {
				reached = -1
			}
			if got != want || reached != want {
				t.Fatalf("optimal cost %d as ground, %d as reached; %d on the PDDL", got, reached, want)
			}
			if want < 0 {
				unsolvable++
				return
			}
			solved++
			searchAndReplay(t, d, p, g, want)
		})
		if !ok {
			t.Logf("seed %d:\n%s\n%s", seed, dom, prob)
			break
		}
	}
	t.Logf("%d solvable, %d unsolvable, %d too large for the oracle", solved, unsolvable, skipped)
	if solved < n/5 || unsolvable == 0 {
		t.Errorf("the generator made %d solvable and %d unsolvable problems of %d: too few to test", solved, unsolvable, n)
	}
}

// TestADLGroundingBruteForce compares the transitions of random ADL
// problems' tasks as reached (before simplification) with the PDDL
// semantics, state by state: from every state the task reaches (up to a
// bound), the same plan lines apply, at the same costs, to the same next
// states, and the goal holds in the same states. Derived facts are
// compared through what they decide.
func TestADLGroundingBruteForce(t *testing.T) {
	n := 300
	if testing.Short() || race.Enabled {
		n = 80
	}
	states := 0
	for seed := range n {
		rng := rand.New(rand.NewPCG(uint64(seed), 28))
		dom, prob := randomADL(rng)
		ok := t.Run(strconv.Itoa(seed), func(t *testing.T) {
			d, p := mustParse(t, dom, prob)
			g, err := pddl.GroundReachable(d, p)
			if err != nil {
				t.Fatal(err)
			}
			task := g.Task
			space, init, err := pddl.NewLiftedSpace(d, p)
			if err != nil {
				t.Fatal(err)
			}
			derived := map[strips.Fact]bool{}
			for _, a := range task.Axioms {
				derived[a.Head] = true
			}
			facts := map[string]bool{}
			for _, f := range task.Facts {
				facts[f] = true
			}
			// A ground state as the PDDL's: its basic facts, and the
			// atoms that are no facts of the task (static ones), as
			// :init has them.
			lifted := func(s []uint64) map[string]bool {
				out := map[string]bool{}
				for f, name := range task.Facts {
					if strips.Has(s, strips.Fact(f)) && !derived[strips.Fact(f)] {
						out[name] = true
					}
				}
				for a := range init {
					if !facts[a] {
						out[a] = true
					}
				}
				return out
			}
			key := func(m map[string]bool) string { return strings.Join(slices.Sorted(maps.Keys(m)), " ") }
			start := task.InitialState()
			if got, want := key(lifted(start)), key(init); got != want {
				t.Fatalf("initial state\n\t%s\nfrom the PDDL\n\t%s", got, want)
			}
			seen := map[string]bool{key(init): true}
			queue := [][]uint64{start}
			for len(queue) > 0 && len(seen) < 400 {
				s := queue[0]
				queue = queue[1:]
				here := lifted(s)
				states++
				if g.Unsolvable == "" && task.IsGoal(s) != space.IsGoal(here) {
					t.Fatalf("in %s the task's goal holds: %v, the PDDL's: %v", key(here), task.IsGoal(s), !task.IsGoal(s))
				}
				want := map[string]bool{}
				lines, costs, next := space.Successors(here)
				for i := range lines {
					want[fmt.Sprintf("%s %d -> %s", lines[i], costs[i], key(next[i]))] = true
				}
				got := map[string]bool{}
				for i := range task.Ops {
					o := &task.Ops[i]
					if !o.Applicable(s) {
						continue
					}
					ns := make([]uint64, len(s))
					o.ApplyTo(ns, s)
					task.Derive(ns)
					cost := o.Cost
					if !p.MinimizeTotalCost {
						cost = 1
					}
					nl := lifted(ns)
					got[fmt.Sprintf("%s %d -> %s", o.Name, cost, key(nl))] = true
					if k := key(nl); !seen[k] {
						seen[k] = true
						queue = append(queue, ns)
					}
				}
				if !maps.Equal(got, want) {
					t.Fatalf("from %s the task goes\n\t%s\nthe PDDL\n\t%s", key(here),
						strings.Join(slices.Sorted(maps.Keys(got)), "\n\t"), strings.Join(slices.Sorted(maps.Keys(want)), "\n\t"))
				}
			}
		})
		if !ok {
			t.Logf("seed %d:\n%s\n%s", seed, dom, prob)
			break
		}
	}
	t.Logf("%d states compared", states)
}
