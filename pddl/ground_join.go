package pddl

import (
	"math"
	"math/bits"
	"slices"
)

// The join: a plan binds an action's parameters a step at a time, each
// step matching a precondition atom against a relation (through the index
// of an argument already bound) or trying every object of a parameter's
// type, and checks equalities and negative static preconditions as soon as
// their parameters are bound.

type argOp struct {
	kind uint8 // opConst: must equal val; opVar: must equal the parameter val; opBind: binds it
	val  int32
	lo   int32
	hi   int32
}

const (
	opConst = iota
	opVar
	opBind
)

type stepKind uint8

const (
	stepMatch stepKind = iota
	stepEnum
)

type step struct {
	kind stepKind
	// stepMatch:
	pred    int32
	ops     []argOp
	keyArgs []int // arguments bound before the step
	// before: a fluent atom ahead of the trigger among the schema's,
	// which must match an atom processed before the trigger's (so that
	// each instance is found once).
	before bool
	// stepEnum:
	v      int
	lo, hi int32

	eqs      []eqCheck
	negs     []lit
	freeTail int64 // >= 0: the steps from here on are free enumerations, this many ways
}

type plan struct {
	trigger int // the positive fluent precondition matched first, or -1
	steps   []step
	// boundAt is the step that binds each parameter; steps[tailStart:]
	// are free enumerations.
	boundAt   []int
	tailStart int
}

// compilePlan orders a schema's positive preconditions (the fluent ones
// too, if fluent) for a join: trigger first, then greedily the atom with
// the most arguments bound, static before fluent, then the parameters left
// over; checks go where their parameters are all bound.
func (g *grounder) compilePlan(s *schema, trigger int, fluent bool) *plan {
	pl := &plan{trigger: trigger}
	bound := make([]bool, len(s.ranges))
	type cand struct {
		l      lit
		fluent bool
		order  int
	}
	var todo []cand
	for _, l := range s.posStatic {
		todo = append(todo, cand{l, false, -1})
	}
	if fluent {
		for i, l := range s.posFluent {
			if i != trigger {
				todo = append(todo, cand{l, true, i})
			}
		}
	}
	matchStep := func(c cand) step {
		st := step{kind: stepMatch, pred: c.l.pred, before: c.fluent && c.order < trigger}
		earlier := slices.Clone(bound)
		for i, t := range c.l.args {
			switch {
			case !t.isVar():
				st.ops = append(st.ops, argOp{kind: opConst, val: int32(^t)})
				st.keyArgs = append(st.keyArgs, i)
			case earlier[t]:
				st.ops = append(st.ops, argOp{kind: opVar, val: int32(t)})
				st.keyArgs = append(st.keyArgs, i)
			case bound[t]: // bound by this atom's earlier argument: compared
				st.ops = append(st.ops, argOp{kind: opVar, val: int32(t)})
			default:
				r := s.ranges[t]
				st.ops = append(st.ops, argOp{kind: opBind, val: int32(t), lo: r[0], hi: r[1]})
				bound[t] = true
			}
		}
		if len(st.keyArgs) < len(st.ops) {
			for _, k := range st.keyArgs {
				g.rels[st.pred].index(k)
			}
		}
		return st
	}
	if trigger >= 0 {
		pl.steps = append(pl.steps, matchStep(cand{s.posFluent[trigger], true, trigger}))
	}
	for len(todo) > 0 {
		best, bestScore := 0, [4]int{}
		for i, c := range todo {
			nb, nfree := 0, 0
			seen := map[term]bool{}
			for _, t := range c.l.args {
				if !t.isVar() || bound[t] {
					nb++
				} else if !seen[t] {
					seen[t] = true
					nfree++
				}
			}
			full := 0
			if nfree == 0 {
				full = 1
			}
			st := 0
			if !c.fluent {
				st = 1
			}
			score := [4]int{full, nb, st, -nfree}
			if i == 0 || slices.Compare(score[:], bestScore[:]) > 0 {
				best, bestScore = i, score
			}
		}
		pl.steps = append(pl.steps, matchStep(todo[best]))
		todo = slices.Delete(todo, best, best+1)
	}
	for v, r := range s.ranges {
		if !bound[v] {
			bound[v] = true
			pl.steps = append(pl.steps, step{kind: stepEnum, v: v, lo: r[0], hi: r[1]})
		}
	}
	// Checks, each at the first step that binds all its parameters.
	boundAt := make([]int, len(s.ranges))
	for k, st := range pl.steps {
		switch st.kind {
		case stepMatch:
			for _, op := range st.ops {
				if op.kind == opBind {
					boundAt[op.val] = k
				}
			}
		case stepEnum:
			boundAt[st.v] = k
		}
	}
	at := func(ts ...term) int {
		k := 0
		for _, t := range ts {
			if t.isVar() {
				k = max(k, boundAt[t])
			}
		}
		return k
	}
	for _, e := range s.eqs {
		k := at(e.a, e.b)
		pl.steps[k].eqs = append(pl.steps[k].eqs, e)
	}
	for _, l := range s.negStatic {
		k := at(l.args...)
		pl.steps[k].negs = append(pl.steps[k].negs, l)
	}
	// Free tails, for counting.
	ways := int64(1)
	pl.boundAt, pl.tailStart = boundAt, len(pl.steps)
	for k := len(pl.steps) - 1; k >= 0; k-- {
		st := &pl.steps[k]
		if ways < 0 || st.kind != stepEnum || len(st.eqs) > 0 || len(st.negs) > 0 {
			ways = -1
		} else {
			ways = satMul(ways, int64(st.hi-st.lo))
			pl.tailStart = k
		}
		st.freeTail = ways
	}
	return pl
}

