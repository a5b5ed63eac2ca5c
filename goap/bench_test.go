package goap_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

func benchPlan(b *testing.B, d *goap.Domain, start goap.State, goal *goap.Goal, opt goap.Options) {
	b.Helper()
	p := goap.NewPlanner(d)
	plan := make([]goap.ActionID, 0, 64)
	res, err := p.Plan(plan, start, goal, opt)
	if err != nil || res.Status != goap.Found {
		b.Fatalf("%v %v", res.Status, err)
	}
	expanded := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, _ = p.Plan(plan[:0], start, goal, opt)
		expanded += res.Expanded
	}
	b.ReportMetric(float64(expanded)/b.Elapsed().Seconds(), "expansions/s")
	b.ReportMetric(float64(res.Expanded), "expanded/op")
}

func BenchmarkBattleMageKill(b *testing.B) {
	d := mustDomain(b, domains.BattleMage())
	benchPlan(b, d, d.Initial(), d.Goal("Kill"), goap.Options{})
}

// BenchmarkBattleMageKillFreshEstimates plans Kill as BattleMageKill does,
// but cycling through five goals with Kill's conditions, one more than a
// planner keeps the estimate tables of (estimates.go), so that no search
// finds its goal's tables, or its states' estimates, kept: the cost of a
// first plan for a goal.
func BenchmarkBattleMageKillFreshEstimates(b *testing.B) {
	d := mustDomain(b, domains.BattleMage())
	var goals [5]*goap.Goal
	for i := range goals {
		g, err := d.NewGoal("Kill", map[string]bool{"enemy_dead": true})
		if err != nil {
			b.Fatal(err)
		}
		goals[i] = g
	}
	p := goap.NewPlanner(d)
	start := d.Initial()
	plan := make([]goap.ActionID, 0, 64)
	b.ReportAllocs()
	i, expanded := 0, 0
	for b.Loop() {
		res, _ := p.Plan(plan[:0], start, goals[i%len(goals)], goap.Options{})
		expanded += res.Expanded
		i++
	}
	b.ReportMetric(float64(expanded)/float64(b.N), "expanded/op")
}

func BenchmarkBattleMageKillCrystalsOff(b *testing.B) {
	d := mustDomain(b, domains.BattleMage())
	benchPlan(b, d, fixture.StateWith(b, d, "!spare_crystals"), d.Goal("Kill"), goap.Options{})
}

func BenchmarkBattleMageKillBackward(b *testing.B) {
	d := mustDomain(b, domains.BattleMage())
	benchPlan(b, d, d.Initial(), d.Goal("Kill"), goap.Options{Search: goap.Backward})
}

func BenchmarkBattleMageKillHMax(b *testing.B) {
	d := mustDomain(b, domains.BattleMage())
	benchPlan(b, d, d.Initial(), d.Goal("Kill"), goap.Options{Heuristic: goap.HMax})
}

func BenchmarkBattleMageKillBackwardHMax(b *testing.B) {
	d := mustDomain(b, domains.BattleMage())
	benchPlan(b, d, d.Initial(), d.Goal("Kill"), goap.Options{Search: goap.Backward, Heuristic: goap.HMax})
}

// random32 is a random 32-fact, 64-action domain whose optimal plan for its
// first goal has 6 to 10 steps: the first such domain drawn from a fixed
// seed, so that every run benchmarks the same problem.
var random32 = sync.OnceValues(func() (*goap.Domain, goap.State) {
	d := random32s(1)[0]
	return d, d.Initial()
})

// random32s returns the first n random 32-fact, 64-action domains from a
// fixed seed whose optimal plan for their first goal has 6 to 10 steps.
func random32s(n int) []*goap.Domain {
	cfg := randdomain.Config{Facts: 32, Actions: 64, MaxPre: 3, MaxEff: 3, MaxCost: 5, RuleProb: 0.3, Goals: 1, GoalFacts: 4}
	r := rand.New(rand.NewPCG(32, 64))
	var out []*goap.Domain
	for len(out) < n {
		d, err := goap.NewDomain(randdomain.Spec(r, cfg))
		if err != nil {
			panic(err)
		}
		p := goap.NewPlanner(d)
		// The same domains whatever the default heuristic: the plan found
		// among equally cheap ones depends on it.
		res, err := p.Plan(nil, d.Initial(), d.Goals()[0], goap.Options{Heuristic: goap.GoalCount})
		if err == nil && res.Status == goap.Found && len(res.Plan) >= 6 && len(res.Plan) <= 10 {
			out = append(out, d)
		}
	}
	return out
}

func BenchmarkRandom32Forward(b *testing.B) {
	d, s := random32()
	benchPlan(b, d, s, d.Goals()[0], goap.Options{})
}

// twenty32 are the first twenty random32 domains. Finding them takes about
// 45 s: a thousand domains are drawn and searched, a fifth of them until the
// default budget runs out, each with a new planner.
var twenty32 = sync.OnceValue(func() []*goap.Domain { return random32s(20) })

