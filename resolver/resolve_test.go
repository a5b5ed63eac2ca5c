package resolver_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

func mustDomain(t testing.TB, spec resolver.Spec) *resolver.Domain {
	t.Helper()
	d, err := resolver.NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustSnapshot(t testing.TB, d *resolver.Domain, values map[string]int64, at resolver.Point, targets map[string]resolver.Point) *resolver.Snapshot {
	t.Helper()
	s, err := d.SnapshotOf(values, at, targets)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func names(d *resolver.Domain, chain []resolver.ActionID) []string {
	out := []string{}
	for _, a := range chain {
		out = append(out, d.ActionName(a))
	}
	return out
}

// camp is the survivor's world: the agent at the origin, the fireplace 2 m
// north, wood 10 m north and 4 m south, berries 5 m and deer 2 m east.
func camp() map[string]resolver.Point {
	return map[string]resolver.Point{
		"fireplace":  {X: 0, Y: 2},
		"wood_north": {X: 0, Y: 10},
		"wood_south": {X: 0, Y: -4},
		"berries":    {X: 5, Y: 0},
		"deer":       {X: 2, Y: 0},
	}
}

func resolve(t *testing.T, d *resolver.Domain, s *resolver.Snapshot, goal string, opt resolver.Options) (resolver.Result, error) {
	t.Helper()
	return resolver.NewResolver(d).Resolve(nil, s, d.Goal(goal), opt)
}

func TestSurvivorLightsAFireWithTheNearestWood(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20, "hunger": 10}, resolver.Point{}, camp())
	res, err := resolve(t, d, s, "Warm", resolver.Options{})
	// South: 2 + 0.5·4 (walk to the pile) + 1 + 0.5·6 (to the fireplace) + 1
	// = 9; north would cost 2 + 5 + 1 + 4 + 1 = 13.
	want := []string{"GatherWoodSouth", "LightFire", "WarmUp"}
	if err != nil || res.Status != resolver.Found || !slices.Equal(names(d, res.Chain), want) || res.Cost != 9 {
		t.Fatalf("got %v %v cost %g, %v; want %v cost 9", res.Status, names(d, res.Chain), res.Cost, err, want)
	}
	// Pile a new north pile 3 m away: now it is the nearer.
	near := camp()
	near["wood_north"] = resolver.Point{X: 0, Y: 3}
	s = mustSnapshot(t, d, map[string]int64{"warmth": 20}, resolver.Point{}, near)
	res, _ = resolve(t, d, s, "Warm", resolver.Options{})
	if got := names(d, res.Chain); got[0] != "GatherWoodNorth" || res.Cost != 2+1.5+1+0.5+1 {
		t.Fatalf("with the north pile 3 m away: %v cost %g", got, res.Cost)
	}
	// No wood anywhere: no chain, and the trace says why.
	s = mustSnapshot(t, d, map[string]int64{"warmth": 20}, resolver.Point{}, map[string]resolver.Point{"fireplace": {X: 0, Y: 2}})
	var tr resolver.Trace
	res, err = resolve(t, d, s, "Warm", resolver.Options{Trace: &tr})
	if res.Status != resolver.NoPlan || err != nil {
		t.Fatalf("no wood: %v %v", res.Status, err)
	}
	reasons := map[string]resolver.Reason{}
	for _, c := range tr.Considered {
		reasons[d.ActionName(c.Action)] = c.Reason
	}
	if reasons["GatherWoodNorth"] != resolver.NoTargetFound || reasons["LightFire"] != resolver.ConditionsUnmet {
		t.Fatalf("no wood: reasons %v", reasons)
	}
}

func TestSurvivorEatsWhatIsCheapestForIt(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 60, "hunger": 70}, resolver.Point{}, camp())
	if res, _ := resolve(t, d, s, "Warm", resolver.Options{}); res.Status != resolver.Found || len(res.Chain) != 0 {
		t.Fatalf("warm already: %+v, want found and nothing to do", res)
	}
	// Forage 3 + 0.5·5, then Eat 1, where it stands: 6.5; Hunt: 5 + 0.5·2 + 1 = 7.
	res, _ := resolve(t, d, s, "Fed", resolver.Options{})
	if got := names(d, res.Chain); !slices.Equal(got, []string{"Forage", "Eat"}) || res.Cost != 6.5 {
		t.Fatalf("fed: %v cost %g", got, res.Cost)
	}
	// A hunter prices foraging dearer; one who cannot forage hunts.
	for _, spec := range []resolver.ProfileSpec{
		{Costs: map[string]float64{"Forage": 4}},
		{Capabilities: []string{"Hunt", "Eat", "GatherWoodNorth", "GatherWoodSouth", "LightFire", "WarmUp"}},
	} {
		prof, err := d.NewProfile(spec)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := resolve(t, d, s, "Fed", resolver.Options{Profile: prof})
		if got := names(d, res.Chain); !slices.Equal(got, []string{"Hunt", "Eat"}) || res.Cost != 7 {
			t.Fatalf("profile %+v: %v cost %g", spec, got, res.Cost)
		}
	}
}

