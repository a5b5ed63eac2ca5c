package goap_test

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/race"
)

// revCostGen draws costs of one regime: whole, halves, quarters, up to the
// bucket bound, tenths (not bucketable), 64ths.
type revCostGen func(r *rand.Rand) float64

var revRegimes = []struct {
	name  string
	gen   revCostGen
	exact bool // sums exact: compare costs with ==
}{
	{"whole", func(r *rand.Rand) float64 { return float64(1 + r.IntN(5)) }, true},
	{"halves", func(r *rand.Rand) float64 { return 0.5 * float64(1+r.IntN(8)) }, true},
	{"quarters", func(r *rand.Rand) float64 { return 0.25 * float64(1+r.IntN(12)) }, true},
	{"big", func(r *rand.Rand) float64 {
		if r.IntN(3) == 0 {
			return 1024
		}
		return float64(1 + r.IntN(1024))
	}, true},
	{"tenths", func(r *rand.Rand) float64 { return 0.1 * float64(1+r.IntN(20)) }, false},
	{"64ths", func(r *rand.Rand) float64 {
		if r.IntN(3) == 0 {
			return 16
		}
		return float64(1+r.IntN(1024)) / 64
	}, true},
	{"mixed", func(r *rand.Rand) float64 { // 1/64 and 1024: not bucketable, exact
		if r.IntN(2) == 0 {
			return 1024
		}
		return float64(1+r.IntN(64)) / 64
	}, true},
}

func revFact(i int) string { return fmt.Sprintf("f%d", i) }

func revLits(r *rand.Rand, n, k int) map[string]bool {
	m := map[string]bool{}
	for _, f := range r.Perm(n)[:min(k, n)] {
		m[revFact(f)] = r.IntN(2) == 0
	}
	return m
}

// revSpec makes a random domain with the corner cases of GoalCost: goal
// facts false, effects that repeat a precondition, preconditions on a goal
// fact, rule costs, Func costs.
func revSpec(r *rand.Rand, n, actions int, gen revCostGen, funcs bool) goap.Spec {
	spec := goap.Spec{Name: "rev", Initial: map[string]bool{}}
	for i := 0; i < n; i++ {
		spec.Facts = append(spec.Facts, revFact(i))
	}
	goals := []map[string]bool{revLits(r, n, 1+r.IntN(min(n, 4))), revLits(r, n, 1+r.IntN(min(n, 3)))}
	for i := 0; i < actions; i++ {
		a := goap.ActionSpec{
			Name:          fmt.Sprintf("a%d", i),
			Preconditions: revLits(r, n, r.IntN(4)),
			Effects:       revLits(r, n, 1+r.IntN(3)),
			Cost:          goap.Const(gen(r)),
		}
		switch r.IntN(4) {
		case 0: // an effect repeating a precondition
			for f, v := range a.Preconditions {
				a.Effects[f] = v
				break
			}
		case 1: // a precondition on a goal fact
			for f, v := range goals[r.IntN(2)] {
				if r.IntN(2) == 0 {
					v = !v
				}
				a.Preconditions[f] = v
				break
			}
		}
		if r.IntN(3) == 0 {
			var rules []goap.CostRule
			for k := 1 + r.IntN(2); k > 0; k-- {
				rules = append(rules, goap.CostRule{When: revLits(r, n, 1+r.IntN(2)), Cost: gen(r)})
			}
			a.Cost = goap.Rules(gen(r), rules...)
		} else if funcs && r.IntN(3) == 0 {
			lo, hi := gen(r), gen(r)
			if lo > hi {
				lo, hi = hi, lo
			}
			f := r.IntN(n)
			a.Cost = goap.Func(lo, func(s goap.State) float64 {
				if s.Words()[f/64]>>(f%64)&1 == 1 {
					return hi
				}
				return lo
			})
		}
		spec.Actions = append(spec.Actions, a)
	}
	for i, g := range goals {
		spec.Goals = append(spec.Goals, goap.GoalSpec{Name: fmt.Sprintf("g%d", i), Conditions: g})
	}
	return spec
}

