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

// TestHasCostFuncs: a domain says whether any of its actions is priced by
// the game's code, wherever that action is; a domain of numbers says no.
func TestHasCostFuncs(t *testing.T) {
	plain, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	if plain.HasCostFuncs() {
		t.Error("the survivor, priced by numbers, says it has cost functions")
	}
	for i := range domains.Survivor().Actions {
		spec := domains.Survivor()
		spec.Actions[i].CostFunc = func(*resolver.Snapshot) float64 { return 1 }
		d, err := resolver.NewDomain(spec)
		if err != nil {
			t.Fatal(err)
		}
		if !d.HasCostFuncs() {
			t.Errorf("a cost function on action %d (%s): HasCostFuncs is false", i, spec.Actions[i].Name)
		}
	}
}