func TestShopkeeperFetchesALadderForAHighShelf(t *testing.T) {
	d := mustDomain(t, domains.Shopkeeper())
	shop := map[string]resolver.Point{"counter": {X: 0, Y: 0}, "item": {X: 4, Y: 0}, "ladder": {X: 4, Y: 3}}
	low := mustSnapshot(t, d, map[string]int64{"can_reach_item": 1}, resolver.Point{}, shop)
	res, _ := resolve(t, d, low, "ServeCustomer", resolver.Options{})
	if got := names(d, res.Chain); !slices.Equal(got, []string{"TakeItem", "HandOver"}) || res.Cost != 1+4+1+4 {
		t.Fatalf("low shelf: %v cost %g", got, res.Cost)
	}
	high := mustSnapshot(t, d, map[string]int64{"can_reach_item": 0}, resolver.Point{}, shop)
	res, _ = resolve(t, d, high, "ServeCustomer", resolver.Options{})
	want := []string{"FetchLadder", "PlaceLadder", "TakeItem", "HandOver"}
	// 2 + 5 (to the ladder) + 2 + 3 (to the shelf) + 1 + 0 + 1 + 4 (back) = 18.
	if got := names(d, res.Chain); !slices.Equal(got, want) || res.Cost != 18 {
		t.Fatalf("high shelf: %v cost %g, want %v cost 18", got, res.Cost, want)
	}
}

// depthTrap is a domain where the cheapest way to reach Prepare is long:
// via Step1 and Step2 (cost 1 each) rather than Shortcut (cost 5). Within
// a depth limit of 3 only Begin → Prepare → Shortcut fits, and a search
// that kept only the cheapest chain per front action would lose it.
func depthTrap() resolver.Spec {
	return resolver.Spec{
		Name: "trap",
		Keys: []resolver.KeySpec{{Name: "done", Kind: resolver.Bool}, {Name: "step", Kind: resolver.Bool}, {Name: "ready", Kind: resolver.Bool}, {Name: "begun", Kind: resolver.Bool}},
		Actions: []resolver.ActionSpec{
			{Name: "Step2", Conditions: []resolver.Condition{resolver.True("step")}, Effects: []resolver.Effect{resolver.Sets("done", true)}, Cost: 1},
			{Name: "Step1", Conditions: []resolver.Condition{resolver.True("ready")}, Effects: []resolver.Effect{resolver.Sets("step", true)}, Cost: 1},
			{Name: "Shortcut", Conditions: []resolver.Condition{resolver.True("ready")}, Effects: []resolver.Effect{resolver.Sets("done", true)}, Cost: 5},
			{Name: "Prepare", Conditions: []resolver.Condition{resolver.True("begun")}, Effects: []resolver.Effect{resolver.Sets("ready", true)}, Cost: 1},
			{Name: "Begin", Effects: []resolver.Effect{resolver.Sets("begun", true)}, Cost: 1},
		},
		Goals: []resolver.GoalSpec{{Name: "Done", Conditions: []resolver.Condition{resolver.True("done")}}},
	}
}

func TestDepthLimitKeepsShorterDearerChains(t *testing.T) {
	d := mustDomain(t, depthTrap())
	s := d.NewSnapshot()
	for _, c := range []struct {
		depth int
		want  []string
		cost  float64
	}{
		{4, []string{"Begin", "Prepare", "Step1", "Step2"}, 4},
		{3, []string{"Begin", "Prepare", "Shortcut"}, 7},
	} {
		res, err := resolve(t, d, s, "Done", resolver.Options{MaxDepth: c.depth})
		if err != nil || !slices.Equal(names(d, res.Chain), c.want) || res.Cost != c.cost {
			t.Errorf("depth %d: %v cost %g, %v; want %v cost %g", c.depth, names(d, res.Chain), res.Cost, err, c.want, c.cost)
		}
	}
	res, err := resolve(t, d, s, "Done", resolver.Options{MaxDepth: 2})
	var se *resolver.SearchError
	if res.Status != resolver.LimitReached || res.Bound != search.Depth || !errors.Is(err, resolver.ErrDepthExceeded) || !errors.As(err, &se) || se.Goal != "Done" || se.Limit != 2 {
		t.Errorf("depth 2: %v, %v; want depth exceeded naming Done and 2", res.Status, err)
	}
}