func revProfile(r *rand.Rand, d *goap.Domain, gen revCostGen) (*goap.Profile, goap.ProfileSpec) {
	return randomProfileWith(r, d, func(r *rand.Rand) goap.Cost {
		c := goap.Const(gen(r))
		if r.IntN(3) == 0 {
			c = goap.Rules(gen(r), goap.CostRule{When: revLits(r, d.NumFacts(), 1), Cost: gen(r)})
		}
		return c
	})
}

type revItem struct {
	s uint64
	c float64
}
type revHeap []revItem

func (h revHeap) Len() int           { return len(h) }
func (h revHeap) Less(i, j int) bool { return h[i].c < h[j].c }
func (h revHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *revHeap) Push(x any)        { *h = append(*h, x.(revItem)) }
func (h *revHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// toGoal is the least cost from every state to goal: Dijkstra over the
// reversed graph.
func (o *oracle) toGoal(goal map[string]bool, step func(a int, s uint64) (uint64, float64, bool)) []float64 {
	states := 1 << o.n
	type edge struct {
		from uint64
		c    float64
	}
	rev := make([][]edge, states)
	for s := 0; s < states; s++ {
		for a := range o.spec.Actions {
			if next, c, ok := step(a, uint64(s)); ok {
				rev[next] = append(rev[next], edge{uint64(s), c})
			}
		}
	}
	best := make([]float64, states)
	h := &revHeap{}
	for s := range best {
		best[s] = math.Inf(1)
		if o.holds(goal, uint64(s)) {
			best[s] = 0
			heap.Push(h, revItem{uint64(s), 0})
		}
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(revItem)
		if it.c > best[it.s] {
			continue
		}
		for _, e := range rev[it.s] {
			if c := it.c + e.c; c < best[e.from] {
				best[e.from] = c
				heap.Push(h, revItem{e.from, c})
			}
		}
	}
	return best
}

func revSame(a, b float64, exact bool) bool {
	if exact || math.IsInf(a, 1) || math.IsInf(b, 1) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a))
}

