package strips

import (
	"math"
	"math/bits"
	"unsafe"
)

// relaxed is the delete relaxation of a Task that h_max and LM-cut explore,
// built once and read only afterwards, so that any number of explorers may
// share it.
//
// Its facts are literals of the task: a task fact f, and for each f that
// some negative precondition or negative goal mentions, an artificial fact
// "not f", true in a state where f is false and added by every operator
// that deletes f (Fast Downward's SAS+ translation gives the heuristics the
// same view of negative conditions). Two more facts are artificial: one
// true in every state, the precondition of operators that have none, and
// the goal fact, added by an artificial goal operator of cost 0 whose
// preconditions are the goal's literals.
//
// Only what can matter to the goal is kept: a literal is relevant if it is
// in the goal or a precondition of a relevant operator, an operator if it
// adds a relevant literal, and of a relevant operator only its relevant
// effects that it does not require already are kept. Neither h_max of the
// goal nor LM-cut's cuts can see the rest, so they are the same with it
// gone, and every exploration is shorter.
//
// Everything is in flat arrays indexed by int32: an operator's
// preconditions are pre[preStart[o]:preStart[o+1]], and the like for its
// effects, the operators a fact is a precondition of, and the operators
// that add it.
type relaxed struct {
	nfacts, nops   int32
	trueFact, goal int32 // the artificial facts; the goal operator is the last

	// posOf maps a task fact to its relaxed fact, -1 if irrelevant;
	// negTask[i] is the task fact whose negation is relaxed fact negFact[i].
	posOf            []int32
	negTask, negFact []int32

	preStart, pre []int32
	effStart, eff []int32
	// The same lists back to back, for the explorations: operator o's
	// preconditions are opFacts[opPre[o]:opEff[o]] and its effects
	// opFacts[opEff[o]:opPre[o+1]].
	opFacts, opPre, opEff []int32
	cost                  []int64 // the operators' costs, 0 for the goal operator
	preOfStart            []int32
	preOf                 []int32
	addedByStart          []int32
	addedBy               []int32
	names                 []string // of the relaxed facts, for tests and debugging
	// With conditional effects split (see relaxationOf), owner[o] is the
	// task operator relaxed operator o comes from (-1 for an axiom), and
	// the relaxed operators of task operator w, which share its cost, are
	// sharers[sharersStart[w]:sharersStart[w+1]]; all nil otherwise.
	owner, sharersStart, sharers []int32
}

// inf is the h_max of a fact the relaxation does not reach.
const inf = math.MaxInt64

