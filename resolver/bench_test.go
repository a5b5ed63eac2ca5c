package resolver_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/resolver/navgrid"
)

// survival30 is the resolver's benchmark domain: the survivor's 7 actions and
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
// resolver, against the target of 500 000 resolves per second per core.
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

// camp30 is survival30's ground as a grid of half-metre cells, 32 m across
// with the agent's camp in the middle: a stream from west to east with two
// fords, and a hut's walls, so that paths bend round them. Every target stands on
// open ground.
func camp30(b *testing.B, targets map[string]resolver.Point) *navgrid.Grid {
	g, err := navgrid.New(64, 64, navgrid.Layout{Cell: 0.5, Origin: resolver.Point{X: -16, Y: -16}})
	if err != nil {
		b.Fatal(err)
	}
	wall := func(x0, y0, x1, y1 float64) {
		for x := x0; x <= x1; x += 0.5 {
			for y := y0; y <= y1; y += 0.5 {
				if cx, cy, ok := g.Cell(resolver.Point{X: x, Y: y}); ok {
					g.SetWall(cx, cy, true)
				}
			}
		}
	}
	wall(-16, 6, -9, 6)        // the stream, west of the first ford
	wall(-7, 6, 5, 6)          // between the fords
	wall(7.5, 6, 16, 6)        // east of the second
	wall(-1.5, -3, 1.5, -3)    // the hut's north wall
	wall(-1.5, -5.5, -1.5, -3) // and its west wall
	for name, p := range targets {
		if x, y, ok := g.Cell(p); !ok || g.Wall(x, y) {
			b.Fatalf("target %s at %v is not on open ground", name, p)
		}
	}
	return g
}

// BenchmarkSurvival30Paths is BenchmarkSurvival30 with path lengths on
// camp30's grid instead of straight lines: what a navigation query per
// action per resolve costs. Cold: every distance is an A*
// search. Cached: the Paths remembers lengths, and the agent stands on a
// different open cell each resolve, as a crowd's agents would, so the
// walks from the agent are mostly searched and the target-to-target ones
// remembered. Fields: a distance field per target, measured once, then
// look-ups. Straight: straight lines, with the agent moving the same way.
func BenchmarkSurvival30Paths(b *testing.B) {
	spec, targets := survival30()
	d := mustDomain(b, spec)
	g := camp30(b, targets)
	var spots []resolver.Point // every open cell's centre
	for y := range g.Height() {
		for x := range g.Width() {
			if !g.Wall(x, y) {
				spots = append(spots, resolver.Point{X: -16 + 0.5*float64(x) + 0.25, Y: -16 + 0.5*float64(y) + 0.25})
			}
		}
	}
	for _, c := range []struct {
		name  string
		paths *navgrid.Paths
		model resolver.DistanceModel
	}{
		{"straight", nil, resolver.StraightLine{}},
		{"cold", navgrid.NewPaths(g, 0), nil},
		{"cached", navgrid.NewPaths(g, navgrid.DefaultCache), nil},
		{"fields", nil, navgrid.NewFields(g, 64)},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := mustSnapshot(b, d, map[string]int64{"warmth": 20, "hunger": 70, "thirst": 60}, resolver.Point{X: 1, Y: -1}, targets)
			r := resolver.NewResolver(d)
			buf := make([]resolver.ActionID, 0, 16)
			goals := d.Goals()
			opt := resolver.Options{Distance: c.model}
			if c.paths != nil {
				opt.Distance = c.paths
			}
			for _, g := range goals {
				if res, err := r.Resolve(buf[:0], s, g, opt); err != nil || res.Status != resolver.Found {
					b.Fatalf("%s: %v %v", g.Name(), res.Status, err)
				}
			}
			// Warm: the open lists grow to the largest search's size.
			for i := range 256 {
				s.At = spots[(i*7919)%len(spots)]
				r.Resolve(buf[:0], s, goals[i%len(goals)], opt)
			}
			var searches0, expanded0 int
			if c.paths != nil {
				searches0, expanded0 = c.paths.Stats()
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				s.At = spots[(n*7919)%len(spots)]
				r.Resolve(buf[:0], s, goals[n%len(goals)], opt)
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "resolves/s")
			if c.paths != nil {
				searches, expanded := c.paths.Stats()
				b.ReportMetric(float64(searches-searches0)/float64(n), "searches/resolve")
				b.ReportMetric(float64(expanded-expanded0)/float64(n), "cells/resolve")
			}
		})
	}
}