// BenchmarkRandom32ForwardTwenty plans on the first twenty such domains,
// one warm planner each, so that the rate is not one domain's.
func BenchmarkRandom32ForwardTwenty(b *testing.B) {
	ds := twenty32()
	planners := make([]*goap.Planner, len(ds))
	starts := make([]goap.State, len(ds))
	plan := make([]goap.ActionID, 0, 64)
	for i, d := range ds {
		planners[i], starts[i] = goap.NewPlanner(d), d.Initial()
		planners[i].Plan(plan[:0], starts[i], d.Goals()[0], goap.Options{})
	}
	runtime.GC() // the search for the domains left garbage; collect it untimed
	b.ReportAllocs()
	expanded := 0
	for b.Loop() {
		for i, d := range ds {
			res, _ := planners[i].Plan(plan[:0], starts[i], d.Goals()[0], goap.Options{})
			expanded += res.Expanded
		}
	}
	b.ReportMetric(float64(expanded)/b.Elapsed().Seconds(), "expansions/s")
	b.ReportMetric(float64(expanded)/float64(b.N), "expanded/op")
}

// BenchmarkRandom32ForwardHalves plans on random32 for a personality
// whose costs are whole numbers and a half (each action's own plus 0.5):
// not whole, but whole once doubled, so the fast paths still apply.
func BenchmarkRandom32ForwardHalves(b *testing.B) {
	d, s := random32()
	spec := goap.ProfileSpec{Costs: map[string]goap.Cost{}}
	for a := 0; a < d.NumActions(); a++ {
		spec.Costs[d.ActionName(goap.ActionID(a))] = goap.Const(d.DefaultProfile().CostIn(goap.ActionID(a), s) + 0.5)
	}
	prof, err := d.NewProfile(spec)
	if err != nil {
		b.Fatal(err)
	}
	benchPlan(b, d, s, d.Goals()[0], goap.Options{Profile: prof})
}

func BenchmarkRandom32ForwardHMax(b *testing.B) {
	d, s := random32()
	benchPlan(b, d, s, d.Goals()[0], goap.Options{Heuristic: goap.HMax})
}

func BenchmarkRandom32Backward(b *testing.B) {
	d, s := random32()
	benchPlan(b, d, s, d.Goals()[0], goap.Options{Search: goap.Backward})
}

func BenchmarkRandom32BackwardHMax(b *testing.B) {
	d, s := random32()
	benchPlan(b, d, s, d.Goals()[0], goap.Options{Search: goap.Backward, Heuristic: goap.HMax})
}

// BenchmarkRandom32ForwardGeneral measures the general search (the one
// domains of more than 64 facts, traces, depth limits and HMax use) on the
// 32-fact domain, for comparison with the one-word path.
func BenchmarkRandom32ForwardGeneral(b *testing.B) {
	d, s := random32()
	p := goap.NewPlanner(d)
	goap.ForceGeneral(p, true)
	goal := d.Goals()[0]
	plan := make([]goap.ActionID, 0, 64)
	res, _ := p.Plan(plan, s, goal, goap.Options{})
	b.ReportAllocs()
	expanded := 0
	for b.Loop() {
		res, _ = p.Plan(plan[:0], s, goal, goap.Options{})
		expanded += res.Expanded
	}
	b.ReportMetric(float64(expanded)/b.Elapsed().Seconds(), "expansions/s")
}

// BenchmarkRandom200ForwardBudget searches a random 200-fact, 128-action
// domain (states of four words, which only the general search takes) until
// a budget of 20 000 expansions runs out: such domains rarely have a short
// plan that the goal-count estimate finds, so the figure is the rate. The
// default estimate, GoalCost, sees at once that no action sets one of its
// goal facts, hence the goal count here.
func BenchmarkRandom200ForwardBudget(b *testing.B) {
	cfg := randdomain.Config{Facts: 200, Actions: 128, MaxPre: 3, MaxEff: 3, MaxCost: 5, RuleProb: 0.3, Goals: 1, GoalFacts: 4}
	d, err := goap.NewDomain(randdomain.Spec(rand.New(rand.NewPCG(200, 128)), cfg))
	if err != nil {
		b.Fatal(err)
	}
	p := goap.NewPlanner(d)
	start, goal := d.Initial(), d.Goals()[0]
	plan := make([]goap.ActionID, 0, 64)
	opt := goap.Options{Budget: 20000, Heuristic: goap.GoalCount}
	if res, err := p.Plan(plan, start, goal, opt); res.Status != goap.LimitReached {
		b.Fatalf("%v %v: the benchmark wants a search that spends its budget", res.Status, err)
	}
	b.ReportAllocs()
	expanded := 0
	for b.Loop() {
		res, _ := p.Plan(plan[:0], start, goal, opt)
		expanded += res.Expanded
	}
	b.ReportMetric(float64(expanded)/b.Elapsed().Seconds(), "expansions/s")
}

