package goap_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// oracle computes least costs by brute force over every state of a small
// domain, reading the Spec and the ProfileSpec themselves, never the
// compiled Domain or Profile, so that a compilation bug (a negative
// precondition dropped, a rule's condition mis-read) shows as a
// disagreement instead of fooling planner and oracle alike. A state is a
// bit mask over spec.Facts in order (the Domain's documented fact order);
// action i is spec.Actions[i].
type oracle struct {
	spec  goap.Spec
	prof  goap.ProfileSpec
	n     int
	index map[string]int
}

func newOracle(spec goap.Spec, prof goap.ProfileSpec) *oracle {
	o := &oracle{spec: spec, prof: prof, n: len(spec.Facts), index: map[string]int{}}
	for i, f := range spec.Facts {
		o.index[f] = i
	}
	return o
}

// holds reports whether every fact of cond has its value in state s.
func (o *oracle) holds(cond map[string]bool, s uint64) bool {
	for name, v := range cond {
		if (s>>o.index[name]&1 == 1) != v {
			return false
		}
	}
	return true
}

// step returns the state after action a in s and its cost, or ok false if
// the agent cannot do it there.
func (o *oracle) step(a int, s uint64) (next uint64, cost float64, ok bool) {
	act := o.spec.Actions[a]
	if slices.Contains(o.prof.Incapable, act.Name) || !o.holds(act.Preconditions, s) {
		return 0, 0, false
	}
	next = s
	for name, v := range act.Effects {
		next &^= 1 << o.index[name]
		if v {
			next |= 1 << o.index[name]
		}
	}
	c := act.Cost
	if pc, ok := o.prof.Costs[act.Name]; ok {
		c = pc
	}
	if v, ok := c.Constant(); ok {
		return next, v, true
	}
	rules, otherwise, ok := c.RuleList()
	if !ok {
		panic("oracle: only constant and rule-list costs")
	}
	for _, r := range rules {
		if o.holds(r.When, s) {
			return next, r.Cost, true
		}
	}
	return next, otherwise, true
}

// costs returns best[k][s], the least cost of reaching a goal state from s
// in at most k steps (k up to maxDepth); best[2^n] is the unbounded
// optimum (no shortest simple path is longer).
func (o *oracle) costs(goal map[string]bool, maxDepth int) [][]float64 {
	states := 1 << o.n
	inf := math.Inf(1)
	best := make([][]float64, maxDepth+1)
	best[0] = make([]float64, states)
	for s := range states {
		if o.holds(goal, uint64(s)) {
			best[0][s] = 0
		} else {
			best[0][s] = inf
		}
	}
	for k := 1; k <= maxDepth; k++ {
		best[k] = append([]float64(nil), best[k-1]...)
		changed := false
		for s := range states {
			for a := range o.spec.Actions {
				next, c, ok := o.step(a, uint64(s))
				if ok && c+best[k-1][next] < best[k][s] {
					best[k][s] = c + best[k-1][next]
					changed = true
				}
			}
		}
		if !changed { // a fixpoint: no longer plan is cheaper
			for k++; k <= maxDepth; k++ {
				best[k] = best[k-1]
			}
		}
	}
	return best
}

// from returns the least cost of reaching each state from start.
func (o *oracle) from(start uint64) []float64 {
	dist := make([]float64, 1<<o.n)
	for s := range dist {
		dist[s] = math.Inf(1)
	}
	dist[start] = 0
	for changed := true; changed; {
		changed = false
		for s := range dist {
			if math.IsInf(dist[s], 1) {
				continue
			}
			for a := range o.spec.Actions {
				if next, c, ok := o.step(a, uint64(s)); ok && dist[s]+c < dist[next] {
					dist[next] = dist[s] + c
					changed = true
				}
			}
		}
	}
	return dist
}

// simulate runs plan from s and returns the final state and total cost,
// or ok false if a step cannot be done.
func (o *oracle) simulate(s uint64, plan []goap.ActionID) (end uint64, total float64, ok bool) {
	for _, a := range plan {
		next, c, ok := o.step(int(a), s)
		if !ok {
			return s, total, false
		}
		s, total = next, total+c
	}
	return s, total, true
}

