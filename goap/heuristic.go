package goap

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Heuristic chooses the estimate of remaining cost that orders A*'s open
// list. Every heuristic ploy offers is admissible (it never overestimates),
// so every plan it returns is least-cost; they differ in how much they
// prune and what each estimate costs to compute.
type Heuristic uint8

const (
	// GoalCost is GoalCount with a second bound, the larger of the two: a
	// goal fact still wrong needs one of its achievers (a capable action
	// whose effects set it right), and an achiever whose own preconditions
	// are wrong needs them set right first. For each wrong goal fact it
	// takes the least, over the fact's achievers, of the achiever's least
	// cost plus the dearest cheapest achiever among its wrong
	// preconditions: Bonet and Geffner's h_max unrolled two levels from
	// below, so never above it. Both bounds are admissible and consistent
	// (chain.go says why), so their maximum is both. A goal fact that no
	// capable action sets, or whose every achiever needs a fact nothing
	// sets, makes a state a dead end, which the search drops. Ties on f go
	// to the state with the least goal-count part, as under GoalCount, so
	// that among equally cheap plans it finds the one the GOAP lesson's
	// search finds (every figure of docs/background.md comes out
	// unchanged); then to the state generated first.
	// An estimate costs a few mask tests per wrong goal fact and achiever;
	// on domains of at most 12 facts each state's estimate is kept with the
	// tables of the goal, profile and heuristic it was made for, which a
	// planner keeps for its last four (estimates.go). It expands 7 states
	// for the battle mage's Kill where GoalCount expands 11, and 5 and 15
	// times fewer on the random 32- and 64-fact benchmark domains.
	// Backward search bounds each fact of the partial state that the start
	// gets wrong by its cheapest achiever's cost, one level. It is the
	// default: the zero Options use it.
	GoalCost Heuristic = iota
	// GoalCount is the number of goal facts still false, the heuristic of the
	// GOAP lesson (see docs/background.md), scaled to stay admissible on every
	// domain: ceil(u/k)·c, where u is the number of goal facts still wrong, k
	// the most goal facts one action can set right, and c the least cost of
	// any action the agent can do. Each action fixes at most k of them and
	// costs at least c, so at least ceil(u/k) actions costing c or more are
	// still needed. The estimate drops by at most c along an action, so it is
	// also consistent. When every action costs at least 1 and fixes at most
	// one goal fact (the battle mage), it is exactly the count of false goal
	// facts. Backward search counts the facts of the partial state the start
	// gets wrong and divides by the most facts one action sets. It costs a
	// popcount per state. The command line and the viewer use it by default,
	// so that their traces show h as the lessons describe it: the number of
	// goal facts still false.
	GoalCount
	// HMax is the cost of the dearest goal fact in the relaxation in which
	// facts, once reached, are never lost (Bonet and Geffner's h_max), over
	// the exact cost cases of every action, or the GoalCount estimate where
	// that is larger. Both are admissible and consistent, so their maximum
	// is too, and it is never weaker than GoalCount; but forward search
	// recomputes it for every state generated, which costs about one pass
	// over the actions per relaxation layer. It pays when the goal-count
	// bound is weak: goals of one or two facts reached through long chains
	// of preconditions, or costs that vary widely between actions. Backward
	// search computes it once from the start state, after which an estimate
	// is a lookup per fact of the partial state, so it nearly always pays
	// there.
	HMax
	// Blind estimates zero: A* becomes Dijkstra's algorithm. For tests and
	// comparisons.
	Blind
)

func (h Heuristic) String() string {
	switch h {
	case GoalCount:
		return "goal-count"
	case HMax:
		return "hmax"
	case Blind:
		return "blind"
	case GoalCost:
		return "goal-cost"
	}
	return "heuristic(?)"
}

// relaxation is the delete-free relaxation of a profile, over literals:
// literal 2f is "fact f holds", 2f+1 "fact f does not". Each cost case of a
// capable action is one operator.
type relaxation struct {
	ops []relaxedOp
	lit []int32 // operators' precondition and effect literals
}

type relaxedOp struct {
	cost                float64
	pre, preEnd, effEnd int32 // lit[pre:preEnd] needed, lit[preEnd:effEnd] achieved
}