// TestGoalCostAgainstBruteForce: every search path, every heuristic,
// against brute force, over cost regimes the oracle test does not draw
// (quarters, 1024, tenths, 64ths, Func costs), domains of 1 to 13 facts;
// and GoalCost's estimate of every state checked admissible and
// consistent along every edge, not only the edges a search made.
func TestGoalCostAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	sizes := []int{1, 2, 3, 5, 7, 8, 12, 13}
	rounds := 120 // about 6 s; 400 passed too
	if testing.Short() || race.Enabled {
		rounds = 40 // the race detector makes it six times slower
	}
	for i := 0; i < rounds; i++ {
		n := sizes[i%len(sizes)]
		reg := revRegimes[(i/len(sizes))%len(revRegimes)]
		funcs := i%3 == 0
		actions := 3 + r.IntN(3*n+6)
		spec := revSpec(r, n, actions, reg.gen, funcs)
		d := mustDomain(t, spec)
		prof, pspec := revProfile(r, d, reg.gen)
		o := newOracle(spec, pspec)
		step := o.step
		if funcs {
			dd := d
			step = func(a int, s uint64) (uint64, float64, bool) {
				act := o.spec.Actions[a]
				c := act.Cost
				if pc, ok := o.prof.Costs[act.Name]; ok {
					c = pc
				}
				if !c.IsFunc() {
					return o.step(a, s)
				}
				if slices.Contains(o.prof.Incapable, act.Name) || !o.holds(act.Preconditions, s) {
					return 0, 0, false
				}
				next := s
				for name, v := range act.Effects {
					next &^= 1 << o.index[name]
					if v {
						next |= 1 << o.index[name]
					}
				}
				return next, dd.CostIn(goap.ActionID(a), goap.StateFromWords([]uint64{s})), true
			}
		}
		fast, general := goap.NewPlanner(d), goap.NewPlanner(d)
		goap.ForceGeneral(general, true)
		for gi, goal := range d.Goals() {
			best := o.toGoal(spec.Goals[gi].Conditions, step)
			name := fmt.Sprintf("round %d (%d facts, %s, funcs %v) goal %s", i, n, reg.name, funcs, goal.Name())
			// Every state's forward GoalCost estimate: admissible and
			// consistent along every edge.
			if n <= 8 {
				hs := make([]float64, 1<<n)
				for s := range hs {
					var tr goap.Trace
					general.Plan(nil, goap.StateFromWords([]uint64{uint64(s)}), goal, goap.Options{Profile: prof, Trace: &tr, Budget: 1})
					hs[s] = tr.Nodes[0].H
					if hs[s] > best[s] {
						t.Fatalf("%s: h(%b) = %g above its true cost %g", name, s, hs[s], best[s])
					}
				}
				for s := range hs {
					for a := range spec.Actions {
						if next, c, ok := step(a, uint64(s)); ok && next != uint64(s) && hs[s] > c+hs[next]+1e-9 {
							t.Fatalf("%s: h(%b) = %g, action %s (cost %g) to %b with h %g: not consistent", name, s, hs[s], spec.Actions[a].Name, c, next, hs[next])
						}
					}
				}
			}
			for trial := 0; trial < 3; trial++ {
				s := uint64(r.IntN(1 << n))
				start := goap.StateFromWords([]uint64{s})
				want := best[s]
				for _, search := range searches {
					if search == goap.Backward && funcs {
						continue
					}
					for _, h := range []goap.Heuristic{goap.GoalCost, goap.GoalCount, goap.HMax, goap.Blind} {
						opt := goap.Options{Search: search, Heuristic: h, Profile: prof}
						a, errA := fast.Plan(nil, start, goal, opt)
						b, errB := general.Plan(nil, start, goal, opt)
						what := fmt.Sprintf("%s start %b %v %v", name, s, search, h)
						if a.Status == goap.Unsupported {
							continue
						}
						if fmt.Sprint(samePath(a)) != fmt.Sprint(samePath(b)) || (errA == nil) != (errB == nil) {
							t.Fatalf("%s: fast %+v %v, general %+v %v", what, a, errA, b, errB)
						}
						if math.IsInf(want, 1) {
							if a.Status != goap.NoPlan && !(search == goap.Backward && a.Status == goap.LimitReached && a.Bound != goap.BoundDepth) {
								t.Fatalf("%s: %v, want no plan", what, a.Status)
							}
							continue
						}
						if a.Status != goap.Found || !revSame(a.Cost, want, reg.exact && !funcs) {
							t.Fatalf("%s: %v cost %g, optimum %g (plan %v)", what, a.Status, a.Cost, want, a.Plan)
						}
					}
				}
			}
		}
	}
}

// TestWarmPlannerAlternatingAllocatesNothing: a warm planner switching
// between goals, profiles, heuristics and directions rebuilds its
// estimate tables; that must allocate nothing either.
func TestWarmPlannerAlternatingAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{6, 12, 13, 30} {
		spec := revSpec(r, n, 40, revRegimes[0].gen, false)
		spec.Goals = append(spec.Goals, goap.GoalSpec{Name: "big", Conditions: revLits(r, n, min(n, 10))})
		d := mustDomain(t, spec)
		prof, _ := revProfile(r, d, revRegimes[1].gen)
		if prof == nil {
			prof = d.DefaultProfile()
		}
		p := goap.NewPlanner(d)
		start := d.NewState()
		plan := make([]goap.ActionID, 0, 64)
		type combo struct {
			g   *goap.Goal
			opt goap.Options
		}
		var combos []combo
		for _, g := range d.Goals() {
			for _, pr := range []*goap.Profile{nil, prof} {
				for _, s := range searches {
					for _, h := range []goap.Heuristic{goap.GoalCost, goap.GoalCount} {
						opt := goap.Options{Search: s, Heuristic: h, Profile: pr, Budget: 20000}
						if _, err := p.Plan(plan[:0], start, g, opt); err == nil {
							combos = append(combos, combo{g, opt}) // an error allocates itself
						}
					}
				}
			}
		}
		run := func() {
			for _, c := range combos {
				p.Plan(plan[:0], start, c.g, c.opt)
			}
		}
		run()
		run()
		if allocs := testing.AllocsPerRun(5, run); allocs != 0 {
			t.Errorf("%d facts: %v allocations per round of warm plans", n, allocs)
		}
	}
}

