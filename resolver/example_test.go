package resolver_test

import (
	"fmt"
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
