package resolver_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// These tests pin down rules the random oracle never exercises: Go cost
// functions, the dominance rule where targets and the depth limit meet,
// actions with two effects on one key, and the documented tie-break. Each
// was written against a bug planted by hand (docs/testing.md).

func chainOf(t *testing.T, d *resolver.Domain, snap *resolver.Snapshot, goal string, opt resolver.Options) ([]string, float64, resolver.Status) {
	t.Helper()
	res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal(goal), opt)
	if res.Status == resolver.Found && err != nil {
		t.Fatalf("found with an error: %v", err)
	}
	return names(d, res.Chain), res.Cost, res.Status
}

// A cost function prices its action from the snapshot: the chain's cost is
// what it returns, it decides which chain wins, a profile's override beats
// it, and a resolve calls it at most once.
func TestCostFunctionPricesTheAction(t *testing.T) {
	calls := 0
	spec := resolver.Spec{
		Keys: []resolver.KeySpec{{Name: "done", Kind: resolver.Bool}, {Name: "tired", Kind: resolver.Int}},
		Actions: []resolver.ActionSpec{
			{Name: "Sprint", Effects: []resolver.Effect{resolver.Sets("done", true)},
				CostFunc: func(s *resolver.Snapshot) float64 { calls++; return 1 + float64(s.Values[1]) }},
			{Name: "Stroll", Effects: []resolver.Effect{resolver.Sets("done", true)}, Cost: 5},
		},
		Goals: []resolver.GoalSpec{{Name: "Done", Conditions: []resolver.Condition{resolver.True("done")}}},
	}
	d := mustDomain(t, spec)
	for _, tc := range []struct {
		tired int64
		want  string
		cost  float64
	}{{0, "Sprint", 1}, {3, "Sprint", 4}, {5, "Stroll", 5}, {10, "Stroll", 5}} {
		calls = 0
		snap := mustSnapshot(t, d, map[string]int64{"tired": tc.tired}, resolver.Point{}, nil)
		chain, cost, st := chainOf(t, d, snap, "Done", resolver.Options{})
		if st != resolver.Found || !slices.Equal(chain, []string{tc.want}) || cost != tc.cost {
			t.Errorf("tired %d: got %v %v cost %g, want [%s] cost %g", tc.tired, st, chain, cost, tc.want, tc.cost)
		}
		if calls != 1 {
			t.Errorf("tired %d: the cost function was called %d times, want once", tc.tired, calls)
		}
	}
	prof, err := d.NewProfile(resolver.ProfileSpec{Costs: map[string]float64{"Sprint": 7}})
	if err != nil {
		t.Fatal(err)
	}
	calls = 0
	snap := mustSnapshot(t, d, map[string]int64{"tired": 0}, resolver.Point{}, nil)
	chain, cost, _ := chainOf(t, d, snap, "Done", resolver.Options{Profile: prof})
	if !slices.Equal(chain, []string{"Stroll"}) || cost != 5 || calls != 0 {
		t.Errorf("override 7 on Sprint: got %v cost %g (%d calls), want [Stroll] cost 5 without calling the function", chain, cost, calls)
	}
	// A cost function that breaks its contract is refused loudly, not
	// read as some other cost.
	for _, bad := range []float64{0, -1, resolver.MaxCost * 10} {
		spec.Actions[0].CostFunc = func(*resolver.Snapshot) float64 { return bad }
		d := mustDomain(t, spec)
		snap := mustSnapshot(t, d, nil, resolver.Point{}, nil)
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), `"Sprint"`) {
					t.Errorf("cost function returning %g: recovered %v, want a panic naming Sprint", bad, r)
				}
			}()
			resolver.NewResolver(d).Resolve(nil, snap, d.Goal("Done"), resolver.Options{})
		}()
	}
}