func newRelaxation(d *Domain, p *Profile) relaxation {
	var r relaxation
	for a := range d.actions {
		act := &d.actions[a]
		for _, c := range p.cases[p.caseOf[a]:p.caseOf[a+1]] {
			op := relaxedOp{cost: c.cost, pre: int32(len(r.lit))}
			r.lit = appendLiterals(r.lit, c.mask, c.value)
			op.preEnd = int32(len(r.lit))
			r.lit = appendLiterals(r.lit, act.effMask, act.effValue)
			op.effEnd = int32(len(r.lit))
			r.ops = append(r.ops, op)
		}
	}
	return r
}

func appendLiterals(dst []int32, mask, value []uint64) []int32 {
	for w, m := range mask {
		for m != 0 {
			b := bits.TrailingZeros64(m)
			m &= m - 1
			l := int32(2 * (w*64 + b))
			if value[w]&(1<<b) == 0 {
				l++
			}
			dst = append(dst, l)
		}
	}
	return dst
}

// fill computes, into dist (two entries per fact), the h_max cost of every
// literal from state s. Unreachable literals are +Inf. It returns its
// work, in the units of Options.MaxWork: one per operator and literal
// visited, per pass.
func (r *relaxation) fill(dist []float64, s []uint64, nfacts int) (work int) {
	inf := math.Inf(1)
	for f := 0; f < nfacts; f++ {
		if s[f>>6]&(1<<(uint(f)&63)) != 0 {
			dist[2*f], dist[2*f+1] = 0, inf
		} else {
			dist[2*f], dist[2*f+1] = inf, 0
		}
	}
	// Bellman-Ford to the fixpoint: each pass settles at least one more
	// layer, and domains are small enough that this beats a queue.
	for changed := true; changed; {
		changed = false
		work += len(r.ops) + len(r.lit)
		for i := range r.ops {
			op := &r.ops[i]
			c := 0.0
			for _, l := range r.lit[op.pre:op.preEnd] {
				if dist[l] > c {
					c = dist[l]
				}
			}
			if c == inf {
				continue
			}
			c += op.cost
			for _, l := range r.lit[op.preEnd:op.effEnd] {
				if c < dist[l] {
					dist[l] = c
					changed = true
				}
			}
		}
	}
	return work
}

// conditionMax returns the dearest literal of (mask, value) under dist.
func conditionMax(dist []float64, mask, value []uint64) float64 {
	h := 0.0
	for w, m := range mask {
		for m != 0 {
			b := bits.TrailingZeros64(m)
			m &= m - 1
			l := 2 * (w*64 + b)
			if value[w]&(1<<b) == 0 {
				l++
			}
			if dist[l] > h {
				h = dist[l]
			}
		}
	}
	return h
}

// countBound is ceil(unmet/per)·unit, the goal-count estimate.
func countBound(unmet, per int, unit float64) float64 {
	if unmet == 0 {
		return 0
	}
	if per < 1 {
		per = 1
	}
	return float64((unmet+per-1)/per) * unit
}

// cheapestAchievers returns, for every literal (2f: fact f true, 2f+1:
// false), the least cost of one of p's capable actions whose effects make
// it so, or +Inf: the cost of the first of its achievers, cheapest first.
func cheapestAchievers(p *Profile) []float64 {
	ach := make([]float64, len(p.achieverOf)-1)
	for l := range ach {
		ach[l] = math.Inf(1)
		if first := p.achieverOf[l]; first < p.achieverOf[l+1] {
			ach[l] = p.costs[p.achievers[first]].min
		}
	}
	return ach
}

// achieverLevels is GoalCost's second bound for one search: the facts the
// search may find wrong, grouped by the cost of their cheapest achiever,
// dearest group first. An estimate is the cost of the first group holding
// a wrong fact. Only groups dearer than the goal count's own bound for one
// wrong fact are kept, since the estimate is the larger of the two: with
// uniform costs there are none. A group of cost +Inf holds facts nothing
// sets right.
//
// A group keeps only the words of the state its facts are in, each with a
// mask: the groups take the size of the literals they hold, not a state's
// width each, and an estimate tests a word per word held.
type achieverLevels struct {
	// Group i's facts are the words word[j] masked by mask[j], for j in
	// off[i] .. off[i+1].
	off   []int32
	word  []int32
	mask  []uint64
	cost  []float64
	whole []int // cost in the profile's scaled units, -1 for +Inf
}

