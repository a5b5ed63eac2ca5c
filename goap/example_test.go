package goap_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/search"
)

// A domain is facts, actions with preconditions, effects and costs, and
// goals. Build it once, then plan with it from any state.
func ExampleNewDomain() {
	d, err := goap.NewDomain(goap.Spec{
		Name:    "woodcutter",
		Facts:   []string{"has_axe", "has_wood", "axe_in_shed"},
		Initial: map[string]bool{"axe_in_shed": true},
		Actions: []goap.ActionSpec{
			{Name: "FetchAxe", Preconditions: map[string]bool{"axe_in_shed": true}, Effects: map[string]bool{"has_axe": true, "axe_in_shed": false}, Cost: goap.Const(2)},
			{Name: "ChopTree", Preconditions: map[string]bool{"has_axe": true}, Effects: map[string]bool{"has_wood": true}, Cost: goap.Const(4)},
			{Name: "GatherBranches", Effects: map[string]bool{"has_wood": true}, Cost: goap.Const(8)},
		},
		Goals: []goap.GoalSpec{{Name: "GetWood", Conditions: map[string]bool{"has_wood": true}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := goap.NewPlanner(d)
	res, _ := p.Plan(nil, d.Initial(), d.Goal("GetWood"), goap.Options{})
	for _, a := range res.Plan {
		fmt.Println(d.ActionName(a))
	}
	fmt.Println("cost", res.Cost)
	// Output:
	// FetchAxe
	// ChopTree
	// cost 6
}

// The GOAP lesson's battle mage: nobody wrote this sequence; recharging in
// cover is cheap, so the planner walks up and takes cover first.
func ExamplePlanner_Plan() {
	d, _ := goap.NewDomain(domains.BattleMage())
	p := goap.NewPlanner(d)
	plan := make([]goap.ActionID, 0, 8) // reused across plans: no allocation
	res, err := p.Plan(plan, d.Initial(), d.Goal("Kill"), goap.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Cost)
	for _, a := range res.Plan {
		fmt.Println(d.ActionName(a))
	}
	// Output:
	// found 7
	// Approach
	// TakeCover
	// Recharge
	// CastBolt
}

// Backward search regresses from the goal, like Orkin's planner, and
// returns the same optimal cost.
func ExamplePlanner_Plan_backward() {
	d, _ := goap.NewDomain(domains.BattleMage())
	p := goap.NewPlanner(d)
	res, _ := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: goap.Backward, Heuristic: goap.HMax})
	fmt.Println(res.Cost, len(res.Plan), "steps")
	// Output: 7 4 steps
}

// No plan is an answer, not an error; a spent budget is an error naming the
// goal.
func ExamplePlanner_Plan_outcomes() {
	d, _ := goap.NewDomain(domains.BattleMage())
	p := goap.NewPlanner(d)
	s := d.Initial()
	healthy, _ := d.Fact("healthy")
	shrine, _ := d.Fact("potion_at_shrine")
	s.Set(healthy, false)
	s.Set(shrine, false)
	res, err := p.Plan(nil, s, d.Goal("GetHealthy"), goap.Options{})
	fmt.Println(res.Status, res.Expanded, "states exhausted, error:", err)

	_, err = p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Limits: search.Limits{Budget: 3}})
	fmt.Println(errors.Is(err, goap.ErrBudgetExhausted), err)
	// Output:
	// no_plan 26 states exhausted, error: <nil>
	// true goap: goal "Kill": node budget of 3 states exhausted
}

// A profile changes what one kind of agent can do and what things cost to
// it, without rebuilding the domain: the defensive soldier.
func ExampleDomain_NewProfile() {
	d, _ := goap.NewDomain(domains.Soldier())
	defensive, _ := d.NewProfile(domains.DefensiveSoldier())
	p := goap.NewPlanner(d)
	for _, prof := range []*goap.Profile{nil, defensive} {
		res, _ := p.Plan(nil, d.Initial(), d.Goal("KillPlayer"), goap.Options{Profile: prof})
		for _, a := range res.Plan {
			fmt.Print(d.ActionName(a), " → ")
		}
		fmt.Println(res.Cost)
	}
	// Output:
	// PickUpGun → ApproachPlayer → AttackRanged → 9
	// PickUpAxe → ApproachPlayer → AttackMelee → 10
}