// dominanceSpec: the goal wants a; B (at t1) sets it from b, A sets b from
// z, C (at t2) sets a from z, Z (at tz) sets z from h, H sets h from
// nothing. So Z is in front of two partial chains, Z→A→B and Z→C, and
// which of them may be dropped is the dominance rule's call.
func dominanceSpec(costA, costC float64, zTarget string) resolver.Spec {
	set := func(k string) []resolver.Effect { return []resolver.Effect{resolver.Sets(k, true)} }
	need := func(k string) []resolver.Condition { return []resolver.Condition{resolver.True(k)} }
	keys := []resolver.KeySpec{}
	for _, k := range []string{"a", "b", "z", "h"} {
		keys = append(keys, resolver.KeySpec{Name: k, Kind: resolver.Bool})
	}
	return resolver.Spec{
		Keys: keys,
		Actions: []resolver.ActionSpec{
			{Name: "B", Conditions: need("b"), Effects: set("a"), Cost: 1, Target: "t1"},
			{Name: "A", Conditions: need("z"), Effects: set("b"), Cost: costA},
			{Name: "C", Conditions: need("z"), Effects: set("a"), Cost: costC, Target: "t2"},
			{Name: "Z", Conditions: need("h"), Effects: set("z"), Cost: 1, Target: zTarget},
			{Name: "H", Effects: set("h"), Cost: 1},
		},
		Goals: []resolver.GoalSpec{{Name: "G", Conditions: need("a")}},
	}
}

func TestDominanceWithTargetsAndDepth(t *testing.T) {
	// A cheaper partial chain that is longer must not drop a dearer,
	// shorter one with the same front: under a depth limit only the
	// shorter one completes. Here Z→A→B (g 3) is made before Z→C (g 10).
	t.Run("cheaper but longer made first", func(t *testing.T) {
		spec := dominanceSpec(1, 9, "")
		spec.Actions[2].Target = "t1" // both partial chains go to t1 next: comparable
		d := mustDomain(t, spec)
		at := map[string]resolver.Point{"t1": {}}
		snap := mustSnapshot(t, d, nil, resolver.Point{}, at)
		chain, cost, st := chainOf(t, d, snap, "G", resolver.Options{MaxDepth: 3})
		if st != resolver.Found || !slices.Equal(chain, []string{"H", "Z", "C"}) || cost != 11 {
			t.Errorf("depth 3: got %v %v cost %g, want H→Z→C cost 11", st, chain, cost)
		}
		chain, cost, _ = chainOf(t, d, snap, "G", resolver.Options{MaxDepth: 4})
		if !slices.Equal(chain, []string{"H", "Z", "A", "B"}) || cost != 4 {
			t.Errorf("depth 4: got %v cost %g, want H→Z→A→B cost 4", chain, cost)
		}
	})
	// The same, made the other way round: Z→C (dear, short) first, then
	// Z→A→B, cheaper thanks to the walk between targets, must not kill it.
	t.Run("cheaper but longer made second", func(t *testing.T) {
		d := mustDomain(t, dominanceSpec(9, 5, "tz"))
		at := map[string]resolver.Point{"t1": {}, "t2": {X: 20}, "tz": {}}
		snap := mustSnapshot(t, d, nil, resolver.Point{}, at)
		chain, cost, st := chainOf(t, d, snap, "G", resolver.Options{MaxDepth: 3})
		if st != resolver.Found || !slices.Equal(chain, []string{"H", "Z", "C"}) || cost != 27 {
			t.Errorf("depth 3: got %v %v cost %g, want H→Z→C cost 27", st, chain, cost)
		}
		chain, cost, _ = chainOf(t, d, snap, "G", resolver.Options{MaxDepth: 4})
		if !slices.Equal(chain, []string{"H", "Z", "A", "B"}) || cost != 12 {
			t.Errorf("depth 4: got %v cost %g, want H→Z→A→B cost 12", chain, cost)
		}
	})
	// Partial chains with different next targets never dominate each
	// other: Z→A→B is cheaper so far (g 3) but leads to t1, 100 away;
	// Z→C (g 10) leads to t2, where the agent stands.
	t.Run("different anchors", func(t *testing.T) {
		spec := dominanceSpec(1, 9, "")
		spec.Actions[1].Target = "t1" // A at t1 too: both partial chains have depth 2 at Z
		spec.Actions[0].Conditions = nil
		spec.Actions[0].Effects = []resolver.Effect{resolver.Sets("b", true)}
		spec.Actions[1].Effects = []resolver.Effect{resolver.Sets("a", true)}
		d := mustDomain(t, spec)
		at := map[string]resolver.Point{"t1": {X: 100}, "t2": {}}
		snap := mustSnapshot(t, d, nil, resolver.Point{}, at)
		chain, cost, st := chainOf(t, d, snap, "G", resolver.Options{MaxDepth: 3})
		if st != resolver.Found || !slices.Equal(chain, []string{"H", "Z", "C"}) || cost != 11 {
			t.Errorf("got %v %v cost %g, want H→Z→C cost 11", st, chain, cost)
		}
	})
}