// newRelaxed builds t's delete relaxation. t must be valid.
func newRelaxed(t *Task) *relaxed {
	t, owner := relaxationOf(t)
	n := len(t.Facts)
	// Literal l = 2f is f, 2f+1 is "not f".
	lit := func(f Fact, neg bool) int32 {
		if neg {
			return 2*int32(f) + 1
		}
		return 2 * int32(f)
	}
	// Achievers of each literal, for the relevance analysis.
	achCount := make([]int32, 2*n+1)
	for i := range t.Ops {
		o := &t.Ops[i]
		for _, f := range o.Add {
			achCount[lit(f, false)+1]++
		}
		for _, f := range o.Del {
			achCount[lit(f, true)+1]++
		}
	}
	for l := 1; l <= 2*n; l++ {
		achCount[l] += achCount[l-1]
	}
	ach := make([]int32, achCount[2*n])
	fill := append([]int32(nil), achCount[:2*n]...)
	for i := range t.Ops {
		o := &t.Ops[i]
		for _, f := range o.Add {
			l := lit(f, false)
			ach[fill[l]] = int32(i)
			fill[l]++
		}
		for _, f := range o.Del {
			l := lit(f, true)
			ach[fill[l]] = int32(i)
			fill[l]++
		}
	}

	relevant := make([]bool, 2*n)
	opRelevant := make([]bool, len(t.Ops))
	var work []int32
	mark := func(l int32) {
		if !relevant[l] {
			relevant[l] = true
			work = append(work, l)
		}
	}
	for _, f := range t.Goal {
		mark(lit(f, false))
	}
	for _, f := range t.GoalNot {
		mark(lit(f, true))
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, i := range ach[achCount[l]:achCount[l+1]] {
			if opRelevant[i] {
				continue
			}
			o := &t.Ops[i]
			// An operator that requires the literal it adds adds nothing
			// in the relaxation.
			if l&1 == 0 && contains(o.Pre, Fact(l/2)) || l&1 == 1 && contains(o.PreNot, Fact(l/2)) {
				continue
			}
			opRelevant[i] = true
			for _, f := range o.Pre {
				mark(lit(f, false))
			}
			for _, f := range o.PreNot {
				mark(lit(f, true))
			}
		}
	}

	r := &relaxed{posOf: make([]int32, n)}
	// Relaxed facts: the relevant positive literals in task order, then
	// the relevant negative ones, then the two artificial facts.
	relOf := make([]int32, 2*n)
	for f := range n {
		relOf[2*f], relOf[2*f+1] = -1, -1
		if relevant[2*f] {
			relOf[2*f] = r.nfacts
			r.names = append(r.names, t.Facts[f])
			r.nfacts++
		}
		r.posOf[f] = relOf[2*f]
	}
	for f := range n {
		if relevant[2*f+1] {
			relOf[2*f+1] = r.nfacts
			r.negTask = append(r.negTask, int32(f))
			r.negFact = append(r.negFact, r.nfacts)
			r.names = append(r.names, "(not "+t.Facts[f]+")")
			r.nfacts++
		}
	}
	r.trueFact, r.goal = r.nfacts, r.nfacts+1
	r.names = append(r.names, "<true>", "<goal>")
	r.nfacts += 2

	r.preStart = []int32{0}
	r.effStart = []int32{0}
	for i := range t.Ops {
		if !opRelevant[i] {
			continue
		}
		o := &t.Ops[i]
		for _, f := range o.Pre {
			r.pre = append(r.pre, relOf[lit(f, false)])
		}
		for _, f := range o.PreNot {
			r.pre = append(r.pre, relOf[lit(f, true)])
		}
		if int32(len(r.pre)) == r.preStart[len(r.preStart)-1] {
			r.pre = append(r.pre, r.trueFact)
		}
		for _, f := range o.Add {
			if l := lit(f, false); relevant[l] && !contains(o.Pre, f) {
				r.eff = append(r.eff, relOf[l])
			}
		}
		for _, f := range o.Del {
			if l := lit(f, true); relevant[l] && !contains(o.PreNot, f) {
				r.eff = append(r.eff, relOf[l])
			}
		}
		r.preStart = append(r.preStart, int32(len(r.pre)))
		r.effStart = append(r.effStart, int32(len(r.eff)))
		r.cost = append(r.cost, o.Cost)
		if owner != nil {
			r.owner = append(r.owner, owner[i])
		}
	}
	// The goal operator.
	for _, f := range t.Goal {
		r.pre = append(r.pre, relOf[lit(f, false)])
	}
	for _, f := range t.GoalNot {
		r.pre = append(r.pre, relOf[lit(f, true)])
	}
	if int32(len(r.pre)) == r.preStart[len(r.preStart)-1] {
		r.pre = append(r.pre, r.trueFact)
	}
	r.eff = append(r.eff, r.goal)
	r.preStart = append(r.preStart, int32(len(r.pre)))
	r.effStart = append(r.effStart, int32(len(r.eff)))
	r.cost = append(r.cost, 0)
	r.nops = int32(len(r.cost))

	r.opFacts = make([]int32, 0, len(r.pre)+len(r.eff))
	r.opPre = make([]int32, r.nops+1)
	r.opEff = make([]int32, r.nops)
	for o := range r.nops {
		r.opPre[o] = int32(len(r.opFacts))
		r.opFacts = append(r.opFacts, r.pre[r.preStart[o]:r.preStart[o+1]]...)
		r.opEff[o] = int32(len(r.opFacts))
		r.opFacts = append(r.opFacts, r.eff[r.effStart[o]:r.effStart[o+1]]...)
	}
	r.opPre[r.nops] = int32(len(r.opFacts))
	r.preOfStart, r.preOf = invert(r.nfacts, r.preStart, r.pre)
	r.addedByStart, r.addedBy = invert(r.nfacts, r.effStart, r.eff)
	r.shareCosts(len(t.Ops))
	return r
}

// shareCosts lists, for each action split into several relaxed operators,
// the operators that share its cost (see relaxationOf): none when no
// action was split, so that LM-cut on a STRIPS task does as before.
func (r *relaxed) shareCosts(nTaskOps int) {
	if r.owner == nil {
		return
	}
	start := make([]int32, nTaskOps+1)
	for _, w := range r.owner {
		if w >= 0 {
			start[w+1]++
		}
	}
	split := false
	for _, c := range start {
		split = split || c > 1
	}
	if !split {
		r.owner = nil // axioms only: nothing shares a cost
		return
	}
	for i := range nTaskOps {
		start[i+1] += start[i]
	}
	r.sharers = make([]int32, start[nTaskOps])
	fill := append([]int32(nil), start[:nTaskOps]...)
	for o, w := range r.owner {
		if w >= 0 {
			r.sharers[fill[w]] = int32(o)
			fill[w]++
		}
	}
	r.sharersStart = start
}

