package goap_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// estimatesKey is what a planner's estimate tables are made for: goal,
// profile, heuristic, direction and, for backward GoalCost, whose groups
// are the facts the start gets wrong, the start (else -1).
type estimatesKey struct {
	goal  *goap.Goal
	prof  *goap.Profile
	heur  goap.Heuristic
	dir   goap.Search
	start int
}

// TestCachedEstimatesChangeNothing: a planner keeps the estimate tables of
// the four keys it used last (estimates.go). One planner searching a random
// mix of goals, profiles, heuristics, directions and starts must give, at
// every search, exactly what a planner given only that key's searches
// gives (a new one whenever the key is not among the last four used, the
// cache having let it go), every statistic included, Work and PeakBytes
// too: the tables it finds kept, and the estimates of states kept with
// them, are those that planner would have. And, Work and PeakBytes
// aside (they depend on what a planner kept, see Result.Stats), what a
// new planner gives, unless a work limit stopped the search.
func TestCachedEstimatesChangeNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	heuristics := []goap.Heuristic{goap.GoalCost, goap.GoalCount, goap.HMax, goap.Blind}
	hits, misses := 0, 0
	domainsN, searchesN := 40, 120
	if testing.Short() {
		domainsN = 10
	}
	for i := 0; i < domainsN; i++ {
		cfg := randdomain.Small
		cfg.Goals = 3
		cfg.Facts = 4 + r.IntN(10) // mostly the dense path's (at most 12 facts)
		if i%4 == 3 {
			cfg.Facts = 13 + r.IntN(60)
		}
		d := mustDomain(t, randdomain.Spec(r, cfg))
		profiles := []*goap.Profile{nil}
		for range 2 {
			prof, _ := randomProfile(r, d)
			profiles = append(profiles, prof)
		}
		starts := make([]goap.State, 3)
		for k := range starts {
			starts[k] = d.NewState()
			for f := 0; f < cfg.Facts; f++ {
				starts[k].Set(goap.Fact(f), r.IntN(2) == 0)
			}
		}
		// A working set of a few keys, from which each search draws, so
		// that keys come back while cached and after being let go.
		type request struct {
			opt   goap.Options
			goal  *goap.Goal
			start int
		}
		pool := make([]request, 3+r.IntN(4))
		for k := range pool {
			pool[k] = request{
				opt: goap.Options{
					Search:    searches[r.IntN(len(searches))],
					Heuristic: heuristics[r.IntN(len(heuristics))],
					Profile:   profiles[r.IntN(len(profiles))],
					Budget:    2000,
				},
				goal:  d.Goals()[r.IntN(len(d.Goals()))],
				start: r.IntN(len(starts)),
			}
			// The general searches read the same tables.
			switch r.IntN(6) {
			case 0:
				pool[k].opt.MaxDepth = 1 + r.IntN(6)
			case 1:
				pool[k].opt.Trace = &goap.Trace{}
			}
		}
		cycling := goap.NewPlanner(d)
		shadows := map[estimatesKey]*goap.Planner{}
		var recent []estimatesKey // distinct keys, most recently used first
		for k := 0; k < searchesN; k++ {
			q := pool[r.IntN(len(pool))]
			if r.IntN(8) == 0 {
				q.start = r.IntN(len(starts)) // the same key from another start
			}
			if r.IntN(10) == 0 {
				q.opt.MaxWork = 1 + r.IntN(3000) // a search the work limit stops
			}
			start := starts[q.start]
			key := estimatesKey{goal: q.goal, prof: q.opt.Profile, heur: q.opt.Heuristic, dir: q.opt.Search, start: -1}
			if key.dir == goap.Backward && key.heur == goap.GoalCost {
				key.start = q.start
			}
			if at := slices.Index(recent, key); at >= 0 {
				recent = slices.Delete(recent, at, at+1)
				hits++
			} else {
				shadows[key] = goap.NewPlanner(d)
				misses++
			}
			recent = slices.Insert(recent, 0, key)
			if len(recent) > 4 {
				recent = recent[:4]
			}
			got, errGot := cycling.Plan(nil, start, q.goal, q.opt)
			want, errWant := shadows[key].Plan(nil, start, q.goal, q.opt)
			if fmt.Sprint(got, errGot) != fmt.Sprint(want, errWant) || cycling.Work() != shadows[key].Work() {
				t.Fatalf("domain %d search %d, goal %s %v %v start %d: cycling planner %+v %v (work %d), a planner of this key's searches only %+v %v (work %d)",
					i, k, q.goal.Name(), q.opt.Search, q.opt.Heuristic, q.start, got, errGot, cycling.Work(), want, errWant, shadows[key].Work())
			}
			if q.opt.MaxWork != 0 {
				// Kept estimates cost no work, so a work limit goes further
				// on a planner that kept them, as on one replanning a goal.
				continue
			}
			fresh, errFresh := goap.NewPlanner(d).Plan(nil, start, q.goal, q.opt)
			if fmt.Sprint(samePath(got)) != fmt.Sprint(samePath(fresh)) || fmt.Sprint(errGot != nil) != fmt.Sprint(errFresh != nil) {
				t.Fatalf("domain %d search %d, goal %s %v %v: cycling planner %+v %v, a new one %+v %v", i, k, q.goal.Name(), q.opt.Search, q.opt.Heuristic, got, errGot, fresh, errFresh)
			}
		}
	}
	// The test means something only if keys came back both while kept and
	// after being let go.
	t.Logf("%d hits, %d misses", hits, misses)
	if hits < domainsN*searchesN/4 || misses < domainsN*searchesN/10 {
		t.Errorf("%d searches found their key's tables kept, %d did not: want many of each", hits, misses)
	}
}