// An action with two effects on one key serves both directions, and is
// listed once per condition it serves however many of its effects do.
func TestTwoEffectsOnOneKey(t *testing.T) {
	spec := resolver.Spec{
		Keys: []resolver.KeySpec{{Name: "n", Kind: resolver.Int}, {Name: "f", Kind: resolver.Bool}},
		Actions: []resolver.ActionSpec{
			{Name: "Jiggle", Effects: []resolver.Effect{resolver.Raises("n"), resolver.Lowers("n"), resolver.Raises("n")}, Cost: 2},
			{Name: "Flip", Effects: []resolver.Effect{resolver.Sets("f", true), resolver.Sets("f", false)}, Cost: 3},
		},
		Goals: []resolver.GoalSpec{
			{Name: "High", Conditions: []resolver.Condition{resolver.Above("n", 5)}},
			{Name: "Low", Conditions: []resolver.Condition{resolver.Below("n", 1)}},
			{Name: "On", Conditions: []resolver.Condition{resolver.True("f")}},
			{Name: "Off", Conditions: []resolver.Condition{resolver.False("f")}},
		},
	}
	d := mustDomain(t, spec)
	edges := d.Edges()
	if len(edges) != 4 {
		t.Errorf("edges %v, want one per goal", edges)
	}
	for _, g := range d.Goals() {
		if s := g.Servers(0); len(s) != 1 {
			t.Errorf("goal %s: servers %v, want exactly one", g.Name(), names(d, s))
		}
	}
	for _, tc := range []struct {
		n, f int64
		goal string
		want string
	}{{3, 1, "High", "Jiggle"}, {3, 0, "Low", "Jiggle"}, {0, 0, "On", "Flip"}, {0, 1, "Off", "Flip"}} {
		snap := mustSnapshot(t, d, map[string]int64{"n": tc.n, "f": tc.f}, resolver.Point{}, nil)
		res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal(tc.goal), resolver.Options{})
		if err != nil || !slices.Equal(names(d, res.Chain), []string{tc.want}) || res.Generated != 1 {
			t.Errorf("%s: got %v %v (%d made), want [%s], one chain made", tc.goal, names(d, res.Chain), err, res.Generated, tc.want)
		}
	}
}