// checkAdmissible traces a search from start under each heuristic and
// checks every node's estimate against the true remaining cost: forward,
// the state's cost to the goal (best); backward, the cost from start to
// the cheapest state meeting the partial state (dist). An estimate made
// inadmissible anywhere shows on the first domain, not only when it
// happens to change a plan's cost. It checks that the estimates are
// consistent along every edge the search made, too.
func (o *oracle) checkAdmissible(t *testing.T, name string, p *goap.Planner, prof *goap.Profile, goal *goap.Goal, start uint64, best, dist []float64) {
	t.Helper()
	for _, search := range searches {
		for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.HMax} {
			var tr goap.Trace
			if _, err := p.Plan(nil, goap.StateFromWords([]uint64{start}), goal, goap.Options{Search: search, Heuristic: h, Profile: prof, Trace: &tr}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i, n := range tr.Nodes {
				var want float64
				if search == goap.Forward {
					want = best[tr.State(int32(i)).Words()[0]]
				} else {
					want = math.Inf(1)
					c := tr.Partial(int32(i))
					for s, ds := range dist {
						if ds < want && c.Holds(goap.StateFromWords([]uint64{uint64(s)})) {
							want = ds
						}
					}
				}
				if n.H > want {
					t.Fatalf("%s %v %v: node #%d %s has h %g, above its true cost %g", name, search, h, i, tr.FormatNode(int32(i)), n.H, want)
				}
				// Consistent: along an edge, h drops by at most its cost.
				if n.Parent >= 0 {
					up := tr.Nodes[n.Parent]
					if step := n.G - up.G; up.H > step+n.H+1e-9 {
						t.Fatalf("%s %v %v: h %g at node #%d, %g at its successor #%d over a step of %g: not consistent", name, search, h, up.H, n.Parent, n.H, i, step)
					}
				}
			}
		}
	}
}

// randomProfile returns a random profile of d, or nil for the domain's
// own, and the spec it was made from.
func randomProfile(r *rand.Rand, d *goap.Domain) (*goap.Profile, goap.ProfileSpec) {
	return randomProfileWith(r, d, func(r *rand.Rand) goap.Cost {
		c := float64(1 + r.IntN(7))
		if r.IntN(2) == 0 {
			c += 0.5 // not a whole cost: the searches use their heap, and sums stay exact
		}
		return goap.Const(c)
	})
}

// randomProfileWith is randomProfile with the cost overrides drawn by costOf.
func randomProfileWith(r *rand.Rand, d *goap.Domain, costOf func(*rand.Rand) goap.Cost) (*goap.Profile, goap.ProfileSpec) {
	var spec goap.ProfileSpec
	if r.IntN(3) == 0 {
		return nil, spec
	}
	for a := 0; a < d.NumActions(); a++ {
		switch r.IntN(8) {
		case 0:
			spec.Incapable = append(spec.Incapable, d.ActionName(goap.ActionID(a)))
		case 1, 2:
			if spec.Costs == nil {
				spec.Costs = map[string]goap.Cost{}
			}
			spec.Costs[d.ActionName(goap.ActionID(a))] = costOf(r)
		}
	}
	p, err := d.NewProfile(spec)
	if err != nil {
		panic(err)
	}
	return p, spec
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
		spec := randdomain.Spec(r, cfg)
		d := mustDomain(t, spec)
		p = goap.NewPlanner(d)
		prof, profSpec := randomProfile(r, d)
		o := newOracle(spec, profSpec)
		full := 1 << cfg.Facts
		for gi, goal := range d.Goals() {
			best := o.costs(spec.Goals[gi].Conditions, full)
			for trial := 0; trial < 4; trial++ {
				start := goap.StateFromWords([]uint64{uint64(r.IntN(full))})
				s := start.Words()[0]
				if trial == 0 {
					o.checkAdmissible(t, fmt.Sprintf("domain %d goal %s start %s", i, goal.Name(), d.FormatState(start)), p, prof, goal, s, best[full], o.from(s))
				}
				for _, depth := range []int{0, 1 + r.IntN(4)} {
					want := best[full][s]
					if depth > 0 {
						want = best[depth][s]
					}
					for _, search := range searches {
						for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.HMax, goap.Blind} {
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
								if depth > 0 && !math.IsInf(best[full][s], 1) && (res.Status != goap.LimitReached || res.Bound != goap.BoundDepth) {
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
								end, c, ok := o.simulate(s, res.Plan)
								if !ok || c != res.Cost || !o.holds(spec.Goals[gi].Conditions, end) || (depth > 0 && len(res.Plan) > depth) {
									t.Fatalf("%s: plan %v simulates (ok %v) to cost %g ending in %b, reported %g", name, fixture.Names(d, res.Plan), ok, c, end, res.Cost)
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
