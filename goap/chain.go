package goap

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// chainBound is GoalCost's second bound for one forward search. A goal fact
// wrong in state s needs one of its achievers, and an achiever whose own
// preconditions are wrong in s needs those set right first, each by one of
// its achievers. So the cost to go is at least, for every wrong goal fact
// g,
//
//	v(g) = min over achievers a of g: cost(a) + max over the wrong preconditions p of a: ach(p)
//
// where cost(a) is a's least cost and ach(p) the least cost of an achiever
// of p: Bonet and Geffner's h_max unrolled two levels, from below. It is
// consistent: along an action b, ach(p) of a precondition b sets right is
// at most cost(b), so no v(g) drops by more than b's cost, and if b sets g
// right it is an achiever whose preconditions hold, v(g) <= cost(b). A goal
// fact with no achiever, or whose every achiever needs a fact nothing sets,
// makes s a dead end.
//
// The goal facts are kept dearest bound first, with the most each can
// give; an estimate stops at the first that cannot raise it. Each goal
// fact's achievers are kept cheapest first, and each achiever's
// preconditions in groups of equal ach, dearest first, as the few words
// of the state they touch and a mask for each (a one-word domain's group
// is one word): a wrong precondition costs one mask test per word of a
// group, whatever the width of the state, and the bound's size is that of
// the achievers' preconditions, not of the state.
type chainBound struct {
	w     int
	goals []chainGoal
	achs  []chainAchiever
	// Group gi's preconditions are the words pairWord[j] masked by
	// pairMask[j], for j in grpOff[gi] .. grpOff[gi+1]; with one-word
	// states, j is gi.
	grpOff   []int32
	pairWord []int32
	pairMask []uint64
	// Costs as floats and, when whole once scaled, in the scaled units:
	// each goal fact's most, each achiever's cost, each group's ach. The
	// searches read them by the type they count in.
	ub, achCost, grpCost []float64
	ubW, achW, grpW      []int
	// grpOf is, per action, the range of its groups made in this build,
	// or -1: an action setting several goal facts is grouped once.
	grpOf []int32
	// worst is the most work one estimate can take, in chainAt's units:
	// a unit per goal fact, achiever and group word looked at.
	worst int
	lits  []int32 // scratch
}

type chainGoal struct {
	word   int32
	bit    uint64
	want   uint64 // bit if the goal wants the fact true, else 0
	a0, a1 int32  // its achievers
	ub     float64
	ubW    int
}

type chainAchiever struct {
	pre    int32 // its preMask in the domain's masks; preValue follows w words on
	g0, g1 int32 // its groups of preconditions
}

// intBits is the size of an int: the whole-cost searches, which sum
// scaled costs in ints, run only where it is 64 (see NewProfile).
const intBits = 32 << (^uint(0) >> 63)

// wholeInf stands for +Inf in the scaled units: no search's estimate
// reaches it (costs are at most 2^10 scaled, sums of fewer than 2^31).
// It is 2^50 where ints have 64 bits; on a 32-bit target, where no
// whole-cost search runs, it only has to be an int.
const wholeInf = 1 << (intBits - 14)

// build makes the bound for goal under prof, in prof's whole units too.
// Warm, it allocates nothing.
func (b *chainBound) build(d *Domain, goal *Goal, prof *Profile) {
	prof.prepare()
	w := d.words
	b.w = w
	b.goals, b.achs = b.goals[:0], b.achs[:0]
	b.grpOff, b.pairWord, b.pairMask = b.grpOff[:0], b.pairWord[:0], b.pairMask[:0]
	b.ub, b.achCost, b.grpCost = b.ub[:0], b.achCost[:0], b.grpCost[:0]
	b.ubW, b.achW, b.grpW = b.ubW[:0], b.achW[:0], b.grpW[:0]
	if n := 2 * len(d.actions); cap(b.grpOf) < n {
		b.grpOf = make([]int32, n)
	} else {
		b.grpOf = b.grpOf[:n]
	}
	for i := range b.grpOf {
		b.grpOf[i] = -1
	}
	scale := prof.costScale
	whole := func(c float64) int {
		if math.IsInf(c, 1) {
			return wholeInf
		}
		return int(c * scale)
	}
	for k, m := range goal.cond.mask {
		for m != 0 {
			bit := m & -m
			m &= m - 1
			f := k*64 + bits.TrailingZeros64(bit)
			want := goal.cond.value[k] & bit
			lit := 2 * f
			if want == 0 {
				lit++
			}
			g := chainGoal{word: int32(k), bit: bit, want: want, a0: int32(len(b.achs)), ub: math.Inf(1)}
			for _, a := range prof.achievers[prof.achieverOf[lit]:prof.achieverOf[lit+1]] {
				ac := chainAchiever{pre: int32(int(a) * 4 * w)}
				if b.grpOf[2*a] >= 0 { // made for another goal fact it sets
					ac.g0, ac.g1 = b.grpOf[2*a], b.grpOf[2*a+1]
				} else {
					ac.g0, ac.g1 = b.groups(&d.actions[a], prof, whole)
					b.grpOf[2*a], b.grpOf[2*a+1] = ac.g0, ac.g1
				}
				cost := prof.costs[a].min
				most := cost
				if ac.g1 > ac.g0 {
					most += b.grpCost[ac.g0]
				}
				g.ub = min(g.ub, most)
				b.achs = append(b.achs, ac)
				b.achCost = append(b.achCost, cost)
				b.achW = append(b.achW, whole(cost))
			}
			g.a1 = int32(len(b.achs))
			g.ubW = whole(g.ub)
			b.goals = append(b.goals, g)
		}
	}
	b.grpOff = append(b.grpOff, int32(len(b.pairMask))) // the last group's end
	// Dearest bound first: an estimate stops at the first goal fact that
	// cannot raise it.
	slices.SortStableFunc(b.goals, func(x, y chainGoal) int { return cmp.Compare(y.ub, x.ub) })
	b.worst = len(b.goals)
	for _, g := range b.goals {
		b.ub = append(b.ub, g.ub)
		b.ubW = append(b.ubW, g.ubW)
		for a := g.a0; a < g.a1; a++ {
			ac := &b.achs[a]
			b.worst += 1 + int(b.grpOff[ac.g1]-b.grpOff[ac.g0])
		}
	}
}

