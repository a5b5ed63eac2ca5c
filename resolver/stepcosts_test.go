package resolver_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// TestStepCostsSumToTheChainsCost: on random domains, snapshots and
// profiles, the costs StepCosts gives each step of a found chain add up to
// the cost the resolve found it at, and each is positive.
func TestStepCostsSumToTheChainsCost(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	found := 0
	for round := range 1500 {
		spec, w, profSpec := randomCase(r)
		d, err := resolver.NewDomain(spec)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		var prof *resolver.Profile
		if profSpec.Capabilities != nil {
			if prof, err = d.NewProfile(profSpec); err != nil {
				t.Fatal(err)
			}
		}
		snap := caseSnapshot(t, d, w)
		rs := resolver.NewResolver(d)
		opt := resolver.Options{Profile: prof}
		for _, g := range d.Goals() {
			res, _ := rs.Resolve(nil, snap, g, opt)
			if res.Status != resolver.Found || len(res.Chain) == 0 {
				continue
			}
			found++
			costs := d.StepCosts(nil, res.Chain, snap, opt)
			if len(costs) != len(res.Chain) {
				t.Fatalf("round %d: %d costs for a chain of %d", round, len(costs), len(res.Chain))
			}
			sum := 0.0
			for i, c := range costs {
				if !(c > 0) {
					t.Errorf("round %d: step %d (%s) costs %g", round, i, d.ActionName(res.Chain[i]), c)
				}
				sum += c
			}
			if math.Abs(sum-res.Cost) > 1e-9*math.Max(1, res.Cost) {
				t.Fatalf("round %d, goal %s: chain %s costs %g in steps %v (sum %g); the resolve says %g", round, g.Name(), d.FormatChain(res.Chain), sum, costs, sum, res.Cost)
			}
		}
	}
	if found < 200 {
		t.Errorf("only %d chains found: the test proves little", found)
	}
}

// TestStepCostsRefusesAnActionOfAnotherDomain: an action ID out of the
// domain's range panics naming it, not with an index out of range.
func TestStepCostsRefusesAnActionOfAnotherDomain(t *testing.T) {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []resolver.ActionID{-1, resolver.ActionID(d.NumActions())} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "is not one of domain") {
					t.Errorf("action %d: panic %q", a, msg)
				}
			}()
			d.StepCosts(nil, []resolver.ActionID{a}, d.NewSnapshot(), resolver.Options{})
		}()
	}
}

// TestResolveGivesTheStepCostsStepCostsCounts: a resolve asked for its
// chain's step costs (Options.StepCosts) gives, bit for bit, what
// Domain.StepCosts counts for the chain it found, and none when it finds
// none, whole or a slice at a time, after a chain already in dst, with
// straight lines and with a grid's distances, into a slice that held
// another resolve's costs.
func TestResolveGivesTheStepCostsStepCostsCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	found, notFound := 0, 0
	costs := []float64{-1, -2, -3} // another resolve's, to be emptied
	for round := range 800 {
		spec, w, profSpec := randomCase(r)
		d, err := resolver.NewDomain(spec)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		var prof *resolver.Profile
		if profSpec.Capabilities != nil {
			if prof, err = d.NewProfile(profSpec); err != nil {
				t.Fatal(err)
			}
		}
		snap := caseSnapshot(t, d, w)
		opt := resolver.Options{Profile: prof}
		if round%2 == 1 {
			opt.Distance, _ = randomGrid(r)
		}
		rs := resolver.NewResolver(d)
		slice := r.IntN(4) // chains a slice; 0: the whole resolve at once
		if slice == 0 {
			slice = math.MaxInt
		}
		prefix := []resolver.ActionID{0, 0}[:r.IntN(3)]
		for _, g := range d.Goals() {
			asked := opt
			asked.StepCosts = &costs
			rs.Begin(append([]resolver.ActionID(nil), prefix...), snap, g, asked)
			for !rs.Continue(slice) {
				if slice == math.MaxInt {
					t.Fatal("a resolve without slices stopped before its end")
				}
			}
			res, _ := rs.Result()
			if res.Status != resolver.Found {
				notFound++
				if len(costs) != 0 {
					t.Fatalf("round %d, goal %s: %s, yet step costs %v", round, g.Name(), res.Status, costs)
				}
				continue
			}
			found++
			chain := res.Chain[len(prefix):]
			want := d.StepCosts(nil, chain, snap, opt)
			if len(costs) != len(want) {
				t.Fatalf("round %d, goal %s: %d step costs for a chain of %d", round, g.Name(), len(costs), len(chain))
			}
			for i := range want {
				if math.Float64bits(costs[i]) != math.Float64bits(want[i]) {
					t.Fatalf("round %d, goal %s, chain %s: step costs %v, StepCosts counts %v", round, g.Name(), d.FormatChain(chain), costs, want)
				}
			}
		}
	}
	if found < 200 || notFound < 20 {
		t.Fatalf("%d resolves found a chain and %d none: too few of either to tell", found, notFound)
	}
}

// TestStepCostsOfInterleavedResolvesSharingASlice: two resolves a slice
// at a time, begun one after the other with one StepCosts slice, each
// end with their own chain's costs only: a resolve sets the slice when
// it ends, whatever another did to it since it began.
func TestStepCostsOfInterleavedResolvesSharingASlice(t *testing.T) {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	snap := d.NewSnapshot()
	for i := range snap.Targets {
		snap.Targets[i] = resolver.Target{At: resolver.Point{X: float64(2 * i), Y: 1}, Found: true}
	}
	h, _ := d.Key("hunger")
	snap.Values[h] = 90
	var costs []float64
	a, b := resolver.NewResolver(d), resolver.NewResolver(d)
	a.Begin(nil, snap, d.Goal("Warm"), resolver.Options{StepCosts: &costs})
	b.Begin(nil, snap, d.Goal("Fed"), resolver.Options{StepCosts: &costs})
	for _, rs := range []*resolver.Resolver{a, b} {
		for !rs.Continue(1) {
		}
		res, err := rs.Result()
		if err != nil || res.Status != resolver.Found {
			t.Fatalf("%v, %v: want a chain", res.Status, err)
		}
		want := d.StepCosts(nil, res.Chain, snap, resolver.Options{})
		if len(costs) != len(want) {
			t.Fatalf("chain %s: step costs %v, want %v", d.FormatChain(res.Chain), costs, want)
		}
		for i := range want {
			if costs[i] != want[i] {
				t.Fatalf("chain %s: step costs %v, want %v", d.FormatChain(res.Chain), costs, want)
			}
		}
	}
}
