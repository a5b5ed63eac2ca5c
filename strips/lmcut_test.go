package strips

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkedLMCut runs LM-cut's rounds as estimate does and checks each
// round: h_max and the supporters against a fixpoint computed from
// scratch under the same residual costs, the supporters' lists, and the
// cut.
func checkedLMCut(t *testing.T, l *lmCut, s []uint64) (int64, bool) {
	t.Helper()
	r := l.r
	l.explore(s, false)
	check := func(round int) {
		t.Helper()
		cost := make([]int64, r.nops)
		for o := range cost {
			cost[o] = l.ops[o].cost
		}
		want := relaxedHMax(r, l.init, cost)
		for f := range want {
			if got := l.facts[f].hmax; got != want[f] {
				t.Fatalf("round %d: fact %s: h_max %d, from scratch %d", round, r.names[f], got, want[f])
			}
		}
		listed := make([]int, r.nops)
		for f := range r.nfacts {
			for o := l.facts[f].head; o >= 0; o = l.edges[o].next {
				if l.ops[o].supp != f {
					t.Fatalf("round %d: operator %d in the list of %d, supported by %d", round, o, f, l.ops[o].supp)
				}
				listed[o]++
			}
		}
		for o := range r.nops {
			op := &l.ops[o]
			pre := r.opFacts[op.pre:l.edges[o].eff]
			high := int64(0)
			for _, p := range pre {
				high = max(high, want[p])
			}
			if high == inf {
				if op.supp >= 0 || listed[o] != 0 {
					t.Fatalf("round %d: unreached operator %d has a supporter", round, o)
				}
				continue
			}
			if p := op.supp; p < 0 || op.suppCost != high || want[p] != high || !slices.Contains(pre, p) || listed[o] != 1 {
				t.Fatalf("round %d: operator %d's supporter %d at %d, listed %d times; its preconditions' h_max is %d", round, o, p, op.suppCost, listed[o], high)
			}
		}
	}
	check(0)
	goal := &l.facts[r.goal]
	if goal.hmax == inf {
		return 0, true
	}
	var h int64
	for round := 1; goal.hmax != 0; round++ {
		if round > int(r.nops) {
			t.Fatalf("more rounds than operators")
		}
		l.nextRound()
		l.markGoalZone()
		l.findCut()
		if len(l.cut) == 0 {
			t.Fatalf("round %d: empty cut", round)
		}
		m := int64(inf)
		for _, o := range l.cut {
			op := &l.ops[o]
			if op.cost <= 0 {
				t.Fatalf("round %d: cut operator %d costs %d", round, o, op.cost)
			}
			if l.facts[op.supp].mark != 2*l.round+1 {
				t.Fatalf("round %d: cut operator %d's supporter not before the goal zone", round, o)
			}
			m = min(m, op.cost)
		}
		h += m
		l.lowerCut(m)
		l.reexplore()
		check(round)
	}
	return h, false
}

// relaxedHMax is h_max over r from the facts init under the operators'
// costs cost, computed the plain way: a fixpoint.
func relaxedHMax(r *relaxed, init []int32, cost []int64) []int64 {
	h := make([]int64, r.nfacts)
	for f := range h {
		h[f] = inf
	}
	for _, f := range init {
		h[f] = 0
	}
	for changed := true; changed; {
		changed = false
		for o := range r.nops {
			c := int64(0)
			for _, p := range r.pre[r.preStart[o]:r.preStart[o+1]] {
				c = max(c, h[p])
			}
			if c == inf {
				continue
			}
			c += cost[o]
			for _, g := range r.eff[r.effStart[o]:r.effStart[o+1]] {
				if c < h[g] {
					h[g], changed = c, true
				}
			}
		}
	}
	return h
}

// TestLMCutIncremental checks each round's incremental h_max against h_max
// from scratch on random tasks, and that the rounds give estimate's h.
func TestLMCutIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range oracleTasks() / 3 {
		task := randomTask(rng, 6+rng.IntN(5), 5+rng.IntN(16))
		l := newLMCut(task)
		s := make([]uint64, 1)
		for x := range 1 << len(task.Facts) {
			s[0] = uint64(x)
			h, dead := checkedLMCut(t, l, s)
			if h2, dead2 := l.estimate(s); h2 != h || dead2 != dead {
				t.Fatalf("task %d state %b: checked %d %v, estimate %d %v", i, x, h, dead, h2, dead2)
			}
		}
	}
}