func TestBudgetExhaustedNamesTheGoal(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20}, resolver.Point{}, camp())
	res, err := resolve(t, d, s, "Warm", resolver.Options{Budget: 2})
	var se *resolver.SearchError
	if res.Status != resolver.LimitReached || res.Bound != search.Budget || !errors.Is(err, resolver.ErrBudgetExhausted) || !errors.As(err, &se) || se.Goal != "Warm" || res.Expanded != 2 {
		t.Fatalf("%+v, %v; want budget exhausted after 2, naming Warm", res, err)
	}
	if !strings.Contains(err.Error(), `goal "Warm": node budget of 2 exhausted`) {
		t.Errorf("message %q", err)
	}
	res, err = resolve(t, d, s, "Warm", resolver.Options{MaxWork: 3})
	if !errors.As(err, &se) || !se.Work || res.Status != resolver.LimitReached || res.Bound != search.Work {
		t.Errorf("work limit: %+v, %v", res, err)
	}
}

// TestNoPlanIsNotDepthExceeded: a chain cut by the depth limit that could
// never complete is no plan, not a depth failure.
func TestNoPlanIsNotDepthExceeded(t *testing.T) {
	spec := depthTrap()
	spec.Actions = spec.Actions[:4] // no Begin: nothing can ever begin
	d := mustDomain(t, spec)
	for _, depth := range []int{1, 2, 10} {
		res, err := resolve(t, d, d.NewSnapshot(), "Done", resolver.Options{MaxDepth: depth})
		if res.Status != resolver.NoPlan || err != nil {
			t.Errorf("depth %d: %v %v; want no plan", depth, res.Status, err)
		}
	}
}

func TestTraceReasons(t *testing.T) {
	spec := depthTrap()
	// Loop serves ready and needs done: in front of Step2's chain, its
	// unmet done would be served by Step2, already in the chain.
	spec.Actions = append(spec.Actions, resolver.ActionSpec{Name: "Loop", Conditions: []resolver.Condition{resolver.True("done")}, Effects: []resolver.Effect{resolver.Sets("ready", true)}, Cost: 1})
	d := mustDomain(t, spec)
	prof, err := d.NewProfile(resolver.ProfileSpec{Capabilities: []string{"Step2", "Step1", "Prepare", "Begin", "Loop"}})
	if err != nil {
		t.Fatal(err)
	}
	var tr resolver.Trace
	res, _ := resolve(t, d, d.NewSnapshot(), "Done", resolver.Options{Profile: prof, MaxDepth: 3, Trace: &tr})
	got := map[string]bool{}
	for _, c := range tr.Considered {
		got[d.ActionName(c.Action)+": "+c.Reason.String()] = true
	}
	for _, want := range []string{"Shortcut: not capable", "Step2: already in the chain", "Begin: too deep", "Step1: conditions unmet"} {
		if !got[want] {
			t.Errorf("trace lacks %q; has %v", want, got)
		}
	}
	if res.Status != resolver.LimitReached || res.Bound != search.Depth {
		t.Errorf("status %v, want depth exceeded (Begin → Prepare → Step1 → Step2 is 4 long)", res.Status)
	}
	var sb strings.Builder
	if err := tr.WriteText(&sb); err != nil || !strings.Contains(sb.String(), "Shortcut serves done: not capable") {
		t.Errorf("text trace:\n%s", sb.String())
	}
}

func TestWarmResolverAllocatesNothing(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20, "hunger": 70}, resolver.Point{}, camp())
	r := resolver.NewResolver(d)
	buf := make([]resolver.ActionID, 0, 8)
	warm, fed := d.Goal("Warm"), d.Goal("Fed")
	run := func() {
		r.Resolve(buf[:0], s, warm, resolver.Options{})
		r.Resolve(buf[:0], s, fed, resolver.Options{})
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Fatalf("%v allocations per warm resolve pair", n)
	}
}

