package resolver_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// These kill mutants that survived the suite (docs/testing.md): each bound
// is checked at its edge, the largest value accepted and the next one
// refused, where the suite only tried values far past it.

func TestCostBoundsAtTheirEdges(t *testing.T) {
	above := math.Nextafter(resolver.MaxCost, math.Inf(1))
	spec := func(cost, distance float64) resolver.Spec {
		return resolver.Spec{
			Keys:         []resolver.KeySpec{{Name: "a", Kind: resolver.Bool}},
			Actions:      []resolver.ActionSpec{{Name: "A", Effects: []resolver.Effect{resolver.Sets("a", true)}, Cost: cost}},
			Goals:        []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("a")}}},
			DistanceCost: distance,
		}
	}
	for _, c := range []struct {
		cost, distance float64
		ok             bool
	}{
		{resolver.MaxCost, resolver.MaxCost, true},
		{above, 1, false},
		{1, above, false},
		{math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64, true},
		{-math.SmallestNonzeroFloat64, 1, false},
		{1, -math.SmallestNonzeroFloat64, false},
	} {
		_, err := resolver.NewDomain(spec(c.cost, c.distance))
		if (err == nil) != c.ok {
			t.Errorf("cost %g, distance cost %g: %v; want accepted %v", c.cost, c.distance, err, c.ok)
		}
	}
	d := mustDomain(t, spec(1, 0))
	for _, c := range []struct {
		cost float64
		ok   bool
	}{{resolver.MaxCost, true}, {above, false}, {math.SmallestNonzeroFloat64, true}, {0, false}} {
		_, err := d.NewProfile(resolver.ProfileSpec{Costs: map[string]float64{"A": c.cost}})
		if (err == nil) != c.ok {
			t.Errorf("profile cost %g: %v; want accepted %v", c.cost, err, c.ok)
		}
	}
	// A cost function may return MaxCost itself.
	s := spec(1, 0)
	s.Actions[0].CostFunc = func(*resolver.Snapshot) float64 { return resolver.MaxCost }
	d = mustDomain(t, s)
	snap := mustSnapshot(t, d, nil, resolver.Point{}, nil)
	res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal("G"), resolver.Options{})
	if err != nil || res.Cost != resolver.MaxCost {
		t.Errorf("a cost function returning MaxCost: %+v, %v", res, err)
	}
}

// TestStoppingDistanceRefusedEachWay: a negative, NaN or infinite stopping
// distance is each refused on its own, naming the field; zero and a
// positive one with a target are taken.
func TestStoppingDistanceRefusedEachWay(t *testing.T) {
	for _, c := range []struct {
		stop float64
		ok   bool
	}{{-1, false}, {math.NaN(), false}, {math.Inf(1), false}, {math.Inf(-1), false}, {0, true}, {2.5, true}} {
		_, err := resolver.NewDomain(resolver.Spec{
			Keys:    []resolver.KeySpec{{Name: "a", Kind: resolver.Bool}},
			Actions: []resolver.ActionSpec{{Name: "A", Effects: []resolver.Effect{resolver.Sets("a", true)}, Cost: 1, Target: "t", StoppingDistance: c.stop}},
			Goals:   []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("a")}}},
		})
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), "stopping_distance")) {
			t.Errorf("stopping distance %g: %v; want accepted %v", c.stop, err, c.ok)
		}
	}
}

// TestProfileCapabilitiesAcrossWords: a profile's capabilities are a bit
// per action in 64-bit words; each listed action is capable and every
// other is not, on both sides of each word boundary.
func TestProfileCapabilitiesAcrossWords(t *testing.T) {
	for _, n := range []int{63, 64, 65, 128, 129} {
		spec := resolver.Spec{Keys: []resolver.KeySpec{{Name: "a", Kind: resolver.Bool}},
			Goals: []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("a")}}}}
		for i := range n {
			spec.Actions = append(spec.Actions, resolver.ActionSpec{Name: fmt.Sprintf("A%d", i), Effects: []resolver.Effect{resolver.Sets("a", true)}, Cost: float64(1 + i)})
		}
		d := mustDomain(t, spec)
		listed := map[int]bool{}
		var listedNames []string
		for _, i := range []int{0, 62, 63, 64, 65, 100, 127, 128} {
			if i < n {
				listed[i] = true
				listedNames = append(listedNames, fmt.Sprintf("A%d", i))
			}
		}
		prof, err := d.NewProfile(resolver.ProfileSpec{Capabilities: listedNames})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if prof.Capable(resolver.ActionID(i)) != listed[i] {
				t.Errorf("%d actions: Capable(A%d) is %v", n, i, !listed[i])
			}
		}
		// Without A0 (the cheapest), the cheapest capable action serves.
		prof, _ = d.NewProfile(resolver.ProfileSpec{Capabilities: listedNames[1:]})
		snap := mustSnapshot(t, d, nil, resolver.Point{}, nil)
		res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal("G"), resolver.Options{Profile: prof})
		if err != nil || len(res.Chain) != 1 || d.ActionName(res.Chain[0]) != listedNames[1] {
			t.Errorf("%d actions: chain %v, %v; want [%s]", n, names(d, res.Chain), err, listedNames[1])
		}
	}
}

func TestFormatSnapshot(t *testing.T) {
	d := mustDomain(t, resolver.Spec{
		Keys:    []resolver.KeySpec{{Name: "lit", Kind: resolver.Bool}, {Name: "wet", Kind: resolver.Bool}, {Name: "logs", Kind: resolver.Int}},
		Actions: []resolver.ActionSpec{{Name: "A", Effects: []resolver.Effect{resolver.Sets("lit", true)}, Cost: 1}},
		Goals:   []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("lit")}}},
	})
	s := mustSnapshot(t, d, map[string]int64{"lit": 1, "logs": 0}, resolver.Point{}, nil)
	if got := d.FormatSnapshot(s); got != "{lit, logs=0}" {
		t.Errorf("got %s, want {lit, logs=0}", got)
	}
}

// TestTheLargestFiniteCostIsAChain: a chain whose cost rounds to exactly
// the largest float is still a chain; only one past it (+Inf) is not.
func TestTheLargestFiniteCostIsAChain(t *testing.T) {
	d := mustDomain(t, resolver.Spec{
		Keys:    []resolver.KeySpec{{Name: "a", Kind: resolver.Bool}},
		Actions: []resolver.ActionSpec{{Name: "A", Effects: []resolver.Effect{resolver.Sets("a", true)}, Cost: 1, Target: "far"}},
		Goals:   []resolver.GoalSpec{{Name: "G", Conditions: []resolver.Condition{resolver.True("a")}}},
	})
	snap := mustSnapshot(t, d, nil, resolver.Point{}, map[string]resolver.Point{"far": {X: math.MaxFloat64}})
	res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal("G"), resolver.Options{})
	if err != nil || res.Status != resolver.Found || res.Cost != math.MaxFloat64 {
		t.Errorf("%+v, %v; want found at cost MaxFloat64", res, err)
	}
	snap = mustSnapshot(t, d, nil, resolver.Point{X: -math.MaxFloat64}, map[string]resolver.Point{"far": {X: math.MaxFloat64}})
	if res, _ := resolver.NewResolver(d).Resolve(nil, snap, d.Goal("G"), resolver.Options{}); res.Status != resolver.NoPlan {
		t.Errorf("a walk past the float range: %+v; want no chain", res)
	}
}
