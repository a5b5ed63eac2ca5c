package goap_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// TestWordSearchMatchesGeneral checks that the fast paths (one-word states,
// and delayed duplicate detection for any width, forward and backward) make
// exactly the search the general ones make: same plan, cost and counts.
func TestWordSearchMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 200; i++ {
		cfg := randdomain.Small
		cfg.Facts = 5 + r.IntN(20) // both sides of the dense-table bound
		switch i % 8 {
		case 3, 7:
			cfg.Facts = 25 + r.IntN(40) // up to a full word
		case 5:
			cfg.Facts = 65 + r.IntN(136) // several words
		}
		if i%5 == 4 {
			cfg.Actions = 17 + r.IntN(200) // tables over several words, or none
		}
		d := mustDomain(t, randdomain.Spec(r, cfg))
		prof, _ := randomProfile(r, d)
		fast, general := goap.NewPlanner(d), goap.NewPlanner(d)
		goap.ForceGeneral(general, true)
		if i%3 == 2 {
			goap.SetDelayedLimit(fast, r.IntN(500)) // hand over mid-search, or not at all
		}
		for _, goal := range d.Goals() {
			for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.Blind} {
				start := d.NewState()
				for f := 0; f < cfg.Facts; f++ {
					start.Set(goap.Fact(f), r.IntN(2) == 0)
				}
				for _, search := range searches {
					opt := goap.Options{Search: search, Heuristic: h, Profile: prof, Budget: 5000}
					a, errA := fast.Plan(nil, start, goal, opt)
					b, errB := general.Plan(nil, start, goal, opt)
					if fmt.Sprint(samePath(a)) != fmt.Sprint(samePath(b)) || (errA == nil) != (errB == nil) {
						t.Fatalf("domain %d goal %s %v %v: fast path %+v %v, general %+v %v", i, goal.Name(), search, h, a, errA, b, errB)
					}
				}
			}
		}
	}
}

func TestTraceRecordsEverySearchStep(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	for _, search := range searches {
		var tr goap.Trace
		res, err := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search, Trace: &tr})
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search})
		if fmt.Sprint(samePath(plain)) != fmt.Sprint(samePath(res)) {
			t.Fatalf("%v: tracing changed the result: %+v vs %+v", search, res, plain)
		}
		if len(tr.Expansions) != res.Expanded {
			t.Errorf("%v: %d expansions traced, %d counted", search, len(tr.Expansions), res.Expanded)
		}
		generated := 0
		reasons := map[goap.Reason]int{}
		for _, x := range tr.Expansions {
			for _, e := range tr.Edges[x.FirstEdge:x.EndEdge] {
				reasons[e.Reason]++
				if e.Reason == goap.Generated || e.Reason == goap.NotCheaper {
					generated++
				}
				if e.Reason == goap.Generated && tr.Nodes[e.Node].Parent != x.Node {
					t.Errorf("%v: edge to #%d from expansion of #%d, but its parent is #%d", search, e.Node, x.Node, tr.Nodes[e.Node].Parent)
				}
			}
		}
		if generated != res.Generated {
			t.Errorf("%v: %d successors traced, %d counted", search, generated, res.Generated)
		}
		if search == goap.Forward {
			// Every action appears at every expansion, in order.
			for _, x := range tr.Expansions {
				if int(x.EndEdge-x.FirstEdge) != d.NumActions() {
					t.Fatalf("expansion of #%d records %d actions, want %d", x.Node, x.EndEdge-x.FirstEdge, d.NumActions())
				}
			}
			if reasons[goap.PreconditionsUnmet] == 0 || reasons[goap.NotCheaper] == 0 {
				t.Errorf("reasons %v: want unmet preconditions and duplicates among them", reasons)
			}
		}
		path := tr.Path()
		if len(path) != len(res.Plan)+1 || tr.Nodes[path[len(path)-1]].G != res.Cost {
			t.Errorf("%v: trace path %v does not match plan %v", search, path, res.Plan)
		}
		var buf bytes.Buffer
		if err := tr.WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "found, cost 7") {
			t.Errorf("%v: trace text lacks the outcome:\n%s", search, buf.String())
		}
	}
}

