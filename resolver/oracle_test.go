package resolver_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// The oracle reads the Spec, not the compiled domain, and enumerates every
// chain the engine model's rules allow: a compilation bug (a served condition
// dropped, a direction reversed) cannot fool both.

// world is the oracle's reading of a snapshot: values and positions by name.
type world struct {
	values  map[string]int64
	at      resolver.Point
	targets map[string]resolver.Point // only the found ones
}

func (w *world) holds(c resolver.Condition) bool {
	v := w.values[c.Key]
	switch c.Op {
	case resolver.Is:
		return v == c.Value
	case resolver.Greater:
		return v > c.Value
	case resolver.AtLeast:
		return v >= c.Value
	case resolver.Less:
		return v < c.Value
	case resolver.AtMost:
		return v <= c.Value
	}
	panic("op")
}

// oracleServes is the engine model's rule, written out again: "a condition
// wanting a key greater is served by an action with a positive effect on
// that key; one wanting it smaller by a negative one", and a boolean by
// setting it.
func oracleServes(e resolver.Effect, c resolver.Condition) bool {
	if e.Key != c.Key {
		return false
	}
	switch c.Op {
	case resolver.Is:
		return (e.Dir == resolver.SetTrue && c.Value == 1) || (e.Dir == resolver.SetFalse && c.Value == 0)
	case resolver.Greater, resolver.AtLeast:
		return e.Dir == resolver.Increase
	default:
		return e.Dir == resolver.Decrease
	}
}

type oracle struct {
	spec    resolver.Spec
	w       *world
	capable map[string]bool // nil: all
	costs   map[string]float64
	best    float64
	longer  bool // a chain exists, longer than the depth limit
	// dist is the oracle's own distance; nil: straight lines.
	dist func(from, to resolver.Point) float64
}

func (o *oracle) cost(a *resolver.ActionSpec) float64 {
	if c, ok := o.costs[a.Name]; ok {
		return c
	}
	return a.Cost
}

// chainCost prices a chain, head first, from scratch.
func (o *oracle) chainCost(chain []int) float64 {
	per := o.spec.DistanceCost
	if per == 0 {
		per = 1
	}
	total := 0.0
	pos, havePos := o.w.at, true
	for _, ai := range chain {
		a := &o.spec.Actions[ai]
		total += o.cost(a)
		if a.Target != "" {
			p := o.w.targets[a.Target]
			if havePos {
				if o.dist != nil {
					total += per * o.dist(pos, p)
				} else {
					total += per * math.Hypot(p.X-pos.X, p.Y-pos.Y)
				}
			}
			pos = p
		}
	}
	return total
}

func (o *oracle) usable(ai int) bool {
	a := &o.spec.Actions[ai]
	if o.capable != nil && !o.capable[a.Name] {
		return false
	}
	if a.Target != "" {
		if _, ok := o.w.targets[a.Target]; !ok {
			return false
		}
	}
	return true
}