// BenchmarkFirstSearch is one large search (random32 under the blind
// estimate, about a hundred thousand expansions) on a new planner, on a new
// planner given Reserve first (untimed, as a game would at load), and on a
// warm one.
func BenchmarkFirstSearch(b *testing.B) {
	d, s := random32()
	goal := d.Goals()[0]
	opt := goap.Options{Heuristic: goap.Blind}
	warm := goap.NewPlanner(d)
	plan := make([]goap.ActionID, 0, 64)
	probe, _ := warm.Plan(plan, s, goal, opt)
	for _, mode := range []string{"new", "reserved", "warm"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p := warm
				if mode != "warm" {
					b.StopTimer()
					p = goap.NewPlanner(d)
					if mode == "reserved" {
						p.Reserve(probe.Generated)
					}
					runtime.GC() // the last op's planner is garbage: collect it untimed
					b.StartTimer()
				}
				p.Plan(plan[:0], s, goal, opt)
			}
			b.ReportMetric(float64(probe.Expanded), "expanded/op")
		})
	}
}

// BenchmarkCyclingGoals plans three battle-mage goals in turn, Kill,
// GetHealthy and one of staff charged in range, from a wounded start, one
// plan per op: "warm" on three planners, each replanning its own goal, as
// an agent that never changes goal does; "cycling" on one planner, as an
// agent that changes goal at every plan does, which finds each goal's
// estimate tables in its planner's cache (estimates.go) rather than
// making them again.
func BenchmarkCyclingGoals(b *testing.B) {
	d := mustDomain(b, domains.BattleMage())
	start := fixture.StateWith(b, d, "!healthy")
	ready, err := d.NewGoal("Ready", map[string]bool{domains.StaffCharged: true, domains.InRange: true})
	if err != nil {
		b.Fatal(err)
	}
	goals := []*goap.Goal{d.Goal("Kill"), d.Goal("GetHealthy"), ready}
	for _, mode := range []string{"warm", "cycling"} {
		b.Run(mode, func(b *testing.B) {
			planners := make([]*goap.Planner, len(goals))
			for i := range planners {
				planners[i] = goap.NewPlanner(d)
				if mode == "cycling" {
					planners[i] = planners[0]
				}
			}
			plan := make([]goap.ActionID, 0, 64)
			for i, g := range goals {
				res, err := planners[i].Plan(plan[:0], start, g, goap.Options{})
				if err != nil || res.Status != goap.Found || len(res.Plan) == 0 {
					b.Fatalf("%s: %v %v, %d steps", g.Name(), res.Status, err, len(res.Plan))
				}
			}
			b.ReportAllocs()
			i, expanded := 0, 0
			for b.Loop() {
				res, _ := planners[i].Plan(plan[:0], start, goals[i], goap.Options{})
				expanded += res.Expanded
				i = (i + 1) % len(goals)
			}
			b.ReportMetric(float64(expanded)/float64(b.N), "expanded/op")
		})
	}
}

// BenchmarkSliced runs random32's search with Begin and Continue, a slice
// of 1 state, of 64, or the whole search in one Continue: against
// BenchmarkRandom32Forward, the cost of a pause (one switch out and one
// back in per slice; switches/op is the pauses a search made); and the
// battle mage's Kill with Plan and with Begin, the cost of the coroutine a
// Begin makes.
func BenchmarkSliced(b *testing.B) {
	d, start := random32()
	goal := d.Goals()[0]
	for _, slice := range []int{1, 64, math.MaxInt} {
		name := fmt.Sprintf("slice=%d", slice)
		if slice == math.MaxInt {
			name = "slice=whole"
		}
		b.Run(name, func(b *testing.B) {
			p := goap.NewPlanner(d)
			plan := make([]goap.ActionID, 0, 64)
			switches := 0
			b.ReportAllocs()
			for b.Loop() {
				p.Begin(plan[:0], start, goal, goap.Options{})
				for !p.Continue(slice) {
					switches++
				}
				if res, err := p.Result(); err != nil || res.Status != goap.Found {
					b.Fatalf("%v %v", res.Status, err)
				}
			}
			b.ReportMetric(float64(switches)/float64(b.N), "switches/op")
		})
	}
	// A search of a few states, whole, with and without Begin: what making
	// and ending the coroutine costs a search that fits in its slice.
	mage := mustDomain(b, domains.BattleMage())
	kill, from := mage.Goal("Kill"), mage.Initial()
	p := goap.NewPlanner(mage)
	plan := make([]goap.ActionID, 0, 64)
	b.Run("mage/plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.Plan(plan[:0], from, kill, goap.Options{})
		}
	})
	b.Run("mage/begin", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.Begin(plan[:0], from, kill, goap.Options{})
			p.Continue(math.MaxInt)
			p.Result()
		}
	})
}
