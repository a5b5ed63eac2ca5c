package htn_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
	"github.com/ploy-ai/ploy/search"
)

func battleMage(t testing.TB) *htn.Domain {
	t.Helper()
	g, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	d, err := htn.NewDomain(g, domains.BattleMageHTN())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestLessonFigures(t *testing.T) {
	d := battleMage(t)
	g := d.GOAP()
	p := htn.NewPlanner(d)
	for _, tc := range []struct {
		name       string
		toggles    []string
		plan       []string
		steps      int
		backtracks int
		mtr        string
	}{
		{"default", nil, []string{"Approach", "TakeCover", "Recharge", "CastBolt"}, 13, 0, "2, 2, 2"},
		{"crystals off", []string{"!spare_crystals"}, []string{"GetCrystals", "Approach", "TakeCover", "Recharge", "CastBolt"}, 21, 2, "2, 3, 2"},
		{"healthy off", []string{"!healthy"}, []string{"FetchPotion", "TakeCover", "DrinkPotion"}, 11, 0, "1, 2, 2"},
		{"no potion anywhere", []string{"!healthy", "!potion_at_shrine"}, []string{"Approach", "TakeCover", "Recharge", "CastBolt"}, -1, 2, "2, 2, 2"},
		{"staff charged", []string{"staff_charged"}, []string{"Approach", "CastBolt"}, -1, 0, "2, 1, 2"},
		{"enemy dead", []string{"enemy_dead"}, []string{"FetchPotion"}, -1, 0, "3"},
	} {
		var res htn.Result
		if err := p.Plan(&res, fixture.StateWith(t, g, tc.toggles...), htn.Options{}); err != nil || res.Status != htn.Found {
			t.Fatalf("%s: %v %v", tc.name, res.Status, err)
		}
		if got := fixture.Names(g, res.Plan); !slices.Equal(got, tc.plan) {
			t.Errorf("%s: plan %v, want %v", tc.name, got, tc.plan)
		}
		if tc.steps >= 0 && res.Steps != tc.steps {
			t.Errorf("%s: %d steps, want %d", tc.name, res.Steps, tc.steps)
		}
		if res.Backtracks != tc.backtracks || res.MTR.String() != tc.mtr {
			t.Errorf("%s: %d backtracks, MTR %s; want %d, %s", tc.name, res.Backtracks, res.MTR, tc.backtracks, tc.mtr)
		}
		t.Logf("%s: %v, %d steps, %d backtracks, MTR %s", tc.name, fixture.Names(g, res.Plan), res.Steps, res.Backtracks, res.MTR)
	}
}

// TestCrystalsOffBacktracksInLessonOrder checks the order the lesson gives:
// out of CloseIn first, then out of Recharge in cover.
func TestCrystalsOffBacktracksInLessonOrder(t *testing.T) {
	d := battleMage(t)
	p := htn.NewPlanner(d)
	var tr htn.Trace
	var res htn.Result
	p.Plan(&res, fixture.StateWith(t, d.GOAP(), "!spare_crystals"), htn.Options{Trace: &tr})
	var outOf []string
	for _, s := range tr.Steps {
		if s.Kind == htn.Backtrack {
			outOf = append(outOf, d.TaskName(s.Task)+"."+d.MethodName(s.Task, int(s.Method)))
		}
	}
	if want := []string{"CloseIn.WalkUp", "Fight.RechargeInCover"}; !slices.Equal(outOf, want) {
		t.Errorf("backtracked out of %v, want %v", outOf, want)
	}
	var sb strings.Builder
	tr.WriteText(&sb)
	if !strings.Contains(sb.String(), " 12       take Recharge: preconditions unmet, fails\n") {
		t.Errorf("trace lacks the failing Recharge at step 12:\n%s", sb.String())
	}
}

func TestInterruptions(t *testing.T) {
	d := battleMage(t)
	g := d.GOAP()
	p := htn.NewPlanner(d)
	var fight htn.Result
	p.Plan(&fight, g.Initial(), htn.Options{})
	running := slices.Clone(fight.MTR) // 2, 2, 2

	// Mid-fight, after Approach, the mage drops below healthy: Patch up (1)
	// beats Fight (2).
	hurt := fixture.StateWith(t, g, "in_range", "!healthy")
	var res htn.Result
	replace, err := p.Interrupt(&res, running, hurt, htn.Options{})
	if err != nil || !replace || res.MTR[0] != 1 {
		t.Fatalf("hurt mid-fight: replace %v MTR %s err %v; want Patch up to win", replace, res.MTR, err)
	}
	if got := fixture.Names(g, res.Plan); !slices.Equal(got, []string{"FetchPotion", "TakeCover", "DrinkPotion"}) {
		t.Errorf("patch-up plan %v", got)
	}

	// A replan that finds the same fight from the same methods is refused:
	// found, with the running MTR, and not taken. (A replan that found
	// nothing would not be taken either; that is not what is checked here.)
	replace, err = p.Interrupt(&res, running, g.Initial(), htn.Options{})
	if err != nil || res.Status != htn.Found || res.MTR.String() != "2, 2, 2" || replace {
		t.Errorf("same fight: replace %v status %v MTR %s err %v; want found 2, 2, 2 and refused", replace, res.Status, res.MTR, err)
	}
	// Once the staff is charged, Bolt now (2, 1, ...) beats Recharge in
	// cover: the same job from a better recipe.
	charged := fixture.StateWith(t, g, "in_range", "in_cover", "staff_charged", "!spare_crystals")
	replace, err = p.Interrupt(&res, running, charged, htn.Options{})
	if err != nil || !replace || res.MTR.String() != "2, 1, 1" {
		t.Errorf("charged staff: replace %v MTR %s err %v, want the Bolt now plan 2, 1, 1 to win", replace, res.MTR, err)
	}
	// Running Bolt now, a replan that can only recharge in cover (a lower
	// method, 2, 2, 1: already in range) is found and refused.
	bolt := htn.MTR{2, 1, 1}
	replace, err = p.Interrupt(&res, bolt, fixture.StateWith(t, g, "in_range"), htn.Options{})
	if err != nil || res.Status != htn.Found || res.MTR.String() != "2, 2, 1" || replace {
		t.Errorf("lower-priority plan: replace %v status %v MTR %s err %v; want found 2, 2, 1 and refused", replace, res.Status, res.MTR, err)
	}
	// A replan stopped by the step limit is refused, however low the
	// running plan's priority, and says why.
	replace, err = p.Interrupt(&res, htn.MTR{9}, hurt, htn.Options{MaxSteps: 5})
	if !errors.Is(err, htn.ErrStepLimit) || replace {
		t.Errorf("step limit: replace %v err %v; want refused with the step limit", replace, err)
	}
}

func TestMTRCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b htn.MTR
		want int
	}{
		{htn.MTR{1, 2, 2}, htn.MTR{2, 2, 2}, -1},
		{htn.MTR{2, 1, 2}, htn.MTR{2, 2, 1}, -1},
		{htn.MTR{2, 2, 2}, htn.MTR{2, 2, 2}, 0},
		{htn.MTR{2, 2}, htn.MTR{2, 2, 1}, -1},
		{htn.MTR{3}, htn.MTR{2, 9, 9}, 1},
		{nil, htn.MTR{1}, -1},
	} {
		if got := tc.a.Compare(tc.b); got != tc.want {
			t.Errorf("%v vs %v: %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestStepLimit(t *testing.T) {
	d := battleMage(t)
	p := htn.NewPlanner(d)
	var res htn.Result
	err := p.Plan(&res, fixture.StateWith(t, d.GOAP(), "!spare_crystals"), htn.Options{MaxSteps: 15})
	var sl *htn.StepLimitError
	if !errors.Is(err, htn.ErrStepLimit) || !errors.As(err, &sl) || sl.Root != "BeABattleMage" || res.Status != htn.LimitReached || res.Bound != search.Steps || len(res.Plan) != 0 || res.Steps != 15 {
		t.Fatalf("status %v steps %d plan %v err %v: want the step limit at 15 and no plan", res.Status, res.Steps, res.Plan, err)
	}
	if err := p.Plan(&res, fixture.StateWith(t, d.GOAP(), "!spare_crystals"), htn.Options{MaxSteps: 21}); err != nil || res.Status != htn.Found {
		t.Fatalf("with exactly 21 steps allowed: %v %v", res.Status, err)
	}
}

func TestWarmPlannerAllocatesNothing(t *testing.T) {
	d := battleMage(t)
	p := htn.NewPlanner(d)
	for _, s := range []goap.State{d.GOAP().Initial(), fixture.StateWith(t, d.GOAP(), "!spare_crystals"), fixture.StateWith(t, d.GOAP(), "!healthy", "!potion_at_shrine")} {
		var res htn.Result
		p.Plan(&res, s, htn.Options{})
		if allocs := testing.AllocsPerRun(50, func() { p.Plan(&res, s, htn.Options{}) }); allocs != 0 {
			t.Errorf("%v allocations per warm decomposition", allocs)
		}
	}
}
