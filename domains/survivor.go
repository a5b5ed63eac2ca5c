package domains

import "github.com/ploy-ai/ploy/resolver"

// Survivor returns the engine model's survivor (see docs/background.md),
// "who lights a fire because it is cold and there is wood": integer keys
// the world supplies (warmth, hunger), directional conditions and effects,
// and targets whose distances enter the cost.
//
// The engine model names the situation, not the numbers; these are chosen
// so that each of its points shows:
//   - Warm (warmth >= 50) is served by WarmUp (increases warmth, at the
//     fireplace), which needs fire_lit; LightFire (at the fireplace) needs
//     has_wood; two wood piles, north and south, each with its own
//     GatherWood action of the same cost. The chain is GatherWood →
//     LightFire → WarmUp, and the nearer pile wins on distance alone.
//   - Fed (hunger <= 30) is served by Eat (decreases hunger, done where the
//     survivor stands), which needs has_food: Forage at the berry bushes
//     (cost 3) or Hunt at the deer (cost 5, and only for a survivor who
//     can hunt: a capability).
//   - Costs are minutes; distances are metres, walked at DistanceCost 0.5
//     minutes a metre.
func Survivor() resolver.Spec {
	return resolver.Spec{
		Name: "survivor",
		Keys: []resolver.KeySpec{
			{Name: "warmth", Kind: resolver.Int},
			{Name: "hunger", Kind: resolver.Int},
			{Name: "has_wood", Kind: resolver.Bool},
			{Name: "fire_lit", Kind: resolver.Bool},
			{Name: "has_food", Kind: resolver.Bool},
		},
		Actions: []resolver.ActionSpec{
			{Name: "GatherWoodNorth", Effects: []resolver.Effect{resolver.Sets("has_wood", true)}, Cost: 2, Target: "wood_north", StoppingDistance: 1},
			{Name: "GatherWoodSouth", Effects: []resolver.Effect{resolver.Sets("has_wood", true)}, Cost: 2, Target: "wood_south", StoppingDistance: 1},
			{
				Name:       "LightFire",
				Conditions: []resolver.Condition{resolver.True("has_wood"), resolver.False("fire_lit")},
				Effects:    []resolver.Effect{resolver.Sets("fire_lit", true), resolver.Sets("has_wood", false)},
				Cost:       1, Target: "fireplace", StoppingDistance: 1,
			},
			{
				Name:       "WarmUp",
				Conditions: []resolver.Condition{resolver.True("fire_lit")},
				Effects:    []resolver.Effect{resolver.Raises("warmth")},
				Cost:       1, Target: "fireplace", StoppingDistance: 2,
			},
			{Name: "Forage", Effects: []resolver.Effect{resolver.Sets("has_food", true)}, Cost: 3, Target: "berries", StoppingDistance: 1},
			{Name: "Hunt", Effects: []resolver.Effect{resolver.Sets("has_food", true)}, Cost: 5, Target: "deer", StoppingDistance: 10, Move: resolver.PerformWhileMoving},
			{
				Name:       "Eat",
				Conditions: []resolver.Condition{resolver.True("has_food")},
				Effects:    []resolver.Effect{resolver.Lowers("hunger"), resolver.Sets("has_food", false)},
				Cost:       1,
			},
		},
		Goals: []resolver.GoalSpec{
			{Name: "Warm", Conditions: []resolver.Condition{resolver.AtLeastOf("warmth", 50)}},
			{Name: "Fed", Conditions: []resolver.Condition{resolver.AtMostOf("hunger", 30)}},
		},
		DistanceCost: 0.5,
	}
}

// Shopkeeper returns the engine model's shopkeeper, "who fetches a ladder
// because the thing you asked for is on a high shelf". The world's sensor
// decides can_reach_item from the item's shelf and the shopkeeper's reach:
// on a low shelf the chain is TakeItem → HandOver; on a high one TakeItem
// cannot be the head, and the chain grows FetchLadder → PlaceLadder in
// front.
func Shopkeeper() resolver.Spec {
	return resolver.Spec{
		Name: "shopkeeper",
		Keys: []resolver.KeySpec{
			{Name: "customer_served", Kind: resolver.Bool},
			{Name: "holding_item", Kind: resolver.Bool},
			{Name: "can_reach_item", Kind: resolver.Bool},
			{Name: "has_ladder", Kind: resolver.Bool},
		},
		Actions: []resolver.ActionSpec{
			{
				Name:       "HandOver",
				Conditions: []resolver.Condition{resolver.True("holding_item")},
				Effects:    []resolver.Effect{resolver.Sets("customer_served", true), resolver.Sets("holding_item", false)},
				Cost:       1, Target: "counter", StoppingDistance: 1,
			},
			{
				Name:       "TakeItem",
				Conditions: []resolver.Condition{resolver.True("can_reach_item")},
				Effects:    []resolver.Effect{resolver.Sets("holding_item", true)},
				Cost:       1, Target: "item", StoppingDistance: 1,
			},
			{
				Name:       "PlaceLadder",
				Conditions: []resolver.Condition{resolver.True("has_ladder")},
				Effects:    []resolver.Effect{resolver.Sets("can_reach_item", true), resolver.Sets("has_ladder", false)},
				Cost:       2, Target: "item", StoppingDistance: 1,
			},
			{Name: "FetchLadder", Effects: []resolver.Effect{resolver.Sets("has_ladder", true)}, Cost: 2, Target: "ladder", StoppingDistance: 1},
		},
		Goals: []resolver.GoalSpec{
			{Name: "ServeCustomer", Conditions: []resolver.Condition{resolver.True("customer_served")}},
		},
	}
}
