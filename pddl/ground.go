package pddl

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/ploy-ai/ploy/strips"
)

// Limits on grounding, so that a hostile or careless domain (an action of
// a dozen parameters over a hundred objects) ends with an error naming the
// action schema instead of taking unbounded time or memory.
const (
	// MaxGroundActions is the most ground actions whose preconditions are
	// reachable: a ground action costs a few hundred bytes in the task,
	// and no optimal search gets far in a task of more. Ground
	// conditional effects and axioms count as actions.
	MaxGroundActions = 1 << 20
	// MaxGroundFacts is the most reachable ground atoms.
	MaxGroundFacts = 1 << 20
	// MaxJoinWork bounds the steps (candidate atoms matched, objects
	// tried for a parameter) the reachability analysis may take in all:
	// about a second. The shared competition instances take at most
	// 20 000 (snake). Finding the objects of types with two parents and
	// of either types has a bound of as many steps of its own.
	MaxJoinWork = 1 << 27
	// MaxCountWork bounds the steps spent counting the "static" stage,
	// which is a statistic: past it, that stage's counts are
	// math.MaxInt64 (unknown), and grounding goes on.
	MaxCountWork = 1 << 24
	// MaxGroundSize bounds the memory the reached ground actions and
	// atoms take, in bytes, as estimated while they are found: 160 a
	// ground action, 8 for each of its parameters and atoms, and its
	// name; 48 an atom, 8 an argument, and its name. It matters where
	// actions have many parameters or atoms, or objects long names: some
	// 800 000 ground actions of a dozen atoms fit. The shared
	// competition instances take at most 2.3 MB (snake).
	MaxGroundSize = 1 << 28
	// MaxNormalWork bounds the formula nodes normalising ADL may build
	// (negation normal form, disjunctive splits, universal conditions
	// written out over the objects): each takes some hundred bytes, so
	// this keeps it within a few hundred MB. The shared ADL instances
	// take at most 663 (miconic-fulladl).
	MaxNormalWork = 1 << 20
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
	actions, facts         int
	joinWork, counts, size int64
}

var defaultLimits = groundLimits{MaxGroundActions, MaxGroundFacts, MaxJoinWork, MaxCountWork, MaxGroundSize}

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
// MaxJoinWork, MaxGroundSize) or an operator costing more than
// strips.MaxCost. A problem that did not pass Check can get a plain
// error saying "pddl: ground:".
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

// schemaKind says what a schema's instances are.
type schemaKind uint8

const (
	kindAction schemaKind = iota // ground actions
	kindEffect                   // a conditional effect's instances, each extending its action's
	kindAxiom                    // axioms deriving add[0]
)

// schema is an action, a conditional effect or an axiom compiled for
// grounding: a rule whose instances the join finds where its conditions
// are reached.
type schema struct {
	a    *Action // the action; nil for an axiom
	kind schemaKind
	what string // for errors: `action "pick"`
	pos  Pos
	idx  int
	// nameArgs is how many parameters an operator's name shows: the
	// action's own, not the existential ones normalisation added.
	nameArgs int
	params   []Param // as the rule gives them
	// kindAction: its conditional effects; kindEffect: its action, and
	// the fluent literals of its own condition (its join also checks the
	// action's precondition).
	effects          []*schema
	parent           *schema
	condPos, condNeg []lit
	ranges           [][2]int32 // each parameter's objects: ids lo..hi-1
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
	// size is what an instance takes besides its arguments' names.
	size int64
}

// grounder holds one grounding's state.
type grounder struct {
	d   *Domain
	p   *Problem
	lim groundLimits

	// Objects, by id: sorted by their type's place in a preorder of the
	// type tree, so that every type's objects are the ids lo..hi-1.
	objNames []string
	objRank  []int32 // the order of declaration, for output
	objByID  map[string]int32
	// types gives the ids of a type's objects, subtypes' included.
	types typeInfo

	// preds are the domain's predicates, then the derived ones
	// normalisation made; derived marks those axioms define.
	preds   []*Predicate
	predIdx map[string]int32
	static  []bool
	derived []bool
	goalF   *Formula // the goal, as grounded
	layers  []int32  // each derived predicate's layer
	rels    []*relation
	funcIdx map[string]int32
	values  map[string]int64 // function index and argument ids -> value

	schemas []*schema
	// Reached fluent atoms, by fact id: predicate and tuple.
	facts []reachedFact
	nInit int // the first nInit facts are those of :init

	work      int64
	size      int64 // the estimate MaxGroundSize bounds
	nInst     int
	undefined int64
	kbuf      []byte
	args      []int32
}

