package pddl_test

import (
	"container/heap"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/strips"
)

func mustParse(t testing.TB, dom, prob string) (*pddl.Domain, *pddl.Problem) {
	t.Helper()
	d, err := pddl.ParseDomain("domain.pddl", []byte(dom))
	if err != nil {
		t.Fatalf("domain:\n%v", err)
	}
	p, err := pddl.ParseProblem("problem.pddl", []byte(prob))
	if err != nil {
		t.Fatalf("problem:\n%v", err)
	}
	if err := p.Check(d); err != nil {
		t.Fatalf("check:\n%v", err)
	}
	return d, p
}

func groundPair(t testing.TB, dom, prob string) *pddl.Grounding {
	t.Helper()
	d, p := mustParse(t, dom, prob)
	g, err := pddl.Ground(d, p)
	if err != nil {
		t.Fatalf("ground: %v", err)
	}
	if err := g.Task.Validate(); err != nil {
		t.Fatalf("validate: %v", err)
	}
	return g
}

func loadInstance(t testing.TB, in instance) (*pddl.Domain, *pddl.Problem) {
	t.Helper()
	domSrc, probSrc := readInstance(t, in)
	return mustParse(t, string(domSrc), string(probSrc))
}

// factNames names a list of t's facts.
func factNames(t *strips.Task, l []strips.Fact) string {
	var s []string
	for _, f := range l {
		s = append(s, t.Facts[f])
	}
	return strings.Join(s, " ")
}

// describe renders t's operators one a line, for exact comparisons.
func describe(t *strips.Task) []string {
	var out []string
	for i := range t.Ops {
		out = append(out, describeOp(t, &t.Ops[i], false))
	}
	return out
}

// describeOp renders one operator: its name, each nonempty fact list
// (its facts in index order, or by name if byName) and its cost.
func describeOp(t *strips.Task, o *strips.Op, byName bool) string {
	line := o.Name
	for _, l := range []struct {
		what string
		l    []strips.Fact
	}{{"pre", o.Pre}, {"prenot", o.PreNot}, {"add", o.Add}, {"del", o.Del}} {
		if len(l.l) == 0 {
			continue
		}
		var names []string
		for _, f := range l.l {
			names = append(names, t.Facts[f])
		}
		if byName {
			slices.Sort(names)
		}
		line += " " + l.what + "[" + strings.Join(names, " ") + "]"
	}
	return line + " cost " + strconv.FormatInt(o.Cost, 10)
}

func stages(g *pddl.Grounding) string {
	var s []string
	for _, st := range g.Stages {
		s = append(s, fmt.Sprintf("%s %d/%d", st.Name, st.Facts, st.Actions))
	}
	return strings.Join(s, ", ")
}

func wantLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\ngot\n\t%s\nwant\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

const vehiclesDomain = `(define (domain vehicles)
  (:requirements :typing :equality :negative-preconditions)
  (:types vehicle place - object truck car - vehicle)
  (:constants depot - place)
  (:predicates (at ?v - vehicle ?p - place) (road ?a ?b - place) (closed ?p - place)
               (visited ?p - place) (honked ?v - vehicle))
  (:action drive :parameters (?v - vehicle ?from ?to - place)
    :precondition (and (at ?v ?from) (road ?from ?to) (not (= ?from ?to)) (not (closed ?to)))
    :effect (and (not (at ?v ?from)) (at ?v ?to) (visited ?to)))
  (:action honk :parameters (?v - vehicle)
    :precondition (at ?v depot)
    :effect (honked ?v)))`

const vehiclesProblem = `(define (problem tour)
  (:domain vehicles)
  (:objects t1 - truck c1 - car depot a b c - place)
  (:init (at t1 depot) (at c1 a) (road depot a) (road a depot) (road a b) (road b b) (road b c) (closed c))
  (:goal (and (visited b) (at t1 b))))`

// TestGroundVehicles: subtypes instantiate a parameter of their parent
// type, a redeclared constant is one object, static predicates (road,
// closed, negated) and inequality are evaluated, and what is irrelevant
// to the goal (honk, visited a) is dropped.
func TestGroundVehicles(t *testing.T) {
	g := groundPair(t, vehiclesDomain, vehiclesProblem)
	task := g.Task
	if task.Name != "tour" {
		t.Errorf("name %q", task.Name)
	}
	wantLines(t, "facts", task.Facts, []string{
		"(at t1 depot)", "(at t1 a)", "(at t1 b)", "(at c1 depot)", "(at c1 a)", "(visited b)"})
	wantLines(t, "operators", describe(task), []string{
		"(drive t1 depot a) pre[(at t1 depot)] add[(at t1 a)] del[(at t1 depot)] cost 1",
		"(drive t1 a depot) pre[(at t1 a)] add[(at t1 depot)] del[(at t1 a)] cost 1",
		"(drive t1 a b) pre[(at t1 a)] add[(at t1 b) (visited b)] del[(at t1 a)] cost 1",
		"(drive c1 depot a) pre[(at c1 depot)] add[(at c1 a)] del[(at c1 depot)] cost 1",
		"(drive c1 a depot) pre[(at c1 a)] add[(at c1 depot)] del[(at c1 a)] cost 1",
		"(drive c1 a b) pre[(at c1 a)] add[(visited b)] del[(at c1 a)] cost 1",
	})
	if got := factNames(task, task.Init); got != "(at t1 depot) (at c1 a)" {
		t.Errorf("init %s", got)
	}
	if got := factNames(task, task.Goal); got != "(at t1 b) (visited b)" || len(task.GoalNot) > 0 {
		t.Errorf("goal %s, not %v", got, task.GoalNot)
	}
	// typed: at 2x4 + visited 4 + honked 2; drive 2x4x4 + honk 2. static:
	// three roads for two vehicles and two honks, mentioning six at,
	// three visited and two honked atoms. reachable: those, all reached.
	// relevant: (at c1 b) is not, though (drive c1 a b) is, for (visited b).
	if got, want := stages(g), "typed 14/34, static 11/8, reachable 11/8, relevant 6/6"; got != want {
		t.Errorf("stages %s, want %s", got, want)
	}
}

