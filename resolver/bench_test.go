package resolver_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// survival30 is the benchmark domain: the survivor's 7 actions and
// 23 more, most with targets and several sources per need so that the
// resolver weighs distances: 6 wood piles, 6 food sources, 8 wells, 4
// shelter sites, and the fire, water, tools and shelter chains.
func survival30() (resolver.Spec, map[string]resolver.Point) {
	spec := domains.Survivor()
	targets := map[string]resolver.Point{"fireplace": {X: 0, Y: 2}, "wood_north": {X: 0, Y: 10}, "wood_south": {X: 0, Y: -4}, "berries": {X: 5, Y: 0}, "deer": {X: 2, Y: 0}}
	spec.Keys = append(spec.Keys,
		resolver.KeySpec{Name: "thirst", Kind: resolver.Int},
		resolver.KeySpec{Name: "has_water", Kind: resolver.Bool},
		resolver.KeySpec{Name: "sheltered", Kind: resolver.Bool},
		resolver.KeySpec{Name: "has_tools", Kind: resolver.Bool},
	)
	add := func(a resolver.ActionSpec, at resolver.Point) {
		spec.Actions = append(spec.Actions, a)
		if a.Target != "" {
			targets[a.Target] = at
		}
	}
	for i := range 4 {
		add(resolver.ActionSpec{Name: fmt.Sprintf("GatherWood%d", i), Effects: []resolver.Effect{resolver.Sets("has_wood", true)}, Cost: 2, Target: fmt.Sprintf("wood%d", i)}, resolver.Point{X: float64(3 * i), Y: float64(7 - 2*i)})
		add(resolver.ActionSpec{Name: fmt.Sprintf("Forage%d", i), Effects: []resolver.Effect{resolver.Sets("has_food", true)}, Cost: 3, Target: fmt.Sprintf("bush%d", i)}, resolver.Point{X: float64(-4 + 3*i), Y: float64(5 - i)})
	}
	for i := range 8 {
		add(resolver.ActionSpec{Name: fmt.Sprintf("FillWater%d", i), Effects: []resolver.Effect{resolver.Sets("has_water", true)}, Cost: 1, Target: fmt.Sprintf("well%d", i)}, resolver.Point{X: float64(9 - 3*i), Y: float64(i*i%7 - 3)})
	}
	add(resolver.ActionSpec{Name: "Drink", Conditions: []resolver.Condition{resolver.True("has_water")}, Effects: []resolver.Effect{resolver.Lowers("thirst"), resolver.Sets("has_water", false)}, Cost: 1}, resolver.Point{})
	add(resolver.ActionSpec{Name: "CraftTools", Conditions: []resolver.Condition{resolver.True("has_wood")}, Effects: []resolver.Effect{resolver.Sets("has_tools", true), resolver.Sets("has_wood", false)}, Cost: 4, Target: "workbench"}, resolver.Point{X: 1, Y: 1})
	for i := range 4 {
		add(resolver.ActionSpec{Name: fmt.Sprintf("BuildShelter%d", i), Conditions: []resolver.Condition{resolver.True("has_tools"), resolver.Above("warmth", 10)}, Effects: []resolver.Effect{resolver.Sets("sheltered", true)}, Cost: 6, Target: fmt.Sprintf("site%d", i)}, resolver.Point{X: float64(-6 + 4*i), Y: -6})
	}
	add(resolver.ActionSpec{Name: "Rest", Conditions: []resolver.Condition{resolver.True("sheltered")}, Effects: []resolver.Effect{resolver.Raises("warmth")}, Cost: 2}, resolver.Point{})
	spec.Goals = append(spec.Goals,
		resolver.GoalSpec{Name: "Quenched", Conditions: []resolver.Condition{resolver.AtMostOf("thirst", 20)}},
		resolver.GoalSpec{Name: "Sheltered", Conditions: []resolver.Condition{resolver.True("sheltered")}},
	)
	return spec, targets
}

func TestSurvival30HasThirtyActions(t *testing.T) {
	spec, _ := survival30()
	if len(spec.Actions) != 30 {
		t.Fatalf("%d actions", len(spec.Actions))
	}
}

// BenchmarkSurvival30 resolves each of the four goals of a 30-action
// survival domain with targets from one snapshot, untraced, on a warm
// resolver: the "500 000 resolves per second per core".
func BenchmarkSurvival30(b *testing.B) {
	spec, targets := survival30()
	d := mustDomain(b, spec)
	s := mustSnapshot(b, d, map[string]int64{"warmth": 20, "hunger": 70, "thirst": 60}, resolver.Point{X: 1, Y: -1}, targets)
	r := resolver.NewResolver(d)
	buf := make([]resolver.ActionID, 0, 16)
	goals := d.Goals()
	expanded := 0
	for _, g := range goals {
		res, err := r.Resolve(buf[:0], s, g, resolver.Options{})
		if err != nil || res.Status != resolver.Found {
			b.Fatalf("%s: %v %v", g.Name(), res.Status, err)
		}
		expanded += res.Expanded
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		r.Resolve(buf[:0], s, goals[n%len(goals)], resolver.Options{})
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "resolves/s")
	b.ReportMetric(float64(expanded)/float64(len(goals)), "expanded/resolve")
}
