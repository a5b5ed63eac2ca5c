package pddl

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ploy-ai/ploy/strips"
)

// gop is a ground action, its fact lists of reached fact ids.
type gop struct {
	s                     *schema
	inst                  int32
	cost                  int64
	pre, preNot, add, del []int32
	effs                  []geff
}

// geff is a ground conditional effect of a gop.
type geff struct {
	cond, condNot, add, del []int32
	relevant                bool
}

// gax is a ground axiom.
type gax struct {
	s             *schema
	inst          int32
	head          int32
	body, bodyNot []int32
	alive         bool
}

// factList is the sorted, distinct fact ids of ls bound by b; atoms never
// reached are left out if skipMissing (they are always false), else -1.
func (g *grounder) factList(ls []lit, b []int32, skipMissing bool) []int32 {
	var out []int32
	for _, l := range ls {
		f := g.lookup(l, b)
		if f < 0 && skipMissing {
			continue
		}
		out = append(out, f)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// attachEffects gives each ground action of an ADL schema its ground
// conditional effects: the instances of its effect schemas that extend
// its binding. A condition already required by the action is dropped;
// an effect the action's precondition contradicts is dropped; an effect
// left without conditions joins the action's own adds and deletes.
func (g *grounder) attachEffects(ops []gop) {
	byPrefix := map[*schema]map[string][]int32{}
	for _, e := range g.schemas {
		if e.kind != kindEffect {
			continue
		}
		m := map[string][]int32{}
		k, pk := len(e.ranges), len(e.parent.ranges)
		for i := range e.costv {
			key := string(appendKey(nil, e.insts[i*k:i*k+pk]))
			m[key] = append(m[key], int32(i))
		}
		byPrefix[e] = m
	}
	for i := range ops {
		o := &ops[i]
		if len(o.s.effects) == 0 {
			continue
		}
		b := g.binding(o)
		key := string(appendKey(nil, b))
		merged := false
		add, del := slices.Clip(o.add), slices.Clip(o.del) // o's lists share an arena
		for _, e := range o.s.effects {
			k := len(e.ranges)
			for _, j := range byPrefix[e][key] {
				eb := e.insts[int(j)*k : int(j+1)*k]
				ef := geff{
					cond:    minus(g.factList(e.condPos, eb, false), o.pre),
					condNot: minus(g.factList(e.condNeg, eb, true), o.preNot),
					add:     g.factList(e.add, eb, false),
					del:     g.factList(e.del, eb, true),
				}
				if intersects(ef.cond, o.preNot) || intersects(ef.condNot, o.pre) {
					continue
				}
				if len(ef.cond) == 0 && len(ef.condNot) == 0 {
					add = append(add, ef.add...)
					del = append(del, ef.del...)
					merged = true
					continue
				}
				// One effect's atom both added and deleted is added.
				ef.del = minus(ef.del, ef.add)
				o.effs = append(o.effs, ef)
			}
		}
		if merged {
			slices.Sort(add)
			o.add = slices.Compact(add)
			slices.Sort(del)
			o.del = minus(slices.Compact(del), o.add)
		}
	}
}

// groundAxioms lists the reached axioms.
func (g *grounder) groundAxioms() []gax {
	var out []gax
	for _, s := range g.schemas {
		if s.kind != kindAxiom {
			continue
		}
		k := len(s.ranges)
		for i := range s.costv {
			b := s.insts[i*k : (i+1)*k]
			out = append(out, gax{s: s, inst: int32(i), head: g.lookup(s.add[0], b),
				body: g.factList(s.posFluent, b, false), bodyNot: g.factList(s.negFluent, b, true), alive: true})
		}
	}
	return out
}

func (g *grounder) binding(o *gop) []int32 {
	k := len(o.s.ranges)
	return o.s.insts[int(o.inst)*k : int(o.inst+1)*k]
}

// lookup is the fact id of a ground fluent atom, or -1 if not reached.
func (g *grounder) lookup(l lit, b []int32) int32 {
	r := g.rels[l.pred]
	i, ok := r.find(g.instArgs(l, b))
	if !ok {
		return -1
	}
	return r.facts[i]
}

// ops builds the reached ground actions' fact lists: deletes of atoms
// never reached and negative preconditions on them dropped (they are
// always false), an atom both added and deleted added.
func (g *grounder) ops() []gop {
	var arena []int32
	type span struct{ pre, preNot, add, del, end int32 }
	spans := make([]span, 0, g.nInst)
	ops := make([]gop, 0, g.nInst)
	list := func(ls []lit, b []int32, skipMissing bool) {
		start := len(arena)
		for _, l := range ls {
			f := g.lookup(l, b)
			if f < 0 && skipMissing {
				continue
			}
			arena = append(arena, f)
		}
		l := arena[start:]
		slices.Sort(l)
		arena = arena[:start+len(slices.Compact(l))]
	}
	for _, s := range g.schemas {
		if s.kind != kindAction {
			continue
		}
		k := len(s.ranges)
		for i := range s.costv {
			b := s.insts[i*k : (i+1)*k]
			var sp span
			sp.pre = int32(len(arena))
			list(s.posFluent, b, false)
			sp.preNot = int32(len(arena))
			list(s.negFluent, b, true)
			sp.add = int32(len(arena))
			list(s.add, b, false)
			sp.del = int32(len(arena))
			list(s.del, b, true)
			// An atom both added and deleted is added.
			add, del := arena[sp.add:sp.del], arena[sp.del:]
			arena = arena[:int(sp.del)+len(minus(del, add))]
			sp.end = int32(len(arena))
			spans = append(spans, sp)
			ops = append(ops, gop{s: s, inst: int32(i), cost: s.costv[i]})
		}
	}
	for i, sp := range spans {
		o := &ops[i]
		o.pre = arena[sp.pre:sp.preNot:sp.preNot]
		o.preNot = arena[sp.preNot:sp.add:sp.add]
		o.add = arena[sp.add:sp.del:sp.del]
		o.del = arena[sp.del:sp.end:sp.end]
	}
	g.attachEffects(ops)
	return ops
}

// minus removes from a, in place, the elements of b; both sorted.
func minus(a, b []int32) []int32 {
	out, j := a[:0], 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}

func intersects(a, b []int32) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// Constant facts, found by simplify.
const (
	varies uint8 = iota
	alwaysTrue
	alwaysFalse
)

// simplify drops what cannot matter, keeping every plan's meaning and
// cost: an action requiring an atom true and false; effects that change
// nothing (adding a precondition, deleting an atom required false); and
// atoms that are constants, true initially and deleted by no action or
// false initially and added by none, with the actions they make
// inapplicable (dropping those can make more atoms constant: a worklist
// runs to the fixpoint). It says which atoms are constant, and marks the
// actions dropped.
//
// With ADL: a derived atom is never a constant (axioms decide it in each
// state); conditional effects count as adds and deletes; an effect whose
// condition a constant decides is kept or dropped, its adds and deletes
// of constants dropped, and an axiom likewise.
func (g *grounder) simplify(ops []gop, alive []bool, axioms []gax) []uint8 {
	n := len(g.facts)
	for i := range ops {
		o := &ops[i]
		if intersects(o.pre, o.preNot) {
			alive[i] = false
			continue
		}
		// Adding an atom the action requires changes nothing, unless a
		// conditional effect may delete it (an add wins over a delete).
		// Deleting an atom required false never changes anything.
		if len(o.effs) == 0 {
			o.add = minus(o.add, o.pre)
		}
		o.del = minus(o.del, o.preNot)
		for j := range o.effs {
			o.effs[j].del = minus(o.effs[j].del, o.preNot)
		}
		if len(o.add) == 0 && len(o.del) == 0 && len(o.effs) == 0 {
			alive[i] = false
		}
	}
	addCnt := make([]int32, n)
	delCnt := make([]int32, n)
	count := func(o *gop, d int32) {
		for _, f := range o.add {
			addCnt[f] += d
		}
		for _, f := range o.del {
			delCnt[f] += d
		}
		for j := range o.effs {
			for _, f := range o.effs[j].add {
				addCnt[f] += d
			}
			for _, f := range o.effs[j].del {
				delCnt[f] += d
			}
		}
	}
	for i := range ops {
		if alive[i] {
			count(&ops[i], 1)
		}
	}
	preOps := csr(n, ops, alive, func(o *gop) []int32 { return o.pre })
	preNotOps := csr(n, ops, alive, func(o *gop) []int32 { return o.preNot })
	konst := make([]uint8, n)
	var queue []int32
	for f := range n {
		switch {
		case g.derived[g.facts[f].pred]:
			continue
		case f < g.nInit && delCnt[f] == 0:
			konst[f] = alwaysTrue
		case f >= g.nInit && addCnt[f] == 0:
			konst[f] = alwaysFalse
		default:
			continue
		}
		queue = append(queue, int32(f))
	}
	for len(queue) > 0 {
		f := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		dead := preOps
		if konst[f] == alwaysTrue {
			dead = preNotOps
		}
		for _, i := range dead.of(f) {
			if !alive[i] {
				continue
			}
			alive[i] = false
			o := &ops[i]
			count(o, -1)
			lists := [][]int32{o.add, o.del}
			for j := range o.effs {
				lists = append(lists, o.effs[j].add, o.effs[j].del)
			}
			for k, l := range lists {
				for _, f := range l {
					switch {
					case k%2 == 0 && addCnt[f] == 0 && int(f) >= g.nInit && konst[f] == varies && !g.derived[g.facts[f].pred]:
						konst[f] = alwaysFalse
						queue = append(queue, f)
					case k%2 == 1 && delCnt[f] == 0 && int(f) < g.nInit && konst[f] == varies && !g.derived[g.facts[f].pred]:
						konst[f] = alwaysTrue
						queue = append(queue, f)
					}
				}
			}
		}
	}
	keep := func(l []int32, drop uint8) []int32 {
		out := l[:0]
		for _, f := range l {
			if konst[f] != drop {
				out = append(out, f)
			}
		}
		return out
	}
	// decided says whether a condition on l (required true, or false
	// if !holds) is decided false by a constant.
	decided := func(l []int32, holds bool) bool {
		for _, f := range l {
			if konst[f] == alwaysFalse && holds || konst[f] == alwaysTrue && !holds {
				return true
			}
		}
		return false
	}
	for i := range ops {
		if !alive[i] {
			continue
		}
		o := &ops[i]
		o.pre = keep(o.pre, alwaysTrue)
		o.preNot = keep(o.preNot, alwaysFalse)
		o.add = keep(o.add, alwaysTrue)
		o.del = keep(o.del, alwaysFalse)
		effs := o.effs[:0]
		for _, e := range o.effs {
			if decided(e.cond, true) || decided(e.condNot, false) {
				continue
			}
			e.cond = keep(e.cond, alwaysTrue)
			e.condNot = keep(e.condNot, alwaysFalse)
			e.add = keep(e.add, alwaysTrue)
			e.del = keep(e.del, alwaysFalse)
			if len(e.add) > 0 || len(e.del) > 0 {
				effs = append(effs, e)
			}
		}
		o.effs = effs
		if len(o.add) == 0 && len(o.del) == 0 && len(o.effs) == 0 {
			alive[i] = false
		}
	}
	for i := range axioms {
		a := &axioms[i]
		if decided(a.body, true) || decided(a.bodyNot, false) {
			a.alive = false
			continue
		}
		a.body = keep(a.body, alwaysTrue)
		a.bodyNot = keep(a.bodyNot, alwaysFalse)
	}
	return konst
}

// csrIndex lists, for each fact, the actions whose list holds it.
type csrIndex struct {
	start []int32
	items []int32
}

func (c csrIndex) of(f int32) []int32 { return c.items[c.start[f]:c.start[f+1]] }

func csr(n int, ops []gop, alive []bool, list func(*gop) []int32) csrIndex {
	c := csrIndex{start: make([]int32, n+1)}
	for i := range ops {
		if alive[i] {
			for _, f := range list(&ops[i]) {
				c.start[f+1]++
			}
		}
	}
	for f := range n {
		c.start[f+1] += c.start[f]
	}
	c.items = make([]int32, c.start[n])
	fill := slices.Clone(c.start[:n])
	for i := range ops {
		if alive[i] {
			for _, f := range list(&ops[i]) {
				c.items[fill[f]] = int32(i)
				fill[f]++
			}
		}
	}
	return c
}

// goalLit is one literal of the goal.
type goalLit struct {
	eq     bool // an equality of args[0] and args[1]
	pred   int32
	args   []int32
	holds  bool // the literal must be true (else false)
	fact   int32
	static bool
}

func (g *grounder) goal() ([]goalLit, error) {
	var out []goalLit
	var walk func(f *Formula, neg bool) error
	walk = func(f *Formula, neg bool) error {
		switch f.Kind {
		case And:
			if neg {
				return fmt.Errorf("pddl: ground: a negated conjunction in the goal")
			}
			for _, s := range f.Sub {
				if err := walk(s, false); err != nil {
					return err
				}
			}
			return nil
		case Not:
			if neg || len(f.Sub) != 1 {
				return fmt.Errorf("pddl: ground: a malformed negation in the goal")
			}
			return walk(f.Sub[0], true)
		case Equal:
			args, err := g.objectArgs(f.Pred.Args)
			if err != nil {
				return err
			}
			if len(args) != 2 {
				return fmt.Errorf("pddl: ground: an equality of %d terms in the goal", len(args))
			}
			out = append(out, goalLit{eq: true, args: args, holds: !neg})
			return nil
		case Atom:
			pi, args, err := g.groundAtom(f.Pred)
			if err != nil {
				return err
			}
			l := goalLit{pred: pi, args: args, holds: !neg, fact: -1, static: g.static[pi]}
			if i, ok := g.rels[pi].find(args); ok && !l.static {
				l.fact = g.rels[pi].facts[i]
			}
			out = append(out, l)
			return nil
		}
		return fmt.Errorf("pddl: ground: an unknown formula in the goal")
	}
	return out, walk(g.goalF, false)
}

// finish builds the task from the reached ground actions: simplified and
// cut to what is relevant to the goal, or (upTo stageReachable, for
// tests) as reached.
func (g *grounder) finish(res *Grounding, upTo int) error {
	goal, err := g.goal()
	if err != nil {
		return err
	}
	ops := g.ops()
	axioms := g.groundAxioms()
	alive := make([]bool, len(ops))
	for i := range alive {
		alive[i] = true
	}
	konst := make([]uint8, len(g.facts))
	if upTo == stageRelevant {
		konst = g.simplify(ops, alive, axioms)
	}

	// The goal: literals decided by grounding are dropped, or make the
	// task unsolvable.
	var posGoal, negGoal []int32
	for _, l := range goal {
		var name string
		var init, holds bool
		switch {
		case l.eq:
			name = "(= " + g.objNames[l.args[0]] + " " + g.objNames[l.args[1]] + ")"
			init = l.args[0] == l.args[1]
			holds = init == l.holds
		case l.static:
			name = g.atomName(l.pred, l.args)
			_, init = g.rels[l.pred].find(l.args)
			holds = init == l.holds
		case l.fact < 0:
			name = g.atomName(l.pred, l.args)
			holds = !l.holds
		case konst[l.fact] != varies:
			name = g.factName(l.fact)
			init = konst[l.fact] == alwaysTrue
			holds = init == l.holds
		case l.holds:
			posGoal = append(posGoal, l.fact)
			continue
		default:
			negGoal = append(negGoal, l.fact)
			continue
		}
		if holds {
			continue
		}
		var why string
		switch {
		case l.eq:
			why = fmt.Sprintf("the goal requires %s, which is false", name)
			if !l.holds {
				why = fmt.Sprintf("the goal requires (not %s), which is false", name)
			}
		case l.static && l.holds:
			why = fmt.Sprintf("the goal %s is static (no action adds or deletes it) and false initially", name)
		case l.static:
			why = fmt.Sprintf("the goal (not %s) is static (no action adds or deletes it) and true initially", name)
		case l.holds && l.fact < 0 && g.derived[l.pred]:
			why = fmt.Sprintf("the goal %s is not reachable: no state that can be reached derives it", name)
			if name == "(goal@)" {
				why = "the goal is not reachable: it holds in no state that can be reached"
			}
		case l.holds && l.fact < 0:
			why = fmt.Sprintf("the goal %s is not reachable: false initially, and no applicable action adds it", name)
		case l.holds:
			why = fmt.Sprintf("the goal %s is false initially, and no action that can apply adds it", name)
		default:
			why = fmt.Sprintf("the goal (not %s) is true initially, and no action that can apply deletes it", name)
		}
		if upTo == stageReachable { // the task as reached, the goal noted
			if res.Unsolvable == "" {
				res.Unsolvable = why
			}
			continue
		}
		g.unsolvable(res, name, init, l.holds, why)
		return nil
	}
	slices.Sort(posGoal)
	posGoal = slices.Compact(posGoal)
	slices.Sort(negGoal)
	negGoal = slices.Compact(negGoal)
	if i := slices.IndexFunc(posGoal, func(f int32) bool { _, ok := slices.BinarySearch(negGoal, f); return ok }); i >= 0 && upTo == stageRelevant {
		f := posGoal[i]
		name := g.factName(f)
		g.unsolvable(res, name, int(f) < g.nInit, true, fmt.Sprintf("the goal requires %s both true and false", name))
		res.Task.GoalNot = []strips.Fact{0}
		return nil
	}

	// Relevance, backwards from the goal.
	relevant := make([]bool, len(g.facts))
	relOp := make([]bool, len(ops))
	if upTo == stageRelevant {
		effOps := csr(len(g.facts), ops, alive, func(o *gop) []int32 { return o.add })
		delOps := csr(len(g.facts), ops, alive, func(o *gop) []int32 { return o.del })
		var queue []int32
		mark := func(f int32) {
			if !relevant[f] {
				relevant[f] = true
				queue = append(queue, f)
			}
		}
		// Conditional effects and axioms, by the facts they change or
		// derive: (op, effect) pairs, axioms.
		type effRef struct{ op, eff int32 }
		condOf := make([][]effRef, 0)
		axOf := make([][]int32, 0)
		if g.hasADL() {
			condOf = make([][]effRef, len(g.facts))
			axOf = make([][]int32, len(g.facts))
			for i := range ops {
				if !alive[i] {
					continue
				}
				for j := range ops[i].effs {
					e := &ops[i].effs[j]
					for _, l := range [2][]int32{e.add, e.del} {
						for _, f := range l {
							condOf[f] = append(condOf[f], effRef{int32(i), int32(j)})
						}
					}
				}
			}
			for i := range axioms {
				if axioms[i].alive {
					axOf[axioms[i].head] = append(axOf[axioms[i].head], int32(i))
				}
			}
		}
		relAx := make([]bool, len(axioms))
		markAll := func(lists ...[]int32) {
			for _, l := range lists {
				for _, f := range l {
					mark(f)
				}
			}
		}
		useOp := func(i int32) {
			if !relOp[i] {
				relOp[i] = true
				markAll(ops[i].pre, ops[i].preNot)
			}
		}
		for _, f := range posGoal {
			mark(f)
		}
		for _, f := range negGoal {
			mark(f)
		}
		for len(queue) > 0 {
			f := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, idx := range [2]csrIndex{effOps, delOps} {
				for _, i := range idx.of(f) {
					useOp(i)
				}
			}
			if len(condOf) == 0 {
				continue
			}
			for _, r := range condOf[f] {
				useOp(r.op)
				e := &ops[r.op].effs[r.eff]
				if e.relevant {
					continue
				}
				e.relevant = true
				markAll(e.cond, e.condNot)
			}
			for _, i := range axOf[f] {
				if !relAx[i] {
					relAx[i] = true
					markAll(axioms[i].body, axioms[i].bodyNot)
				}
			}
		}
		for i := range axioms {
			axioms[i].alive = relAx[i]
		}
	} else {
		for i := range relevant {
			relevant[i] = true
		}
		copy(relOp, alive)
		for i := range ops {
			for j := range ops[i].effs {
				ops[i].effs[j].relevant = true
			}
		}
	}

	// The task: facts and operators in declaration order, renumbered.
	var keep []int32
	for f, r := range relevant {
		if r {
			keep = append(keep, int32(f))
		}
	}
	slices.SortFunc(keep, func(a, b int32) int {
		fa, fb := g.facts[a], g.facts[b]
		if c := cmp.Compare(fa.pred, fb.pred); c != 0 {
			return c
		}
		return g.compareArgs(g.rels[fa.pred].tuple(fa.tuple), g.rels[fb.pred].tuple(fb.tuple))
	})
	newID := make([]strips.Fact, len(g.facts))
	t := &strips.Task{Name: g.p.Name, Facts: make([]string, len(keep))}
	for i, f := range keep {
		newID[f] = strips.Fact(i)
		t.Facts[i] = g.factName(f)
		if int(f) < g.nInit {
			t.Init = append(t.Init, strips.Fact(i))
		}
	}
	slices.Sort(t.Init)
	var order []int32
	size := len(posGoal) + len(negGoal)
	for i, r := range relOp {
		if r {
			order = append(order, int32(i))
			o := &ops[i]
			size += len(o.pre) + len(o.preNot) + len(o.add) + len(o.del)
			for j := range o.effs {
				e := &o.effs[j]
				size += len(e.cond) + len(e.condNot) + len(e.add) + len(e.del)
			}
		}
	}
	for i := range axioms {
		if a := &axioms[i]; a.alive {
			size += len(a.body) + len(a.bodyNot)
		}
	}
	// The lists share one array, each capped at its length.
	arena := make([]strips.Fact, 0, size)
	mapped := func(l []int32) []strips.Fact {
		start := len(arena)
		for _, f := range l {
			if relevant[f] {
				arena = append(arena, newID[f])
			}
		}
		if len(arena) == start {
			return nil
		}
		out := arena[start:len(arena):len(arena)]
		slices.Sort(out)
		return out
	}
	t.Goal, t.GoalNot = mapped(posGoal), mapped(negGoal)
	slices.SortFunc(order, func(a, b int32) int {
		oa, ob := &ops[a], &ops[b]
		if oa.s != ob.s {
			return cmp.Compare(oa.s.idx, ob.s.idx)
		}
		return g.compareArgs(g.binding(oa), g.binding(ob))
	})
	t.Ops = make([]strips.Op, len(order))
	for k, i := range order {
		o := &ops[i]
		t.Ops[k] = strips.Op{Name: g.opName(o.s, g.binding(o)), Pre: mapped(o.pre), PreNot: mapped(o.preNot),
			Add: mapped(o.add), Del: mapped(o.del), Cost: o.cost}
		for j := range o.effs {
			if e := &o.effs[j]; e.relevant {
				t.Ops[k].Effects = append(t.Ops[k].Effects, strips.CondEffect{Cond: mapped(e.cond), CondNot: mapped(e.condNot), Add: mapped(e.add), Del: mapped(e.del)})
			}
		}
	}
	var axOrder []int32
	for i := range axioms {
		if axioms[i].alive {
			axOrder = append(axOrder, int32(i))
		}
	}
	slices.SortFunc(axOrder, func(a, b int32) int {
		xa, xb := &axioms[a], &axioms[b]
		if xa.s != xb.s {
			return cmp.Compare(xa.s.idx, xb.s.idx)
		}
		k := len(xa.s.ranges)
		return g.compareArgs(xa.s.insts[int(xa.inst)*k:int(xa.inst+1)*k], xb.s.insts[int(xb.inst)*k:int(xb.inst+1)*k])
	})
	for _, i := range axOrder {
		a := &axioms[i]
		t.Axioms = append(t.Axioms, strips.Axiom{Head: newID[a.head], Body: mapped(a.body), BodyNot: mapped(a.bodyNot), Layer: g.layers[g.facts[a.head].pred]})
	}
	res.Task = t
	res.Stages = append(res.Stages, Stage{"relevant", int64(len(t.Facts)), int64(len(t.Ops))})
	return nil
}

func (g *grounder) compareArgs(a, b []int32) int {
	for i := range a {
		if c := cmp.Compare(g.objRank[a[i]], g.objRank[b[i]]); c != 0 {
			return c
		}
	}
	return 0
}

// unsolvable makes res's task one whose goal cannot be met: the one fact
// name, true initially if init, required to be holds.
func (g *grounder) unsolvable(res *Grounding, name string, init, holds bool, why string) {
	t := &strips.Task{Name: g.p.Name, Facts: []string{name}}
	if init {
		t.Init = []strips.Fact{0}
	}
	if holds {
		t.Goal = []strips.Fact{0}
	} else {
		t.GoalNot = []strips.Fact{0}
	}
	res.Task, res.Unsolvable = t, why
	res.Stages = append(res.Stages, Stage{"relevant", 1, 0})
}