// revWideChains is a domain of 100 000 facts whose 64-fact goal is set by
// 16 actions, each needing 8 facts of 8 different cheapest costs: each
// goal fact has 16 achievers of 8 precondition groups.
func revWideChains(t testing.TB) (*goap.Domain, *goap.Goal) {
	const n = 100_000
	spec := goap.Spec{Name: "wide chains", Initial: map[string]bool{}}
	for i := 0; i < n; i++ {
		spec.Facts = append(spec.Facts, revFact(i))
	}
	goal := map[string]bool{}
	for g := 0; g < 64; g++ {
		goal[revFact(g)] = true
	}
	for q := 0; q < 8; q++ {
		spec.Actions = append(spec.Actions, goap.ActionSpec{
			Name:    fmt.Sprintf("set%d", q),
			Effects: map[string]bool{revFact(n - 1 - q*1000): true},
			Cost:    goap.Const(float64(2 + q)),
		})
	}
	for a := 0; a < 16; a++ {
		pre := map[string]bool{}
		for q := 0; q < 8; q++ {
			pre[revFact(n-1-q*1000)] = true
		}
		spec.Actions = append(spec.Actions, goap.ActionSpec{
			Name:          fmt.Sprintf("win%d", a),
			Preconditions: pre,
			Effects:       goal,
			Cost:          goap.Const(float64(1 + a)),
		})
	}
	spec.Goals = []goap.GoalSpec{{Name: "all", Conditions: goal}}
	d := mustDomain(t, spec)
	return d, d.Goal("all")
}

// TestChainBuildIsSparse: GoalCost's chains for a goal must not
// take memory in proportion to goal facts x achievers x precondition
// groups x the state's width (here 64 x 16 x 8 x 1 563 words, 100 MiB,
// allocated by each plan for a new goal, outside every limit of
// Options). The domain's own masks are 24 actions x 4 x 1 563 words.
func TestChainBuildIsSparse(t *testing.T) {
	d, goal := revWideChains(t)
	p := goap.NewPlanner(d)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := p.Plan(nil, d.NewState(), goal, goap.Options{MaxBytes: 8 << 20})
	runtime.ReadMemStats(&after)
	if err != nil || res.Status != goap.Found || res.Cost != 2+3+4+5+6+7+8+9+1 {
		t.Fatalf("%+v %v", res, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
		t.Errorf("one plan allocated %d MiB", got>>20)
	}
}

// TestBackwardLevelsAreSparse: backward GoalCost's groups of the
// start's wrong literals must not take a state's width of memory per
// distinct achiever cost: 3 000 facts each set by an action of its own
// cost, on 100 000 facts, made 3 000 groups of 1 563 words (37 MiB) for
// each backward plan, and an estimate scanned them all.
func TestBackwardLevelsAreSparse(t *testing.T) {
	const n = 100_000
	spec := goap.Spec{Name: "wide levels", Initial: map[string]bool{}}
	for i := 0; i < n; i++ {
		spec.Facts = append(spec.Facts, revFact(i))
	}
	for a := 0; a < 3000; a++ {
		spec.Actions = append(spec.Actions, goap.ActionSpec{
			Name:    fmt.Sprintf("set%d", a),
			Effects: map[string]bool{revFact(a * 33): true},
			Cost:    goap.Const(float64(1 + a)),
		})
	}
	spec.Goals = []goap.GoalSpec{{Name: "g", Conditions: map[string]bool{revFact(0): true, revFact(33): true}}}
	d := mustDomain(t, spec)
	p := goap.NewPlanner(d)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := p.Plan(nil, d.NewState(), d.Goal("g"), goap.Options{Search: goap.Backward})
	runtime.ReadMemStats(&after)
	if err != nil || res.Status != goap.Found || res.Cost != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("one backward plan allocated %d MiB", got>>20)
	}
}

