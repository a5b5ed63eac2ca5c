package pddl

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/strips"
)

// Limits on grounding, so that a hostile or careless domain (an action of
// a dozen parameters over a hundred objects) ends with an error naming the
// action schema instead of taking unbounded time or memory.
const (
	// MaxGroundActions is the most ground actions whose preconditions are
	// reachable: a ground action costs a few hundred bytes in the task,
	// and no optimal search gets far in a task of more.
	MaxGroundActions = 1 << 20
	// MaxGroundFacts is the most reachable ground atoms.
	MaxGroundFacts = 1 << 20
	// MaxJoinWork bounds the steps (candidate atoms matched, objects
	// tried for a parameter) the reachability analysis may take in all:
	// about a second. The competition instances take at most a few
	// hundred thousand.
	MaxJoinWork = 1 << 27
	// MaxCountWork bounds the steps spent counting the "static" stage,
	// which is a statistic: past it, that stage's counts are
	// math.MaxInt64 (unknown), and grounding goes on.
	MaxCountWork = 1 << 24
)

// Grounding is a problem ground into a STRIPS task, with what each stage
// of the grounding kept.
type Grounding struct {
	Task *strips.Task
	// Stages, in order: "typed" (every instantiation of the predicates
	// and action schemas by objects of the parameters' types, counted),
	// "static" (the instantiations whose static preconditions and
	// equalities hold, and the fluent atoms they mention), "reachable"
	// (what the delete relaxation reaches from the initial state) and
	// "relevant" (the task: what can matter to the goal).
	Stages []Stage
	// UndefinedCost counts the reachable ground actions dropped because
	// the metric minimizes total-cost and a function value their cost
	// reads is not given in :init: PDDL makes such an action
	// inapplicable.
	UndefinedCost int64
	// Unsolvable says why the goal cannot be met, where grounding found
	// that out (a static goal atom false initially, a goal atom no
	// action adds, ...); "" otherwise. The task is then one fact and no
	// operators, its goal unmet.
	Unsolvable string
}

// Stage is how many facts and actions a grounding stage kept. A count of
// instantiations too many to enumerate saturates at math.MaxInt64.
type Stage struct {
	Name    string
	Facts   int64
	Actions int64
}

// groundLimits are the limits a grounding runs under: the exported
// constants, smaller in tests.
type groundLimits struct {
	actions, facts   int
	joinWork, counts int64
}

var defaultLimits = groundLimits{MaxGroundActions, MaxGroundFacts, MaxJoinWork, MaxCountWork}

// Ground instantiates p's actions with p's objects and d's constants (p
// must have passed p.Check(d)) into a STRIPS task:
//
//   - Static predicates, which no action adds or deletes, are evaluated
//     against :init, as are equalities; they are not facts of the task.
//   - Only ground actions whose positive preconditions are reachable in
//     the delete relaxation from the initial state are kept, and only
//     the atoms they can add or that hold initially.
//   - Atoms true initially that no action deletes, and atoms false
//     initially that no action adds, are constants: they are dropped
//     from preconditions and effects, and actions they make inapplicable
//     are dropped; effects that change nothing are dropped, and actions
//     left without effects.
//   - Only facts relevant to the goal are kept, and actions that add or
//     delete them (backwards from the goal, through preconditions).
//
// With (:metric minimize (total-cost)) an operator costs the sum of its
// action's increases, and a ground action whose cost reads a function
// value :init does not give is dropped (counted in UndefinedCost);
// without the metric every operator costs 1. Facts are ordered by
// predicate declaration, then by their arguments' order of declaration
// (the domain's constants first, then the problem's objects); operators by
// action schema, then arguments likewise. The result is deterministic.
//
// The error, if any, is an *Error at the action schema or predicate in the
// domain file: a limit exceeded (MaxGroundActions, MaxGroundFacts,
// MaxJoinWork) or an operator costing more than strips.MaxCost.
func Ground(d *Domain, p *Problem) (*Grounding, error) {
	return ground(d, p, defaultLimits, stageRelevant)
}

const (
	stageReachable = iota + 1 // the task as reached, before simplification
	stageRelevant
)

