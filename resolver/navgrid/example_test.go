package navgrid_test

import (
	"fmt"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/resolver/navgrid"
)

// The survivor's camp, one cell a metre, the agent at the origin: in a
// straight line the south pile (4 m) is nearer than the north one (10 m),
// but a cliff south of the camp makes the walk there 14.83 m, and the
// survivor fetches wood from the north. With the cliff closed off
// entirely, the south pile is unreachable and takes no part.
func ExamplePaths() {
	d, _ := resolver.NewDomain(domains.Survivor())
	snap, _ := d.SnapshotOf(map[string]int64{"warmth": 20}, resolver.Point{X: 0.5, Y: 0.5}, map[string]resolver.Point{
		"fireplace":  {X: 0.5, Y: 2.5},
		"wood_north": {X: 0.5, Y: 10.5},
		"wood_south": {X: 0.5, Y: -3.5},
	})
	// Rows from y = -8 (row 0) to y = 11; x from -8 to 11.
	rows := make([]string, 20)
	for i := range rows {
		rows[i] = "...................."
	}
	rows[8-2] = "...#############...." // the cliff at y = -2, from x = -5 to 7
	grid, err := navgrid.FromRows(rows, navgrid.Layout{Cell: 1, Origin: resolver.Point{X: -8, Y: -8}})
	if err != nil {
		panic(err)
	}
	r := resolver.NewResolver(d)
	for _, model := range []resolver.DistanceModel{resolver.StraightLine{}, navgrid.NewPaths(grid, navgrid.DefaultCache)} {
		res, _ := r.Resolve(nil, snap, d.Goal("Warm"), resolver.Options{Distance: model})
		fmt.Printf("%s, cost %.2f\n", d.FormatChain(res.Chain), res.Cost)
	}
	south, _ := d.Target("wood_south")
	fmt.Printf("to the south pile: %.2f m\n", navgrid.NewPaths(grid, 0).Distance(snap.At, snap.Targets[south].At))

	rows[8-2] = "####################" // the cliff from side to side
	grid, _ = navgrid.FromRows(rows, navgrid.Layout{Cell: 1, Origin: resolver.Point{X: -8, Y: -8}})
	var tr resolver.Trace
	res, _ := r.Resolve(nil, snap, d.Goal("Warm"), resolver.Options{Distance: navgrid.NewFields(grid, 8), Trace: &tr})
	fmt.Printf("%s, cost %.2f\n", d.FormatChain(res.Chain), res.Cost)
	for _, c := range tr.Considered {
		if c.Reason == resolver.Unreachable {
			fmt.Println(d.ActionName(c.Action), c.Reason)
		}
	}
	// Output:
	// GatherWoodSouth → LightFire → WarmUp, cost 9.00
	// GatherWoodNorth → LightFire → WarmUp, cost 13.00
	// to the south pile: 14.83 m
	// GatherWoodNorth → LightFire → WarmUp, cost 13.00
	// GatherWoodSouth unreachable
}
