package cli

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/resolver"
)

// TestChainStepsAddUpToTheCost: ploy resolve prints each action's cost
// and its share of the distance; on random engine-model files with
// targets, actions with and without them and distance costs, the shares
// add up to the cost the resolver found.
func TestChainStepsAddUpToTheCost(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	found := 0
	for n := range 300 {
		var sb strings.Builder
		keys := 4
		fmt.Fprintf(&sb, "name: r%d\nkeys: {", n)
		for k := range keys {
			if k > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "b%d: bool", k)
		}
		fmt.Fprintf(&sb, "}\ndistance_cost: %g\nat: [%d, %d]\n", 0.25+rng.Float64(), rng.IntN(9), rng.IntN(9))
		var actions strings.Builder
		used := map[int]bool{}
		for a := range 6 {
			fmt.Fprintf(&actions, "  - name: A%d\n    cost: %d\n", a, 1+rng.IntN(5))
			if c := rng.IntN(keys + 1); c < keys {
				fmt.Fprintf(&actions, "    conditions: {b%d: true}\n", c)
			}
			fmt.Fprintf(&actions, "    effects: {b%d: true}\n", rng.IntN(keys))
			if tg := rng.IntN(4); tg < 3 {
				fmt.Fprintf(&actions, "    target: t%d\n", tg)
				used[tg] = true
			}
		}
		sb.WriteString("targets:\n")
		for tg := range 3 {
			if used[tg] {
				fmt.Fprintf(&sb, "  t%d: [%d, %d]\n", tg, rng.IntN(9), rng.IntN(9))
			}
		}
		sb.WriteString("actions:\n" + actions.String())
		fmt.Fprintf(&sb, "goals:\n  - {name: G, conditions: {b%d: true}}\n", rng.IntN(keys))
		f, err := domain.Parse("r.yaml", []byte(sb.String()))
		if err != nil {
			t.Fatalf("%s\n%s", domain.Format(err, []byte(sb.String())), sb.String())
		}
		d := f.Resolver
		snap, err := d.SnapshotOf(f.World.Values, f.World.At, f.World.Targets)
		if err != nil {
			t.Fatal(err)
		}
		pr := engineProblem{f: f, d: d, snap: snap, goal: d.Goal("G")}
		res, _ := resolver.NewResolver(d).Resolve(nil, snap, pr.goal, resolver.Options{})
		if res.Status != resolver.Found {
			continue
		}
		found++
		sum := 0.0
		for _, s := range chainSteps(pr, res.Chain) {
			sum += s.cost + s.distance
		}
		if math.Abs(sum-res.Cost) > 1e-9*max(1, res.Cost) {
			t.Errorf("steps of %s add up to %g, the resolver's cost is %g\n%s", d.FormatChain(res.Chain), sum, res.Cost, sb.String())
		}
	}
	if found < 50 {
		t.Errorf("only %d of 300 random files had a chain", found)
	}
}