type reachedFact struct {
	pred, tuple int32
}

func ground(d *Domain, p *Problem, lim groundLimits, upTo int) (*Grounding, error) {
	g := &grounder{d: d, p: p, lim: lim}
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
	rules, err := g.normalise()
	if err != nil {
		return err
	}
	// Types: 0 is object; preorder numbering with intervals.
	typeIdx := map[string]int{"object": 0}
	for i, t := range d.Types {
		typeIdx[t.Name] = i + 1
	}
	children := make([][]int, len(d.Types)+1)
	for i, t := range d.Types {
		par := 0 // the first parent, object if none (a Domain not built by the parser)
		if len(t.Parents) > 0 {
			if up, ok := typeIdx[t.Parents[0]]; ok && up != i+1 {
				par = up
			}
		}
		children[par] = append(children[par], i+1)
	}
	pre := make([]int32, len(d.Types)+1)
	out := make([]int32, len(d.Types)+1)
	for i := range pre {
		pre[i] = -1
	}
	type frame struct{ t, child int }
	stack := []frame{{0, 0}}
	pre[0] = 0
	next := int32(1)
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

	// Objects: the domain's constants, then the problem's objects. An
	// object of an either type is placed with object's, its types kept
	// for typeOf.
	type obj struct {
		name  string
		typ   int
		types []int
	}
	var objs []obj
	seen := map[string]bool{}
	addObj := func(o *Object) {
		if seen[o.Name] {
			return
		}
		seen[o.Name] = true
		var types []int
		for _, name := range alternatives(o.Type, o.Either) {
			types = append(types, typeIdx[name]) // undefined: object
		}
		t := 0
		if len(types) == 1 {
			t = types[0]
		}
		objs = append(objs, obj{o.Name, t, types})
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
	objType := make([][]int, len(objs))
	for id, i := range order {
		g.objNames[id] = objs[i].name
		g.objRank[id] = i
		g.objByID[objs[i].name] = int32(id)
		objPre[id] = pre[objs[i].typ]
		objType[id] = objs[i].types
	}
	g.types = typeInfo{idx: typeIdx, pre: pre, out: out, objPre: objPre, sets: map[string]*typeSet{}}
	if g.types.general = usesGeneralTypes(d, p, rules); g.types.general {
		g.types.objType = objType
		g.types.down = make([][]int, len(d.Types)+1)
		for i, t := range d.Types {
			for _, up := range t.Parents {
				if par, ok := typeIdx[up]; ok && par != i+1 {
					g.types.down[par] = append(g.types.down[par], i+1)
				}
			}
		}
	}

	g.predIdx = make(map[string]int32, len(g.preds))
	for i, pr := range g.preds {
		g.predIdx[pr.Name] = int32(i)
	}
	// A predicate is static if no effect adds or deletes it and no axiom
	// derives it.
	g.static = make([]bool, len(g.preds))
	g.derived = make([]bool, len(g.preds))
	for i := range g.static {
		g.static[i] = true
	}
	changes := func(l []AtomTerm) {
		for _, at := range l {
			if i, ok := g.predIdx[at.Name]; ok {
				g.static[i] = false
			}
		}
	}
	for _, a := range d.Actions {
		changes(a.Effect.Add)
		changes(a.Effect.Delete)
		for _, ce := range a.Effect.Conditional {
			changes(ce.Add)
			changes(ce.Delete)
		}
	}
	// Derived: the file's derived predicates and those normalisation
	// made, whether or not any rule defines them (a goal of (or) is the
	// derived goal@ of no axiom: never true, not static).
	for _, dr := range d.Derived {
		h := g.predIdx[dr.Name]
		g.static[h], g.derived[h] = false, true
	}
	for _, pr := range g.preds[len(d.Predicates):] {
		h := g.predIdx[pr.Name]
		g.static[h], g.derived[h] = false, true
	}
	g.rels = make([]*relation, len(g.preds))
	for i, pr := range g.preds {
		g.rels[i] = newRelation(len(pr.Params), len(g.objNames))
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
			g.rels[pi].insert(args)
		}
	}
	for _, r := range g.rels {
		r.done = r.n
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

	for i := range rules {
		r := &rules[i]
		s, err := g.compile(r, len(g.schemas), true)
		if err != nil {
			return err
		}
		g.schemas = append(g.schemas, s)
		for j := range r.effects {
			e := &r.effects[j]
			es, err := g.compile(e, len(g.schemas), true)
			if err != nil {
				return err
			}
			// The effect's own condition, without its action's
			// precondition, is what the task's effect tests.
			cond, err := g.compile(&rule{what: e.what, name: e.name, params: e.params, pre: e.cond}, -1, false)
			if err != nil {
				return err
			}
			es.parent, es.condPos, es.condNeg = s, cond.posFluent, cond.negFluent
			if cond.dead {
				es.dead = true
			}
			s.effects = append(s.effects, es)
			g.schemas = append(g.schemas, es)
		}
	}
	return g.stratify()
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

// compile reads a rule: its preconditions split by kind, with literals
// of objects only evaluated where static, its effects and costs, and (if
// plans) its join plans.
func (g *grounder) compile(r *rule, idx int, plans bool) (*schema, error) {
	s := &schema{a: r.a, kind: r.kind, what: r.what, pos: r.pos, idx: idx, nameArgs: r.nameArgs, params: r.params}
	params := map[string]int{}
	for i, prm := range r.params {
		set, ok, err := g.typeOf(prm.Type, prm.Either, prm.Pos)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, g.fail(prm.Pos, "undefined type %q of parameter %q of %s", prm.Type, prm.Name, r.what)
		}
		params[prm.Name] = i
		s.ranges = append(s.ranges, [2]int32{set.lo, set.hi})
		if rel := g.typeRelation(set); rel >= 0 {
			s.posStatic = append(s.posStatic, lit{rel, []term{term(i)}})
		}
	}
	terms := func(ts []Term) ([]term, error) {
		out := make([]term, len(ts))
		for i, t := range ts {
			if t.IsVariable() {
				v, ok := params[t.Name]
				if !ok {
					return nil, g.fail(t.Pos, "undefined variable %q in %s", t.Name, r.what)
				}
				out[i] = term(v)
				continue
			}
			id, ok := g.objByID[t.Name]
			if !ok {
				return nil, g.fail(t.Pos, "undefined constant %q in %s", t.Name, r.what)
			}
			out[i] = ^term(id)
		}
		return out, nil
	}
	atom := func(at AtomTerm) (lit, error) {
		pi, ok := g.predIdx[at.Name]
		if !ok || len(at.Args) != g.rels[pi].arity {
			return lit{}, g.fail(at.Pos, "undefined predicate or wrong arity in %s in %s", quote(at.Name), r.what)
		}
		args, err := terms(at.Args)
		return lit{pi, args}, err
	}
	var walk func(f *Formula, neg bool) error
	walk = func(f *Formula, neg bool) error {
		switch f.Kind {
		case And:
			if neg {
				return g.fail(f.Pos, "a negated conjunction in %s", r.what)
			}
			for _, sub := range f.Sub {
				if err := walk(sub, false); err != nil {
					return err
				}
			}
			return nil
		case Not:
			if neg || len(f.Sub) != 1 {
				return g.fail(f.Pos, "a malformed negation in %s", r.what)
			}
			return walk(f.Sub[0], true)
		case Equal:
			if len(f.Pred.Args) != 2 {
				return g.fail(f.Pos, "an equality of %d terms in %s", len(f.Pred.Args), r.what)
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
				_, holds := g.rels[l.pred].find(args)
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
		return g.fail(f.Pos, "an unknown formula in %s", r.what)
	}
	if r.pre != nil {
		if err := walk(r.pre, false); err != nil {
			return nil, err
		}
	}
	for _, at := range r.add {
		l, err := atom(at)
		if err != nil {
			return nil, err
		}
		s.add = append(s.add, l)
	}
	for _, at := range r.del {
		l, err := atom(at)
		if err != nil {
			return nil, err
		}
		s.del = append(s.del, l)
	}
	if g.p.MinimizeTotalCost {
		for _, c := range r.costs {
			if c.Func == nil {
				s.costs = append(s.costs, costTerm{value: c.Value, fn: -1})
				continue
			}
			fi, ok := g.funcIdx[c.Func.Name]
			if !ok {
				return nil, g.fail(c.Pos, "undefined function %q in %s", c.Func.Name, r.what)
			}
			args, err := terms(c.Func.Args)
			if err != nil {
				return nil, err
			}
			s.costs = append(s.costs, costTerm{fn: fi, args: args})
		}
	}
	// An instance: its parameters, costs and list entries (4 bytes each,
	// twice: as found, and in the task), the operator and its name.
	s.size = 8*int64(len(s.ranges)+len(s.posFluent)+len(s.negFluent)+len(s.add)+len(s.del)) + 160 + int64(len(r.name))
	if !plans {
		return s, nil
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
