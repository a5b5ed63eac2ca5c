package agent_test

import (
	"fmt"
	"math"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// A resolver agent: the sensor fills a snapshot of the world, target
// sensors say where the targets are, and the game's mover walks the agent
// within each action's stopping distance before the action is performed.
// The item is on a high shelf, so the shopkeeper fetches the ladder; under
// the Reactive policy it resolves again after every step, from the world
// the step left.
func ExampleNewResolverAgent() {
	d, _ := resolver.NewDomain(domains.Shopkeeper())
	world := map[string]int64{} // customer_served, holding_item, can_reach_item, has_ladder
	at := resolver.Point{}
	behaviours := map[string]agent.ResolverBehaviour{}
	for id := range d.NumActions() {
		act := resolver.ActionID(id)
		behaviours[d.ActionName(act)] = agent.ResolverFuncs{TickFunc: func(*agent.ResolverAgent) agent.Status {
			for _, e := range d.Effects(act) { // the game's code would take time
				world[e.Key] = map[resolver.Direction]int64{resolver.SetTrue: 1, resolver.SetFalse: 0}[e.Dir]
			}
			return agent.Success
		}}
	}
	places := map[string]resolver.Point{"counter": {}, "item": {X: 4}, "ladder": {X: 4, Y: 3}}
	targets := map[string]agent.TargetSensor{}
	for name, p := range places {
		targets[name] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(p) }
	}
	keeper, err := agent.NewResolverAgent(agent.ResolverConfig{
		Name:       "keeper",
		Domain:     d,
		Goals:      []agent.ResolverGoal{{Goal: d.Goal("ServeCustomer"), Priority: 1}},
		Behaviours: behaviours,
		Sensor: func(_ *agent.ResolverAgent, s *resolver.Snapshot) {
			for name, v := range world {
				k, _ := d.Key(name)
				s.Values[k] = v
			}
			s.At = at
		},
		Targets: targets,
		// Walk two metres a tick, straight there.
		Mover: agent.MoverFunc(func(to resolver.Point, stop float64) agent.MoveStatus {
			dist := math.Hypot(to.X-at.X, to.Y-at.Y)
			step := math.Min(2, math.Max(dist-stop, 0))
			if step > 0 {
				at.X += (to.X - at.X) / dist * step
				at.Y += (to.Y - at.Y) / dist * step
			}
			if dist-step <= stop+1e-9 {
				return agent.Arrived
			}
			return agent.Moving
		}),
		Policy: agent.Policy{Kind: agent.Reactive},
		OnEvent: func(e agent.Event) {
			switch e.Kind {
			case agent.PlanMade:
				fmt.Printf("%d chain %v cost %.1f\n", e.Tick, e.Plan, e.Cost)
			case agent.TargetReached:
				fmt.Printf("%d at (%.1f,%.1f) for %s\n", e.Tick, at.X, at.Y, e.Action)
			case agent.StepDone:
				fmt.Println(e.Tick, "done", e.Action)
			}
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 12 {
		keeper.Tick()
	}
	// Output:
	// 1 chain [FetchLadder PlaceLadder TakeItem HandOver] cost 18.0
	// 2 at (3.2,2.4) for FetchLadder
	// 2 done FetchLadder
	// 3 chain [PlaceLadder TakeItem HandOver] cost 10.5
	// 3 at (3.7,0.9) for PlaceLadder
	// 3 done PlaceLadder
	// 4 chain [TakeItem HandOver] cost 7.0
	// 4 at (3.7,0.9) for TakeItem
	// 4 done TakeItem
	// 5 chain [HandOver] cost 4.8
	// 6 at (1.0,0.2) for HandOver
	// 6 done HandOver
}
