package pddl

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// An oracle for Replay's ADL semantics written another way: quantifiers
// by substituting each object into a copy of the formula (stopping where
// an inner quantifier binds the same name), objects of a type from a
// table written out by hand, derived reachability by Floyd-Warshall.

// oracleTypes lists the objects of each type the random formulas use,
// for adlPair(t, oracleObjects, ...): k is adlDomain's constant; ghost has
// no objects.
var oracleTypes = map[string][]string{
	"object": {"a", "b", "s", "k", "n1"},
	"block":  {"a", "b", "s", "k"},
	"small":  {"s"},
	"node":   {"n1"},
	"ghost":  {},
}

const oracleObjects = "a b - block s - small n1 - node"

// subst replaces the free occurrences of variable v by object o.
func subst(f *Formula, v, o string) *Formula {
	if f == nil {
		return nil
	}
	g := *f
	switch f.Kind {
	case Atom, Equal:
		g.Pred = substAtom(f.Pred, v, o)
		return &g
	case Exists, Forall:
		if slices.ContainsFunc(f.Vars, func(p Param) bool { return p.Name == v }) {
			return f // bound here: not free below
		}
	}
	g.Sub = make([]*Formula, len(f.Sub))
	for i, s := range f.Sub {
		g.Sub[i] = subst(s, v, o)
	}
	return &g
}

func substAtom(a AtomTerm, v, o string) AtomTerm {
	args := make([]Term, len(a.Args))
	for i, t := range a.Args {
		args[i] = t
		if t.Name == v {
			args[i].Name = o
		}
	}
	a.Args = args
	return a
}

func groundName(a AtomTerm) string {
	var parts []string
	for _, t := range a.Args {
		parts = append(parts, t.Name)
	}
	return strings.Join(append([]string{a.Name}, parts...), " ")
}

// oracleHolds evaluates a closed formula in a state of ground atom names.
func oracleHolds(f *Formula, state map[string]bool) bool {
	switch f.Kind {
	case Atom:
		return state[groundName(f.Pred)]
	case Equal:
		return f.Pred.Args[0].Name == f.Pred.Args[1].Name
	case Not:
		return !oracleHolds(f.Sub[0], state)
	case Imply:
		return !oracleHolds(f.Sub[0], state) || oracleHolds(f.Sub[1], state)
	case And, Or:
		want := f.Kind == Or // what decides it early
		for _, s := range f.Sub {
			if oracleHolds(s, state) == want {
				return want
			}
		}
		return !want
	}
	// A quantifier of several variables is one of its first variable
	// around one of the rest.
	if len(f.Vars) == 0 {
		return oracleHolds(f.Sub[0], state)
	}
	rest := &Formula{Kind: f.Kind, Vars: f.Vars[1:], Sub: f.Sub}
	for _, o := range oracleTypes[f.Vars[0].Type] {
		if oracleHolds(subst(rest, f.Vars[0].Name, o), state) != (f.Kind == Forall) {
			return f.Kind == Exists
		}
	}
	return f.Kind == Forall
}

// oracleEffect collects a conditional effect's changes under every binding
// of its variables, by substitution, its condition read in state.
func oracleEffect(ce CondEffect, state map[string]bool, adds, dels *[]string) {
	if len(ce.Vars) == 0 {
		if ce.Cond == nil || oracleHolds(ce.Cond, state) {
			for _, a := range ce.Add {
				*adds = append(*adds, groundName(a))
			}
			for _, a := range ce.Delete {
				*dels = append(*dels, groundName(a))
			}
		}
		return
	}
	v, rest := ce.Vars[0], ce.Vars[1:]
	for _, o := range oracleTypes[v.Type] {
		next := CondEffect{Vars: rest, Cond: ce.Cond, Add: ce.Add, Delete: ce.Delete}
		if !slices.ContainsFunc(rest, func(p Param) bool { return p.Name == v.Name }) {
			next.Cond = subst(ce.Cond, v.Name, o)
			next.Add, next.Delete = nil, nil
			for _, a := range ce.Add {
				next.Add = append(next.Add, substAtom(a, v.Name, o))
			}
			for _, a := range ce.Delete {
				next.Delete = append(next.Delete, substAtom(a, v.Name, o))
			}
		}
		oracleEffect(next, state, adds, dels)
	}
}

