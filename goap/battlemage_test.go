package goap_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
)

func mustDomain(t testing.TB, spec goap.Spec) *goap.Domain {
	t.Helper()
	d, err := goap.NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func actionIDs(t testing.TB, d *goap.Domain, names ...string) []goap.ActionID {
	t.Helper()
	var out []goap.ActionID
	for _, n := range names {
		a, ok := d.ActionByName(n)
		if !ok {
			t.Fatalf("no action %q", n)
		}
		out = append(out, a)
	}
	return out
}

// simulate runs plan from s, checking every precondition, and returns the
// final state and total cost under the domain's own costs.
func simulate(t testing.TB, d *goap.Domain, prof *goap.Profile, s goap.State, plan []goap.ActionID) (goap.State, float64) {
	t.Helper()
	s = s.Clone()
	total := 0.0
	for i, a := range plan {
		if !d.Applicable(a, s) {
			t.Fatalf("step %d: %s does not apply in %s", i+1, d.ActionName(a), d.FormatState(s))
		}
		if prof != nil {
			if !prof.Capable(a) {
				t.Fatalf("step %d: %s is not capable", i+1, d.ActionName(a))
			}
			total += prof.CostIn(a, s)
		} else {
			total += d.CostIn(a, s)
		}
		d.Apply(a, s)
	}
	return s, total
}

// reachable counts the states reachable from s by applicable actions.
func reachable(d *goap.Domain, s goap.State) int {
	seen := map[string]bool{d.FormatState(s): true}
	queue := []goap.State{s.Clone()}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
			if !d.Applicable(a, cur) {
				continue
			}
			next := cur.Clone()
			d.Apply(a, next)
			if k := d.FormatState(next); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return len(seen)
}

var searches = []goap.Search{goap.Forward, goap.Backward}

func TestBattleMageKillFromDefault(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	want := []string{"Approach", "TakeCover", "Recharge", "CastBolt"}
	for _, search := range searches {
		res, err := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search})
		if err != nil || res.Status != goap.Found {
			t.Fatalf("%v: status %v, err %v", search, res.Status, err)
		}
		if got := fixture.Names(d, res.Plan); !slices.Equal(got, want) || res.Cost != 7 {
			t.Errorf("%v: plan %v cost %g, want %v cost 7", search, got, res.Cost, want)
		}
		t.Logf("%v: %d expanded, %d generated", search, res.Expanded, res.Generated)
	}
	// The lesson's foil: recharging on the spot costs 10.
	end, cost := simulate(t, d, nil, d.Initial(), actionIDs(t, d, "Recharge", "Approach", "CastBolt"))
	if cost != 10 || !d.Goal("Kill").Holds(end) {
		t.Errorf("Recharge, Approach, CastBolt: cost %g, goal met %v; want 10, true", cost, d.Goal("Kill").Holds(end))
	}
}

func TestBattleMageCrystalsOff(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	base, _ := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{})
	res, err := p.Plan(nil, fixture.StateWith(t, d, "!spare_crystals"), d.Goal("Kill"), goap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"GetCrystals", "Approach", "TakeCover", "Recharge", "CastBolt"}
	if got := fixture.Names(d, res.Plan); !slices.Equal(got, want) || res.Cost != 10 {
		t.Fatalf("plan %v cost %g, want %v cost 10", got, res.Cost, want)
	}
	ratio := float64(res.Expanded) / float64(base.Expanded)
	t.Logf("expanded %d with spare crystals, %d without: ratio %.2f", base.Expanded, res.Expanded, ratio)
	if ratio < 1.5 || ratio > 2.5 {
		t.Errorf("expansion ratio %.2f, lesson says about twice", ratio)
	}
}

func TestBattleMageStaffChargedTieGoesToFirstReached(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	res, err := p.Plan(nil, fixture.StateWith(t, d, "staff_charged"), d.Goal("Kill"), goap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fixture.Names(d, res.Plan); !slices.Equal(got, []string{"Approach", "CastBolt"}) || res.Cost != 6 {
		t.Fatalf("plan %v cost %g, want [Approach CastBolt] cost 6", got, res.Cost)
	}
	// The tie the lesson mentions is real: taking cover before casting costs the same.
	_, tie := simulate(t, d, nil, fixture.StateWith(t, d, "staff_charged"), actionIDs(t, d, "Approach", "TakeCover", "CastBolt"))
	if tie != 6 {
		t.Fatalf("Approach, TakeCover, CastBolt costs %g, want the tying 6", tie)
	}
}

func TestBattleMageGetHealthy(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	for _, search := range searches {
		res, err := p.Plan(nil, fixture.StateWith(t, d, "!healthy"), d.Goal("GetHealthy"), goap.Options{Search: search})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"FetchPotion", "TakeCover", "DrinkPotion"}
		if got := fixture.Names(d, res.Plan); !slices.Equal(got, want) || res.Cost != 6 {
			t.Errorf("%v: plan %v cost %g, want %v cost 6", search, got, res.Cost, want)
		}
	}
}

