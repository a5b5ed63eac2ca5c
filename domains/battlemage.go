// Package domains ships the domains of the source lessons (see
// docs/background.md): the battle mage of the GOAP and HTN lessons, the
// soldier of the soldier lesson, and the engine model's survivor and
// shopkeeper. Each is a Go spec here and, once
// loaded from the embedded files, the same domain as data.
package domains

import "github.com/ploy-ai/ploy/goap"

// Battle-mage fact names, in index order.
const (
	InRange        = "in_range"
	InCover        = "in_cover"
	StaffCharged   = "staff_charged"
	SpareCrystals  = "spare_crystals"
	CarryingPotion = "carrying_potion"
	PotionAtShrine = "potion_at_shrine"
	Healthy        = "healthy"
	EnemyDead      = "enemy_dead"
)

// BattleMage returns the GOAP lesson's domain: eight facts, seven actions
// and the goals Kill and GetHealthy, starting from the lesson's default
// state (enemy out of range, empty staff, spare crystals, potion at the
// shrine, healthy).
//
// The lesson states some costs and effects and leaves the rest open. What
// its figures force:
//
//   - Recharge costs 1 in cover and 4 in the open, CastBolt 2 from cover and
//     4 in the open (stated).
//   - Kill from the default state costs 7 via Approach → TakeCover →
//     Recharge → CastBolt, so Approach + TakeCover + 1 + 2 = 7; Recharge,
//     Approach, CastBolt costs 10, so 4 + Approach + 4 = 10. Hence
//     Approach = 2 and TakeCover = 2.
//   - Approach must leave cover: otherwise TakeCover → Recharge → Approach →
//     CastBolt also costs 7 and, reached first, wins the tie.
//   - TakeCover keeps in_range (the plan casts from cover after it).
//   - GetCrystals clears in_cover and in_range (stated: the cache is at the
//     back), which is why it joins the front of the crystals-off plan.
//   - With staff_charged on, Approach → CastBolt (2 + 4) ties with Approach
//     → TakeCover → CastBolt (2 + 2 + 2); the search stops at whichever it
//     reaches first, as the lesson says: the goal state, at f = 6 with
//     h = 0, is taken before the cover path's state of f = 6 and h = 1.
//   - Get healthy gives FetchPotion → TakeCover → DrinkPotion, so drinking
//     in cover must beat drinking in the open by more than TakeCover's 2,
//     and FetchPotion must leave cover (else TakeCover could come first at
//     the same cost): DrinkPotion costs 1 in cover and 4 in the open, like
//     Recharge ("heal in cover" is the lesson's other context-dependent
//     cost).
//
// What is free, and chosen here: GetCrystals and FetchPotion cost 3 (a walk
// to the back of the arena, dearer than the 2 of a step into range or
// cover); Approach needs the mage out of range, TakeCover out of cover,
// CastBolt a living enemy, and FetchPotion empty hands, so that no action
// applies where it would be pointless. CastBolt empties the staff, Recharge
// spends the crystals, DrinkPotion empties the hands.
func BattleMage() goap.Spec {
	inCover := goap.CostRule{When: map[string]bool{InCover: true}, Cost: 1}
	return goap.Spec{
		Name:    "battlemage",
		Facts:   []string{InRange, InCover, StaffCharged, SpareCrystals, CarryingPotion, PotionAtShrine, Healthy, EnemyDead},
		Initial: map[string]bool{SpareCrystals: true, PotionAtShrine: true, Healthy: true},
		Actions: []goap.ActionSpec{
			{
				Name:          "Approach",
				Preconditions: map[string]bool{InRange: false},
				Effects:       map[string]bool{InRange: true, InCover: false},
				Cost:          goap.Const(2),
			},
			{
				Name:          "CastBolt",
				Preconditions: map[string]bool{InRange: true, StaffCharged: true, EnemyDead: false},
				Effects:       map[string]bool{EnemyDead: true, StaffCharged: false},
				Cost:          goap.Rules(4, goap.CostRule{When: map[string]bool{InCover: true}, Cost: 2}),
			},
			{
				Name:          "TakeCover",
				Preconditions: map[string]bool{InCover: false},
				Effects:       map[string]bool{InCover: true},
				Cost:          goap.Const(2),
			},
			{
				Name:          "Recharge",
				Preconditions: map[string]bool{SpareCrystals: true, StaffCharged: false},
				Effects:       map[string]bool{StaffCharged: true, SpareCrystals: false},
				Cost:          goap.Rules(4, inCover),
			},
			{
				Name:          "GetCrystals",
				Preconditions: map[string]bool{SpareCrystals: false},
				Effects:       map[string]bool{SpareCrystals: true, InCover: false, InRange: false},
				Cost:          goap.Const(3),
			},
			{
				Name:          "FetchPotion",
				Preconditions: map[string]bool{PotionAtShrine: true, CarryingPotion: false},
				Effects:       map[string]bool{CarryingPotion: true, PotionAtShrine: false, InCover: false},
				Cost:          goap.Const(3),
			},
			{
				Name:          "DrinkPotion",
				Preconditions: map[string]bool{CarryingPotion: true},
				Effects:       map[string]bool{Healthy: true, CarryingPotion: false},
				Cost:          goap.Rules(4, inCover),
			},
		},
		Goals: []goap.GoalSpec{
			{Name: "Kill", Conditions: map[string]bool{EnemyDead: true}},
			{Name: "GetHealthy", Conditions: map[string]bool{Healthy: true}},
		},
	}
}