// term is an action's argument: a parameter (>= 0) or an object (^id).
type term int32

func (t term) isVar() bool { return t >= 0 }

// lit is an atom of a schema: a predicate applied to terms.
type lit struct {
	pred int32
	args []term
}

type eqCheck struct {
	a, b term
	want bool // (= a b) must be want
}

type costTerm struct {
	value int64
	fn    int32 // -1: value
	args  []term
}

// schema is an action compiled for grounding.
type schema struct {
	a      *Action
	idx    int
	ranges [][2]int32 // each parameter's objects: ids lo..hi-1
	// Preconditions, split.
	posStatic, posFluent, negStatic, negFluent []lit
	eqs                                        []eqCheck
	add, del                                   []lit
	costs                                      []costTerm
	dead                                       bool // a precondition is false whatever the parameters

	// Reachability: one plan per positive fluent precondition, triggered
	// by a newly reached atom for it; or one plan, run once, without any.
	plans []*plan
	// Instances whose preconditions were reached: their parameters,
	// len(params) each, and their costs.
	insts []int32
	costv []int64
}

// relation holds a predicate's atoms: its true atoms of :init if it is
// static, its reached atoms if it is fluent (of which the first done are
// processed, visible to joins).
type relation struct {
	arity  int
	tuples []int32
	byArg  []map[int32][]int32 // per argument: object -> tuple indices, increasing
	set    map[string]int32    // key of the arguments -> tuple index
	done   int32
	facts  []int32 // fluent: each tuple's fact id
}

func newRelation(arity int) *relation {
	r := &relation{arity: arity, byArg: make([]map[int32][]int32, arity), set: map[string]int32{}}
	for i := range r.byArg {
		r.byArg[i] = map[int32][]int32{}
	}
	return r
}

// insert adds the atom of key and args, if new, and says which tuple it is.
func (r *relation) insert(key []byte, args []int32) (int32, bool) {
	if i, ok := r.set[string(key)]; ok {
		return i, false
	}
	i := int32(len(r.set))
	r.set[string(key)] = i
	r.tuples = append(r.tuples, args...)
	for k, o := range args {
		r.byArg[k][o] = append(r.byArg[k][o], i)
	}
	return i, true
}

func (r *relation) tuple(i int32) []int32 {
	return r.tuples[int(i)*r.arity : int(i+1)*r.arity]
}

func appendKey(buf []byte, args []int32) []byte {
	for _, a := range args {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(a))
	}
	return buf
}

// grounder holds one grounding's state.
type grounder struct {
	d      *Domain
	p      *Problem
	lim    groundLimits
	domErr errors

	// Objects, by id: sorted by their type's place in a preorder of the
	// type tree, so that every type's objects are the ids lo..hi-1.
	objNames []string
	objRank  []int32 // the order of declaration, for output
	objByID  map[string]int32
	// rangeOf gives the ids of a type's objects, subtypes' included.
	rangeOf func(typ string) ([2]int32, bool)

	predIdx map[string]int32
	static  []bool
	rels    []*relation
	funcIdx map[string]int32
	values  map[string]int64 // function index and argument ids -> value

	schemas []*schema
	// Reached fluent atoms, by fact id: predicate and tuple.
	facts []reachedFact
	nInit int // the first nInit facts are those of :init

	work      int64
	nInst     int
	undefined int64
	buf, kbuf []byte
	args      []int32
}

type reachedFact struct {
	pred, tuple int32
}

func ground(d *Domain, p *Problem, lim groundLimits, upTo int) (*Grounding, error) {
	g := &grounder{d: d, p: p, lim: lim, domErr: errors{file: d.File}}
	if err := g.setup(); err != nil {
		return nil, err
	}
	res := &Grounding{}
	res.Stages = append(res.Stages, g.typedStage(), g.staticStage())
	if err := g.reach(); err != nil {
		return nil, err
	}
	res.UndefinedCost = g.undefined
	res.Stages = append(res.Stages, Stage{"reachable", int64(len(g.facts)), int64(g.nInst)})
	if err := g.finish(res, upTo); err != nil {
		return nil, err
	}
	return res, nil
}