// groups makes act's preconditions' groups, dearest ach first, and returns
// their range.
func (b *chainBound) groups(act *action, prof *Profile, whole func(float64) int) (g0, g1 int32) {
	g0 = int32(len(b.grpCost))
	b.lits = appendLiterals(b.lits[:0], act.preMask, act.preValue)
	slices.SortStableFunc(b.lits, func(x, y int32) int { return cmp.Compare(prof.achieve[y], prof.achieve[x]) })
	for i, l := range b.lits {
		c := prof.achieve[l]
		if i == 0 || c != prof.achieve[b.lits[i-1]] {
			b.grpCost = append(b.grpCost, c)
			b.grpW = append(b.grpW, whole(c))
			b.grpOff = append(b.grpOff, int32(len(b.pairMask)))
		}
		// A group's literals come in fact order (the sort is stable), so
		// that one word's are consecutive.
		k, bit := int32(l>>7), uint64(1)<<(uint(l>>1)&63)
		if n := len(b.pairMask); n > int(b.grpOff[len(b.grpOff)-1]) && b.pairWord[n-1] == k {
			b.pairMask[n-1] |= bit
		} else {
			b.pairWord = append(b.pairWord, k)
			b.pairMask = append(b.pairMask, bit)
		}
	}
	return g0, int32(len(b.grpCost))
}

// clear empties the bound: the estimate is then the count's.
func (b *chainBound) clear() { b.goals, b.worst = b.goals[:0], 0 }

// chainAt is the bound in state s (w words), raised from h, the goal
// count's estimate: at least inf for a dead end. It also returns its work,
// a unit per goal fact, achiever and group word looked at, which the
// searches count against Options.MaxWork. The costs are b's floats
// or its whole numbers, whichever the search counts in.
func chainAt[C int | float64](b *chainBound, masks []uint64, ub, achCost, grpCost []C, inf C, s []uint64, h C) (C, int) {
	w := b.w
	work := 0
	for i := range b.goals {
		if ub[i] <= h {
			break // no later goal fact can raise it either
		}
		g := &b.goals[i]
		work++
		if s[g.word]&g.bit == g.want {
			continue
		}
		best := inf
		for a := g.a0; a < g.a1; a++ {
			c := achCost[a]
			if c >= best {
				break // achievers are cheapest first
			}
			ac := &b.achs[a]
			pre := masks[ac.pre : int(ac.pre)+2*w] // preMask, then preValue
			v := C(0)
			work++
		groups:
			for gi := ac.g0; gi < ac.g1; gi++ {
				for j := b.grpOff[gi]; j < b.grpOff[gi+1]; j++ {
					work++
					k := b.pairWord[j]
					if (s[k]^pre[w+int(k)])&b.pairMask[j] != 0 {
						v = grpCost[gi]
						break groups
					}
				}
			}
			best = min(best, c+v)
		}
		h = max(h, best)
	}
	return h, work
}

// chainAtWord is chainAt for one-word states.
func chainAtWord[C int | float64](b *chainBound, masks []uint64, ub, achCost, grpCost []C, inf C, s uint64, h C) (C, int) {
	work := 0
	for i := range b.goals {
		if ub[i] <= h {
			break
		}
		g := &b.goals[i]
		work++
		if s&g.bit == g.want {
			continue
		}
		best := inf
		for a := g.a0; a < g.a1; a++ {
			c := achCost[a]
			if c >= best {
				break
			}
			ac := &b.achs[a]
			wrong := (s ^ masks[ac.pre+1]) & masks[ac.pre]
			v := C(0)
			work++
			for gi := ac.g0; gi < ac.g1; gi++ {
				work++
				if wrong&b.pairMask[gi] != 0 { // one word, one pair per group
					v = grpCost[gi]
					break
				}
			}
			best = min(best, c+v)
		}
		h = max(h, best)
	}
	return h, work
}