// clear empties the groups: the estimate is then the count's.
func (l *achieverLevels) clear() {
	l.off, l.word, l.mask = l.off[:0], l.word[:0], l.mask[:0]
	l.cost, l.whole = l.cost[:0], l.whole[:0]
}

// buildBackward groups, for backward search from start, the literals
// wrong in start whose cheapest achiever is dearer than floor, taking them
// from the profile's literals in dearest-first order: linear in the facts,
// no sort. A literal nothing sets, wrong in start, makes a group of cost
// +Inf: a partial state that needs it is never met by start, since no
// regression removes it.
func (l *achieverLevels) buildBackward(start []uint64, prof *Profile, floor, scale float64) {
	l.clear()
	for _, lit := range prof.dearest {
		c := prof.achieve[lit]
		if c <= floor {
			break
		}
		f := int(lit >> 1)
		// Literal 2f is "f true": wrong in start when start lacks f.
		if start[f>>6]>>(uint(f)&63)&1 != uint64(lit&1) {
			continue
		}
		if n := len(l.cost); n == 0 || l.cost[n-1] != c {
			whole := -1
			if !math.IsInf(c, 1) {
				whole = int(c * scale)
			}
			l.cost = append(l.cost, c)
			l.whole = append(l.whole, whole)
			l.off = append(l.off, int32(len(l.mask)))
		}
		// A group's literals come in literal order, so that one word's
		// are consecutive.
		k, bit := int32(f>>6), uint64(1)<<(uint(f)&63)
		if n := len(l.mask); n > int(l.off[len(l.off)-1]) && l.word[n-1] == k {
			l.mask[n-1] |= bit
		} else {
			l.word = append(l.word, k)
			l.mask = append(l.mask, bit)
		}
	}
	if len(l.cost) > 0 {
		l.off = append(l.off, int32(len(l.mask))) // the last group's end
	}
}

// levelAt returns the bound for state s against (mask, value), whose
// wrong facts are (s ^ value) & mask: of costs, l's costs as floats or in
// scaled units (-1 for +Inf), the first group's holding one, or 0; and its
// work, a unit per word looked at (the groups' words are in order, so that
// is the index of the last one looked at, plus one).
func levelAt[C int | float64](l *achieverLevels, costs []C, s, mask, value []uint64) (C, int) {
	for g, c := range costs {
		for j := l.off[g]; j < l.off[g+1]; j++ {
			if k := l.word[j]; (s[k]^value[k])&mask[k]&l.mask[j] != 0 {
				return c, int(j) + 1
			}
		}
	}
	return 0, len(l.word)
}

// achieversByLiteral lists every literal's capable achievers, cheapest
// first (ties in action order), as one slice and each literal's offset in
// it.
func achieversByLiteral(d *Domain, p *Profile) ([]ActionID, []int32) {
	of := make([]int32, 2*len(d.facts)+1)
	var lits []int32
	for a := range d.actions {
		if !p.Capable(ActionID(a)) {
			continue
		}
		lits = appendLiterals(lits[:0], d.actions[a].effMask, d.actions[a].effValue)
		for _, l := range lits {
			of[l+1]++
		}
	}
	for l := 1; l < len(of); l++ {
		of[l] += of[l-1]
	}
	list := make([]ActionID, of[len(of)-1])
	fill := slices.Clone(of[:len(of)-1])
	for a := range d.actions {
		if !p.Capable(ActionID(a)) {
			continue
		}
		lits = appendLiterals(lits[:0], d.actions[a].effMask, d.actions[a].effValue)
		for _, l := range lits {
			list[fill[l]] = ActionID(a)
			fill[l]++
		}
	}
	for l := 0; l+1 < len(of); l++ {
		slices.SortStableFunc(list[of[l]:of[l+1]], func(x, y ActionID) int { return cmp.Compare(p.costs[x].min, p.costs[y].min) })
	}
	return list, of
}