func TestTraceReasonsForCapabilityAndDepth(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	prof, _ := d.NewProfile(goap.ProfileSpec{Incapable: []string{"TakeCover"}})
	p := goap.NewPlanner(d)
	var tr goap.Trace
	p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Profile: prof, MaxDepth: 1, Trace: &tr})
	seen := map[goap.Reason]bool{}
	for _, e := range tr.Edges {
		seen[e.Reason] = true
	}
	if !seen[goap.NotCapable] || !seen[goap.TooDeep] {
		t.Errorf("reasons seen %v: want not capable and over the depth limit", seen)
	}
}

// TestWarmPlannerAllocatesNothing is the zero-allocation guarantee.
// wideWithPlan returns a random 70-fact domain (states of two words), a
// start state and a goal with a plan of at least two steps from it.
func wideWithPlan(t *testing.T) (*goap.Domain, goap.State, *goap.Goal) {
	r := rand.New(rand.NewPCG(70, 2))
	cfg := randdomain.Small
	cfg.Facts = 70
	for {
		d := mustDomain(t, randdomain.Spec(r, cfg))
		for _, goal := range d.Goals() {
			res, err := goap.NewPlanner(d).Plan(nil, d.Initial(), goal, goap.Options{})
			if err == nil && res.Status == goap.Found && len(res.Plan) >= 2 {
				return d, d.Initial(), goal
			}
		}
	}
}