// TestLMCutLarger checks LM-cut on random walks in larger random tasks,
// too large for the oracle, against h_max from scratch every round.
func TestLMCutLarger(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		task := randomTask(rng, 40+rng.IntN(100), 50+rng.IntN(300))
		l, hm := newLMCut(task), newHMax(task)
		for _, s := range randomWalk(task, rng, 30) {
			h, dead := checkedLMCut(t, l, s)
			hh, dh := hm.estimate(s)
			if dead != dh || hh > h {
				t.Fatalf("LM-cut %d %v, h_max %d %v", h, dead, hh, dh)
			}
		}
	}
}

// randomWalk returns the states of a random walk of up to n steps from
// t's initial state, the initial state first.
func randomWalk(t *Task, rng *rand.Rand, n int) [][]uint64 {
	s := t.InitialState()
	out := [][]uint64{slices.Clone(s)}
	var app []int
	for range n {
		app = app[:0]
		for i := range t.Ops {
			if t.Ops[i].Applicable(s) {
				app = append(app, i)
			}
		}
		if len(app) == 0 {
			break
		}
		t.Ops[app[rng.IntN(len(app))]].Apply(s)
		out = append(out, slices.Clone(s))
	}
	return out
}

// handTask builds a valid task from a compact description: the facts by
// name, the initial state, the goal's literals and the operators as
// "name cost | pre... | add... | del...", where "-f" is a negative goal
// literal or precondition.
func handTask(facts, init, goal []string, ops ...string) *Task {
	t := &Task{Name: "hand", Facts: facts}
	lits := func(names []string) (pos, neg []Fact) {
		for _, n := range names {
			l := &pos
			if n[0] == '-' {
				n, l = n[1:], &neg
			}
			i := slices.Index(facts, n)
			if i < 0 {
				panic("no fact " + n)
			}
			*l = append(*l, Fact(i))
		}
		slices.Sort(pos)
		slices.Sort(neg)
		return pos, neg
	}
	t.Init, _ = lits(init)
	t.Goal, t.GoalNot = lits(goal)
	for _, d := range ops {
		parts := strings.Split(d, "|")
		for len(parts) < 4 {
			parts = append(parts, "")
		}
		head := strings.Fields(parts[0])
		o := Op{Name: "(" + head[0] + ")"}
		if _, err := fmt.Sscan(head[1], &o.Cost); err != nil {
			panic(err)
		}
		o.Pre, o.PreNot = lits(strings.Fields(parts[1]))
		o.Add, _ = lits(strings.Fields(parts[2]))
		o.Del, _ = lits(strings.Fields(parts[3]))
		t.Ops = append(t.Ops, o)
	}
	if err := t.Validate(); err != nil {
		panic(err)
	}
	return t
}

func fields(s string) []string { return strings.Fields(s) }