// TestWideGoalCostMatchesBlind: on 64, 65, 128 and 200 facts, where
// no brute force reaches, GoalCost must find plans as cheap as Dijkstra's
// (Blind, general search), on every path.
func TestWideGoalCostMatchesBlind(t *testing.T) {
	r := rand.New(rand.NewPCG(64, 65))
	for i := 0; i < 120; i++ {
		n := []int{64, 65, 128, 200}[i%4]
		reg := revRegimes[(i/4)%len(revRegimes)]
		funcs := i%5 == 0
		// Few facts touched, so that the reachable states stay few.
		spec := revSpec(r, 10, 14+r.IntN(10), reg.gen, funcs)
		// Spread the ten facts over the wide domain's words.
		perm := r.Perm(n)[:10]
		rename := func(m map[string]bool) map[string]bool {
			out := map[string]bool{}
			for f, v := range m {
				var k int
				fmt.Sscanf(f, "f%d", &k)
				out[revFact(perm[k])] = v
			}
			return out
		}
		spec.Facts = nil
		for f := 0; f < n; f++ {
			spec.Facts = append(spec.Facts, revFact(f))
		}
		for a := range spec.Actions {
			spec.Actions[a].Preconditions = rename(spec.Actions[a].Preconditions)
			spec.Actions[a].Effects = rename(spec.Actions[a].Effects)
			if rules, otherwise, ok := spec.Actions[a].Cost.RuleList(); ok {
				for k := range rules {
					rules[k].When = rename(rules[k].When)
				}
				spec.Actions[a].Cost = goap.Rules(otherwise, rules...)
			}
		}
		for g := range spec.Goals {
			spec.Goals[g].Conditions = rename(spec.Goals[g].Conditions)
		}
		d := mustDomain(t, spec)
		prof, _ := revProfile(r, d, reg.gen)
		fast, general := goap.NewPlanner(d), goap.NewPlanner(d)
		goap.ForceGeneral(general, true)
		for _, goal := range d.Goals() {
			for trial := 0; trial < 3; trial++ {
				start := d.NewState()
				for _, f := range perm {
					start.Set(goap.Fact(f), r.IntN(2) == 0)
				}
				want, _ := general.Plan(nil, start, goal, goap.Options{Heuristic: goap.Blind, Profile: prof})
				for _, search := range searches {
					if search == goap.Backward && funcs {
						continue
					}
					for _, h := range []goap.Heuristic{goap.GoalCost, goap.GoalCount, goap.HMax} {
						opt := goap.Options{Search: search, Heuristic: h, Profile: prof, Budget: 50000}
						a, errA := fast.Plan(nil, start, goal, opt)
						b, errB := general.Plan(nil, start, goal, opt)
						what := fmt.Sprintf("round %d (%d facts, %s) goal %s %v %v", i, n, reg.name, goal.Name(), search, h)
						if fmt.Sprint(samePath(a)) != fmt.Sprint(samePath(b)) || (errA == nil) != (errB == nil) {
							t.Fatalf("%s: fast %+v %v, general %+v %v", what, a, errA, b, errB)
						}
						if a.Status == goap.LimitReached && a.Bound != goap.BoundDepth && search == goap.Backward {
							continue
						}
						if a.Status != want.Status || !revSame(a.Cost, want.Cost, reg.exact && !funcs) {
							t.Fatalf("%s: %v cost %g, Dijkstra %v %g", what, a.Status, a.Cost, want.Status, want.Cost)
						}
					}
				}
			}
		}
	}
}

