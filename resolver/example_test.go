package resolver_test

import (
	"fmt"
	"math"
	"os"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// The survivor is cold, and there is wood to the north and to the south:
// it gathers from the nearer pile, lights the fire and warms up.
func ExampleResolver_Resolve() {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		panic(err)
	}
	snap, err := d.SnapshotOf(
		map[string]int64{"warmth": 20, "hunger": 10},
		resolver.Point{X: 0, Y: 0},
		map[string]resolver.Point{"fireplace": {X: 0, Y: 2}, "wood_north": {X: 0, Y: 10}, "wood_south": {X: 0, Y: -4}},
	)
	if err != nil {
		panic(err)
	}
	res, err := resolver.NewResolver(d).Resolve(nil, snap, d.Goal("Warm"), resolver.Options{})
	fmt.Println(res.Status, d.FormatChain(res.Chain), res.Cost, err)
	// Output:
	// found GatherWoodSouth → LightFire → WarmUp 9 <nil>
}

// The same resolve carried out one expansion a frame, as a game with a
// per-frame budget would: it is suspended at the end of each slice and
// goes on where it stopped, and ends as the whole resolve does.
func ExampleResolver_Continue() {
	d, _ := resolver.NewDomain(domains.Survivor())
	snap, _ := d.SnapshotOf(
		map[string]int64{"warmth": 20, "hunger": 10},
		resolver.Point{X: 0, Y: 0},
		map[string]resolver.Point{"fireplace": {X: 0, Y: 2}, "wood_north": {X: 0, Y: 10}, "wood_south": {X: 0, Y: -4}},
	)
	r := resolver.NewResolver(d)
	r.Begin(nil, snap, d.Goal("Warm"), resolver.Options{})
	frames := 1
	for !r.Continue(1) {
		frames++
	}
	res, err := r.Result()
	fmt.Println(frames, "frames:", res.Status, d.FormatChain(res.Chain), res.Cost, res.Expanded, err)
	// Output:
	// 3 frames: found GatherWoodSouth → LightFire → WarmUp 9 3 <nil>
}

// A resolve traced: every action considered in front of every chain, and
// what became of it.
func ExampleTrace() {
	d, _ := resolver.NewDomain(domains.Shopkeeper())
	snap, _ := d.SnapshotOf(nil, resolver.Point{}, map[string]resolver.Point{"counter": {}, "item": {X: 4}, "ladder": {X: 4, Y: 3}})
	var tr resolver.Trace
	resolver.NewResolver(d).Resolve(nil, snap, d.Goal("ServeCustomer"), resolver.Options{Trace: &tr})
	tr.WriteText(os.Stdout)
	// Output:
	// resolve ServeCustomer: 4 expanded, 4 chains
	// 1. goal ServeCustomer (cost 0)
	//    HandOver    serves customer_served: conditions unmet (holding_item), cost 1
	// 2. HandOver → ServeCustomer (cost 1)
	//    TakeItem    serves holding_item: conditions unmet (can_reach_item), cost 6
	// 3. TakeItem → HandOver → ServeCustomer (cost 6)
	//    PlaceLadder serves can_reach_item: conditions unmet (has_ladder), cost 8
	// 4. PlaceLadder → TakeItem → HandOver → ServeCustomer (cost 8)
	//    FetchLadder serves has_ladder: candidate, cost 18
	// chosen: FetchLadder → PlaceLadder → TakeItem → HandOver, cost 18
}