func TestMisusePanics(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	other := mustDomain(t, domains.Shopkeeper())
	s := d.NewSnapshot()
	for name, f := range map[string]func(){
		"short snapshot":  func() { resolver.NewResolver(d).Resolve(nil, other.NewSnapshot(), d.Goal("Warm"), resolver.Options{}) },
		"foreign goal":    func() { resolver.NewResolver(d).Resolve(nil, s, other.Goals()[0], resolver.Options{}) },
		"negative budget": func() { resolver.NewResolver(d).Resolve(nil, s, d.Goal("Warm"), resolver.Options{Budget: -1}) },
		"boolean value 2": func() {
			bad := d.NewSnapshot()
			bad.Values[2] = 2
			resolver.NewResolver(d).Resolve(nil, bad, d.Goal("Warm"), resolver.Options{})
		},
		"nil goal": func() { resolver.NewResolver(d).Resolve(nil, s, nil, resolver.Options{}) },
		"foreign profile": func() {
			p, _ := other.NewProfile(resolver.ProfileSpec{})
			resolver.NewResolver(d).Resolve(nil, s, d.Goal("Warm"), resolver.Options{Profile: p})
		},
		"negative maxwork": func() { resolver.NewResolver(d).Resolve(nil, s, d.Goal("Warm"), resolver.Options{MaxWork: -1}) },
		"nil domain":       func() { resolver.NewResolver(nil) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "resolver: ") {
					t.Errorf("%s: recovered %v; want a resolver panic", name, r)
				}
			}()
			f()
		}()
	}
}

func TestSpecErrors(t *testing.T) {
	spec := resolver.Spec{
		Name: "bad",
		Keys: []resolver.KeySpec{{Name: "hunger", Kind: resolver.Int}, {Name: "has_food", Kind: resolver.Bool}, {Name: "hunger", Kind: resolver.Int}},
		Actions: []resolver.ActionSpec{
			{Name: "Eat", Conditions: []resolver.Condition{{Key: "hunger", Op: resolver.Is, Value: 50}}, Effects: []resolver.Effect{resolver.Sets("hunger", false)}, Cost: 1},
			{Name: "Cook", Conditions: []resolver.Condition{resolver.Above("has_food", 0)}, Effects: []resolver.Effect{resolver.Raises("has_food")}, Cost: 0},
			{Name: "Shop", Conditions: []resolver.Condition{resolver.True("has_fod")}, Effects: []resolver.Effect{resolver.Sets("has_food", true)}, Cost: 1, StoppingDistance: 2},
		},
		Goals: []resolver.GoalSpec{{Name: "Fed", Conditions: []resolver.Condition{resolver.AtMostOf("hunger", 30)}}},
	}
	_, err := resolver.NewDomain(spec)
	var errs resolver.SpecErrors
	if !errors.As(err, &errs) {
		t.Fatalf("%v: want SpecErrors", err)
	}
	text := err.Error()
	for _, want := range []string{
		`keys[2]: key "hunger" declared twice`,
		`actions[0].conditions[0]: "hunger" is an integer key, and an equality has no direction, so no effect could serve it: use >= or <= (or a boolean key)`,
		`actions[0].effects[0]: "hunger" is an integer key: an effect on it is a direction, increase or decrease, not a value`,
		`actions[1].conditions[0]: "has_food" is a boolean key: a condition on it is true or false, not > 0`,
		`actions[1].effects[0]: "has_food" is a boolean key: an effect sets it true or false; it cannot increase`,
		`actions[1].cost: action "Cook" has cost 0`,
		`actions[2].conditions[0]: unknown key "has_fod"; did you mean "has_food"?`,
		`actions[2].stopping_distance: action "Shop" has a stopping distance but no target`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("errors lack %q:\n%s", want, text)
		}
	}
}

