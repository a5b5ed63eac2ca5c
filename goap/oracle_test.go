package goap_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/fixture"
	"github.com/ploy-ai/ploy/internal/randdomain"
)

// oracle computes least costs by brute force over every state of a small
// domain: best[k][s] is the least cost of reaching a goal state from s in at
// most k steps (k up to maxDepth), and best[maxDepth] with maxDepth = 2^n
// is the unbounded optimum (no shortest simple path is longer).
type oracle struct {
	d    *goap.Domain
	prof *goap.Profile
	n    int
}

func (o oracle) costs(goal *goap.Goal, maxDepth int) [][]float64 {
	states := 1 << o.n
	inf := math.Inf(1)
	best := make([][]float64, maxDepth+1)
	best[0] = make([]float64, states)
	for s := range states {
		if goal.Holds(goap.StateFromWords([]uint64{uint64(s)})) {
			best[0][s] = 0
		} else {
			best[0][s] = inf
		}
	}
	for k := 1; k <= maxDepth; k++ {
		best[k] = append([]float64(nil), best[k-1]...)
		for s := range states {
			st := goap.StateFromWords([]uint64{uint64(s)})
			for a := goap.ActionID(0); int(a) < o.d.NumActions(); a++ {
				if !o.prof.Capable(a) || !o.d.Applicable(a, st) {
					continue
				}
				next := goap.StateFromWords([]uint64{uint64(s)})
				o.d.Apply(a, next)
				if c := o.prof.CostIn(a, st) + best[k-1][next.Words()[0]]; c < best[k][s] {
					best[k][s] = c
				}
			}
		}
	}
	return best
}

func randomProfile(r *rand.Rand, d *goap.Domain) *goap.Profile {
	var spec goap.ProfileSpec
	if r.IntN(3) == 0 {
		return nil
	}
	for a := 0; a < d.NumActions(); a++ {
		switch r.IntN(8) {
		case 0:
			spec.Incapable = append(spec.Incapable, d.ActionName(goap.ActionID(a)))
		case 1, 2:
			if spec.Costs == nil {
				spec.Costs = map[string]goap.Cost{}
			}
			c := float64(1 + r.IntN(7))
			if r.IntN(2) == 0 {
				c += 0.5 // not a whole cost: the searches use their heap, and sums stay exact
			}
			spec.Costs[d.ActionName(goap.ActionID(a))] = goap.Const(c)
		}
	}
	p, err := d.NewProfile(spec)
	if err != nil {
		panic(err)
	}
	return p
}

// TestAgainstBruteForce checks forward and backward search, under every
// heuristic, with and without depth limits and profiles, against the
// oracle on random domains: plans are valid, reach the goal within the
// limit, cost what the search says, and that cost is the optimum.
func TestAgainstBruteForce(t *testing.T) {
	domainsN := 300
	if testing.Short() {
		domainsN = 60
	}
	r := rand.New(rand.NewPCG(2026, 11))
	cfg := randdomain.Small
	p := (*goap.Planner)(nil)
	checked, found := 0, 0
	for i := 0; i < domainsN; i++ {
		d := mustDomain(t, randdomain.Spec(r, cfg))
		p = goap.NewPlanner(d)
		prof := randomProfile(r, d)
		o := oracle{d: d, prof: prof, n: cfg.Facts}
		if prof == nil {
			o.prof = d.DefaultProfile()
		}
		full := 1 << cfg.Facts
		for _, goal := range d.Goals() {
			best := o.costs(goal, full)
			for trial := 0; trial < 4; trial++ {
				start := goap.StateFromWords([]uint64{uint64(r.IntN(full))})
				s := start.Words()[0]
				for _, depth := range []int{0, 1 + r.IntN(4)} {
					want := best[full][s]
					if depth > 0 {
						want = best[depth][s]
					}
					for _, search := range searches {
						for _, h := range []goap.Heuristic{goap.GoalCount, goap.HMax, goap.Blind} {
							opt := goap.Options{Search: search, Heuristic: h, Profile: prof, MaxDepth: depth}
							name := fmt.Sprintf("domain %d goal %s start %s depth %d %v %v", i, goal.Name(), d.FormatState(start), depth, search, h)
							res, err := p.Plan(nil, start, goal, opt)
							checked++
							switch {
							case math.IsInf(want, 1) && res.Status == goap.Found:
								t.Fatalf("%s: found %v cost %g, oracle says unreachable", name, fixture.Names(d, res.Plan), res.Cost)
							case math.IsInf(want, 1):
								if depth == 0 && (res.Status != goap.NoPlan || err != nil) {
									t.Fatalf("%s: %v %v, want no plan", name, res.Status, err)
								}
								if depth > 0 && !math.IsInf(best[full][s], 1) && res.Status != goap.DepthExceeded {
									t.Fatalf("%s: %v, want depth exceeded (a plan of cost %g exists beyond the limit)", name, res.Status, best[full][s])
								}
							default:
								found++
								if res.Status != goap.Found || err != nil {
									t.Fatalf("%s: %v %v, oracle cost %g", name, res.Status, err, want)
								}
								if res.Cost != want {
									t.Fatalf("%s: cost %g, optimum %g (plan %v)", name, res.Cost, want, fixture.Names(d, res.Plan))
								}
								end, c := simulate(t, d, prof, start, res.Plan)
								if c != res.Cost || !goal.Holds(end) || (depth > 0 && len(res.Plan) > depth) {
									t.Fatalf("%s: plan %v simulates to cost %g goal %v, reported %g", name, fixture.Names(d, res.Plan), c, goal.Holds(end), res.Cost)
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d searches checked, %d with a plan", checked, found)
}
