package domain_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// TestShippedEngineFilesAreTheGoSpecs proves survivor.yaml and
// shopkeeper.yaml are domains.Survivor() and domains.Shopkeeper(): the same
// spec field by field, the same compiled action graph, and the same chains
// and costs for every goal from the files' worlds and from variations of
// them.
func TestShippedEngineFilesAreTheGoSpecs(t *testing.T) {
	for _, c := range []struct {
		file string
		spec resolver.Spec
	}{{"survivor.yaml", domains.Survivor()}, {"shopkeeper.yaml", domains.Shopkeeper()}} {
		f := loadShipped(t, c.file)
		if !f.EngineModel() || f.GOAP != nil {
			t.Fatalf("%s: not loaded as an engine-model file", c.file)
		}
		if !reflect.DeepEqual(f.ResolverSpec, c.spec) {
			t.Errorf("%s: spec differs from the Go one:\nfile %+v\ngo   %+v", c.file, f.ResolverSpec, c.spec)
		}
		goSide, err := resolver.NewDomain(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fmt.Sprint(f.Resolver.Edges()), fmt.Sprint(goSide.Edges()); a != b {
			t.Errorf("%s: action graph %s, Go's %s", c.file, a, b)
		}
		// Every goal from the file's world and with each key flipped.
		worlds := []map[string]int64{f.World.Values}
		for _, k := range f.Resolver.Keys() {
			w := map[string]int64{}
			for n, v := range f.World.Values {
				w[n] = v
			}
			if k.Kind == resolver.Bool {
				w[k.Name] = 1 - w[k.Name]
			} else {
				w[k.Name] += 100
			}
			worlds = append(worlds, w)
		}
		for _, values := range worlds {
			for _, g := range f.Resolver.Goals() {
				a := chain(t, f.Resolver, values, f.World, g.Name())
				b := chain(t, goSide, values, f.World, g.Name())
				if a != b {
					t.Errorf("%s %s from %v: file %s, Go %s", c.file, g.Name(), values, a, b)
				}
			}
		}
	}
}

func chain(t *testing.T, d *resolver.Domain, values map[string]int64, w domain.World, goal string) string {
	t.Helper()
	s, err := d.SnapshotOf(values, w.At, w.Targets)
	if err != nil {
		t.Fatal(err)
	}
	res, err := resolver.NewResolver(d).Resolve(nil, s, d.Goal(goal), resolver.Options{})
	var names []string
	for _, a := range res.Chain {
		names = append(names, d.ActionName(a))
	}
	return fmt.Sprintf("%v %s cost %g %v", res.Status, strings.Join(names, " → "), res.Cost, err)
}

// TestShippedEngineWorldsShowTheSeedsPoint pins what each file's world is
// for: the cold survivor walks to the nearer wood pile, the shopkeeper
// fetches the ladder for the high shelf.
func TestShippedEngineWorldsShowTheSeedsPoint(t *testing.T) {
	for _, c := range []struct{ file, goal, want string }{
		{"survivor.yaml", "Warm", "found GatherWoodSouth → LightFire → WarmUp cost 9 <nil>"},
		{"survivor.yaml", "Fed", "found Forage → Eat cost 6.5 <nil>"},
		{"shopkeeper.yaml", "ServeCustomer", "found FetchLadder → PlaceLadder → TakeItem → HandOver cost 18 <nil>"},
	} {
		f := loadShipped(t, c.file)
		if got := chain(t, f.Resolver, f.World.Values, f.World, c.goal); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.file, c.goal, got, c.want)
		}
	}
}

func TestEngineFileWorld(t *testing.T) {
	f, err := domain.Parse("w.yaml", []byte(`name: w
keys: {n: int, b: bool}
initial: {n: -7, b: true}
at: [1.5, -2]
targets: {t: [3, 4]}
distance_cost: 2
actions:
  - {name: A, effects: {b: true}, cost: 1, target: t}
goals:
  - {name: G, conditions: {b: true, n: "> -9"}}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := domain.World{Values: map[string]int64{"n": -7, "b": 1}, At: resolver.Point{X: 1.5, Y: -2}, Targets: map[string]resolver.Point{"t": {X: 3, Y: 4}}}
	if !reflect.DeepEqual(f.World, want) || f.Resolver.DistanceCost() != 2 {
		t.Fatalf("world %+v, distance cost %g; want %+v, 2", f.World, f.Resolver.DistanceCost(), want)
	}
	if got := f.Resolver.Goal("G").Conditions(); !slices.Equal(got, []resolver.Condition{resolver.True("b"), resolver.Above("n", -9)}) {
		t.Fatalf("conditions %v", got)
	}
}

// TestEngineGraphIsBounded loads a file whose action graph would be
// quadratic: n actions setting one key, n goals wanting it. Past MaxEdges
// the loader refuses it, positioned, before building the graph; within,
// the count the loader made matches the graph built.
func TestEngineGraphIsBounded(t *testing.T) {
	file := func(n int) []byte {
		var sb strings.Builder
		sb.WriteString("name: big\nkeys: {k: bool, w: int}\nactions:\n")
		for i := range n {
			fmt.Fprintf(&sb, "  - {name: A%d, effects: {k: true, w: increase}, cost: 1}\n", i)
		}
		sb.WriteString("goals:\n")
		for i := range n {
			fmt.Fprintf(&sb, "  - {name: G%d, conditions: {k: true, w: \"> %d\"}}\n", i, i)
		}
		return []byte(sb.String())
	}
	f, err := domain.Parse("small.yaml", file(100))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Resolver.Edges()); got != 2*100*100 {
		t.Fatalf("%d edges, want %d", got, 2*100*100)
	}
	// 2·800·800 = 1 280 000 > MaxEdges.
	_, err = domain.Parse("big.yaml", file(800))
	if err == nil || !strings.Contains(err.Error(), "big.yaml:804:1: the action graph would have 1048577 edges") {
		t.Fatalf("got %v, want the graph refused at goals:", err)
	}
}
