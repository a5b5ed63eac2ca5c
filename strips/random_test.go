package strips

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// randomTask returns a small random task for oracle tests: nfacts facts,
// nops operators of one to three preconditions, some negative, one to
// three effects and costs from 0 to 4 (zero-cost operators included, as
// the competitions' openstacks has them), and a goal of two or three
// literals, some negative.
func randomTask(rng *rand.Rand, nfacts, nops int) *Task {
	t := &Task{Name: "random"}
	for i := range nfacts {
		t.Facts = append(t.Facts, fmt.Sprintf("f%d", i))
	}
	pick := func(n int) []Fact {
		var l []Fact
		for range n {
			f := Fact(rng.IntN(nfacts))
			if !slices.Contains(l, f) {
				l = append(l, f)
			}
		}
		slices.Sort(l)
		return l
	}
	t.Init = pick(nfacts / 2)
	split := func(l []Fact, negChance int) (pos, neg []Fact) {
		for _, f := range l {
			if rng.IntN(100) < negChance {
				neg = append(neg, f)
			} else {
				pos = append(pos, f)
			}
		}
		return pos, neg
	}
	t.Goal, t.GoalNot = split(pick(2+rng.IntN(2)), 20)
	for i := range nops {
		o := Op{Name: fmt.Sprintf("(op%d)", i), Cost: int64(rng.IntN(5))}
		o.Pre, o.PreNot = split(pick(1+rng.IntN(3)), 25)
		o.Add, o.Del = split(pick(1+rng.IntN(3)), 40)
		if len(o.Add) == 0 && len(o.Del) == 0 {
			continue
		}
		t.Ops = append(t.Ops, o)
	}
	return t
}

// optimalCosts returns the least cost from every state of a task of at
// most 16 facts to a goal state, -1 where no goal state is reachable: Dijkstra's
// algorithm backwards over the explicit state space, the oracle the
// heuristics and the search are checked against.
func optimalCosts(t *Task) []int64 {
	if len(t.Facts) > 16 {
		panic("optimalCosts: too many facts")
	}
	n := 1 << len(t.Facts)
	dist := make([]int64, n)
	for i := range dist {
		dist[i] = -1
	}
	// Predecessor edges, built forwards.
	type edge struct {
		from int
		cost int64
	}
	preds := make([][]edge, n)
	s := make([]uint64, 1)
	for from := range n {
		for i := range t.Ops {
			s[0] = uint64(from)
			if t.Ops[i].Applicable(s) {
				t.Ops[i].Apply(s)
				preds[s[0]] = append(preds[s[0]], edge{from, t.Ops[i].Cost})
			}
		}
	}
	done := make([]bool, n)
	for x := range n {
		s[0] = uint64(x)
		if t.IsGoal(s) {
			dist[x] = 0
		}
	}
	for {
		best := -1
		for x := range n {
			if !done[x] && dist[x] >= 0 && (best < 0 || dist[x] < dist[best]) {
				best = x
			}
		}
		if best < 0 {
			return dist
		}
		done[best] = true
		for _, e := range preds[best] {
			if d := dist[best] + e.cost; !done[e.from] && (dist[e.from] < 0 || d < dist[e.from]) {
				dist[e.from] = d
			}
		}
	}
}