// contains says whether sorted l holds f.
func contains(l []Fact, f Fact) bool {
	for _, g := range l {
		if g >= f {
			return g == f
		}
	}
	return false
}

// invert turns the operators' fact lists, in CSR form, into the facts'
// operator lists, each in increasing operator order.
func invert(nfacts int32, start, facts []int32) (outStart, out []int32) {
	outStart = make([]int32, nfacts+1)
	for _, f := range facts {
		outStart[f+1]++
	}
	for f := range nfacts {
		outStart[f+1] += outStart[f]
	}
	out = make([]int32, len(facts))
	fill := append([]int32(nil), outStart[:nfacts]...)
	for o := range int32(len(start) - 1) {
		for _, f := range facts[start[o]:start[o+1]] {
			out[fill[f]] = o
			fill[f]++
		}
	}
	return outStart, out
}

// explorer holds one exploration's scratch over a shared relaxation:
// h_max of every fact, the operators' current costs and h_max supporters,
// and a monotone priority queue over the facts. Its arrays are allocated
// once, linear in the relaxation's size; exploring allocates nothing. It is
// not safe for concurrent use.
//
// An operator's state is in two structs, by how hot it is: LM-cut's
// search for the cut reads only opEdges, 16 bytes, whose array stays in
// the first-level cache where the whole state would not (termes: 7 KB
// against 30, and a quarter of the misses).
type explorer struct {
	r     *relaxed
	edges []opEdges
	ops   []opState
	facts []factState // and a last one, whose preOf ends the one before
	// Views of edges, ops, facts and r.opFacts, for the inner loops.
	ev  edgeView
	ov  opView
	fv  factView
	lit i32v

	init []int32 // the facts true in the state explored from

	// steps counts the facts and operators the explorations have looked
	// at, for takeWork.
	steps int64

	// With lists, each fact's supported operators are kept in a doubly
	// linked list (factState.head, opEdges.next and opState.prev), for
	// LM-cut: following a fact's justification graph edges then costs
	// what it finds rather than the length of the fact's precondition
	// list.
	lists bool

	// The queue holds facts keyed by hmax in intrusive doubly linked
	// lists, one per bucket: a fact is queued at most once, and lowering
	// its key moves it. Keys pushed are never below the last one popped,
	// which h_max's exploration guarantees. Where h_max is bounded by a
	// small number (costs small against the facts: unit costs, say) the
	// buckets are the keys themselves, Dial's bucket queue; otherwise it
	// is a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan 1990), where a
	// fact with key k is in bucket bits.Len64(k ^ last).
	dial   bool
	last   int64  // the last key popped; with dial, the bucket looked at
	mask   uint64 // radix: bit b set when bucket b is not empty
	queued int    // facts in the queue
	head   []int32
	hv     i32v // view of head
}

// opEdges is an operator's justification graph edges: its effects, and
// the next operator with the same supporter.
type opEdges struct {
	next int32  // with lists, the next operator with the same supporter, -1 if none
	mark uint32 // LM-cut's round in which it adds a goal-zone fact
	// Its effects are r.opFacts[eff:end].
	eff, end int32
}

// opState is the rest of an operator's part of an exploration.
type opState struct {
	cost     int64 // its current (residual) cost
	suppCost int64 // h_max of its supporter
	supp     int32 // its h_max supporter, -1 while unreached
	unsat    int32 // preconditions not yet reached
	prev     int32 // with lists, the previous operator with the same supporter
	pre      int32 // its preconditions are r.opFacts[pre:edges[o].eff]
}

// factState is a fact's part of an exploration.
type factState struct {
	hmax int64 // inf where unreached
	head int32 // with lists, the first operator it supports, -1 if none
	// LM-cut's mark: 2*round in the goal zone, 2*round+1 reached before
	// it, anything else neither.
	mark         uint32
	qnext, qprev int32 // in its queue bucket
	bucket       int32 // -1 when not queued
	// The operators it is a precondition of are r.preOf[preOf:] up to
	// the next fact's preOf.
	preOf int32
}

// dialLimit bounds the buckets of a Dial queue.
const dialLimit = 1 << 16