// fail is an error at pos in the domain file.
func (g *grounder) fail(pos Pos, format string, args ...any) error {
	return &Error{File: g.d.File, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// setup numbers the objects, types, predicates and functions, finds the
// static predicates, loads :init and compiles the action schemas.
func (g *grounder) setup() error {
	d, p := g.d, g.p
	if p.Goal == nil {
		return fmt.Errorf("pddl: ground: the problem has no goal (it was not parsed by ParseProblem)")
	}
	// Types: 0 is object; preorder numbering with intervals.
	typeIdx := map[string]int{"object": 0}
	for i, t := range d.Types {
		typeIdx[t.Name] = i + 1
	}
	children := make([][]int, len(d.Types)+1)
	for i, t := range d.Types {
		par, ok := typeIdx[t.Parent]
		if !ok || par == i+1 {
			par = 0
		}
		children[par] = append(children[par], i+1)
	}
	pre := make([]int32, len(d.Types)+1)
	out := make([]int32, len(d.Types)+1)
	for i := range pre {
		pre[i] = -1
	}
	next := int32(0)
	type frame struct{ t, child int }
	stack := []frame{{0, 0}}
	pre[0] = 0
	next = 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.child == len(children[top.t]) {
			out[top.t] = next
			stack = stack[:len(stack)-1]
			continue
		}
		c := children[top.t][top.child]
		top.child++
		if pre[c] >= 0 {
			continue // not a tree: a cycle the parser cut (defensive)
		}
		pre[c] = next
		next++
		stack = append(stack, frame{c, 0})
	}
	for t := range pre {
		if pre[t] < 0 { // unreachable from object: a cycle (defensive)
			pre[t], out[t] = next, next+1
			next++
		}
	}
	out[0] = next

	// Objects: the domain's constants, then the problem's objects.
	type obj struct {
		name string
		typ  int
	}
	var objs []obj
	seen := map[string]bool{}
	addObj := func(o *Object) {
		if seen[o.Name] {
			return
		}
		seen[o.Name] = true
		t, ok := typeIdx[o.Type]
		if !ok {
			t = 0
		}
		objs = append(objs, obj{o.Name, t})
	}
	for _, c := range d.Constants {
		addObj(c)
	}
	for _, o := range p.Objects {
		addObj(o)
	}
	order := make([]int32, len(objs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(pre[objs[a].typ], pre[objs[b].typ]) })
	g.objNames = make([]string, len(objs))
	g.objRank = make([]int32, len(objs))
	g.objByID = make(map[string]int32, len(objs))
	objPre := make([]int32, len(objs)) // each id's type preorder number, increasing
	for id, i := range order {
		g.objNames[id] = objs[i].name
		g.objRank[id] = i
		g.objByID[objs[i].name] = int32(id)
		objPre[id] = pre[objs[i].typ]
	}
	g.rangeOf = func(typ string) ([2]int32, bool) {
		t, ok := typeIdx[typ]
		if !ok {
			return [2]int32{}, false
		}
		lo, _ := slices.BinarySearch(objPre, pre[t])
		hi, _ := slices.BinarySearch(objPre, out[t])
		return [2]int32{int32(lo), int32(hi)}, true
	}

	g.predIdx = make(map[string]int32, len(d.Predicates))
	for i, pr := range d.Predicates {
		g.predIdx[pr.Name] = int32(i)
	}
	g.static = make([]bool, len(d.Predicates))
	for i := range g.static {
		g.static[i] = true
	}
	for _, a := range d.Actions {
		for _, l := range [][]AtomTerm{a.Effect.Add, a.Effect.Delete} {
			for _, at := range l {
				if i, ok := g.predIdx[at.Name]; ok {
					g.static[i] = false
				}
			}
		}
	}
	g.rels = make([]*relation, len(d.Predicates))
	for i, pr := range d.Predicates {
		g.rels[i] = newRelation(len(pr.Params))
	}
	g.funcIdx = make(map[string]int32, len(d.Functions))
	for i, f := range d.Functions {
		g.funcIdx[f.Name] = int32(i)
	}

	// Static :init atoms; the fluent ones are reached in reach.
	for _, at := range p.Init {
		pi, args, err := g.groundAtom(at)
		if err != nil {
			return err
		}
		if g.static[pi] {
			g.rels[pi].insert(g.key(args), args)
		}
	}
	for _, r := range g.rels {
		r.done = int32(len(r.set))
	}
	g.values = map[string]int64{}
	for _, v := range p.NumericInit {
		fi, ok := g.funcIdx[v.Func.Name]
		if !ok {
			return fmt.Errorf("pddl: ground: undefined function %q in :init (the problem was not checked against the domain)", v.Func.Name)
		}
		args, err := g.objectArgs(v.Func.Args)
		if err != nil {
			return err
		}
		g.values[string(g.funcKey(fi, args))] = v.Value
	}

	for i, a := range d.Actions {
		s, err := g.compile(a, i)
		if err != nil {
			return err
		}
		g.schemas = append(g.schemas, s)
	}
	return nil
}

func (g *grounder) key(args []int32) []byte {
	g.kbuf = appendKey(g.kbuf[:0], args)
	return g.kbuf
}

func (g *grounder) funcKey(fi int32, args []int32) []byte {
	g.kbuf = binary.LittleEndian.AppendUint32(g.kbuf[:0], uint32(fi))
	g.kbuf = appendKey(g.kbuf, args)
	return g.kbuf
}

func (g *grounder) objectArgs(terms []Term) ([]int32, error) {
	args := make([]int32, len(terms))
	for i, t := range terms {
		id, ok := g.objByID[t.Name]
		if !ok {
			return nil, fmt.Errorf("pddl: ground: undefined object %q (the problem was not checked against the domain)", t.Name)
		}
		args[i] = id
	}
	return args, nil
}

// groundAtom reads an atom of objects, of :init or the goal.
func (g *grounder) groundAtom(at AtomTerm) (int32, []int32, error) {
	pi, ok := g.predIdx[at.Name]
	if !ok || len(at.Args) != g.rels[pi].arity {
		return 0, nil, fmt.Errorf("pddl: ground: undefined predicate or wrong arity in %s (the problem was not checked against the domain)", quote(at.Name))
	}
	args, err := g.objectArgs(at.Args)
	return pi, args, err
}

// compile reads an action schema: its preconditions split by kind, with
// literals of objects only evaluated where static, its effects and costs,
// and its join plans.
func (g *grounder) compile(a *Action, idx int) (*schema, error) {
	s := &schema{a: a, idx: idx}
	params := map[string]int{}
	for i, prm := range a.Params {
		r, ok := g.rangeOf(prm.Type)
		if !ok {
			return nil, g.fail(prm.Pos, "undefined type %q of parameter %q of action %q", prm.Type, prm.Name, a.Name)
		}
		params[prm.Name] = i
		s.ranges = append(s.ranges, r)
	}
	terms := func(ts []Term) ([]term, error) {
		out := make([]term, len(ts))
		for i, t := range ts {
			if t.IsVariable() {
				v, ok := params[t.Name]
				if !ok {
					return nil, g.fail(t.Pos, "undefined variable %q in action %q", t.Name, a.Name)
				}
				out[i] = term(v)
				continue
			}
			id, ok := g.objByID[t.Name]
			if !ok {
				return nil, g.fail(t.Pos, "undefined constant %q in action %q", t.Name, a.Name)
			}
			out[i] = ^term(id)
		}
		return out, nil
	}
	atom := func(at AtomTerm) (lit, error) {
		pi, ok := g.predIdx[at.Name]
		if !ok || len(at.Args) != g.rels[pi].arity {
			return lit{}, g.fail(at.Pos, "undefined predicate or wrong arity in %s in action %q", quote(at.Name), a.Name)
		}
		args, err := terms(at.Args)
		return lit{pi, args}, err
	}
	var walk func(f *Formula, neg bool) error
	walk = func(f *Formula, neg bool) error {
		switch f.Kind {
		case And:
			if neg {
				return g.fail(f.Pos, "a negated conjunction in action %q", a.Name)
			}
			for _, sub := range f.Sub {
				if err := walk(sub, false); err != nil {
					return err
				}
			}
			return nil
		case Not:
			if neg || len(f.Sub) != 1 {
				return g.fail(f.Pos, "a malformed negation in action %q", a.Name)
			}
			return walk(f.Sub[0], true)
		case Equal:
			if len(f.Pred.Args) != 2 {
				return g.fail(f.Pos, "an equality of %d terms in action %q", len(f.Pred.Args), a.Name)
			}
			ts, err := terms(f.Pred.Args)
			if err != nil {
				return err
			}
			if !ts[0].isVar() && !ts[1].isVar() || ts[0] == ts[1] {
				if (ts[0] == ts[1]) == neg {
					s.dead = true
				}
				return nil
			}
			s.eqs = append(s.eqs, eqCheck{ts[0], ts[1], !neg})
			return nil
		case Atom:
			l, err := atom(f.Pred)
			if err != nil {
				return err
			}
			if g.static[l.pred] && !hasVar(l.args) {
				args := make([]int32, len(l.args))
				for i, t := range l.args {
					args[i] = int32(^t)
				}
				_, holds := g.rels[l.pred].set[string(g.key(args))]
				if holds == neg {
					s.dead = true
				}
				return nil
			}
			switch {
			case g.static[l.pred] && !neg:
				s.posStatic = append(s.posStatic, l)
			case g.static[l.pred]:
				s.negStatic = append(s.negStatic, l)
			case !neg:
				s.posFluent = append(s.posFluent, l)
			default:
				s.negFluent = append(s.negFluent, l)
			}
			return nil
		}
		return g.fail(f.Pos, "an unknown formula in action %q", a.Name)
	}
	if a.Precondition != nil {
		if err := walk(a.Precondition, false); err != nil {
			return nil, err
		}
	}
	for _, at := range a.Effect.Add {
		l, err := atom(at)
		if err != nil {
			return nil, err
		}
		s.add = append(s.add, l)
	}
	for _, at := range a.Effect.Delete {
		l, err := atom(at)
		if err != nil {
			return nil, err
		}
		s.del = append(s.del, l)
	}
	if g.p.MinimizeTotalCost {
		for _, c := range a.Effect.Cost {
			if c.Func == nil {
				s.costs = append(s.costs, costTerm{value: c.Value, fn: -1})
				continue
			}
			fi, ok := g.funcIdx[c.Func.Name]
			if !ok {
				return nil, g.fail(c.Pos, "undefined function %q in action %q", c.Func.Name, a.Name)
			}
			args, err := terms(c.Func.Args)
			if err != nil {
				return nil, err
			}
			s.costs = append(s.costs, costTerm{fn: fi, args: args})
		}
	}
	if len(s.posFluent) == 0 {
		s.plans = []*plan{g.compilePlan(s, -1, true)}
	} else {
		for i := range s.posFluent {
			s.plans = append(s.plans, g.compilePlan(s, i, true))
		}
	}
	return s, nil
}

func hasVar(ts []term) bool {
	for _, t := range ts {
		if t.isVar() {
			return true
		}
	}
	return false
}

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
		if _, ok := j.g.rels[l.pred].set[string(j.g.key(args))]; ok {
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
		if i, ok := r.set[string(j.g.key(args))]; !ok || i >= limit || !j.checks(st) {
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

// typedStage counts the instantiations by type.
func (g *grounder) typedStage() Stage {
	st := Stage{Name: "typed"}
	for i, pr := range g.d.Predicates {
		if g.static[i] {
			continue
		}
		n := int64(1)
		for _, prm := range pr.Params {
			n = satMul(n, g.typeCount(prm.Type))
		}
		st.Facts = satAdd(st.Facts, n)
	}
	for _, s := range g.schemas {
		n := int64(1)
		for _, r := range s.ranges {
			n = satMul(n, int64(r[1]-r[0]))
		}
		st.Actions = satAdd(st.Actions, n)
	}
	return st
}

func (g *grounder) typeCount(typ string) int64 {
	r, _ := g.rangeOf(typ)
	return int64(r[1] - r[0])
}

// staticStage counts the instantiations whose static preconditions and
// equalities hold, and the fluent atoms they mention, within MaxCountWork
// steps.
func (g *grounder) staticStage() Stage {
	st := Stage{Name: "static"}
	unknown := Stage{"static", math.MaxInt64, math.MaxInt64}
	plans := make([]*plan, len(g.schemas))
	counts := make([]int64, len(g.schemas))
	j := &joiner{g: g, count: true, limit: g.lim.counts}
	for i, s := range g.schemas {
		if s.dead {
			continue
		}
		plans[i] = g.compilePlan(s, -1, false)
		j.s, j.pl, j.b, j.n = s, plans[i], make([]int32, len(s.ranges)), 0
		if err := j.run(0); err != nil {
			return unknown
		}
		counts[i] = j.n
		st.Actions = satAdd(st.Actions, j.n)
	}
	// The fluent atoms mentioned: each is enumerated at the step that
	// binds its parameters, or where the free enumerations start (a
	// binding there extends to an instance), so that the enumeration
	// stops short of the instances themselves.
	seen := map[string]struct{}{}
	var key []byte
	j.count, j.work = false, 0
	j.visit = func(atoms []lit) error {
		for _, a := range atoms {
			key = binary.LittleEndian.AppendUint32(key[:0], uint32(a.pred))
			for _, t := range a.args {
				key = binary.LittleEndian.AppendUint32(key, uint32(j.val(t)))
			}
			if _, ok := seen[string(key)]; !ok {
				if len(seen) >= g.lim.facts {
					return errWork{}
				}
				seen[string(key)] = struct{}{}
			}
		}
		return nil
	}
	for i, s := range g.schemas {
		if s.dead || counts[i] == 0 {
			continue
		}
		pl := plans[i]
		j.s, j.pl, j.b = s, pl, make([]int32, len(s.ranges))
		j.atomsAt, j.stopAt = make([][]lit, len(pl.steps)+1), 0
		for _, l := range [][]lit{s.posFluent, s.negFluent, s.add, s.del} {
			for _, a := range l {
				at := pl.tailStart
				for _, t := range a.args {
					if t.isVar() {
						at = max(at, pl.boundAt[t]+1)
					}
				}
				j.atomsAt[at] = append(j.atomsAt[at], a)
				j.stopAt = max(j.stopAt, at)
			}
		}
		if err := j.run(0); err != nil {
			st.Facts = math.MaxInt64
			return st
		}
	}
	st.Facts = int64(len(seen))
	return st
}

// reach runs the relaxed reachability analysis: every ground action whose
// positive fluent preconditions are reached (and static ones and
// equalities hold) is found, once, when the last of its preconditions is
// processed, and its add effects reached.
func (g *grounder) reach() error {
	for _, at := range g.p.Init {
		pi, args, _ := g.groundAtom(at) // checked in setup
		if !g.static[pi] {
			if err := g.reachAtom(pi, args); err != nil {
				return err
			}
		}
	}
	g.nInit = len(g.facts)
	// Triggers: the plans of each fluent predicate.
	type trig struct {
		s  *schema
		pl *plan
	}
	byPred := make([][]trig, len(g.rels))
	j := &joiner{g: g, limit: g.lim.joinWork}
	j.emit = func(b []int32) error { return g.emit(j.s, b) }
	for _, s := range g.schemas {
		if s.dead {
			continue
		}
		for _, pl := range s.plans {
			if pl.trigger < 0 {
				j.s, j.pl, j.b, j.trig = s, pl, make([]int32, len(s.ranges)), nil
				if err := j.run(0); err != nil {
					return g.joinErr(s, err)
				}
				continue
			}
			p := s.posFluent[pl.trigger].pred
			byPred[p] = append(byPred[p], trig{s, pl})
		}
	}
	bufs := make([][]int32, len(g.schemas))
	for _, s := range g.schemas {
		bufs[s.idx] = make([]int32, len(s.ranges))
	}
	for next := 0; next < len(g.facts); next++ {
		f := g.facts[next]
		r := g.rels[f.pred]
		r.done++
		tup := r.tuple(f.tuple)
		for _, t := range byPred[f.pred] {
			j.s, j.pl, j.b, j.trig = t.s, t.pl, bufs[t.s.idx], r
			j.work++
			if !j.unify(&t.pl.steps[0], tup) || !j.checks(&t.pl.steps[0]) {
				continue
			}
			if err := j.run(1); err != nil {
				return g.joinErr(t.s, err)
			}
		}
	}
	g.work = j.work
	return nil
}

func (g *grounder) joinErr(s *schema, err error) error {
	if _, ok := err.(errWork); ok {
		return g.fail(s.a.Pos, "grounding action %q takes more than %d steps (pddl.MaxJoinWork): its preconditions bind its parameters too loosely", s.a.Name, g.lim.joinWork)
	}
	return err
}

// reachAtom reaches a fluent atom, queueing it if new.
func (g *grounder) reachAtom(pi int32, args []int32) error {
	r := g.rels[pi]
	i, isNew := r.insert(g.key(args), args)
	if !isNew {
		return nil
	}
	if len(g.facts) >= g.lim.facts {
		return g.fail(g.d.Predicates[pi].Pos, "more than %d ground atoms are reachable (pddl.MaxGroundFacts), of predicate %q among others", g.lim.facts, g.d.Predicates[pi].Name)
	}
	r.facts = append(r.facts, int32(len(g.facts)))
	g.facts = append(g.facts, reachedFact{pi, i})
	return nil
}

// emit records a ground action whose preconditions are reached, and
// reaches its add effects.
func (g *grounder) emit(s *schema, b []int32) error {
	cost, ok := int64(1), true
	if g.p.MinimizeTotalCost {
		cost, ok = g.cost(s, b)
	}
	if !ok {
		g.undefined++
		return nil
	}
	if cost > strips.MaxCost {
		return g.fail(s.a.Pos, "the ground action %s costs %d, more than %d (strips.MaxCost)", g.opName(s, b), cost, int64(strips.MaxCost))
	}
	if g.nInst >= g.lim.actions {
		most := s
		for _, o := range g.schemas {
			if len(o.costv) > len(most.costv) {
				most = o
			}
		}
		return g.fail(most.a.Pos, "action %q has more than %d instantiations whose preconditions hold (pddl.MaxGroundActions counts all actions' together)", most.a.Name, len(most.costv))
	}
	g.nInst++
	s.insts = append(s.insts, b...)
	s.costv = append(s.costv, cost)
	for _, l := range s.add {
		args := g.instArgs(l, b)
		if err := g.reachAtom(l.pred, args); err != nil {
			return err
		}
	}
	return nil
}

func (g *grounder) instArgs(l lit, b []int32) []int32 {
	args := g.args[:0]
	for _, t := range l.args {
		if t.isVar() {
			args = append(args, b[t])
		} else {
			args = append(args, int32(^t))
		}
	}
	g.args = args
	return args
}

// cost sums a ground action's cost; false if a function value is missing.
func (g *grounder) cost(s *schema, b []int32) (int64, bool) {
	var sum int64
	for _, c := range s.costs {
		v := c.value
		if c.fn >= 0 {
			var ok bool
			if v, ok = g.values[string(g.funcKey(c.fn, g.instArgs(lit{args: c.args}, b)))]; !ok {
				return 0, false
			}
		}
		sum = satAdd(sum, v)
	}
	return sum, true
}

func (g *grounder) opName(s *schema, b []int32) string {
	var sb strings.Builder
	sb.WriteString("(")
	sb.WriteString(s.a.Name)
	for _, o := range b[:len(s.ranges)] {
		sb.WriteString(" ")
		sb.WriteString(g.objNames[o])
	}
	sb.WriteString(")")
	return sb.String()
}

func (g *grounder) factName(f int32) string {
	rf := g.facts[f]
	return g.atomName(rf.pred, g.rels[rf.pred].tuple(rf.tuple))
}

func (g *grounder) atomName(pred int32, args []int32) string {
	var sb strings.Builder
	sb.WriteString("(")
	sb.WriteString(g.d.Predicates[pred].Name)
	for _, o := range args {
		sb.WriteString(" ")
		sb.WriteString(g.objNames[o])
	}
	sb.WriteString(")")
	return sb.String()
}

// gop is a ground action, its fact lists of reached fact ids.
type gop struct {
	s                     *schema
	inst                  int32
	cost                  int64
	pre, preNot, add, del []int32
}

func (g *grounder) binding(o *gop) []int32 {
	k := len(o.s.ranges)
	return o.s.insts[int(o.inst)*k : int(o.inst+1)*k]
}

// lookup is the fact id of a ground fluent atom, or -1 if not reached.
func (g *grounder) lookup(l lit, b []int32) int32 {
	r := g.rels[l.pred]
	i, ok := r.set[string(g.key(g.instArgs(l, b)))]
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
func (g *grounder) simplify(ops []gop, alive []bool) []uint8 {
	n := len(g.facts)
	for i := range ops {
		o := &ops[i]
		if intersects(o.pre, o.preNot) {
			alive[i] = false
			continue
		}
		o.add = minus(o.add, o.pre)
		o.del = minus(o.del, o.preNot)
		if len(o.add) == 0 && len(o.del) == 0 {
			alive[i] = false
		}
	}
	addCnt := make([]int32, n)
	delCnt := make([]int32, n)
	for i := range ops {
		if alive[i] {
			for _, f := range ops[i].add {
				addCnt[f]++
			}
			for _, f := range ops[i].del {
				delCnt[f]++
			}
		}
	}
	preOps := csr(n, ops, alive, func(o *gop) []int32 { return o.pre })
	preNotOps := csr(n, ops, alive, func(o *gop) []int32 { return o.preNot })
	konst := make([]uint8, n)
	var queue []int32
	for f := range n {
		switch {
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
			for _, a := range ops[i].add {
				if addCnt[a]--; addCnt[a] == 0 && int(a) >= g.nInit && konst[a] == varies {
					konst[a] = alwaysFalse
					queue = append(queue, a)
				}
			}
			for _, d := range ops[i].del {
				if delCnt[d]--; delCnt[d] == 0 && int(d) < g.nInit && konst[d] == varies {
					konst[d] = alwaysTrue
					queue = append(queue, d)
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
	for i := range ops {
		if !alive[i] {
			continue
		}
		o := &ops[i]
		o.pre = keep(o.pre, alwaysTrue)
		o.preNot = keep(o.preNot, alwaysFalse)
		o.add = keep(o.add, alwaysTrue)
		o.del = keep(o.del, alwaysFalse)
		if len(o.add) == 0 && len(o.del) == 0 {
			alive[i] = false
		}
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
			if i, ok := g.rels[pi].set[string(g.key(args))]; ok && !l.static {
				l.fact = g.rels[pi].facts[i]
			}
			out = append(out, l)
			return nil
		}
		return fmt.Errorf("pddl: ground: an unknown formula in the goal")
	}
	return out, walk(g.p.Goal, false)
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
	alive := make([]bool, len(ops))
	for i := range alive {
		alive[i] = true
	}
	konst := make([]uint8, len(g.facts))
	if upTo == stageRelevant {
		konst = g.simplify(ops, alive)
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
			_, init = g.rels[l.pred].set[string(g.key(l.args))]
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
					if relOp[i] {
						continue
					}
					relOp[i] = true
					for _, p := range ops[i].pre {
						mark(p)
					}
					for _, p := range ops[i].preNot {
						mark(p)
					}
				}
			}
		}
	} else {
		for i := range relevant {
			relevant[i] = true
		}
		copy(relOp, alive)
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
	mapped := func(l []int32) []strips.Fact {
		var out []strips.Fact
		for _, f := range l {
			if relevant[f] {
				out = append(out, newID[f])
			}
		}
		slices.Sort(out)
		return out
	}
	t.Goal, t.GoalNot = mapped(posGoal), mapped(negGoal)
	var order []int32
	for i, r := range relOp {
		if r {
			order = append(order, int32(i))
		}
	}
	// ops are by schema already, each schema's in the order reached.
	slices.SortStableFunc(order, func(a, b int32) int {
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