// Ties between chains of equal cost are part of the contract
// (docs/resolver.md, rule 3): complete chains first, then conditions in
// their declared order, then servers in action order.
func TestTieBreakBetweenEqualCostChains(t *testing.T) {
	keys := []resolver.KeySpec{{Name: "p", Kind: resolver.Bool}, {Name: "q", Kind: resolver.Bool}, {Name: "r", Kind: resolver.Bool}}
	act := func(name, sets string, conds ...resolver.Condition) resolver.ActionSpec {
		return resolver.ActionSpec{Name: name, Conditions: conds, Effects: []resolver.Effect{resolver.Sets(sets, true)}, Cost: 2}
	}
	// Servers of one condition: the first declared wins, whichever it is.
	for _, order := range [][]string{{"X", "Y"}, {"Y", "X"}} {
		d := mustDomain(t, resolver.Spec{Keys: keys,
			Actions: []resolver.ActionSpec{act(order[0], "p"), act(order[1], "p")},
			Goals:   []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("p")}}}})
		snap := mustSnapshot(t, d, nil, resolver.Point{}, nil)
		if chain, _, _ := chainOf(t, d, snap, "G", resolver.Options{}); !slices.Equal(chain, order[:1]) {
			t.Errorf("servers declared %v: got %v, want %v", order, chain, order[:1])
		}
	}
	// Two unmet conditions: the first declared condition's server wins,
	// though it comes later in action order.
	d := mustDomain(t, resolver.Spec{Keys: keys,
		Actions: []resolver.ActionSpec{act("ServesQ", "q"), act("ServesP", "p")},
		Goals:   []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("p"), resolver.True("q")}}}})
	snap := mustSnapshot(t, d, nil, resolver.Point{}, nil)
	if chain, _, _ := chainOf(t, d, snap, "G", resolver.Options{}); !slices.Equal(chain, []string{"ServesP"}) {
		t.Errorf("conditions p, q: got %v, want [ServesP]", chain)
	}
	// Equal total cost, two lengths: a one-action chain of cost 4 against
	// a two-action chain of cost 2+2. The complete chain is made first (at
	// g 4 while the other is still partial at g 2) and wins.
	long := act("Prep", "r")
	long.Cost = 2
	short := act("Solo", "p")
	short.Cost = 4
	d = mustDomain(t, resolver.Spec{Keys: keys,
		Actions: []resolver.ActionSpec{act("Finish", "p", resolver.True("r")), short, long},
		Goals:   []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("p")}}}})
	snap = mustSnapshot(t, d, nil, resolver.Point{}, nil)
	if chain, cost, _ := chainOf(t, d, snap, "G", resolver.Options{}); !slices.Equal(chain, []string{"Solo"}) || cost != 4 {
		t.Errorf("Solo (4) against Prep→Finish (2+2): got %v cost %g, want [Solo]", chain, cost)
	}
	// A complete chain is taken before a partial one of the same cost: a
	// partial chain at g 4 (Other, whose condition r is unmet) is never
	// expanded when Solo completes at 4.
	other := act("Other", "p", resolver.True("r"))
	other.Cost = 4
	d = mustDomain(t, resolver.Spec{Keys: keys,
		Actions: []resolver.ActionSpec{other, short},
		Goals:   []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("p")}}}})
	snap = mustSnapshot(t, d, nil, resolver.Point{}, nil)
	res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal("G"), resolver.Options{})
	if err != nil || !slices.Equal(names(d, res.Chain), []string{"Solo"}) || res.Expanded != 1 {
		t.Errorf("Solo (complete, 4) against Other (partial, 4): got %v, %d expanded, %v; want [Solo] after expanding only the goal", names(d, res.Chain), res.Expanded, err)
	}
}