// oracleStep applies act to state with its parameters bound to args, or
// says its precondition does not hold.
func oracleStep(act *Action, args []string, state map[string]bool) bool {
	pre := act.Precondition
	eff := CondEffect{Add: act.Effect.Add, Delete: act.Effect.Delete}
	conds := slices.Clone(act.Effect.Conditional)
	for i, prm := range act.Params {
		pre = subst(pre, prm.Name, args[i])
		eff = substEffect(eff, prm.Name, args[i])
		for j := range conds {
			conds[j] = substEffect(conds[j], prm.Name, args[i])
		}
	}
	if !oracleHolds(pre, state) {
		return false
	}
	var adds, dels []string
	for _, ce := range append([]CondEffect{eff}, conds...) {
		oracleEffect(ce, state, &adds, &dels)
	}
	for _, a := range dels {
		delete(state, a)
	}
	for _, a := range adds {
		state[a] = true
	}
	return true
}

// substEffect substitutes a parameter into a conditional effect whose
// variables do not hide it.
func substEffect(ce CondEffect, v, o string) CondEffect {
	if slices.ContainsFunc(ce.Vars, func(p Param) bool { return p.Name == v }) {
		return ce
	}
	out := CondEffect{Vars: ce.Vars, Cond: subst(ce.Cond, v, o)}
	for _, a := range ce.Add {
		out.Add = append(out.Add, substAtom(a, v, o))
	}
	for _, a := range ce.Delete {
		out.Delete = append(out.Delete, substAtom(a, v, o))
	}
	return out
}

// randomFormulas builds formulas over the oracle's objects and the
// variables in scope, some quantifiers reusing a name in scope.
type randomFormulas struct{ rng *rand.Rand }

var oracleVarNames = []string{"?x", "?y", "?z"}
var oracleTypeNames = []string{"object", "block", "small", "node", "ghost"}

func (g randomFormulas) term(scope []string) string {
	if len(scope) > 0 && g.rng.IntN(3) > 0 {
		return scope[g.rng.IntN(len(scope))]
	}
	return oracleTypes["object"][g.rng.IntN(5)]
}

func (g randomFormulas) atom(scope []string) AtomTerm {
	switch g.rng.IntN(7) {
	case 0:
		return at("done")
	case 1, 2:
		return at("red", g.term(scope))
	case 3, 4:
		return at("blue", g.term(scope))
	}
	return at("on", g.term(scope), g.term(scope))
}

func (g randomFormulas) vars() []Param {
	ps := make([]Param, 1+g.rng.IntN(2))
	for i := range ps {
		ps[i] = Param{Name: oracleVarNames[g.rng.IntN(3)], Type: oracleTypeNames[g.rng.IntN(5)]}
	}
	return ps
}

func (g randomFormulas) formula(depth int, scope []string) *Formula {
	k := g.rng.IntN(9)
	if depth == 0 {
		k = g.rng.IntN(2)
	}
	switch k {
	case 0:
		return &Formula{Kind: Equal, Pred: at("=", g.term(scope), g.term(scope))}
	case 1, 2:
		return &Formula{Kind: Atom, Pred: g.atom(scope)}
	case 3:
		return fNot(g.formula(depth-1, scope))
	case 4:
		return fImply(g.formula(depth-1, scope), g.formula(depth-1, scope))
	case 5, 6:
		f := &Formula{Kind: And}
		if k == 6 {
			f.Kind = Or
		}
		for range g.rng.IntN(4) {
			f.Sub = append(f.Sub, g.formula(depth-1, scope))
		}
		return f
	}
	vs := g.vars()
	inner := slices.Clone(scope)
	for _, v := range vs {
		inner = append(inner, v.Name)
	}
	kind := Exists
	if k == 8 {
		kind = Forall
	}
	return &Formula{Kind: kind, Vars: vs, Sub: []*Formula{g.formula(depth-1, inner)}}
}

func (g randomFormulas) atoms(scope []string) []AtomTerm {
	var l []AtomTerm
	for range g.rng.IntN(3) {
		l = append(l, g.atom(scope))
	}
	return l
}

// allAtoms is every ground atom the random formulas can name.
func allAtoms() []string {
	objs := oracleTypes["object"]
	l := []string{"done"}
	for _, x := range objs {
		l = append(l, "red "+x, "blue "+x)
		for _, y := range objs {
			l = append(l, "on "+x+" "+y)
		}
	}
	return l
}