// enumerate extends the chain tail (head first: tail[0] is its front),
// whose front needs conds, calling visit with every complete chain. A
// chain repeats no action, so it ends.
func (o *oracle) enumerate(tail []int, conds []resolver.Condition, visit func([]int)) {
	for _, c := range conds {
		if o.w.holds(c) {
			continue
		}
		for ai := range o.spec.Actions {
			a := &o.spec.Actions[ai]
			served := false
			for _, e := range a.Effects {
				served = served || oracleServes(e, c)
			}
			if !served || !o.usable(ai) || contains(tail, ai) {
				continue
			}
			chain := append([]int{ai}, tail...)
			all := true
			for _, pc := range a.Conditions {
				all = all && o.w.holds(pc)
			}
			if all {
				visit(chain)
			} else {
				o.enumerate(chain, a.Conditions, visit)
			}
		}
	}
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// caseSnapshot is w as a snapshot of d: its values, position, and the
// targets d's actions name (a target no action names is refused).
func caseSnapshot(t *testing.T, d *resolver.Domain, w *world) *resolver.Snapshot {
	t.Helper()
	used := map[string]resolver.Point{}
	for _, name := range d.Targets() {
		if p, ok := w.targets[name]; ok {
			used[name] = p
		}
	}
	snap, err := d.SnapshotOf(w.values, w.at, used)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func randomCase(r *rand.Rand) (resolver.Spec, *world, resolver.ProfileSpec) {
	var spec resolver.Spec
	nb, ni := 1+r.IntN(4), r.IntN(4)
	for i := 0; i < nb; i++ {
		spec.Keys = append(spec.Keys, resolver.KeySpec{Name: fmt.Sprintf("b%d", i), Kind: resolver.Bool})
	}
	for i := 0; i < ni; i++ {
		spec.Keys = append(spec.Keys, resolver.KeySpec{Name: fmt.Sprintf("n%d", i), Kind: resolver.Int})
	}
	randCond := func() resolver.Condition {
		k := spec.Keys[r.IntN(len(spec.Keys))]
		if k.Kind == resolver.Bool {
			return resolver.Condition{Key: k.Name, Op: resolver.Is, Value: int64(r.IntN(2))}
		}
		return resolver.Condition{Key: k.Name, Op: resolver.Op(1 + r.IntN(4)), Value: int64(r.IntN(5))}
	}
	randEffect := func() resolver.Effect {
		k := spec.Keys[r.IntN(len(spec.Keys))]
		if k.Kind == resolver.Bool {
			return resolver.Effect{Key: k.Name, Dir: resolver.Direction(1 + r.IntN(2))}
		}
		return resolver.Effect{Key: k.Name, Dir: resolver.Direction(3 + r.IntN(2))}
	}
	targets := []string{"t0", "t1", "t2"}[:r.IntN(4)]
	if r.IntN(3) == 0 {
		spec.DistanceCost = 0.25 + r.Float64()
	}
	n := 3 + r.IntN(10)
	for i := 0; i < n; i++ {
		a := resolver.ActionSpec{Name: fmt.Sprintf("A%d", i), Cost: float64(1 + r.IntN(6))}
		if r.IntN(4) == 0 {
			a.Cost += 0.5
		}
		for j := r.IntN(4); j > 0; j-- {
			a.Conditions = append(a.Conditions, randCond())
		}
		for j := 1 + r.IntN(2); j > 0; j-- {
			a.Effects = append(a.Effects, randEffect())
		}
		if len(targets) > 0 && r.IntN(2) == 0 {
			a.Target = targets[r.IntN(len(targets))]
		}
		spec.Actions = append(spec.Actions, a)
	}
	for i := 1 + r.IntN(2); i > 0; i-- {
		g := resolver.GoalSpec{Name: fmt.Sprintf("G%d", i)}
		for j := 1 + r.IntN(3); j > 0; j-- {
			g.Conditions = append(g.Conditions, randCond())
		}
		spec.Goals = append(spec.Goals, g)
	}
	w := &world{values: map[string]int64{}, at: resolver.Point{X: r.Float64() * 10, Y: r.Float64() * 10}, targets: map[string]resolver.Point{}}
	for _, k := range spec.Keys {
		if k.Kind == resolver.Bool {
			w.values[k.Name] = int64(r.IntN(2))
		} else {
			w.values[k.Name] = int64(r.IntN(6))
		}
	}
	for _, t := range targets {
		if r.IntN(8) > 0 {
			w.targets[t] = resolver.Point{X: float64(r.IntN(10)), Y: float64(r.IntN(10))}
		}
	}
	var prof resolver.ProfileSpec
	if r.IntN(2) == 0 {
		prof.Capabilities = []string{}
		for _, a := range spec.Actions {
			if r.IntN(5) > 0 {
				prof.Capabilities = append(prof.Capabilities, a.Name)
			}
		}
		prof.Costs = map[string]float64{}
		for _, a := range spec.Actions {
			if r.IntN(4) == 0 {
				prof.Costs[a.Name] = float64(1 + r.IntN(8))
			}
		}
	}
	return spec, w, prof
}

// TestAgainstEnumeration: on thousands of random action graphs, snapshots,
// targets, capabilities and depth limits, the resolver's chain is valid
// by the oracle's reading of the rules, priced the same, and least-cost
// among every chain the rules allow; it finds none exactly when there is
// none, and says DepthExceeded exactly when only longer chains exist.
func TestAgainstEnumeration(t *testing.T) {
	rounds := 4000
	if testing.Short() {
		// Planted bugs were first caught at rounds 3 to 391 (docs/testing.md):
		// -short keeps more than twice the latest.
		rounds = 1000
	}
	againstEnumeration(t, rand.New(rand.NewPCG(3, 14)), rounds, nil)
}

// againstEnumeration checks rounds random cases; grid, if not nil, makes
// each case's distance model and the oracle's own distance for it.
func againstEnumeration(t *testing.T, r *rand.Rand, rounds int, grid func(*rand.Rand) (resolver.DistanceModel, func(from, to resolver.Point) float64)) {
	found := 0
	for round := 0; round < rounds; round++ {
		spec, w, profSpec := randomCase(r)
		d, err := resolver.NewDomain(spec)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		var prof *resolver.Profile
		o := &oracle{spec: spec, w: w}
		var model resolver.DistanceModel
		if grid != nil {
			model, o.dist = grid(r)
		}
		if profSpec.Capabilities != nil {
			if prof, err = d.NewProfile(profSpec); err != nil {
				t.Fatal(err)
			}
			o.capable = map[string]bool{}
			for _, c := range profSpec.Capabilities {
				o.capable[c] = true
			}
			o.costs = profSpec.Costs
		}
		snap := caseSnapshot(t, d, w)
		maxDepth := 1 + r.IntN(6)
		res := resolver.NewResolver(d)
		for gi, g := range spec.Goals {
			o.best, o.longer = math.Inf(1), false
			holds := true
			for _, c := range g.Conditions {
				holds = holds && w.holds(c)
			}
			o.enumerate(nil, g.Conditions, func(chain []int) {
				if math.IsInf(o.chainCost(chain), 1) {
					return // it walks where there is no way: not a chain
				}
				if len(chain) > maxDepth {
					o.longer = true
				} else {
					o.best = min(o.best, o.chainCost(chain))
				}
			})
			got, err := res.Resolve(nil, snap, d.Goals()[gi], resolver.Options{Profile: prof, MaxDepth: maxDepth, Budget: 1 << 20, Distance: model})
			where := fmt.Sprintf("round %d goal %s depth %d", round, g.Name, maxDepth)
			switch {
			case holds:
				if got.Status != resolver.Found || len(got.Chain) != 0 || err != nil {
					t.Fatalf("%s: goal holds, got %+v %v", where, got, err)
				}
			case math.IsInf(o.best, 1):
				want := resolver.NoPlan
				if o.longer {
					want = resolver.LimitReached
				}
				if got.Status != want || o.longer && got.Bound != search.Depth {
					t.Fatalf("%s: no chain (longer ones exist: %v), got %+v %v", where, o.longer, got, err)
				}
			default:
				found++
				if got.Status != resolver.Found || err != nil {
					t.Fatalf("%s: best chain costs %g, got %+v %v", where, o.best, got, err)
				}
				chain := make([]int, len(got.Chain))
				for i, a := range got.Chain {
					chain[i] = int(a)
				}
				if msg := o.valid(chain, g.Conditions, maxDepth); msg != "" {
					t.Fatalf("%s: chain %v invalid: %s", where, d.FormatChain(got.Chain), msg)
				}
				if c := o.chainCost(chain); math.Abs(c-got.Cost) > 1e-9*max(1, c) {
					t.Fatalf("%s: chain %v reported cost %g, costs %g", where, d.FormatChain(got.Chain), got.Cost, c)
				}
				if math.Abs(got.Cost-o.best) > 1e-9*max(1, o.best) {
					t.Fatalf("%s: chain %v costs %g, least is %g", where, d.FormatChain(got.Chain), got.Cost, o.best)
				}
			}
		}
	}
	t.Logf("%d rounds, %d goals with a chain", rounds, found)
	if found < rounds/4 {
		t.Errorf("only %d goals had a chain: the generator is too sparse to test much", found)
	}
}

// valid checks a chain, head first, by the rules: distinct usable actions,
// the head's conditions all holding, each serving an unmet condition of
// the next, the last an unmet condition of the goal.
func (o *oracle) valid(chain []int, goal []resolver.Condition, maxDepth int) string {
	if len(chain) > maxDepth {
		return "too long"
	}
	for i, ai := range chain {
		if !o.usable(ai) || contains(chain[:i], ai) {
			return fmt.Sprintf("action %d unusable or repeated", ai)
		}
		next := goal
		if i+1 < len(chain) {
			next = o.spec.Actions[chain[i+1]].Conditions
		}
		ok := false
		for _, c := range next {
			if o.w.holds(c) {
				continue
			}
			for _, e := range o.spec.Actions[ai].Effects {
				ok = ok || oracleServes(e, c)
			}
		}
		if !ok {
			return fmt.Sprintf("link %d serves no unmet condition of the next", i)
		}
	}
	for _, c := range o.spec.Actions[chain[0]].Conditions {
		if !o.w.holds(c) {
			return "the head's conditions do not all hold"
		}
	}
	return ""
}

// TestLimitsBoundEverySearch: on random action graphs with random limits,
// a resolve never expands more chains than its budget, never makes more
// chains than its work limit allows (one per unit), and its trace records
// no more actions considered than that either.
func TestLimitsBoundEverySearch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for round := range 1500 {
		spec, w, _ := randomCase(r)
		d, err := resolver.NewDomain(spec)
		if err != nil {
			t.Fatal(err)
		}
		snap := caseSnapshot(t, d, w)
		budget, work := 1+r.IntN(6), 1+r.IntN(12)
		var tr resolver.Trace
		for _, g := range d.Goals() {
			// A depth limit of 1 makes the second search (no depth limit)
			// as often as not: each search has its own work limit.
			res, _ := resolver.NewResolver(d).Resolve(nil, snap, g, resolver.Options{Budget: budget, MaxWork: work, MaxDepth: 1 + r.IntN(2), Trace: &tr})
			if res.Expanded > budget || res.Generated > 2*work || len(tr.Nodes)-1 > work || len(tr.Considered) > work {
				t.Fatalf("round %d: budget %d, work %d: %d expanded, %d made, trace %d nodes and %d considered", round, budget, work, res.Expanded, res.Generated, len(tr.Nodes)-1, len(tr.Considered))
			}
		}
	}
}