// TestLMCutHand checks LM-cut and h_max from the initial state of small
// tasks whose values are worked out by hand, and LM-cut against the
// optimal cost.
func TestLMCutHand(t *testing.T) {
	for _, c := range []struct {
		name               string
		task               *Task
		lmcut, hmax, hstar int64 // -1: dead
	}{
		{"chain", handTask(fields("a b c d"), fields("a"), fields("d"),
			"ab 1 | a | b", "bc 2 | b | c", "cd 3 | c | d"), 6, 6, 6},
		// Two goals reached independently: h_max sees the dearer, LM-cut
		// both.
		{"fork", handTask(fields("s a b"), fields("s"), fields("a b"),
			"sa 3 | s | a", "sb 4 | s | b"), 7, 4, 7},
		// Two achievers of one goal: one cut of both, at the cheaper's cost.
		{"either", handTask(fields("s g"), fields("s"), fields("g"),
			"one 2 | s | g", "two 3 | s | g"), 2, 2, 2},
		// Free steps around a dear one: the goal zone reaches back over
		// the free ones.
		{"zero-cost chain", handTask(fields("p q r g"), fields("p"), fields("g"),
			"pq 0 | p | q", "qr 5 | q | r", "rg 0 | r | g"), 5, 5, 5},
		{"all free", handTask(fields("p q g"), fields("p"), fields("g"),
			"pq 0 | p | q", "qg 0 | q | g"), 0, 0, 0},
		// Three goals, each operator adds two of them: h+ = 2, but the
		// first cut of cost 1 leaves every goal free.
		{"pairs", handTask(fields("s a b c"), fields("s"), fields("a b c"),
			"ab 1 | s | a b", "bc 1 | s | b c", "ac 1 | s | a c"), 1, 1, 2},
		// An operator without preconditions.
		{"no preconditions", handTask(fields("a b"), nil, fields("a b"),
			"a 2 | | a", "b 3 | a | b"), 5, 5, 5},
		// A negative goal: the delete is needed.
		{"negative goal", handTask(fields("p q"), fields("p"), fields("q -p"),
			"q 1 | p | q", "drop 2 | | | p"), 3, 2, 3},
		// A negative precondition: q needs p gone first, which costs 3;
		// a relaxation blind to it would say 1.
		{"negative precondition", handTask(fields("p q"), fields("p"), fields("q"),
			"q 1 | -p | q", "drop 3 | p | | p"), 4, 4, 4},
		// The negative precondition can never hold: p is never deleted.
		{"dead", handTask(fields("p q"), fields("p"), fields("q"),
			"q 1 | -p | q"), -1, -1, -1},
		{"empty goal", handTask(fields("p"), nil, nil, "p 1 | | p"), 0, 0, 0},
		// A goal that holds needs nothing, whatever else there is.
		{"goal holds", handTask(fields("p q"), fields("p"), fields("p"), "q 1 | p | q | p"), 0, 0, 0},
		// Helmert and Domshlak's point: LM-cut adds up landmarks h_max
		// takes the maximum of. Two goals behind a shared first step.
		{"shared step", handTask(fields("s m a b"), fields("s"), fields("a b"),
			"sm 2 | s | m", "ma 1 | m | a", "mb 4 | m | b"), 7, 6, 7},
		// Openstacks' shape: many free steps, one paid one needed, and
		// the goal zone must stop at the paid one.
		{"free around paid", handTask(fields("s x y z g"), fields("s"), fields("g"),
			"sx 0 | s | x", "xy 0 | x | y", "yz 1 | y | z", "zg 0 | z | g", "sz 3 | s | z"), 1, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.task.InitialState()
			check := func(what string, h int64, dead bool, want int64) {
				t.Helper()
				if dead != (want < 0) || !dead && h != want {
					t.Errorf("%s: %d dead %v, want %d", what, h, dead, want)
				}
			}
			h, dead := newLMCut(c.task).estimate(s)
			check("LM-cut", h, dead, c.lmcut)
			h, dead = newHMax(c.task).estimate(s)
			check("h_max", h, dead, c.hmax)
			if len(c.task.Facts) <= 16 {
				if got := optimalCosts(c.task)[s[0]]; got != c.hstar {
					t.Errorf("h* %d, want %d", got, c.hstar)
				}
			}
		})
	}
}

// TestLMCutRoundsWrap checks estimates across the wrap of the round
// counter, where every mark is cleared.
func TestLMCutRoundsWrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	task := benchTask(rng, 80, 300, 10, 3)
	states := randomWalk(task, rng, 40)
	l, fresh := newLMCut(task), newLMCut(task)
	l.round = 1<<31 - 40
	for _, s := range states {
		a, ad := l.estimate(s)
		b, bd := fresh.estimate(s)
		if a != b || ad != bd {
			t.Fatalf("round %d: %d %v, fresh %d %v", l.round, a, ad, b, bd)
		}
	}
	if l.round >= 1<<31-40 {
		t.Fatalf("round %d: the counter did not wrap", l.round)
	}
}