func newExplorer(r *relaxed) *explorer {
	e := &explorer{
		r:     r,
		edges: make([]opEdges, r.nops),
		ops:   make([]opState, r.nops),
		facts: make([]factState, r.nfacts+1),
		init:  make([]int32, 0, r.nfacts),
	}
	for o := range e.ops {
		e.edges[o] = opEdges{next: -1, eff: r.opEff[o], end: r.opPre[o+1]}
		e.ops[o] = opState{cost: r.cost[o], supp: -1, prev: -1, pre: r.opPre[o]}
	}
	for f := range e.facts {
		e.facts[f] = factState{hmax: inf, head: -1, bucket: -1, preOf: r.preOfStart[f]}
	}
	e.ev, e.ov, e.fv, e.lit = viewEdges(e.edges), viewOps(e.ops), viewFacts(e.facts), view32(r.opFacts)
	// h_max is the cost of a path of distinct facts, so at most
	// (nfacts-1) times the dearest operator's cost.
	var dear int64
	for _, c := range r.cost {
		dear = max(dear, c)
	}
	nb := 64
	if bound := int64(r.nfacts-1) * dear; bound < dialLimit && bound < 8*int64(r.nfacts)+1024 {
		e.dial, nb = true, int(bound)+1
	}
	e.head = make([]int32, nb)
	for i := range e.head {
		e.head[i] = -1
	}
	e.hv = view32(e.head)
	return e
}

// resupport makes f, at cost k, the supporter of o instead of another,
// with lists.
func (e *explorer) resupport(o, f int32, k int64) {
	op, oe := e.ov.at(o), e.ev.at(o)
	n, p := oe.next, op.prev
	if p >= 0 {
		e.ev.at(p).next = n
	} else {
		e.fv.at(op.supp).head = n
	}
	if n >= 0 {
		e.ov.at(n).prev = p
	}
	op.supp, op.suppCost = f, k
	fs := e.fv.at(f)
	h := fs.head
	oe.next, op.prev = h, -1
	if h >= 0 {
		e.ov.at(h).prev = o
	}
	fs.head = o
}

// link puts fact f, whose key is hmax, in its bucket.
func (e *explorer) link(f int32, fs *factState) {
	var b int32
	if e.dial {
		b = int32(fs.hmax)
	} else {
		b = int32(bits.Len64(uint64(fs.hmax ^ e.last)))
		e.mask |= 1 << b
	}
	h := e.hv.at(b)
	fs.qnext, fs.qprev = h, -1
	if h >= 0 {
		e.fv.at(h).qprev = f
	}
	e.hv.set(b, f)
	fs.bucket = b
	e.queued++
}

// lower sets f's h_max to k, lower than it was, and queues f at k.
func (e *explorer) lower(f int32, k int64) {
	fs := e.fv.at(f)
	if b := fs.bucket; b >= 0 {
		// Take it out of its bucket.
		n, p := fs.qnext, fs.qprev
		if p >= 0 {
			e.fv.at(p).qnext = n
		} else if e.hv.set(b, n); n < 0 && !e.dial {
			e.mask &^= 1 << b
		}
		if n >= 0 {
			e.fv.at(n).qprev = p
		}
		e.queued--
	}
	fs.hmax = k
	e.link(f, fs)
}

// pop returns a queued fact of least key and dequeues it; the queue must
// not be empty.
func (e *explorer) pop() int32 {
	var b int32
	if e.dial {
		b = int32(e.last)
		for e.hv.at(b) < 0 {
			b++
		}
		e.last = int64(b)
	} else if e.hv.at(0) < 0 {
		// Redistribute the first bucket that is not empty, whose least
		// key is the new last.
		r := int32(bits.TrailingZeros64(e.mask))
		f := e.hv.at(r)
		least := e.fv.at(f).hmax
		for g := e.fv.at(f).qnext; g >= 0; g = e.fv.at(g).qnext {
			least = min(least, e.fv.at(g).hmax)
		}
		e.last = least
		e.hv.set(r, -1)
		e.mask &^= 1 << r
		for f >= 0 {
			fs := e.fv.at(f)
			g := fs.qnext
			e.link(f, fs)
			e.queued--
			f = g
		}
	}
	f := e.hv.at(b)
	fs := e.fv.at(f)
	n := fs.qnext
	if e.hv.set(b, n); n >= 0 {
		e.fv.at(n).qprev = -1
	} else if !e.dial {
		e.mask &^= 1
	}
	fs.bucket = -1
	e.queued--
	return f
}

