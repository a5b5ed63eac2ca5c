package goap

import (
	"math"
	"math/bits"
)

// Heuristic chooses the estimate of remaining cost that orders A*'s open
// list. Every heuristic ploy offers is admissible (it never overestimates),
// so every plan it returns is least-cost; they differ in how much they
// prune and what each estimate costs to compute.
type Heuristic uint8

const (
	// GoalCount is the lessons' heuristic, scaled to stay admissible on
	// every domain: ceil(u/k)·c, where u is the number of goal facts still
	// wrong, k the most goal facts one action can set right, and c the least
	// cost of any action the agent can do. Each action fixes at most k of
	// them and costs at least c, so at least ceil(u/k) actions costing c or
	// more are still needed. The estimate drops by at most c along an
	// action, so it is also consistent. When every action costs at least 1
	// and fixes at most one goal fact (the battle mage), it is exactly the
	// lessons' count. Backward search counts the facts of the partial state
	// the start gets wrong and divides by the most facts one action sets.
	// It costs a popcount per state: the default.
	GoalCount Heuristic = iota
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
