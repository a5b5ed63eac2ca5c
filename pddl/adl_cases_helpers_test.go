package pddl_test

// Small ADL cases, each built to hit one transformation of the grounder
// (from the adversarial review of issue 27): each compares the grounder
// (Ground, then Dijkstra on the task, the default search, and Replay of
// its plan) with the PDDL semantics (pddl.LiftedOptimalCost, Replay's).

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/strips"
)

// adlCheck grounds dom/prob and compares its optimal cost with the
// lifted oracle's; the default search's plan must replay at that cost.
func adlCheck(t *testing.T, dom, prob string) (want int64) {
	t.Helper()
	d, p := mustParse(t, dom, prob)
	want, ok, err := pddl.LiftedOptimalCost(d, p, 20000)
	if err != nil || !ok {
		t.Fatalf("oracle: %v, ok %v", err, ok)
	}
	g, err := pddl.Ground(d, p)
	if err != nil {
		t.Fatalf("ground: %v", err)
	}
	if err := g.Task.Validate(); err != nil {
		t.Fatalf("validate: %v", err)
	}
	got, _, ok := dijkstra(g.Task, 1<<20)
	if !ok {
		t.Fatal("dijkstra gave up")
	}
	if got != want {
		t.Fatalf("optimal cost %d on the ground task (%d facts, %d ops, %d axioms; unsolvable %q), %d on the PDDL",
			got, len(g.Task.Facts), len(g.Task.Ops), len(g.Task.Axioms), g.Unsolvable, want)
	}
	if want < 0 {
		return want
	}
	searchAndReplay(t, d, p, g, want)
	return want
}

// searchAndReplay solves g's task with the default configuration, which
// must find a plan of cost want that replays on the PDDL at that cost.
func searchAndReplay(t *testing.T, d *pddl.Domain, p *pddl.Problem, g *pddl.Grounding, want int64) {
	t.Helper()
	res, err := strips.Search(g.Task, strips.Options{})
	if err != nil || res.Status != strips.Found || res.Cost != want {
		t.Fatalf("search: %s, cost %d, %v; want %d", res.Status, res.Cost, err, want)
	}
	var lines []string
	for _, a := range res.Plan {
		lines = append(lines, g.Task.Ops[a].Name)
	}
	if cost, err := pddl.Replay(d, p, lines); err != nil || cost != want {
		t.Fatalf("the plan %v replays on the PDDL to %d, %v; want %d", lines, cost, err, want)
	}
}

// objs names n objects "o0 ... o(n-1)".
func adlObjs(n int) string {
	var s []string
	for i := range n {
		s = append(s, fmt.Sprintf("o%d", i))
	}
	return strings.Join(s, " ")
}