func TestBattleMageNoPotionExhaustsReachableStates(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	start := fixture.StateWith(t, d, "!healthy", "!potion_at_shrine")
	for _, search := range searches {
		res, err := p.Plan(nil, start, d.Goal("GetHealthy"), goap.Options{Search: search})
		if err != nil || res.Status != goap.NoPlan || len(res.Plan) != 0 {
			t.Fatalf("%v: status %v plan %v err %v, want no plan and no error", search, res.Status, res.Plan, err)
		}
		if search == goap.Forward {
			if n := reachable(d, start); res.Expanded != n {
				t.Errorf("expanded %d states, %d are reachable", res.Expanded, n)
			}
		}
	}
}

func TestGoalAlreadyHoldsGivesEmptyPlan(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	for _, search := range searches {
		res, err := p.Plan(nil, d.Initial(), d.Goal("GetHealthy"), goap.Options{Search: search})
		if err != nil || res.Status != goap.Found || len(res.Plan) != 0 || res.Cost != 0 || res.Expanded != 0 {
			t.Errorf("%v: %+v, %v; want found, empty, cost 0, nothing expanded", search, res, err)
		}
	}
}

func TestSoldier(t *testing.T) {
	d := mustDomain(t, domains.Soldier())
	p := goap.NewPlanner(d)
	for _, search := range searches {
		// The lesson's count is the goal-count heuristic's: the command line's default.
		res, err := p.Plan(nil, d.Initial(), d.Goal("KillPlayer"), goap.Options{Search: search, Heuristic: goap.GoalCount})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Plan) != 3 || res.Cost != 9 {
			t.Errorf("%v: plan %v cost %g, want 3 steps cost 9", search, fixture.Names(d, res.Plan), res.Cost)
		}
		t.Logf("%v: %v, %d expanded, %d generated", search, fixture.Names(d, res.Plan), res.Expanded, res.Generated)
		if search == goap.Forward && (res.Expanded != 13 || res.Generated != 33) {
			t.Errorf("forward: %d expanded, %d generated; the soldier's doc comment says 13 and 33", res.Expanded, res.Generated)
		}
		res, err = p.Plan(nil, fixture.StateWith(t, d, "!axe_nearby", "!gun_nearby"), d.Goal("KillPlayer"), goap.Options{Search: search})
		if err != nil || res.Status != goap.NoPlan {
			t.Errorf("%v: without weapons nearby: %v, %v; want no plan", search, res.Status, err)
		}
	}
}

func TestSoldierPersonalities(t *testing.T) {
	d := mustDomain(t, domains.Soldier())
	defensive, err := d.NewProfile(domains.DefensiveSoldier())
	if err != nil {
		t.Fatal(err)
	}
	p := goap.NewPlanner(d)
	for _, search := range searches {
		offensive, _ := p.Plan(nil, d.Initial(), d.Goal("KillPlayer"), goap.Options{Search: search})
		careful, _ := p.Plan(nil, d.Initial(), d.Goal("KillPlayer"), goap.Options{Search: search, Profile: defensive})
		if slices.Contains(fixture.Names(d, offensive.Plan), "AttackMelee") || !slices.Contains(fixture.Names(d, careful.Plan), "AttackMelee") {
			t.Errorf("%v: offensive %v, defensive %v: the defensive soldier should prefer the axe", search, fixture.Names(d, offensive.Plan), fixture.Names(d, careful.Plan))
		}
		if _, c := simulate(t, d, defensive, d.Initial(), careful.Plan); c != careful.Cost || c != 10 {
			t.Errorf("%v: defensive plan costs %g by simulation, %g by search, want 10", search, c, careful.Cost)
		}
	}
}

func TestCapabilities(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	wounded, err := d.NewProfile(goap.ProfileSpec{Incapable: []string{"TakeCover"}})
	if err != nil {
		t.Fatal(err)
	}
	p := goap.NewPlanner(d)
	for _, search := range searches {
		res, err := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search, Profile: wounded})
		if err != nil || res.Cost != 10 || slices.Contains(fixture.Names(d, res.Plan), "TakeCover") {
			t.Errorf("%v: %v cost %g err %v; want a cost-10 plan without TakeCover", search, fixture.Names(d, res.Plan), res.Cost, err)
		}
	}
	noPotion, _ := d.NewProfile(goap.ProfileSpec{Incapable: []string{"DrinkPotion"}})
	res, _ := p.Plan(nil, fixture.StateWith(t, d, "!healthy"), d.Goal("GetHealthy"), goap.Options{Profile: noPotion})
	if res.Status != goap.NoPlan {
		t.Errorf("a mage that cannot drink: %v, want no plan", res.Status)
	}
}