// reset empties the queue, for keys from least on.
func (e *explorer) reset(least int64) {
	for e.queued > 0 {
		e.pop()
	}
	e.last = least
}

// explore computes h_max of every fact from state s under the operators'
// base costs, which it restores, with each reached operator's supporter:
// the precondition reached last, whose h_max is the greatest. With toGoal
// it stops once the goal's h_max is known, and the other facts' may be too
// high. It records the relaxed facts true in s in e.init.
func (e *explorer) explore(s []uint64, toGoal bool) {
	r := e.r
	facts := e.facts[:r.nfacts]
	// Resetting every fact and operator is work too: on a task of many
	// operators of which a state reaches few it is most of the work.
	e.steps += int64(len(facts) + len(e.ops))
	for i := range facts {
		fs := &facts[i]
		fs.hmax, fs.head = inf, -1
	}
	for i := range e.ops {
		op := &e.ops[i]
		op.cost, op.supp, op.unsat = r.cost[i], -1, e.edges[i].eff-op.pre
	}
	e.reset(0)
	e.init = e.init[:0]
	// The state's facts, at h_max 0.
	posOf := r.posOf
	for w, word := range s {
		for word != 0 {
			f := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if f >= len(posOf) {
				break
			}
			if p := posOf[f]; p >= 0 {
				e.init = append(e.init, p)
			}
		}
	}
	for i, f := range r.negTask {
		if s[f/64]>>(f%64)&1 == 0 {
			e.init = append(e.init, r.negFact[i])
		}
	}
	e.init = append(e.init, r.trueFact)
	for _, f := range e.init {
		fs := e.fv.at(f)
		fs.hmax = 0
		e.link(f, fs)
	}

	ev, ov, fv, lit, preOf := e.ev, e.ov, e.fv, e.lit, view32(r.preOf)
	lists := e.lists
	steps := int64(len(e.init))
	for e.queued > 0 {
		f := e.pop()
		fs := fv.at(f)
		k := fs.hmax
		if toGoal && f == r.goal {
			break
		}
		steps += int64(fv.at(f+1).preOf-fs.preOf) + 1
		for i, end := fs.preOf, fv.at(f+1).preOf; i < end; i++ {
			o := preOf.at(i)
			op := ov.at(o)
			if op.unsat--; op.unsat != 0 {
				continue
			}
			// f supports o, at k; o goes first in f's list.
			op.supp, op.suppCost = f, k
			oe := ev.at(o)
			if lists {
				h := fs.head
				oe.next, op.prev = h, -1
				if h >= 0 {
					ov.at(h).prev = o
				}
				fs.head = o
			}
			c := k + op.cost
			for j, end := oe.eff, oe.end; j < end; j++ {
				if g := lit.at(j); c < fv.at(g).hmax {
					e.lower(g, c)
				}
			}
		}
	}
	e.steps += steps
}

// workScale is how many of an exploration's steps (a fact or an operator
// looked at) make one unit of a search's counted work, whose unit is a
// successor generated or a state expanded (see Searcher.work): about as
// long, so that a Portfolio's searches take fair turns. Measured on the
// competition instances (blocks, termes, visitall, barman), blind search
// counts 4 to 7.5 million units a second and LM-cut search 110 to 215
// million steps.
const workScale = 32

// dropWork forgets the steps not yet taken as work.
func (e *explorer) dropWork() { e.steps = 0 }

// takeWork returns the units of work done since it was last asked.
func (e *explorer) takeWork() int64 {
	w := e.steps / workScale
	e.steps -= w * workScale
	return w
}

// bytes is the memory the relaxation holds.
func (r *relaxed) bytes() int64 {
	n := 0
	for _, l := range [][]int32{r.posOf, r.negTask, r.negFact, r.preStart, r.pre, r.effStart, r.eff,
		r.opFacts, r.opPre, r.opEff, r.preOfStart, r.preOf, r.addedByStart, r.addedBy, r.owner, r.sharersStart, r.sharers} {
		n += cap(l) * 4
	}
	return int64(n + cap(r.cost)*8)
}

// bytes is the memory the explorer's scratch holds, its relaxation aside.
func (e *explorer) bytes() int64 {
	return int64(cap(e.edges))*int64(unsafe.Sizeof(opEdges{})) + int64(cap(e.ops))*int64(unsafe.Sizeof(opState{})) +
		int64(cap(e.facts))*int64(unsafe.Sizeof(factState{})) + int64(cap(e.init)+cap(e.head))*4
}