const costsDomain = `(define (domain costs)
  (:requirements :action-costs)
  (:predicates (p ?x) (q ?x) (link ?x ?y) (done))
  (:functions (total-cost) - number (w ?x ?y) - number)
  (:action step :parameters (?x ?y)
    :precondition (and (p ?x) (link ?x ?y))
    :effect (and (not (p ?x)) (p ?y) (not (q ?y)) (q ?y)
                 (increase (total-cost) (w ?x ?y)) (increase (total-cost) 2)))
  (:action finish :parameters (?x) :precondition (p ?x) :effect (done)))`

const costsProblem = `(define (problem c)
  (:domain costs)
  (:objects a b c)
  (:init (p a) (link a b) (link b c) (link a c) (= (w a b) 5) (= (w b c) 0) (= (total-cost) 0))
  (:goal (and (done) (q c)))
  %s)`

// TestGroundCosts: costs sum constants and function values, a missing
// value drops the ground action (and is counted), an atom added and
// deleted is added, and without the metric every operator costs 1.
func TestGroundCosts(t *testing.T) {
	g := groundPair(t, costsDomain, fmt.Sprintf(costsProblem, "(:metric minimize (total-cost))"))
	wantLines(t, "facts", g.Task.Facts, []string{"(p a)", "(p b)", "(p c)", "(q c)", "(done)"})
	wantLines(t, "operators", describe(g.Task), []string{
		"(step a b) pre[(p a)] add[(p b)] del[(p a)] cost 7",
		"(step b c) pre[(p b)] add[(p c) (q c)] del[(p b)] cost 2",
		"(finish a) pre[(p a)] add[(done)] cost 0",
		"(finish b) pre[(p b)] add[(done)] cost 0",
		"(finish c) pre[(p c)] add[(done)] cost 0",
	})
	if g.UndefinedCost != 1 {
		t.Errorf("%d ground actions of undefined cost, want 1 (step a c)", g.UndefinedCost)
	}

	g = groundPair(t, costsDomain, fmt.Sprintf(costsProblem, ""))
	wantLines(t, "operators without the metric", describe(g.Task), []string{
		"(step a b) pre[(p a)] add[(p b)] del[(p a)] cost 1",
		"(step a c) pre[(p a)] add[(p c) (q c)] del[(p a)] cost 1",
		"(step b c) pre[(p b)] add[(p c) (q c)] del[(p b)] cost 1",
		"(finish a) pre[(p a)] add[(done)] cost 1",
		"(finish b) pre[(p b)] add[(done)] cost 1",
		"(finish c) pre[(p c)] add[(done)] cost 1",
	})
	if g.UndefinedCost != 0 {
		t.Errorf("%d ground actions of undefined cost without the metric", g.UndefinedCost)
	}

	// As reached, before simplification: (q b) is added, never deleted.
	d, p := mustParse(t, costsDomain, fmt.Sprintf(costsProblem, "(:metric minimize (total-cost))"))
	r, err := pddl.GroundReachable(d, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(r.Task)[0]; got != "(step a b) pre[(p a)] add[(p b) (q b)] del[(p a)] cost 7" {
		t.Errorf("as reached: %s", got)
	}

	// A cost past strips.MaxCost is an error at the action.
	d, p = mustParse(t, costsDomain, strings.Replace(fmt.Sprintf(costsProblem, "(:metric minimize (total-cost))"),
		"(= (w a b) 5)", "(= (w a b) 2147483647)", 1))
	_, err = pddl.Ground(d, p)
	want := `domain.pddl:5:12: the ground action (step a b) costs 2147483649, more than 2147483648 (strips.MaxCost)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

const switchesDomain = `(define (domain switches)
  (:requirements :negative-preconditions)
  (:predicates (on ?x) (fragile ?x) (lit ?x) (wired ?x))
  (:action switch-off :parameters (?x) :precondition (and (on ?x) (not (fragile ?x))) :effect (not (on ?x)))
  (:action switch-on :parameters (?x) :precondition (not (on ?x)) :effect (on ?x))
  (:action light :parameters (?x) :precondition (and (on ?x) (wired ?x)) :effect (lit ?x)))`

func switchesProblem(goal string) string {
	return `(define (problem s) (:domain switches) (:objects a b)
  (:init (on a) (on b) (fragile b)) (:goal ` + goal + `))`
}

// TestGroundGoals: negative goals; negative static preconditions; atoms
// true initially that nothing can delete are constants, and so are the
// goals on them; goals grounding decides make an unsolvable task of one
// fact; an empty goal is met by the empty plan.
func TestGroundGoals(t *testing.T) {
	g := groundPair(t, switchesDomain, switchesProblem("(and (not (on a)) (on b))"))
	wantLines(t, "facts", g.Task.Facts, []string{"(on a)"})
	wantLines(t, "operators", describe(g.Task), []string{
		"(switch-off a) pre[(on a)] del[(on a)] cost 1",
		"(switch-on a) prenot[(on a)] add[(on a)] cost 1",
	})
	if len(g.Task.Init) != 1 || len(g.Task.Goal) != 0 || factNames(g.Task, g.Task.GoalNot) != "(on a)" || g.Unsolvable != "" {
		t.Errorf("init %v, goal %v, not %v, unsolvable %q", g.Task.Init, g.Task.Goal, g.Task.GoalNot, g.Unsolvable)
	}

	for _, c := range []struct {
		goal, fact     string
		init, positive bool
		why            string
	}{
		{"(not (on b))", "(on b)", true, false, "the goal (not (on b)) is true initially, and no action that can apply deletes it"},
		{"(fragile a)", "(fragile a)", false, true, "the goal (fragile a) is static (no action adds or deletes it) and false initially"},
		{"(and (on a) (not (fragile b)))", "(fragile b)", true, false, "the goal (not (fragile b)) is static (no action adds or deletes it) and true initially"},
		{"(lit a)", "(lit a)", false, true, "the goal (lit a) is not reachable: false initially, and no applicable action adds it"},
		{"(= a b)", "(= a b)", false, true, "the goal requires (= a b), which is false"},
		{"(not (= a a))", "(= a a)", true, false, "the goal requires (not (= a a)), which is false"},
		{"(and (on a) (not (on a)))", "(on a)", true, true, "the goal requires (on a) both true and false"},
	} {
		g := groundPair(t, switchesDomain, switchesProblem(c.goal))
		task := g.Task
		if g.Unsolvable != c.why {
			t.Errorf("%s: unsolvable %q, want %q", c.goal, g.Unsolvable, c.why)
		}
		if len(task.Facts) != 1 || task.Facts[0] != c.fact || len(task.Ops) != 0 || (len(task.Init) == 1) != c.init ||
			(len(task.Goal) == 1) != c.positive || task.IsGoal(task.InitialState()) {
			t.Errorf("%s: task %+v", c.goal, task)
		}
	}

	for _, goal := range []string{"(and)", "(on b)", "(and (not (lit a)) (= a a) (not (fragile a)))"} {
		g := groundPair(t, switchesDomain, switchesProblem(goal))
		if task := g.Task; len(task.Facts) != 0 || len(task.Ops) != 0 || !task.IsGoal(task.InitialState()) || g.Unsolvable != "" {
			t.Errorf("%s: task %+v, unsolvable %q", goal, task, g.Unsolvable)
		}
	}
}

// TestGroundConstantsAndEquality: constants in atoms, equality with a
// constant, an action of no parameters, repeated parameters in an atom
// and a type with no objects.
func TestGroundConstantsAndEquality(t *testing.T) {
	dom := `(define (domain k)
  (:requirements :typing :equality)
  (:types cell ghost)
  (:constants home - cell)
  (:predicates (at ?c - cell) (adj ?a ?b - cell) (same ?a ?b - cell) (pad ?a ?b - cell) (spooked) (haunts ?g - ghost))
  (:action go :parameters (?from ?to - cell)
    :precondition (and (at ?from) (adj ?from ?to) (not (= ?to home)))
    :effect (and (not (at ?from)) (at ?to)))
  (:action rest :parameters (?c - cell)
    :precondition (and (at ?c) (same ?c ?c) (= ?c home))
    :effect (spooked))
  (:action boo :parameters () :precondition (spooked) :effect (not (spooked)))
  (:action hop :parameters (?from ?to - cell)
    :precondition (and (at ?from) (pad ?to ?to))
    :effect (and (not (at ?from)) (at ?to)))
  (:action haunt :parameters (?g - ghost) :effect (haunts ?g)))`
	prob := `(define (problem k1) (:domain k) (:objects x y - cell)
  (:init (at home) (adj home x) (adj x y) (adj y home) (adj x home) (same home home) (same x y) (pad y y) (pad x home))
  (:goal (and (at y) (not (spooked)))))`
	d, p := mustParse(t, dom, prob)
	g, err := pddl.GroundReachable(d, p)
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, "facts", g.Task.Facts, []string{"(at home)", "(at x)", "(at y)", "(spooked)"})
	wantLines(t, "operators", describe(g.Task), []string{
		"(go home x) pre[(at home)] add[(at x)] del[(at home)] cost 1",
		"(go x y) pre[(at x)] add[(at y)] del[(at x)] cost 1",
		"(rest home) pre[(at home)] add[(spooked)] cost 1",
		"(boo) pre[(spooked)] del[(spooked)] cost 1",
		"(hop home y) pre[(at home)] add[(at y)] del[(at home)] cost 1",
		"(hop x y) pre[(at x)] add[(at y)] del[(at x)] cost 1",
		"(hop y y) pre[(at y)] add[(at y)] cost 1",
	})
	// (hop y y) changes nothing.
	g = groundPair(t, dom, prob)
	wantLines(t, "relevant operators", describe(g.Task), []string{
		"(go home x) pre[(at home)] add[(at x)] del[(at home)] cost 1",
		"(go x y) pre[(at x)] add[(at y)] del[(at x)] cost 1",
		"(rest home) pre[(at home)] add[(spooked)] cost 1",
		"(boo) pre[(spooked)] del[(spooked)] cost 1",
		"(hop home y) pre[(at home)] add[(at y)] del[(at home)] cost 1",
		"(hop x y) pre[(at x)] add[(at y)] del[(at x)] cost 1",
	})
}

// TestGroundDeterministic grounds every shared instance twice, from two
// parses, and compares.
func TestGroundDeterministic(t *testing.T) {
	for _, in := range instances(t) {
		d1, p1 := loadInstance(t, in)
		d2, p2 := loadInstance(t, in)
		g1, err1 := pddl.Ground(d1, p1)
		g2, err2 := pddl.Ground(d2, p2)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", in.problem, err1, err2)
		}
		if !reflect.DeepEqual(g1, g2) {
			t.Errorf("%s/%s: two groundings differ", in.dir, in.problem)
		}
	}
}

// TestGroundSharedInstances grounds every shared instance: the task is
// valid, its names distinct, and the stages shrink.
func TestGroundSharedInstances(t *testing.T) {
	for _, in := range instances(t) {
		t.Run(in.dir+"/"+in.problem, func(t *testing.T) {
			d, p := loadInstance(t, in)
			start := time.Now()
			g, err := pddl.Ground(d, p)
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			task := g.Task
			if err := task.Validate(); err != nil {
				t.Fatal(err)
			}
			if g.Unsolvable != "" || g.UndefinedCost != 0 || len(task.Goal)+len(task.GoalNot) == 0 {
				t.Errorf("unsolvable %q, %d of undefined cost, goal %v %v", g.Unsolvable, g.UndefinedCost, task.Goal, task.GoalNot)
			}
			if len(slices.Compact(slices.Sorted(slices.Values(task.Facts)))) != len(task.Facts) {
				t.Error("fact names repeat")
			}
			names := map[string]bool{}
			for _, o := range task.Ops {
				if names[o.Name] {
					t.Errorf("operator %s twice", o.Name)
				}
				names[o.Name] = true
			}
			wantNames := []string{"typed", "static", "reachable", "relevant"}
			for i, st := range g.Stages {
				if i >= len(wantNames) || st.Name != wantNames[i] {
					t.Fatalf("stages %s", stages(g))
				}
				if i > 0 && (st.Facts > g.Stages[i-1].Facts || st.Actions > g.Stages[i-1].Actions) {
					t.Errorf("stage %s grew: %s", st.Name, stages(g))
				}
			}
			if last := g.Stages[3]; last.Facts != int64(len(task.Facts)) || last.Actions != int64(len(task.Ops)) {
				t.Errorf("relevant stage %+v, task %d facts, %d operators", last, len(task.Facts), len(task.Ops))
			}
			t.Logf("%s in %v", stages(g), took.Round(time.Microsecond))
		})
	}
}

// optimalCosts reads the optimal costs instances.tsv gives.
func optimalCosts(t testing.TB) map[string]int64 {
	instances(t) // skips the test where the instances are not there
	tsv, err := os.ReadFile(filepath.Join(sharedDir, "instances.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(line, "\t")
		c, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[f[0]+"/"+f[1]] = c
	}
	return out
}

// dijkstra returns the least cost of a plan for t, -1 if there is none,
// and the states it settled; it gives up (ok false) past maxStates.
func dijkstra(t *strips.Task, maxStates int) (cost int64, states int, ok bool) {
	key := func(s []uint64) string {
		b := make([]byte, 0, 8*len(s))
		for _, w := range s {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
		return string(b)
	}
	decode := func(k string) []uint64 {
		s := make([]uint64, len(k)/8)
		for i := range s {
			s[i] = binary.LittleEndian.Uint64([]byte(k[8*i:]))
		}
		return s
	}
	best := map[string]int64{}
	done := map[string]bool{}
	init := t.InitialState()
	h := &itemHeap{}
	best[key(init)] = 0
	heap.Push(h, heapItem{0, key(init)})
	for h.Len() > 0 {
		it := heap.Pop(h).(heapItem)
		if done[it.s] {
			continue
		}
		done[it.s] = true
		if len(done) > maxStates {
			return 0, len(done), false
		}
		s := decode(it.s)
		if t.IsGoal(s) {
			return it.g, len(done), true
		}
		for i := range t.Ops {
			o := &t.Ops[i]
			if !o.Applicable(s) {
				continue
			}
			next := make([]uint64, len(s))
			o.ApplyTo(next, s)
			if len(t.Axioms) > 0 {
				t.Derive(next)
			}
			k := key(next)
			if g, seen := best[k]; !seen || it.g+o.Cost < g {
				best[k] = it.g + o.Cost
				heap.Push(h, heapItem{it.g + o.Cost, k})
			}
		}
	}
	return -1, len(done), true
}

type heapItem struct {
	g int64
	s string
}

type itemHeap []heapItem

func (h itemHeap) Len() int           { return len(h) }
func (h itemHeap) Less(i, j int) bool { return h[i].g < h[j].g || h[i].g == h[j].g && h[i].s < h[j].s }
func (h itemHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *itemHeap) Push(x any)        { *h = append(*h, x.(heapItem)) }
func (h *itemHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// TestGroundOptimalCosts solves the small shared instances by Dijkstra's
// algorithm, as reached and as ground (simplified and cut to what is
// relevant), and checks both optima against instances.tsv's: the
// simplifications keep every plan's cost.
func TestGroundOptimalCosts(t *testing.T) {
	optima := optimalCosts(t)
	limit := 30_000
	if testing.Short() || race.Enabled {
		limit = 10_000
	}
	for _, in := range instances(t) {
		name := in.dir + "/" + in.problem
		d, p := loadInstance(t, in)
		full, err := pddl.GroundReachable(d, p)
		if err != nil {
			t.Fatal(err)
		}
		g, err := pddl.Ground(d, p)
		if err != nil {
			t.Fatal(err)
		}
		c1, n1, ok1 := dijkstra(g.Task, limit)
		if !ok1 {
			t.Logf("%s: more than %d states, skipped", name, limit)
			continue
		}
		if c1 != optima[name] {
			t.Errorf("%s: optimal cost %d, want %d", name, c1, optima[name])
		}
		c2, n2, ok2 := dijkstra(full.Task, limit)
		switch {
		case !ok2:
			t.Logf("%s: cost %d, %d states; as reached more than %d states", name, c1, n1, limit)
		case c2 != c1:
			t.Errorf("%s: optimal cost %d as reached, %d as ground", name, c2, c1)
		default:
			t.Logf("%s: cost %d, %d states (as reached: %d)", name, c1, n1, n2)
		}
	}
}

// naiveOp is a ground action as a naive enumeration of every parameter
// tuple finds it, with atoms by name.
type naiveOp struct {
	name                  string
	pre, preNot, add, del []string
	cost                  int64
	undefined             bool
}

func atomName(a pddl.AtomTerm, bind map[string]string) string {
	s := "(" + a.Name
	for _, t := range a.Args {
		n := t.Name
		if t.IsVariable() {
			n = bind[t.Name]
		}
		s += " " + n
	}
	return s + ")"
}

// naiveGround enumerates objects^k for each action, using only the
// syntax tree and Domain.Fits.
func naiveGround(d *pddl.Domain, p *pddl.Problem) (ops []naiveOp, init map[string]bool, staticN int64, staticFacts int) {
	fluent := map[string]bool{}
	for _, a := range d.Actions {
		for _, at := range append(slices.Clone(a.Effect.Add), a.Effect.Delete...) {
			fluent[at.Name] = true
		}
	}
	trueInit := map[string]bool{}
	for _, at := range p.Init {
		trueInit[atomName(at, nil)] = true
	}
	init = map[string]bool{}
	for _, at := range p.Init {
		if fluent[at.Name] {
			init[atomName(at, nil)] = true
		}
	}
	values := map[string]int64{}
	for _, v := range p.NumericInit {
		values[atomName(v.Func, nil)] = v.Value
	}
	var objs []*pddl.Object
	seen := map[string]bool{}
	for _, o := range append(slices.Clone(d.Constants), p.Objects...) {
		if !seen[o.Name] {
			seen[o.Name] = true
			objs = append(objs, o)
		}
	}
	mentioned := map[string]bool{}
	for _, a := range d.Actions {
		bind := map[string]string{}
		var rec func(i int)
		rec = func(i int) {
			if i < len(a.Params) {
				for _, o := range objs {
					if d.Fits(o, a.Params[i]) {
						bind[a.Params[i].Name] = o.Name
						rec(i + 1)
					}
				}
				return
			}
			op := naiveOp{name: "(" + a.Name}
			for _, prm := range a.Params {
				op.name += " " + bind[prm.Name]
			}
			op.name += ")"
			// Static literals and equalities first, then the fluent
			// literals of the tuples they allow.
			ok := true
			var walk func(f *pddl.Formula, neg, fluents bool)
			walk = func(f *pddl.Formula, neg, fluents bool) {
				switch f.Kind {
				case pddl.And:
					for _, s := range f.Sub {
						walk(s, false, fluents)
					}
				case pddl.Not:
					walk(f.Sub[0], true, fluents)
				case pddl.Equal:
					x, y := atomName(pddl.AtomTerm{Args: f.Pred.Args[:1]}, bind), atomName(pddl.AtomTerm{Args: f.Pred.Args[1:]}, bind)
					if (x == y) == neg {
						ok = false
					}
				case pddl.Atom:
					if fluent[f.Pred.Name] != fluents || !ok {
						return
					}
					n := atomName(f.Pred, bind)
					switch {
					case !fluents && trueInit[n] == neg:
						ok = false
					case !fluents:
					case neg:
						op.preNot = append(op.preNot, n)
					default:
						op.pre = append(op.pre, n)
					}
				}
			}
			if walk(a.Precondition, false, false); !ok {
				return
			}
			walk(a.Precondition, false, true)
			for _, at := range a.Effect.Add {
				op.add = append(op.add, atomName(at, bind))
			}
			for _, at := range a.Effect.Delete {
				op.del = append(op.del, atomName(at, bind))
			}
			staticN++
			for _, l := range [][]string{op.pre, op.preNot, op.add, op.del} {
				for _, n := range l {
					mentioned[n] = true
				}
			}
			op.cost = 1
			if p.MinimizeTotalCost {
				op.cost = 0
				for _, c := range a.Effect.Cost {
					v := c.Value
					if c.Func != nil {
						var found bool
						if v, found = values[atomName(*c.Func, bind)]; !found {
							op.undefined = true
						}
					}
					op.cost += v
				}
			}
			ops = append(ops, op)
		}
		rec(0)
	}
	return ops, init, staticN, len(mentioned)
}

// TestGroundBruteForce checks the reachability analysis against a naive
// grounding of small shared instances: the same ground actions, each with
// the same preconditions, effects and cost, the same atoms reached, and
// the same stage counts.
func TestGroundBruteForce(t *testing.T) {
	small := map[string]bool{
		"gripper/prob01.pddl": true, "blocks/probBLOCKS-4-0.pddl": true, "miconic/s1-0.pddl": true,
		"logistics00/probLOGISTICS-4-0.pddl": true, "elevators-opt08-strips/p01.pddl": true,
		"rovers/p03.pddl": true, "snake-opt18-strips/p01.pddl": true, "transport-opt08-strips/p02.pddl": true,
		"parcprinter-opt11-strips/p01.pddl": true, "termes-opt18-strips/p01.pddl": true,
	}
	for _, in := range instances(t) {
		if !small[in.dir+"/"+in.problem] || race.Enabled && in.dir == "snake-opt18-strips" {
			continue // snake's naive grounding, 26^4 tuples, takes seconds under the race detector
		}
		t.Run(in.dir+"/"+in.problem, func(t *testing.T) {
			d, p := loadInstance(t, in)
			g, err := pddl.GroundReachable(d, p)
			if err != nil {
				t.Fatal(err)
			}
			compareNaive(t, d, p, g)
			t.Logf("%s", stages(g))
		})
	}
}

// compareNaive checks g, grounded up to reachability, against a naive
// grounding of d and p.
func compareNaive(t *testing.T, d *pddl.Domain, p *pddl.Problem, g *pddl.Grounding) {
	t.Helper()
	ops, init, staticN, staticFacts := naiveGround(d, p)
	statics := map[string]bool{}
	for _, pr := range d.Predicates {
		statics[pr.Name] = true
	}
	for _, a := range d.Actions {
		for _, at := range append(slices.Clone(a.Effect.Add), a.Effect.Delete...) {
			delete(statics, at.Name)
		}
	}
	trueInit := map[string]bool{}
	for _, at := range p.Init {
		trueInit[atomName(at, nil)] = true
	}
	// Relaxed reachability, naively.
	reached := map[string]bool{}
	for f := range init {
		reached[f] = true
	}
	in := make([]bool, len(ops))
	var undefined int64
	for changed := true; changed; {
		changed = false
		for i, o := range ops {
			if in[i] || !allIn(o.pre, reached) {
				continue
			}
			in[i], changed = true, true
			if o.undefined {
				undefined++
				continue
			}
			for _, f := range o.add {
				reached[f] = true
			}
		}
	}
	want := map[string]string{}
	for i, o := range ops {
		if !in[i] || o.undefined {
			continue
		}
		add := sortedSet(o.add)
		line := o.name
		for _, l := range []struct {
			what string
			l    []string
		}{
			{"pre", sortedSet(o.pre)},
			{"prenot", sortedSet(filter(o.preNot, func(f string) bool { return reached[f] }))},
			{"add", add},
			{"del", sortedSet(filter(o.del, func(f string) bool { return reached[f] && !slices.Contains(add, f) }))},
		} {
			if len(l.l) > 0 {
				line += " " + l.what + "[" + strings.Join(l.l, " ") + "]"
			}
		}
		want[o.name] = line + " cost " + strconv.FormatInt(o.cost, 10)
	}
	task := g.Task
	for i := range task.Ops {
		o := &task.Ops[i]
		line := describeOp(task, o, true)
		if w, ok := want[o.Name]; !ok {
			t.Errorf("operator %s not reachable naively", o.Name)
		} else if w != line {
			t.Errorf("operator\n\t%s\nnaively\n\t%s", line, w)
		}
		delete(want, o.Name)
	}
	for _, w := range want {
		t.Errorf("missing operator %s", w)
	}
	if got := slices.Sorted(slices.Values(task.Facts)); !slices.Equal(got, slices.Sorted(mapKeys(reached))) {
		t.Errorf("facts differ: %d, naively %d", len(got), len(reached))
	}
	var initNames []string
	for _, f := range task.Init {
		initNames = append(initNames, task.Facts[f])
	}
	if !slices.Equal(sortedSet(initNames), slices.Sorted(mapKeys(init))) {
		t.Errorf("init differs")
	}
	if g.UndefinedCost != undefined {
		t.Errorf("%d of undefined cost, naively %d", g.UndefinedCost, undefined)
	}
	// The goal: literals decided by static atoms, equalities and
	// reachability are left out, and the first false one noted.
	var goal []string
	unsolvable := false
	var walk func(f *pddl.Formula, neg bool)
	walk = func(f *pddl.Formula, neg bool) {
		switch f.Kind {
		case pddl.And:
			for _, s := range f.Sub {
				walk(s, false)
			}
		case pddl.Not:
			walk(f.Sub[0], true)
		case pddl.Equal:
			unsolvable = unsolvable || (f.Pred.Args[0].Name == f.Pred.Args[1].Name) == neg
		case pddl.Atom:
			n := atomName(f.Pred, nil)
			switch {
			case statics[f.Pred.Name]:
				unsolvable = unsolvable || trueInit[n] == neg
			case !reached[n]:
				unsolvable = unsolvable || !neg
			case neg:
				goal = append(goal, "not "+n)
			default:
				goal = append(goal, n)
			}
		}
	}
	walk(p.Goal, false)
	var gotGoal []string
	for _, f := range task.Goal {
		gotGoal = append(gotGoal, task.Facts[f])
	}
	for _, f := range task.GoalNot {
		gotGoal = append(gotGoal, "not "+task.Facts[f])
	}
	if !slices.Equal(sortedSet(gotGoal), sortedSet(goal)) || (g.Unsolvable != "") != unsolvable {
		t.Errorf("goal %v, unsolvable %q; naively %v, %v", gotGoal, g.Unsolvable, goal, unsolvable)
	}
	st := g.Stages
	if st[1].Actions != staticN || st[1].Facts != int64(staticFacts) ||
		st[2].Actions != int64(len(task.Ops)) || st[2].Facts != int64(len(reached)) {
		t.Errorf("stages %s; naively static %d/%d, reachable %d/%d", stages(g), staticFacts, staticN, len(reached), len(want))
	}
}

func allIn(l []string, set map[string]bool) bool {
	for _, f := range l {
		if !set[f] {
			return false
		}
	}
	return true
}

func sortedSet(l []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(l)))
}

func filter(l []string, keep func(string) bool) []string {
	var out []string
	for _, s := range l {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestGroundLimits: each limit ends grounding with an error at the action
// schema or predicate, and the static stage's count saturates past its
// bound.
func TestGroundLimits(t *testing.T) {
	dom := `(define (domain big)
  (:predicates (p ?a ?b ?c) (q ?a) (r ?a))
  (:action make :parameters (?a ?b ?c) :precondition (q ?a)
    :effect (and (p ?a ?b ?c) (p ?b ?c ?a) (p ?c ?a ?b)))
  (:action never :parameters (?a ?b ?c ?d ?e) :precondition (and (r ?a) (= ?e ?d) (not (= ?e ?d))) :effect (q ?a))
  (:action seek :parameters (?a ?b ?c ?d) :precondition (and (q ?a) (not (= ?d ?d))) :effect (r ?a)))`
	var objs strings.Builder
	for i := range 20 {
		fmt.Fprintf(&objs, " o%d", i)
	}
	prob := `(define (problem big) (:domain big) (:objects` + objs.String() + `) (:init (q o1) (q o2)) (:goal (r o1)))`
	d, p := mustParse(t, dom, prob)
	for _, c := range []struct {
		actions, facts     int
		work, counts, size int64
		want               string
	}{
		{100, 1 << 20, 1 << 30, 1 << 30, 1 << 30, `domain.pddl:3:12: action "make" has more than 100 instantiations whose preconditions hold (pddl.MaxGroundActions counts all actions' together)`},
		{1 << 20, 100, 1 << 30, 1 << 30, 1 << 30, `domain.pddl:2:16: more than 100 ground atoms are reachable (pddl.MaxGroundFacts), of predicate "p" among others`},
		{1 << 20, 1 << 20, 100, 1 << 30, 1 << 30, `domain.pddl:3:12: grounding action "make" takes more than 100 steps (pddl.MaxJoinWork): its preconditions bind its parameters too loosely`},
		{1 << 20, 1 << 20, 1 << 30, 1 << 30, 100_000, `domain.pddl:3:12: the ground atoms and actions take more than 100000 bytes (pddl.MaxGroundSize), at 211 instantiations of action "make" among others`},
	} {
		_, err := pddl.GroundLimited(d, p, c.actions, c.facts, c.work, c.counts, c.size)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	g, err := pddl.GroundLimited(d, p, 1<<20, 1<<20, 1<<30, 100, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if st := g.Stages[1]; st.Facts != math.MaxInt64 || st.Actions != math.MaxInt64 {
		t.Errorf("static stage %+v past its bound", st)
	}
	g, err = pddl.Ground(d, p)
	if err != nil {
		t.Fatal(err)
	}
	// make: 2 x 20 x 20 reached, adding (q o1), (q o2) and the 2168 p
	// atoms that have o1 or o2 in some place; never and seek are dead,
	// whatever the parameters (an equality and its negation; ?d different
	// from itself), and the goal (r o1) unreachable.
	if got, want := stages(g), "typed 8040/3368000, static 8020/8000, reachable 2170/800, relevant 1/0"; got != want {
		t.Errorf("stages %s, want %s", got, want)
	}
	if g.Unsolvable == "" {
		t.Error("(r o1) is unreachable")
	}
}

func BenchmarkGround(b *testing.B) {
	for _, in := range instances(b) {
		d, p := loadInstance(b, in)
		b.Run(in.dir+"/"+in.problem, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pddl.Ground(d, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// randomPDDL writes a small random domain and problem: a type hierarchy,
// constants (sometimes redeclared as objects), predicates of arity 0 to 3,
// actions of up to four parameters whose atoms repeat parameters and use
// constants, negative preconditions, equalities, costs from constants and
// functions (some values missing), ill-typed atoms in :init, and a goal
// of literals.
func randomPDDL(rng *rand.Rand) (dom, prob string) { return randomTypedPDDL(rng, false) }

// randomTypedPDDL is randomPDDL; with general, the type d is declared
// under a and again under c, and parameters, constants and objects take
// either types too.
func randomTypedPDDL(rng *rand.Rand, general bool) (dom, prob string) {
	types := []string{"object", "a", "b", "c"}
	objTypes := types
	consts := []string{"k0", "k1"}
	pick := func(l []string) string { return l[rng.IntN(len(l))] }
	var sb strings.Builder
	sb.WriteString("(define (domain r) (:requirements :typing :equality :negative-preconditions :action-costs)\n")
	if general {
		types = []string{"object", "a", "b", "c", "d", "(either b c)", "(either d b)", "(either a c)"}
		objTypes = []string{"object", "a", "b", "c", "d", "d", "(either b d)", "(either b c)"}
		sb.WriteString(" (:types a c - object b d - a d - c) (:constants k0 - (either b d) k1 - c)\n (:predicates")
	} else {
		sb.WriteString(" (:types a c - object b - a) (:constants k0 - a k1 - c)\n (:predicates")
	}
	npred := 2 + rng.IntN(4)
	arity := make([]int, npred)
	for i := range npred {
		arity[i] = rng.IntN(4)
		fmt.Fprintf(&sb, " (p%d", i)
		for j := range arity[i] {
			fmt.Fprintf(&sb, " ?x%d - %s", j, pick(types))
		}
		sb.WriteString(")")
	}
	sb.WriteString(")\n (:functions (total-cost) - number")
	farity := []int{rng.IntN(3), rng.IntN(3)}
	for i, n := range farity {
		fmt.Fprintf(&sb, " (f%d", i)
		for j := range n {
			fmt.Fprintf(&sb, " ?x%d - %s", j, pick(types))
		}
		sb.WriteString(") - number")
	}
	sb.WriteString(")\n")
	for i := range 1 + rng.IntN(3) {
		nparam := rng.IntN(5)
		term := func() string {
			if nparam > 0 && rng.IntN(100) < 85 {
				return fmt.Sprintf("?v%d", rng.IntN(nparam))
			}
			return pick(consts)
		}
		atom := func() string {
			p := rng.IntN(npred)
			s := fmt.Sprintf("(p%d", p)
			for range arity[p] {
				s += " " + term()
			}
			return s + ")"
		}
		fmt.Fprintf(&sb, " (:action act%d :parameters (", i)
		for j := range nparam {
			fmt.Fprintf(&sb, " ?v%d - %s", j, pick(types))
		}
		sb.WriteString(")\n  :precondition (and")
		for range rng.IntN(5) {
			switch r := rng.IntN(100); {
			case r < 60:
				sb.WriteString(" " + atom())
			case r < 80:
				sb.WriteString(" (not " + atom() + ")")
			case r < 90:
				fmt.Fprintf(&sb, " (= %s %s)", term(), term())
			default:
				fmt.Fprintf(&sb, " (not (= %s %s))", term(), term())
			}
		}
		sb.WriteString(")\n  :effect (and")
		for range 1 + rng.IntN(3) {
			sb.WriteString(" " + atom())
		}
		for range rng.IntN(3) {
			sb.WriteString(" (not " + atom() + ")")
		}
		switch r := rng.IntN(100); {
		case r < 50:
			fmt.Fprintf(&sb, " (increase (total-cost) %d)", rng.IntN(4))
		case r < 80:
			f := rng.IntN(2)
			fmt.Fprintf(&sb, " (increase (total-cost) (f%d", f)
			for range farity[f] {
				sb.WriteString(" " + term())
			}
			sb.WriteString("))")
		}
		sb.WriteString("))\n")
	}
	sb.WriteString(")")
	dom = sb.String()

	sb.Reset()
	sb.WriteString("(define (problem rp) (:domain r) (:objects")
	objs := slices.Clone(consts)
	for i := range 2 + rng.IntN(3) {
		fmt.Fprintf(&sb, " o%d - %s", i, pick(objTypes))
		objs = append(objs, fmt.Sprintf("o%d", i))
	}
	if rng.IntN(3) == 0 && !general {
		sb.WriteString(" k0 - a")
	}
	sb.WriteString(")\n (:init")
	tuples := func(n int, yield func(string)) {
		var rec func(k int, s string)
		rec = func(k int, s string) {
			if k == n {
				yield(s)
				return
			}
			for _, o := range objs {
				rec(k+1, s+" "+o)
			}
		}
		rec(0, "")
	}
	for p := range npred {
		tuples(arity[p], func(args string) {
			if rng.IntN(100) < 30 {
				fmt.Fprintf(&sb, " (p%d%s)", p, args)
			}
		})
	}
	for f, n := range farity {
		tuples(n, func(args string) {
			if rng.IntN(100) < 70 {
				fmt.Fprintf(&sb, " (= (f%d%s) %d)", f, args, rng.IntN(6))
			}
		})
	}
	sb.WriteString(")\n (:goal (and")
	for range rng.IntN(4) {
		p := rng.IntN(npred)
		a := fmt.Sprintf("(p%d", p)
		for range arity[p] {
			a += " " + pick(objs)
		}
		a += ")"
		switch r := rng.IntN(100); {
		case r < 65:
			sb.WriteString(" " + a)
		case r < 95:
			sb.WriteString(" (not " + a + ")")
		default:
			fmt.Fprintf(&sb, " (= %s %s)", pick(objs), pick(objs))
		}
	}
	sb.WriteString("))")
	if rng.IntN(2) == 0 {
		sb.WriteString(" (:metric minimize (total-cost))")
	}
	sb.WriteString(")")
	return dom, sb.String()
}

// TestGroundRandom checks the grounding of random small domains against
// the naive grounding, and the simplified task's optimal cost against the
// task as reached (both by Dijkstra's algorithm): simplification and
// relevance keep the cost of the best plan, and unsolvability.
func TestGroundRandom(t *testing.T) { groundRandom(t, false) }

// TestGroundRandomGeneralTypes is TestGroundRandom with a type of two
// parents and either types, which grounding compiles into static
// relations where a type's objects are not one interval of ids.
func TestGroundRandomGeneralTypes(t *testing.T) { groundRandom(t, true) }

func groundRandom(t *testing.T, general bool) {
	n := 800
	if testing.Short() || race.Enabled {
		n = 200
	}
	solved, unsolvable := 0, 0
	for seed := range n {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		dom, prob := randomTypedPDDL(rng, general)
		ok := t.Run(strconv.Itoa(seed), func(t *testing.T) {
			d, p := mustParse(t, dom, prob)
			full, err := pddl.GroundReachable(d, p)
			if err != nil {
				t.Fatal(err)
			}
			compareNaive(t, d, p, full)
			g, err := pddl.Ground(d, p)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Task.Validate(); err != nil {
				t.Fatal(err)
			}
			c1, _, ok1 := dijkstra(full.Task, 20_000)
			c2, _, ok2 := dijkstra(g.Task, 20_000)
			if !ok1 || !ok2 {
				return
			}
			if full.Unsolvable != "" {
				c1 = -1
			}
			if c1 != c2 {
				t.Errorf("optimal cost %d as ground, %d as reached", c2, c1)
			}
			if g.Unsolvable != "" && c1 >= 0 {
				t.Errorf("solvable in %d, but %s", c1, g.Unsolvable)
			}
			if c1 >= 0 {
				solved++
			} else {
				unsolvable++
			}
		})
		if !ok {
			t.Logf("seed %d:\n%s\n%s", seed, dom, prob)
			break
		}
	}
	t.Logf("%d solvable, %d unsolvable", solved, unsolvable)
}