// exactly is the goal that holds in exactly the given state (over names).
func exactly(state map[string]bool, names []string) *Formula {
	f := fAnd()
	for _, n := range names {
		parts := strings.Fields(n)
		a := fAtom(parts[0], parts[1:]...)
		if !state[n] {
			a = fNot(a)
		}
		f.Sub = append(f.Sub, a)
	}
	return f
}

// TestReplayMatchesOracle: on random actions with random quantified,
// disjunctive and conditional preconditions and effects, shadowing
// included, Replay accepts exactly the plans the oracle accepts, fails at
// the step it fails, reaches the state it reaches and judges a random goal
// as it does.
func TestReplayMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	g := randomFormulas{rng}
	names := allAtoms()
	var failedSteps, goalsHeld, goalsFailed int
	for round := range 3000 {
		d, p := adlPair(t, oracleObjects, "")
		state := map[string]bool{}
		for _, n := range names {
			if rng.IntN(4) == 0 {
				state[n] = true
				parts := strings.Fields(n)
				p.Init = append(p.Init, at(parts[0], parts[1:]...))
			}
		}
		act := action(d, "two")
		params := []string{"?x", "?y"}
		act.Precondition = g.formula(3, params)
		act.Effect.Add, act.Effect.Delete = g.atoms(params), g.atoms(params)
		for range rng.IntN(4) {
			vs := g.vars()
			if rng.IntN(3) == 0 {
				vs = nil
			}
			scope := slices.Clone(params)
			for _, v := range vs {
				scope = append(scope, v.Name)
			}
			ce := CondEffect{Vars: vs, Add: g.atoms(scope), Delete: g.atoms(scope)}
			if rng.IntN(4) > 0 {
				ce.Cond = g.formula(2, scope)
			}
			act.Effect.Conditional = append(act.Effect.Conditional, ce)
		}
		var plan []string
		failAt := 0
		for i := range 3 {
			args := []string{oracleTypes["block"][rng.IntN(4)], oracleTypes["block"][rng.IntN(4)]}
			plan = append(plan, "(two "+args[0]+" "+args[1]+")")
			if failAt == 0 && !oracleStep(act, args, state) {
				failAt = i + 1
			}
		}
		p.Goal = exactly(state, names)
		_, err := Replay(d, p, plan)
		if failAt > 0 {
			failedSteps++
			want := "step " + strconv.Itoa(failAt) + " " + plan[failAt-1] + ": the precondition does not hold"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("round %d: %v, want %q\nprecondition %s", round, err, want, (&replay{}).show(act.Precondition))
			}
			continue
		}
		if err != nil {
			t.Fatalf("round %d: %v; the oracle accepts the plan", round, err)
		}
		p.Goal = g.formula(4, nil)
		_, err = Replay(d, p, plan)
		if want := oracleHolds(p.Goal, state); want != (err == nil) {
			t.Fatalf("round %d: goal %s: %v, the oracle says %v", round, (&replay{}).show(p.Goal), err, want)
		} else if want {
			goalsHeld++
		} else {
			goalsFailed++
		}
	}
	// The rounds must exercise both outcomes, or they would check little.
	t.Logf("%d plans refused, %d goals held, %d goals failed", failedSteps, goalsHeld, goalsFailed)
	if failedSteps < 300 || goalsHeld < 300 || goalsFailed < 300 {
		t.Errorf("too one-sided: %d plans refused, %d goals held, %d failed", failedSteps, goalsHeld, goalsFailed)
	}
}