// costlyEstimates is a domain where every GoalCost estimate is dear: its
// goal fact has 3 000 achievers that all need a fact that is cheap in the
// relaxation and never reached, and 3 000 other actions change unrelated
// facts, so that every successor's estimate scans the achievers.
func costlyEstimates(t testing.TB) (*goap.Domain, *goap.Goal) {
	spec := goap.Spec{Name: "w", Initial: map[string]bool{}}
	for i := 0; i < 42; i++ {
		spec.Facts = append(spec.Facts, revFact(i))
	}
	// f1 needs f41, which needs f40, which needs f41: never reached, but
	// each is cheap in the relaxation.
	spec.Actions = append(spec.Actions,
		goap.ActionSpec{Name: "setq", Preconditions: map[string]bool{"f41": true}, Effects: map[string]bool{"f1": true}, Cost: goap.Const(1024)},
		goap.ActionSpec{Name: "fin", Preconditions: map[string]bool{"f40": true}, Effects: map[string]bool{"f41": true}, Cost: goap.Const(1)},
		goap.ActionSpec{Name: "mk", Preconditions: map[string]bool{"f41": true}, Effects: map[string]bool{"f40": true}, Cost: goap.Const(1)})
	for a := 0; a < 3000; a++ {
		spec.Actions = append(spec.Actions, goap.ActionSpec{Name: fmt.Sprintf("ach%d", a), Preconditions: map[string]bool{"f1": true}, Effects: map[string]bool{"f0": true}, Cost: goap.Const(float64(1 + a%1000))})
	}
	for a := 0; a < 3000; a++ {
		spec.Actions = append(spec.Actions, goap.ActionSpec{Name: fmt.Sprintf("noise%d", a), Effects: map[string]bool{revFact(2 + a%38): a%76 < 38}, Cost: goap.Const(1)})
	}
	spec.Goals = []goap.GoalSpec{{Name: "g", Conditions: map[string]bool{"f0": true}}}
	d := mustDomain(t, spec)
	return d, d.Goal("g")
}

// TestGoalCostEstimatesCountAsWork: GoalCost's estimates count against
// MaxWork, so that under one work limit a search whose estimates are dear
// stops sooner than the same search under the goal count (they were once
// uncounted: 476 expansions under either, and a hundred times the
// time under GoalCost).
func TestGoalCostEstimatesCountAsWork(t *testing.T) {
	d, goal := costlyEstimates(t)
	expanded := map[goap.Heuristic]int{}
	for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost} {
		res, err := goap.NewPlanner(d).Plan(nil, d.NewState(), goal, goap.Options{Heuristic: h, MaxWork: 1 << 24, Budget: 1 << 30})
		var se *goap.SearchError
		if !errors.As(err, &se) || se.Bound != goap.BoundWork {
			t.Fatalf("%v: %+v %v: want the work limit reached", h, res, err)
		}
		expanded[h] = res.Expanded
	}
	t.Logf("expanded: goal count %d, GoalCost %d", expanded[goap.GoalCount], expanded[goap.GoalCost])
	if expanded[goap.GoalCost] >= expanded[goap.GoalCount] {
		t.Errorf("under a work limit of 2^24, GoalCost expanded %d states and the goal count %d: its estimates are not counted", expanded[goap.GoalCost], expanded[goap.GoalCount])
	}
}

// BenchmarkGoalCostWork times the searches of TestGoalCostEstimatesCountAsWork
// under a work limit of 2^20: the limit bounds the time of both.
func BenchmarkGoalCostWork(b *testing.B) {
	d, goal := costlyEstimates(b)
	p := goap.NewPlanner(d)
	for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost} {
		b.Run(h.String(), func(b *testing.B) {
			for b.Loop() {
				p.Plan(nil, d.NewState(), goal, goap.Options{Heuristic: h, MaxWork: 1 << 20, Budget: 1 << 30})
			}
		})
	}
}