func TestWarmPlannerAllocatesNothing(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	d32, s32 := random32()
	d70, s70, g70 := wideWithPlan(t)
	cases := []struct {
		name  string
		d     *goap.Domain
		start goap.State
		goal  *goap.Goal
		opt   goap.Options
	}{
		{"battle mage", d, d.Initial(), d.Goal("Kill"), goap.Options{}},
		{"battle mage backward", d, d.Initial(), d.Goal("Kill"), goap.Options{Search: goap.Backward}},
		{"battle mage hmax", d, d.Initial(), d.Goal("Kill"), goap.Options{Heuristic: goap.HMax}},
		{"battle mage depth", d, d.Initial(), d.Goal("Kill"), goap.Options{MaxDepth: 4}},
		{"battle mage trace", d, d.Initial(), d.Goal("Kill"), goap.Options{Trace: &goap.Trace{}}},
		{"random 32", d32, s32, d32.Goals()[0], goap.Options{}},
		{"random 32 backward", d32, s32, d32.Goals()[0], goap.Options{Search: goap.Backward}},
		{"70 facts", d70, s70, g70, goap.Options{}},
		{"70 facts backward", d70, s70, g70, goap.Options{Search: goap.Backward}},
	}
	for _, c := range cases {
		p := goap.NewPlanner(c.d)
		plan := make([]goap.ActionID, 0, 16)
		p.Plan(plan, c.start, c.goal, c.opt)
		allocs := testing.AllocsPerRun(20, func() {
			p.Plan(plan[:0], c.start, c.goal, c.opt)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per warm plan", c.name, allocs)
		}
	}
}

// TestSharedDomainManyGoroutines plans concurrently on one domain, one
// planner per goroutine; run with -race.
func TestSharedDomainManyGoroutines(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	defensive, _ := d.NewProfile(goap.ProfileSpec{Incapable: []string{"TakeCover"}})
	want := map[bool]float64{false: 7, true: 10}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := goap.NewPlanner(d)
			for i := 0; i < 200; i++ {
				wounded := (g+i)%2 == 0
				opt := goap.Options{Search: searches[i%2]}
				if wounded {
					opt.Profile = defensive
				}
				res, err := p.Plan(nil, d.Initial(), d.Goal("Kill"), opt)
				if err != nil || res.Cost != want[wounded] {
					errs <- fmt.Errorf("goroutine %d plan %d: cost %g err %v", g, i, res.Cost, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestDeterministic runs the same searches on fresh domains and planners
// and compares the traces byte for byte.
func TestDeterministic(t *testing.T) {
	render := func() string {
		var out strings.Builder
		d := mustDomain(t, domains.BattleMage())
		p := goap.NewPlanner(d)
		for _, search := range searches {
			for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.HMax} {
				var tr goap.Trace
				p.Plan(nil, fixture.StateWith(t, d, "!spare_crystals"), d.Goal("Kill"), goap.Options{Search: search, Heuristic: h, Trace: &tr})
				tr.WriteText(&out)
			}
		}
		return out.String()
	}
	first := render()
	for i := 0; i < 20; i++ {
		if got := render(); got != first {
			t.Fatalf("run %d differs from the first", i)
		}
	}
}

func TestSpecErrorsAllAtOnce(t *testing.T) {
	spec := domains.BattleMage()
	spec.Facts = append(spec.Facts, "in_range")                              // duplicate
	spec.Actions[0].Preconditions = map[string]bool{"in_rnage": false}       // typo
	spec.Actions[1].Cost = goap.Const(0)                                     // zero
	spec.Actions[2].Cost = goap.Cost{}                                       // unset
	spec.Actions[3].Cost = goap.Rules(-1, goap.CostRule{When: nil, Cost: 1}) // bad default, empty rule
	spec.Actions = append(spec.Actions, goap.ActionSpec{Name: "Approach", Cost: goap.Const(1)})
	spec.Goals[1].Conditions = map[string]bool{"helthy": true}
	_, err := goap.NewDomain(spec)
	var errs goap.SpecErrors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v is not SpecErrors", err)
	}
	want := []string{
		`goap: facts[8]: fact "in_range" is declared twice`,
		`goap: actions[0].preconditions.in_rnage: unknown fact "in_rnage"; did you mean "in_range"?`,
		`goap: actions[1].cost: cost is 0; costs must be positive`,
		`goap: actions[2].cost: cost is required`,
		`goap: actions[3].cost[0].when: a rule with no condition always applies; make it the default instead`,
		`goap: actions[3].cost[1].cost: default cost is -1; costs must be positive`,
		`goap: actions[7].name: action "Approach" is defined twice`,
		`goap: goals[1].conditions.helthy: unknown fact "helthy"; did you mean "healthy"?`,
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var one *goap.SpecError
	if !errors.As(err, &one) || one.Path != "facts[8]" {
		t.Errorf("errors.As gave %#v", one)
	}
}

func TestProfileErrors(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	_, err := d.NewProfile(goap.ProfileSpec{Incapable: []string{"TakeCovr"}, Costs: map[string]goap.Cost{"Recharge": goap.Const(-2)}})
	want := "goap: incapable[0]: unknown action \"TakeCovr\"; did you mean \"TakeCover\"?\ngoap: costs.Recharge: cost is -2; costs must be positive"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestMisusePanics(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	other := mustDomain(t, domains.Soldier())
	p := goap.NewPlanner(d)
	for name, f := range map[string]func(){
		"nil domain":        func() { goap.NewPlanner(nil) },
		"nil goal":          func() { p.Plan(nil, d.Initial(), nil, goap.Options{}) },
		"foreign goal":      func() { p.Plan(nil, d.Initial(), other.Goal("KillPlayer"), goap.Options{}) },
		"foreign profile":   func() { p.Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Profile: other.DefaultProfile()}) },
		"state of no width": func() { p.Plan(nil, goap.State{}, d.Goal("Kill"), goap.Options{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestManyFacts(t *testing.T) {
	// A 200-fact chain: fact i+1 needs fact i. The plan sets all of them.
	spec := goap.Spec{Name: "chain", Initial: map[string]bool{}}
	for i := 0; i < 200; i++ {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	for i := 0; i < 200; i++ {
		a := goap.ActionSpec{Name: fmt.Sprintf("set%d", i), Effects: map[string]bool{spec.Facts[i]: true}, Cost: goap.Const(1)}
		if i > 0 {
			a.Preconditions = map[string]bool{spec.Facts[i-1]: true}
		}
		spec.Actions = append(spec.Actions, a)
	}
	spec.Goals = []goap.GoalSpec{{Name: "last", Conditions: map[string]bool{"f199": true}}}
	d := mustDomain(t, spec)
	p := goap.NewPlanner(d)
	for _, search := range searches {
		res, err := p.Plan(nil, d.Initial(), d.Goal("last"), goap.Options{Search: search, Heuristic: goap.HMax})
		if err != nil || len(res.Plan) != 200 || res.Cost != 200 {
			t.Fatalf("%v: %d steps cost %g err %v, want 200 and 200", search, len(res.Plan), res.Cost, err)
		}
	}
}

// TestDomainWithoutActions plans where nothing can change: the start state
// is all there is, on both sides of the dense-table bound.
func TestDomainWithoutActions(t *testing.T) {
	for _, n := range []int{3, 20, 70} {
		spec := goap.Spec{Name: "still", Initial: map[string]bool{"f1": true}, Goals: []goap.GoalSpec{
			{Name: "Zero", Conditions: map[string]bool{"f0": true}},
			{Name: "One", Conditions: map[string]bool{"f1": true}},
		}}
		for i := 0; i < n; i++ {
			spec.Facts = append(spec.Facts, randdomain.FactName(i))
		}
		d := mustDomain(t, spec)
		p := goap.NewPlanner(d)
		res, err := p.Plan(nil, d.Initial(), d.Goal("Zero"), goap.Options{})
		if err != nil || res.Status != goap.NoPlan || res.Expanded != 1 || res.Generated != 0 {
			t.Errorf("%d facts, Zero: %+v, %v; want no plan after expanding the start", n, res, err)
		}
		res, err = p.Plan(nil, d.Initial(), d.Goal("One"), goap.Options{})
		if err != nil || res.Status != goap.Found || len(res.Plan) != 0 || res.Cost != 0 {
			t.Errorf("%d facts, One: %+v, %v; want the empty plan", n, res, err)
		}
	}
}

// TestDearActionsKeepMemorySmall runs a search whose f climbs by a thousand
// at every step (a binary counter whose increments cost 1000 each, so that
// its goal is a million steps away) until the budget is spent. The bucketed
// open list once kept a list for every f up to a hundred million, 1.6 GB;
// its ring now spans only the f values queued together.
func TestDearActionsKeepMemorySmall(t *testing.T) {
	const bits = 20
	spec := goap.Spec{Name: "counter", Goals: []goap.GoalSpec{{Name: "Full", Conditions: map[string]bool{}}}}
	for i := 0; i < bits; i++ {
		spec.Facts = append(spec.Facts, randdomain.FactName(i))
		spec.Goals[0].Conditions[randdomain.FactName(i)] = true
	}
	for i := 0; i < bits; i++ {
		pre := map[string]bool{randdomain.FactName(i): false}
		eff := map[string]bool{randdomain.FactName(i): true}
		for j := 0; j < i; j++ {
			pre[randdomain.FactName(j)] = true
			eff[randdomain.FactName(j)] = false
		}
		spec.Actions = append(spec.Actions, goap.ActionSpec{Name: fmt.Sprintf("inc%d", i), Preconditions: pre, Effects: eff, Cost: goap.Const(1000)})
	}
	d := mustDomain(t, spec)
	for _, search := range searches {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goal("Full"), goap.Options{Search: search, Budget: 100000})
		runtime.ReadMemStats(&after)
		if !errors.Is(err, goap.ErrBudgetExhausted) {
			t.Fatalf("%v: %+v, %v; want the budget spent", search, res, err)
		}
		if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 64 {
			t.Errorf("%v: %d MB allocated for %d expansions", search, mb, res.Expanded)
		}
	}
}

// TestTiesGoToTheLeastEstimate: on a goal of n independent facts, each set
// by its own action of cost 1, every state on a shortest path has f = n.
// Ties on f going to the least h take the search straight down one path, n
// expansions; ties to the oldest state would sweep the 2^n states of f = n
// (a 30-fact goal ended budget_exhausted). Every search path must
// break the tie the same way: word-sized and wide states, eager and
// delayed duplicates, the general search (a depth limit), h_max, backward.
func TestTiesGoToTheLeastEstimate(t *testing.T) {
	for _, n := range []int{30, 100} {
		spec := goap.Spec{Name: "independent"}
		goal := map[string]bool{}
		for i := range n {
			f := randdomain.FactName(i)
			spec.Facts = append(spec.Facts, f)
			spec.Actions = append(spec.Actions, goap.ActionSpec{Name: "set_" + f, Effects: map[string]bool{f: true}, Cost: goap.Const(1)})
			goal[f] = true
		}
		spec.Goals = []goap.GoalSpec{{Name: "All", Conditions: goal}}
		d := mustDomain(t, spec)
		for _, opt := range []goap.Options{
			{},
			{MaxDepth: 1000},
			{Heuristic: goap.HMax},
			{Search: goap.Backward},
			{Search: goap.Backward, MaxDepth: 1000},
		} {
			res, err := goap.NewPlanner(d).Plan(nil, d.NewState(), d.Goal("All"), opt)
			if err != nil || res.Status != goap.Found || res.Cost != float64(n) || res.Expanded != n {
				t.Errorf("%d facts, %+v: %v cost %g, %d expanded, %v; want found, cost and expansions %d", n, opt, res.Status, res.Cost, res.Expanded, err, n)
			}
		}
	}
}

// TestReusedPlannerMatchesNewOnes: a planner keeps its estimate tables
// while the goal, profile, heuristic and direction stay the same. Searches
// in a random order of those, on one planner, must give what a new planner
// gives for each.
func TestReusedPlannerMatchesNewOnes(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	heuristics := []goap.Heuristic{goap.GoalCost, goap.GoalCount, goap.HMax, goap.Blind}
	for i := 0; i < 30; i++ {
		cfg := randdomain.Small
		cfg.Facts = 5 + r.IntN(60)
		d := mustDomain(t, randdomain.Spec(r, cfg))
		profiles := []*goap.Profile{nil}
		for range 2 {
			prof, _ := randomProfile(r, d)
			profiles = append(profiles, prof)
		}
		dear := goap.ProfileSpec{Costs: map[string]goap.Cost{}} // every estimate differs
		for a := 0; a < d.NumActions(); a++ {
			dear.Costs[d.ActionName(goap.ActionID(a))] = goap.Const(7)
		}
		prof, err := d.NewProfile(dear)
		if err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, prof)
		reused := goap.NewPlanner(d)
		goal := d.Goals()[0]
		opt := goap.Options{Budget: 2000}
		for k := 0; k < 60; k++ {
			// One of what the tables are kept for changes at each step.
			switch r.IntN(4) {
			case 0:
				goal = d.Goals()[r.IntN(len(d.Goals()))]
			case 1:
				opt.Search = searches[r.IntN(len(searches))]
			case 2:
				opt.Heuristic = heuristics[r.IntN(len(heuristics))]
			case 3:
				opt.Profile = profiles[r.IntN(len(profiles))]
			}
			start := d.NewState()
			for f := 0; f < cfg.Facts; f++ {
				start.Set(goap.Fact(f), r.IntN(2) == 0)
			}
			a, errA := reused.Plan(nil, start, goal, opt)
			b, errB := goap.NewPlanner(d).Plan(nil, start, goal, opt)
			if fmt.Sprint(samePath(a)) != fmt.Sprint(samePath(b)) || fmt.Sprint(errA) != fmt.Sprint(errB) {
				t.Fatalf("domain %d search %d, goal %s %v %v: reused planner %+v %v, new one %+v %v", i, k, goal.Name(), opt.Search, opt.Heuristic, a, errA, b, errB)
			}
		}
	}
}