func satMul(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}

func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}

// errWork stops a join that exceeded its work bound.
type errWork struct{}

func (errWork) Error() string { return "work bound exceeded" }

// joiner runs a plan.
type joiner struct {
	g     *grounder
	s     *schema
	pl    *plan
	b     []int32
	work  int64
	limit int64
	trig  *relation
	// count: add free tails up instead of enumerating them.
	count bool
	n     int64
	emit  func([]int32) error
	// The static stage's atoms, at the number of steps after which they
	// are bound (every binding there extends to an instance); deeper
	// than stopAt there are none.
	atomsAt [][]lit
	stopAt  int
	visit   func([]lit) error
}

func (j *joiner) checks(st *step) bool {
	for _, e := range st.eqs {
		if (j.val(e.a) == j.val(e.b)) != e.want {
			return false
		}
	}
	for _, l := range st.negs {
		args := j.g.args[:0]
		for _, t := range l.args {
			args = append(args, j.val(t))
		}
		j.g.args = args
		if _, ok := j.g.rels[l.pred].find(args); ok {
			return false
		}
	}
	return true
}

func (j *joiner) val(t term) int32 {
	if t.isVar() {
		return j.b[t]
	}
	return int32(^t)
}

// unify binds st's parameters from tup; false if it does not match.
func (j *joiner) unify(st *step, tup []int32) bool {
	for i, op := range st.ops {
		o := tup[i]
		switch op.kind {
		case opConst:
			if o != op.val {
				return false
			}
		case opVar:
			if o != j.b[op.val] {
				return false
			}
		default:
			if o < op.lo || o >= op.hi {
				return false
			}
			j.b[op.val] = o
		}
	}
	return true
}

func (j *joiner) run(k int) error {
	if j.work > j.limit {
		return errWork{}
	}
	if j.atomsAt != nil {
		if err := j.visit(j.atomsAt[k]); err != nil || k >= j.stopAt {
			return err
		}
	}
	if k == len(j.pl.steps) {
		if j.count {
			j.n = satAdd(j.n, 1)
			return nil
		}
		return j.emit(j.b)
	}
	st := &j.pl.steps[k]
	if j.count && st.freeTail >= 0 {
		j.n = satAdd(j.n, st.freeTail)
		j.work++
		return nil
	}
	if st.kind == stepEnum {
		for o := st.lo; o < st.hi; o++ {
			if j.work++; j.work > j.limit {
				return errWork{}
			}
			j.b[st.v] = o
			if j.checks(st) {
				if err := j.run(k + 1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	r := j.g.rels[st.pred]
	limit := r.done
	if st.before && r == j.trig {
		limit--
	}
	if len(st.keyArgs) == len(st.ops) {
		j.work++
		args := j.g.args[:0]
		for _, op := range st.ops {
			if op.kind == opConst {
				args = append(args, op.val)
			} else {
				args = append(args, j.b[op.val])
			}
		}
		j.g.args = args
		if i, ok := r.find(args); !ok || i >= limit || !j.checks(st) {
			return nil
		}
		return j.run(k + 1)
	}
	if len(st.keyArgs) == 0 {
		for i := int32(0); i < limit; i++ {
			if j.work++; j.work > j.limit {
				return errWork{}
			}
			if j.unify(st, r.tuple(i)) && j.checks(st) {
				if err := j.run(k + 1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var cands []int32
	for n, a := range st.keyArgs {
		op := st.ops[a]
		o := op.val
		if op.kind == opVar {
			o = j.b[op.val]
		}
		c := r.byArg[a][o]
		if n == 0 || len(c) < len(cands) {
			cands = c
		}
	}
	for _, i := range cands {
		if i >= limit {
			break
		}
		if j.work++; j.work > j.limit {
			return errWork{}
		}
		if j.unify(st, r.tuple(i)) && j.checks(st) {
			if err := j.run(k + 1); err != nil {
				return err
			}
		}
	}
	return nil
}