// random200 is a random action graph of 200 actions over 40 boolean and
// 10 integer keys, half the actions at one of 50 targets, with 20 goals:
// wide enough that a resolve weighs many chains.
func random200() (resolver.Spec, []*resolver.Snapshot) {
	r := rand.New(rand.NewPCG(200, 1))
	spec := resolver.Spec{Name: "random200", DistanceCost: 0.1}
	for i := range 40 {
		spec.Keys = append(spec.Keys, resolver.KeySpec{Name: fmt.Sprintf("b%d", i), Kind: resolver.Bool})
	}
	for i := range 10 {
		spec.Keys = append(spec.Keys, resolver.KeySpec{Name: fmt.Sprintf("n%d", i), Kind: resolver.Int})
	}
	cond := func() resolver.Condition { // mostly wanting a flag the world seldom has
		if k := r.IntN(50); k < 40 {
			return resolver.Condition{Key: fmt.Sprintf("b%d", k), Op: resolver.Is, Value: int64(min(1, r.IntN(5)))}
		} else {
			return resolver.Condition{Key: fmt.Sprintf("n%d", k-40), Op: resolver.Op(1 + r.IntN(4)), Value: int64(r.IntN(10))}
		}
	}
	effect := func() resolver.Effect {
		if k := r.IntN(50); k < 40 {
			return resolver.Effect{Key: fmt.Sprintf("b%d", k), Dir: resolver.Direction(1 + r.IntN(2))}
		} else {
			return resolver.Effect{Key: fmt.Sprintf("n%d", k-40), Dir: resolver.Direction(3 + r.IntN(2))}
		}
	}
	for i := range 200 {
		a := resolver.ActionSpec{Name: fmt.Sprintf("A%d", i), Cost: float64(1 + r.IntN(9))}
		for range 1 + r.IntN(3) {
			a.Conditions = append(a.Conditions, cond())
		}
		for range 1 + r.IntN(2) {
			a.Effects = append(a.Effects, effect())
		}
		if r.IntN(2) == 0 {
			a.Target = fmt.Sprintf("t%d", r.IntN(50))
		}
		spec.Actions = append(spec.Actions, a)
	}
	for i := range 20 {
		g := resolver.GoalSpec{Name: fmt.Sprintf("G%d", i)}
		for range 1 + r.IntN(2) {
			g.Conditions = append(g.Conditions, cond())
		}
		spec.Goals = append(spec.Goals, g)
	}
	d, err := resolver.NewDomain(spec)
	if err != nil {
		panic(err)
	}
	var snaps []*resolver.Snapshot
	for range 8 {
		s := d.NewSnapshot()
		for k, ks := range d.Keys() {
			if ks.Kind == resolver.Bool {
				s.Values[k] = int64(r.IntN(5) / 4)
			} else {
				s.Values[k] = int64(r.IntN(10))
			}
		}
		s.At = resolver.Point{X: 100 * r.Float64(), Y: 100 * r.Float64()}
		for t := range s.Targets {
			if r.IntN(10) > 0 {
				s.Targets[t] = resolver.Target{At: resolver.Point{X: 100 * r.Float64(), Y: 100 * r.Float64()}, Found: true}
			}
		}
		snaps = append(snaps, s)
	}
	return spec, snaps
}

// BenchmarkRandom200 resolves, in turn, every (snapshot, goal) of
// random200 that needs a search and ends within the limits, untraced and
// warm, and reports expansions per second.
func BenchmarkRandom200(b *testing.B) {
	spec, snaps := random200()
	d := mustDomain(b, spec)
	r := resolver.NewResolver(d)
	type job struct {
		s *resolver.Snapshot
		g *resolver.Goal
	}
	var jobs []job
	expanded := 0
	for _, s := range snaps {
		for _, g := range d.Goals() {
			// Found or no plan, not a spent budget (whose error allocates).
			if res, err := r.Resolve(nil, s, g, resolver.Options{}); err == nil && res.Expanded > 0 {
				jobs = append(jobs, job{s, g})
				expanded += res.Expanded
			}
		}
	}
	if len(jobs) < 40 {
		b.Fatalf("only %d resolves", len(jobs))
	}
	buf := make([]resolver.ActionID, 0, 16)
	b.ReportAllocs()
	n, exp := 0, 0
	for b.Loop() {
		j := jobs[n%len(jobs)]
		res, _ := r.Resolve(buf[:0], j.s, j.g, resolver.Options{})
		exp += res.Expanded
		n++
	}
	b.ReportMetric(float64(exp)/b.Elapsed().Seconds(), "expansions/s")
	b.ReportMetric(float64(expanded)/float64(len(jobs)), "expanded/resolve")
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "resolves/s")
}