func TestBudgetExhausted(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	for _, search := range searches {
		res, err := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search, Budget: 2})
		if !errors.Is(err, goap.ErrBudgetExhausted) || res.Status != goap.LimitReached || res.Bound != goap.BoundStates {
			t.Fatalf("%v: status %v err %v, want budget exhausted", search, res.Status, err)
		}
		var se *goap.SearchError
		if !errors.As(err, &se) || se.Goal != "Kill" || se.Limit != 2 || res.Expanded != 2 || len(res.Plan) != 0 {
			t.Errorf("%v: %#v, result %+v: want the goal named, limit 2, 2 expanded, no plan", search, se, res)
		}
		if !strings.Contains(err.Error(), `"Kill"`) {
			t.Errorf("error %q does not name the goal", err)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	for _, search := range searches {
		res, err := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search, MaxDepth: 2})
		if !errors.Is(err, goap.ErrDepthExceeded) || res.Status != goap.LimitReached || res.Bound != goap.BoundDepth || len(res.Plan) != 0 {
			t.Fatalf("%v: depth 2: status %v err %v plan %v, want depth exceeded", search, res.Status, err, res.Plan)
		}
		var se *goap.SearchError
		if !errors.As(err, &se) || se.Goal != "Kill" || se.Limit != 2 {
			t.Fatalf("%v: depth 2: error %#v, want one naming Kill and the limit", search, err)
		}
		// Within 3 steps the best plan is the dearest one, recharging in the open.
		res, err = p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search, MaxDepth: 3})
		if err != nil || res.Cost != 10 || len(res.Plan) != 3 {
			t.Fatalf("%v: depth 3: %v cost %g err %v, want a 3-step plan of cost 10", search, fixture.Names(d, res.Plan), res.Cost, err)
		}
		res, err = p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search, MaxDepth: 4})
		if err != nil || res.Cost != 7 {
			t.Fatalf("%v: depth 4: cost %g err %v, want 7", search, res.Cost, err)
		}
		// With the staff charged, 2 steps suffice at cost 6.
		res, err = p.Plan(nil, fixture.StateWith(t, d, "staff_charged"), d.Goal("Kill"), goap.Options{Search: search, MaxDepth: 2})
		if err != nil || res.Cost != 6 {
			t.Fatalf("%v: staff charged, depth 2: cost %g err %v, want 6", search, res.Cost, err)
		}
	}
	// No plan at any depth stays a plain "no plan", not a depth failure, when
	// the limit pruned nothing.
	res, err := p.Plan(nil, fixture.StateWith(t, d, "!healthy", "!potion_at_shrine"), d.Goal("GetHealthy"), goap.Options{MaxDepth: 50})
	if err != nil || res.Status != goap.NoPlan {
		t.Fatalf("unreachable with a loose limit: %v %v, want no plan", res.Status, err)
	}
}

func TestFuncCost(t *testing.T) {
	spec := domains.BattleMage()
	inCover := 0
	spec.Actions[3].Cost = goap.Func(1, func(s goap.State) float64 {
		if s.Has(goap.Fact(1)) { // in_cover
			inCover++
			return 1
		}
		return 4
	})
	d := mustDomain(t, spec)
	p := goap.NewPlanner(d)
	res, err := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{})
	if err != nil || res.Cost != 7 || inCover == 0 {
		t.Fatalf("forward with a Go cost: cost %g err %v calls in cover %d", res.Cost, err, inCover)
	}
	res, err = p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: goap.Backward})
	var re *goap.RegressionError
	if !errors.Is(err, goap.ErrNotRegressable) || !errors.As(err, &re) || re.Action != "Recharge" || res.Status != goap.Unsupported {
		t.Fatalf("backward with a Go cost: %v %v, want a RegressionError naming Recharge", res.Status, err)
	}
	// A profile that overrides the Go cost with data makes backward usable.
	prof, err := d.NewProfile(goap.ProfileSpec{Costs: map[string]goap.Cost{"Recharge": goap.Rules(4, goap.CostRule{When: map[string]bool{"in_cover": true}, Cost: 1})}})
	if err != nil {
		t.Fatal(err)
	}
	res, err = p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: goap.Backward, Profile: prof})
	if err != nil || res.Cost != 7 {
		t.Fatalf("backward with the cost overridden: cost %g err %v", res.Cost, err)
	}
}

func TestFuncCostBelowMinimumPanics(t *testing.T) {
	spec := domains.BattleMage()
	spec.Actions[0].Cost = goap.Func(2, func(goap.State) float64 { return 1 })
	d := mustDomain(t, spec)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), `"Approach"`) {
			t.Fatalf("recovered %v, want a panic naming Approach", r)
		}
	}()
	goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{})
}