// Two kinds of survivor share one domain and its one action graph: a
// profile is a capabilities mask and cost overrides. One who cannot forage
// hunts; one who dislikes foraging prices it dearer, and hunts too.
func ExampleDomain_NewProfile() {
	d, _ := resolver.NewDomain(domains.Survivor())
	snap, _ := d.SnapshotOf(map[string]int64{"warmth": 60, "hunger": 70}, resolver.Point{},
		map[string]resolver.Point{"berries": {X: 5}, "deer": {X: 2}})
	r := resolver.NewResolver(d)
	for _, spec := range []resolver.ProfileSpec{
		{},
		{Capabilities: []string{"Hunt", "Eat"}},
		{Costs: map[string]float64{"Forage": 4}},
	} {
		prof, err := d.NewProfile(spec)
		if err != nil {
			panic(err)
		}
		res, _ := r.Resolve(nil, snap, d.Goal("Fed"), resolver.Options{Profile: prof})
		fmt.Println(d.FormatChain(res.Chain), res.Cost)
	}
	_, err := d.NewProfile(resolver.ProfileSpec{Capabilities: []string{"Forge"}})
	fmt.Println(err)
	// Output:
	// Forage → Eat 6.5
	// Hunt → Eat 7
	// Hunt → Eat 7
	// resolver: capabilities[0]: unknown action "Forge"; did you mean "Forage"?
}

// The action graph is computed when the domain is built: for every
// condition of every goal and action, the actions whose effect serves it.
// Edges lists it whole, Servers one condition's, and Unserved what no
// action serves (lint's finding).
func ExampleDomain_Edges() {
	d, _ := resolver.NewDomain(domains.Survivor())
	for _, e := range d.Edges() {
		if e.To == resolver.NoAction {
			g := d.Goals()[e.Goal]
			fmt.Printf("%s serves goal %s's %v\n", d.ActionName(e.From), g.Name(), g.Conditions()[e.Condition])
		} else {
			fmt.Printf("%s serves %s's %v\n", d.ActionName(e.From), d.ActionName(e.To), d.Conditions(e.To)[e.Condition])
		}
	}
	light, _ := d.ActionByName("LightFire")
	fmt.Println("has_wood:", d.FormatChain(d.Servers(light, 0)))
	for _, u := range d.Unserved() {
		fmt.Printf("unserved: %s's %v\n", d.ActionName(u.Action), d.Conditions(u.Action)[u.Condition])
	}
	// Output:
	// WarmUp serves goal Warm's warmth >= 50
	// Eat serves goal Fed's hunger <= 30
	// GatherWoodNorth serves LightFire's has_wood
	// GatherWoodSouth serves LightFire's has_wood
	// LightFire serves WarmUp's fire_lit
	// Forage serves Eat's has_food
	// Hunt serves Eat's has_food
	// has_wood: GatherWoodNorth → GatherWoodSouth
	// unserved: LightFire's !fire_lit
}

// cityBlocks is a DistanceModel for a town of square blocks: the walk is
// the Manhattan distance. It is not negative and obeys the triangle
// inequality, as the resolver's least-cost guarantee needs.
type cityBlocks struct{}

func (cityBlocks) Distance(from, to resolver.Point) float64 {
	return math.Abs(to.X-from.X) + math.Abs(to.Y-from.Y)
}

// A distance model decides what a walk costs. In a straight line the
// south-east pile is nearer; walking round the blocks, the north one.
// navgrid has path lengths on a grid with walls (see navgrid.ExamplePaths).
func ExampleDistanceModel() {
	d, _ := resolver.NewDomain(domains.Survivor())
	snap, _ := d.SnapshotOf(map[string]int64{"warmth": 20}, resolver.Point{}, map[string]resolver.Point{
		"fireplace": {X: 0, Y: 2}, "wood_north": {X: 0, Y: 8}, "wood_south": {X: 4, Y: -4},
	})
	r := resolver.NewResolver(d)
	for _, model := range []resolver.DistanceModel{nil, cityBlocks{}} {
		res, _ := r.Resolve(nil, snap, d.Goal("Warm"), resolver.Options{Distance: model})
		fmt.Printf("%s, cost %.2f\n", d.FormatChain(res.Chain), res.Cost)
	}
	// Output:
	// GatherWoodSouth → LightFire → WarmUp, cost 10.43
	// GatherWoodNorth → LightFire → WarmUp, cost 11.00
}
