package domains

import "github.com/ploy-ai/ploy/htn"

// BattleMageHTN returns the HTN lesson's domain (see docs/background.md)
// over the battle mage's facts and
// actions (BattleMage): six compound tasks, the root's five methods in the
// agent's order of priority.
//
// The lesson names four compound tasks (BeABattleMage, Fight, CloseIn,
// Shelter) and gives their methods; Heal and ChargeStaff are designed here,
// for the root's "patch up" and "make sure the staff is charged". What the
// lesson's figures force:
//
//   - 13 steps and MTR 2, 2, 2 from the default state: take the root (1),
//     test Patch up (2, fails) and Fight (3); take Fight (4), test Bolt now
//     (5, fails) and Recharge in cover (6); take CloseIn (7), test Already in
//     range (8, fails) and Walk up (9); take Approach, TakeCover, Recharge,
//     CastBolt (10 to 13). So the Fight recipes use the primitive TakeCover
//     directly: through Shelter they would cost two more steps and a fourth
//     MTR entry. Recharge in cover's condition is empty (stated), and is
//     tested like any other.
//   - 21 steps and 2 backtracks with spare crystals off: the same 12 steps
//     up to Recharge failing, then out of CloseIn (Walk up is its last
//     method) and out of Recharge in cover, test Restock first (13), then
//     GetCrystals and a second CloseIn (14 to 17) and the four actions (18
//     to 21). So Restock first is Fight's third method, its condition holds
//     here, and it fetches crystals before closing in.
//   - With healthy and potion at shrine off, Patch up's condition still
//     holds but FetchPotion cannot run, and the planner falls through to
//     Fight: so Heal's fallback method (Fetch first) has an empty condition
//     and the failure is FetchPotion's own precondition.
//   - With enemy dead on the agent restocks its potion: the root's third
//     method needs no enemy, only empty hands and a potion at the shrine.
func BattleMageHTN() htn.Spec {
	return htn.Spec{
		Root: "BeABattleMage",
		Tasks: []htn.TaskSpec{
			{Name: "BeABattleMage", Methods: []htn.MethodSpec{
				{Name: "PatchUp", Conditions: map[string]bool{Healthy: false}, Subtasks: []string{"Heal"}},
				{Name: "Fight", Conditions: map[string]bool{EnemyDead: false}, Subtasks: []string{"Fight"}},
				{Name: "RestockPotion", Conditions: map[string]bool{CarryingPotion: false, PotionAtShrine: true}, Subtasks: []string{"FetchPotion"}},
				{Name: "ChargeStaff", Conditions: map[string]bool{StaffCharged: false}, Subtasks: []string{"ChargeStaff"}},
				{Name: "Idle"},
			}},
			{Name: "Fight", Methods: []htn.MethodSpec{
				{Name: "BoltNow", Conditions: map[string]bool{StaffCharged: true}, Subtasks: []string{"CloseIn", "CastBolt"}},
				{Name: "RechargeInCover", Subtasks: []string{"CloseIn", "TakeCover", "Recharge", "CastBolt"}},
				{Name: "RestockFirst", Subtasks: []string{"GetCrystals", "CloseIn", "TakeCover", "Recharge", "CastBolt"}},
			}},
			{Name: "CloseIn", Methods: []htn.MethodSpec{
				{Name: "AlreadyInRange", Conditions: map[string]bool{InRange: true}},
				{Name: "WalkUp", Subtasks: []string{"Approach"}},
			}},
			{Name: "Shelter", Methods: []htn.MethodSpec{
				{Name: "AlreadyInCover", Conditions: map[string]bool{InCover: true}},
				{Name: "DuckIntoCover", Subtasks: []string{"TakeCover"}},
			}},
			{Name: "Heal", Methods: []htn.MethodSpec{
				{Name: "DrinkNow", Conditions: map[string]bool{CarryingPotion: true}, Subtasks: []string{"Shelter", "DrinkPotion"}},
				{Name: "FetchFirst", Subtasks: []string{"FetchPotion", "Shelter", "DrinkPotion"}},
			}},
			{Name: "ChargeStaff", Methods: []htn.MethodSpec{
				{Name: "RechargeInCover", Conditions: map[string]bool{SpareCrystals: true}, Subtasks: []string{"Shelter", "Recharge"}},
				{Name: "RestockFirst", Subtasks: []string{"GetCrystals", "Shelter", "Recharge"}},
			}},
		},
	}
}