// TestWorkLimitIsExact counts the units docs/resolver.md names by hand on
// two small chains, and checks that a work limit of exactly that many
// finds the chain and one fewer stops with the work limit. (The random
// test allows Generated up to twice the limit, so an off-by-one in the
// check passes it.)
func TestWorkLimitIsExact(t *testing.T) {
	set := func(k string) []resolver.Effect { return []resolver.Effect{resolver.Sets(k, true)} }
	keys := []resolver.KeySpec{{Name: "a", Kind: resolver.Bool}, {Name: "b", Kind: resolver.Bool}, {Name: "c", Kind: resolver.Bool}}
	goal := []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("a")}}}
	for _, tc := range []struct {
		name    string
		actions []resolver.ActionSpec
		units   int
	}{
		// The goal's condition (1), its server A (2); A has no condition
		// to evaluate and the chain behind it is empty.
		{"one action", []resolver.ActionSpec{{Name: "A", Effects: set("a"), Cost: 1}}, 2},
		// Then A's condition b, evaluated to see whether A can run now
		// (3); expanding A: b again (4), its server B (5). The limit is
		// checked there, at each action considered; the walk that checks
		// B is not in the chain A→G (a sixth unit) comes after the last
		// check, and B completes the chain.
		{"two actions", []resolver.ActionSpec{
			{Name: "A", Conditions: []resolver.Condition{resolver.True("b")}, Effects: set("a"), Cost: 1},
			{Name: "B", Effects: set("b"), Cost: 1}}, 5},
		// Three: a (1), A (2), A's b (3); expanding A: b (4), B (5), the
		// walk over A (6), B's c (7); expanding B: c (8), C (9).
		{"three actions", []resolver.ActionSpec{
			{Name: "A", Conditions: []resolver.Condition{resolver.True("b")}, Effects: set("a"), Cost: 1},
			{Name: "B", Conditions: []resolver.Condition{resolver.True("c")}, Effects: set("b"), Cost: 1},
			{Name: "C", Effects: set("c"), Cost: 1}}, 9},
	} {
		d := mustDomain(t, resolver.Spec{Keys: keys, Actions: tc.actions, Goals: goal})
		snap := mustSnapshot(t, d, nil, resolver.Point{}, nil)
		r := resolver.NewResolver(d)
		res, err := r.Resolve(nil, snap, d.Goal("G"), resolver.Options{MaxWork: tc.units})
		if err != nil || res.Status != resolver.Found || len(res.Chain) != len(tc.actions) {
			t.Errorf("%s, MaxWork %d: %+v, %v; want the chain", tc.name, tc.units, res, err)
		}
		res, err = r.Resolve(nil, snap, d.Goal("G"), resolver.Options{MaxWork: tc.units - 1})
		var se *resolver.SearchError
		if !errors.As(err, &se) || !se.Work || se.Limit != tc.units-1 || res.Status != resolver.LimitReached || res.Bound != search.Work {
			t.Errorf("%s, MaxWork %d: %+v, %v; want the work limit reached", tc.name, tc.units-1, res, err)
		}
	}
}

// TestWorkLimitIsCheckedBeforeEachExpansion: with A needing b and B
// serving it, the search has spent 3 units when it takes A from the open
// list. A limit of 3 lets it expand A (then stop at B, the fifth unit);
// a check that stopped at the limit rather than past it would not.
func TestWorkLimitIsCheckedBeforeEachExpansion(t *testing.T) {
	d := mustDomain(t, resolver.Spec{
		Keys: []resolver.KeySpec{{Name: "a", Kind: resolver.Bool}, {Name: "b", Kind: resolver.Bool}},
		Actions: []resolver.ActionSpec{
			{Name: "A", Conditions: []resolver.Condition{resolver.True("b")}, Effects: []resolver.Effect{resolver.Sets("a", true)}, Cost: 1},
			{Name: "B", Effects: []resolver.Effect{resolver.Sets("b", true)}, Cost: 1}},
		Goals: []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("a")}}},
	})
	snap := mustSnapshot(t, d, nil, resolver.Point{}, nil)
	for _, tc := range []struct{ work, expanded, generated int }{{1, 1, 0}, {2, 1, 1}, {3, 2, 1}, {4, 2, 1}} {
		res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal("G"), resolver.Options{MaxWork: tc.work})
		if err == nil || res.Expanded != tc.expanded || res.Generated != tc.generated {
			t.Errorf("MaxWork %d: %d expanded, %d made, %v; want %d and %d, stopped", tc.work, res.Expanded, res.Generated, err, tc.expanded, tc.generated)
		}
	}
}