// TestReplayDerivedMatchesOracle: on random graphs and random plans of
// actions that read and change them, Replay's reach (transitive closure,
// recursive), unreach (its negation, a stratum up) and connected (a
// forall over unreach's negation, a stratum higher) agree with
// Floyd-Warshall's, at every step and at the end.
func TestReplayDerivedMatchesOracle(t *testing.T) {
	const n = 5
	nodes := []string{"n0", "n1", "n2", "n3", "n4"}
	rng := rand.New(rand.NewPCG(27, 2))
	var refused, accepted int
	for round := range 400 {
		d, p := adlPair(t, strings.Join(nodes, " ")+" - node", "")
		// connected ?x: every node reaches ?x or is reached from it.
		d.Derived = append([]*Derived{{
			Name: "ok", Params: vars("?x", "node"),
			Body: fForall(vars("?y", "node"), fOr(fAtom("reach", "?x", "?y"), fNot(fAtom("unreach", "?y", "?x")))),
		}}, d.Derived...)
		addReachRules(d)
		xy := vars("?x", "node", "?y", "node")
		d.Actions = []*Action{
			{Name: "cut", Params: xy, Precondition: fAtom("reach", "?x", "?y"),
				Effect: Effect{Delete: []AtomTerm{at("edge", "?x", "?y")}}},
			{Name: "link", Params: xy, Precondition: fAtom("unreach", "?x", "?y"),
				Effect: Effect{Add: []AtomTerm{at("edge", "?x", "?y")}}},
			{Name: "check", Params: vars("?x", "node"), Precondition: fAtom("ok", "?x"), Effect: Effect{}},
			// Shortcuts to every node reached; drops the edges to
			// every node that does not reach ?x, from the state before.
			{Name: "close", Params: vars("?x", "node"), Precondition: fAnd(), Effect: Effect{Conditional: []CondEffect{
				{Vars: vars("?y", "node"), Cond: fAtom("reach", "?x", "?y"), Add: []AtomTerm{at("edge", "?x", "?y")}},
				{Vars: vars("?y", "node"), Cond: fAtom("unreach", "?y", "?x"), Delete: []AtomTerm{at("edge", "?x", "?y")}},
			}}},
		}
		var edge [n][n]bool
		for i := range n {
			for j := range n {
				if rng.IntN(5) == 0 {
					edge[i][j] = true
					p.Init = append(p.Init, at("edge", nodes[i], nodes[j]))
				}
			}
		}
		closure := func() (reach [n][n]bool) {
			reach = edge
			for k := range n {
				for i := range n {
					for j := range n {
						reach[i][j] = reach[i][j] || reach[i][k] && reach[k][j]
					}
				}
			}
			return reach
		}
		var plan []string
		failAt := 0
		for step := range 6 {
			reach := closure()
			applies := func(kind, x, y int) bool {
				switch kind {
				case 0: // cut
					return reach[x][y]
				case 1: // link
					return !reach[x][y]
				case 2: // check
					for y := range n {
						if !reach[x][y] && !reach[y][x] {
							return false
						}
					}
				}
				return true
			}
			// Mostly steps whose precondition holds, so that plans
			// go on; now and then any step.
			x, y, kind := rng.IntN(n), rng.IntN(n), rng.IntN(4)
			for try := 0; try < 20 && rng.IntN(8) > 0 && !applies(kind, x, y); try++ {
				x, y, kind = rng.IntN(n), rng.IntN(n), rng.IntN(4)
			}
			holds := applies(kind, x, y)
			line := "(" + []string{"cut", "link", "check", "close"}[kind] + " " + nodes[x] + ")"
			switch kind {
			case 0:
				line = "(cut " + nodes[x] + " " + nodes[y] + ")"
				if holds {
					edge[x][y] = false
				}
			case 1:
				line = "(link " + nodes[x] + " " + nodes[y] + ")"
				if holds {
					edge[x][y] = true
				}
			case 3:
				for y := range n {
					switch {
					case reach[x][y]:
						edge[x][y] = true
					case !reach[y][x]:
						edge[x][y] = false
					}
				}
			}
			plan = append(plan, line)
			if !holds {
				failAt = step + 1
				break
			}
		}
		goal := fAnd()
		reach := closure()
		for i := range n {
			ok := true
			for j := range n {
				ok = ok && (reach[i][j] || reach[j][i])
				for _, lit := range []struct {
					pred string
					val  bool
				}{{"edge", edge[i][j]}, {"reach", reach[i][j]}, {"unreach", !reach[i][j]}} {
					f := fAtom(lit.pred, nodes[i], nodes[j])
					if !lit.val {
						f = fNot(f)
					}
					goal.Sub = append(goal.Sub, f)
				}
			}
			f := fAtom("ok", nodes[i])
			if !ok {
				f = fNot(f)
			}
			goal.Sub = append(goal.Sub, f)
		}
		p.Goal = goal
		_, err := Replay(d, p, plan)
		if failAt > 0 {
			refused++
			want := "step " + strconv.Itoa(failAt) + " " + plan[failAt-1] + ": the precondition does not hold"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("round %d %v: %v, want %q", round, plan, err, want)
			}
			continue
		}
		accepted++
		if err != nil {
			t.Fatalf("round %d %v: %v; the oracle accepts it", round, plan, err)
		}
	}
	t.Logf("%d plans refused, %d accepted", refused, accepted)
	if refused < 40 || accepted < 40 {
		t.Errorf("too one-sided: %d plans refused, %d accepted", refused, accepted)
	}
}
