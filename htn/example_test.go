package htn_test

import (
	"fmt"
	"os"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// An HTN domain is built in Go over a GOAP domain's facts and actions.
func ExampleNewDomain() {
	g, _ := goap.NewDomain(goap.Spec{
		Name:  "guard",
		Facts: []string{"heard_noise", "alarm_raised"},
		Actions: []goap.ActionSpec{
			{Name: "Investigate", Preconditions: map[string]bool{"heard_noise": true}, Effects: map[string]bool{"heard_noise": false}, Cost: goap.Const(1)},
			{Name: "RaiseAlarm", Effects: map[string]bool{"alarm_raised": true}, Cost: goap.Const(1)},
			{Name: "Patrol", Cost: goap.Const(1), Effects: map[string]bool{"heard_noise": false}},
		},
	})
	d, err := htn.NewDomain(g, htn.Spec{
		Root: "Guard",
		Tasks: []htn.TaskSpec{{Name: "Guard", Methods: []htn.MethodSpec{
			{Name: "Respond", Conditions: map[string]bool{"heard_noise": true}, Subtasks: []string{"Investigate", "RaiseAlarm"}},
			{Name: "Routine", Subtasks: []string{"Patrol"}},
		}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := htn.NewPlanner(d)
	s := g.NewState()
	noise, _ := g.Fact("heard_noise")
	s.Set(noise, true)
	var res htn.Result
	p.Plan(&res, s, htn.Options{})
	for _, a := range res.Plan {
		fmt.Println(g.ActionName(a))
	}
	fmt.Println("MTR", res.MTR)
	// Output:
	// Investigate
	// RaiseAlarm
	// MTR 1
}

// The battle mage's HTN: the plan, its MTR and the work it took.
func ExamplePlanner_Plan() {
	g, _ := goap.NewDomain(domains.BattleMage())
	d, _ := htn.NewDomain(g, domains.BattleMageHTN())
	p := htn.NewPlanner(d)
	var res htn.Result // reused across plans: no allocation
	s := g.Initial()
	crystals, _ := g.Fact("spare_crystals")
	s.Set(crystals, false)
	p.Plan(&res, s, htn.Options{})
	for i, a := range res.Plan {
		if i > 0 {
			fmt.Print(" → ")
		}
		fmt.Print(g.ActionName(a))
	}
	fmt.Printf("\nMTR %s, %d steps, %d backtracks\n", res.MTR, res.Steps, res.Backtracks)
	// Output:
	// GetCrystals → Approach → TakeCover → Recharge → CastBolt
	// MTR 2, 3, 2, 21 steps, 2 backtracks
}

// Mid-fight the mage is hurt: the patch-up plan comes from a
// higher-priority method, so it replaces the fight.
func ExamplePlanner_Interrupt() {
	g, _ := goap.NewDomain(domains.BattleMage())
	d, _ := htn.NewDomain(g, domains.BattleMageHTN())
	p := htn.NewPlanner(d)
	var fight, res htn.Result
	p.Plan(&fight, g.Initial(), htn.Options{})

	s := g.Initial()
	healthy, _ := g.Fact("healthy")
	s.Set(healthy, false)
	replace, _ := p.Interrupt(&res, fight.MTR, s, htn.Options{})
	fmt.Println("running", fight.MTR, "| new", res.MTR, "| replace:", replace)

	replace, _ = p.Interrupt(&res, fight.MTR, g.Initial(), htn.Options{})
	fmt.Println("running", fight.MTR, "| new", res.MTR, "| replace:", replace)
	// Output:
	// running 2, 2, 2 | new 1, 2, 2 | replace: true
	// running 2, 2, 2 | new 2, 2, 2 | replace: false
}

// A trace shows every step, numbered as the lesson counts them.
func ExampleTrace() {
	g, _ := goap.NewDomain(domains.BattleMage())
	d, _ := htn.NewDomain(g, domains.BattleMageHTN())
	var tr htn.Trace
	var res htn.Result
	htn.NewPlanner(d).Plan(&res, g.Initial(), htn.Options{Trace: &tr})
	tr.WriteText(os.Stdout)
	// Output:
	// decomposition: found, 13 steps, 0 backtracks
	//   1 take BeABattleMage
	//   2   test BeABattleMage method 1 PatchUp: fails
	//   3   test BeABattleMage method 2 Fight: holds, chosen
	//   4   take Fight
	//   5     test Fight method 1 BoltNow: fails
	//   6     test Fight method 2 RechargeInCover: holds, chosen
	//   7     take CloseIn
	//   8       test CloseIn method 1 AlreadyInRange: fails
	//   9       test CloseIn method 2 WalkUp: holds, chosen
	//  10       take Approach: applied
	//  11       take TakeCover: applied
	//  12       take Recharge: applied
	//  13       take CastBolt: applied
}