// A trace records every expansion and what each action did there. With the
// lessons' goal-count heuristic, h is the number of goal facts still false.
func ExampleTrace() {
	d, _ := goap.NewDomain(domains.BattleMage())
	p := goap.NewPlanner(d)
	var tr goap.Trace
	s := d.Initial()
	charged, _ := d.Fact("staff_charged")
	s.Set(charged, true)
	p.Plan(nil, s, d.Goal("Kill"), goap.Options{Heuristic: goap.GoalCount, Trace: &tr, Limits: search.Limits{MaxDepth: 2}})
	tr.WriteText(os.Stdout)
	// Output:
	// forward search for Kill: found, cost 6, 5 expanded, 9 nodes
	// 1. #0 {staff_charged, spare_crystals, potion_at_shrine, healthy} g=0 h=1 f=1
	//    Approach    -> #1 g=2 h=1 f=3
	//    CastBolt    x preconditions unmet
	//    TakeCover   -> #2 g=2 h=1 f=3
	//    Recharge    x preconditions unmet
	//    GetCrystals x preconditions unmet
	//    FetchPotion -> #3 g=3 h=1 f=4
	//    DrinkPotion x preconditions unmet
	// 2. #1 {in_range, staff_charged, spare_crystals, potion_at_shrine, healthy} g=2 h=1 f=3 via Approach from #0
	//    Approach    x preconditions unmet
	//    CastBolt    -> #4 g=6 h=0 f=6
	//    TakeCover   -> #5 g=4 h=1 f=5
	//    Recharge    x preconditions unmet
	//    GetCrystals x preconditions unmet
	//    FetchPotion -> #6 g=5 h=1 f=6
	//    DrinkPotion x preconditions unmet
	// 3. #2 {in_cover, staff_charged, spare_crystals, potion_at_shrine, healthy} g=2 h=1 f=3 via TakeCover from #0
	//    Approach    x not cheaper
	//    CastBolt    x preconditions unmet
	//    TakeCover   x preconditions unmet
	//    Recharge    x preconditions unmet
	//    GetCrystals x preconditions unmet
	//    FetchPotion x not cheaper
	//    DrinkPotion x preconditions unmet
	// 4. #3 {staff_charged, spare_crystals, carrying_potion, healthy} g=3 h=1 f=4 via FetchPotion from #0
	//    Approach    x not cheaper
	//    CastBolt    x preconditions unmet
	//    TakeCover   -> #7 g=5 h=1 f=6
	//    Recharge    x preconditions unmet
	//    GetCrystals x preconditions unmet
	//    FetchPotion x preconditions unmet
	//    DrinkPotion -> #8 g=7 h=1 f=8
	// 5. #5 {in_range, in_cover, staff_charged, spare_crystals, potion_at_shrine, healthy} g=4 h=1 f=5 via TakeCover from #1
	//    Approach    x preconditions unmet
	//    CastBolt    x over the depth limit
	//    TakeCover   x preconditions unmet
	//    Recharge    x preconditions unmet
	//    GetCrystals x preconditions unmet
	//    FetchPotion x over the depth limit
	//    DrinkPotion x preconditions unmet
	// goal: #4 {in_range, spare_crystals, potion_at_shrine, healthy, enemy_dead} g=6
}

// A cost can depend on the state the action is applied in: as data, an
// ordered list of rules with a default, exact in both search directions; or
// as Go code, with a declared minimum, for forward search.
func ExampleRules() {
	d, _ := goap.NewDomain(goap.Spec{
		Name:    "recharge",
		Facts:   []string{"in_cover", "charged"},
		Initial: map[string]bool{},
		Actions: []goap.ActionSpec{
			{Name: "TakeCover", Preconditions: map[string]bool{"in_cover": false}, Effects: map[string]bool{"in_cover": true}, Cost: goap.Const(2)},
			{Name: "Recharge", Effects: map[string]bool{"charged": true},
				Cost: goap.Rules(4, goap.CostRule{When: map[string]bool{"in_cover": true}, Cost: 1})},
		},
		Goals: []goap.GoalSpec{{Name: "Charge", Conditions: map[string]bool{"charged": true}}},
	})
	p := goap.NewPlanner(d)
	for _, search := range []goap.Search{goap.Forward, goap.Backward} {
		res, _ := p.Plan(nil, d.Initial(), d.Goal("Charge"), goap.Options{Search: search})
		fmt.Println(search, d.ActionName(res.Plan[0]), d.ActionName(res.Plan[1]), "cost", res.Cost)
	}
	// Taking cover first (2) makes recharging cost 1 instead of 4.

	// Output:
	// forward TakeCover Recharge cost 3
	// backward TakeCover Recharge cost 3
}