func TestActionGraph(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	warm := d.Goal("Warm")
	if got := names(d, warm.Servers(0)); !slices.Equal(got, []string{"WarmUp"}) {
		t.Errorf("warmth >= 50 served by %v", got)
	}
	light, _ := d.ActionByName("LightFire")
	if got := names(d, d.Servers(light, 0)); !slices.Equal(got, []string{"GatherWoodNorth", "GatherWoodSouth"}) {
		t.Errorf("has_wood served by %v", got)
	}
	if got := names(d, d.Servers(light, 1)); len(got) != 0 {
		t.Errorf("!fire_lit served by %v; nothing puts a fire out", got)
	}
	if u := d.Unserved(); len(u) != 1 || u[0].Action != light || u[0].Condition != 1 {
		t.Errorf("unserved %+v; want LightFire's !fire_lit", u)
	}
	if n := d.ServesNothing(); len(n) != 0 {
		t.Errorf("actions serving nothing: %v", names(d, n))
	}
	if e := d.Edges(); len(e) != 1+1+2+1+2 {
		t.Errorf("%d edges: %+v", len(e), e)
	}
}

func TestDomainHolds(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 50, "has_wood": 1}, resolver.Point{}, nil)
	for c, want := range map[resolver.Condition]bool{
		resolver.AtLeastOf("warmth", 50): true, resolver.Above("warmth", 50): false,
		resolver.AtMostOf("warmth", 50): true, resolver.Below("warmth", 50): false,
		resolver.True("has_wood"): true, resolver.False("has_wood"): false, resolver.True("fire_lit"): false,
	} {
		if got := d.Holds(c, s); got != want {
			t.Errorf("%v: %v, want %v", c, got, want)
		}
	}
}

// TestCheckSnapshotSaysWhatDoesNotFit: every way a snapshot can misfit
// its domain (nil, a list of another length, a boolean key neither 0 nor
// 1, a position that is not finite) is found, alone and beside
// well-formed keys and targets, and named: the one-pass test of every key
// and target (CheckSnapshot's fast path) must miss none of them, nor
// refuse a snapshot that fits.
func TestCheckSnapshotSaysWhatDoesNotFit(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	key := func(name string) resolver.KeyID {
		k, ok := d.Key(name)
		if !ok {
			t.Fatalf("no key %q", name)
		}
		return k
	}
	target := func(name string) int {
		i := slices.Index(d.Targets(), name)
		if i < 0 {
			t.Fatalf("no target %q", name)
		}
		return i
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name  string
		spoil func(s *resolver.Snapshot)
		want  string // "" for a snapshot that fits
	}{
		{"fits", func(s *resolver.Snapshot) {}, ""},
		{"a lost target's position is not looked at", func(s *resolver.Snapshot) {
			s.Targets[target("deer")] = resolver.Target{At: resolver.Point{X: nan, Y: inf}}
		}, ""},
		{"boolean 2", func(s *resolver.Snapshot) { s.Values[key("fire_lit")] = 2 }, `boolean key "fire_lit" has value 2`},
		{"boolean -1", func(s *resolver.Snapshot) { s.Values[key("has_food")] = -1 }, `boolean key "has_food" has value -1`},
		{"boolean 3", func(s *resolver.Snapshot) { s.Values[key("has_wood")] = 3 }, `boolean key "has_wood" has value 3`},
		{"x not a number", func(s *resolver.Snapshot) { s.Targets[target("berries")].At.X = nan }, `target "berries"'s position`},
		{"y infinite", func(s *resolver.Snapshot) { s.Targets[target("fireplace")].At.Y = -inf }, `target "fireplace"'s position`},
		{"last target", func(s *resolver.Snapshot) {
			s.Targets[len(s.Targets)-1] = resolver.Target{At: resolver.Point{X: 1, Y: inf}, Found: true}
		}, "'s position"},
		{"agent not finite", func(s *resolver.Snapshot) { s.At.Y = nan }, "the agent's position"},
		{"a key short", func(s *resolver.Snapshot) { s.Values = s.Values[:len(s.Values)-1] }, "key values; domain"},
		{"a target more", func(s *resolver.Snapshot) { s.Targets = append(s.Targets, resolver.Target{}) }, "targets; domain"},
	} {
		s := mustSnapshot(t, d, map[string]int64{"warmth": 20, "hunger": 70, "fire_lit": 1}, resolver.Point{X: 3, Y: 4}, camp())
		for i := range s.Targets {
			s.Targets[i].Found = true
		}
		s.Targets[target("deer")].Found = false
		c.spoil(s)
		err := d.CheckSnapshot(s)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v; want it to fit", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want an error saying %q", c.name, err, c.want)
		}
	}
	if err := d.CheckSnapshot(nil); err == nil || !strings.Contains(err.Error(), "nil snapshot") {
		t.Errorf("nil: %v; want an error saying it is nil", err)
	}
}
