package pddl_test

import (
	"os"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// allInstances, set by .ci/run, makes TestSharedInstancesSolveOptimally
// solve all 21 instances (about a minute and a half without the race
// detector); by default it solves those that take well under a second.
var allInstances = os.Getenv("PLOY_PDDL_ALL") != ""

// quick are the instances solved by default: each in well under a second
// with the default configuration, even under the race detector.
var quick = map[string]bool{
	"gripper/prob01.pddl": true, "blocks/probBLOCKS-4-0.pddl": true,
	"logistics00/probLOGISTICS-4-0.pddl": true, "miconic/s1-0.pddl": true,
	"miconic/s8-0.pddl": true, "depot/p02.pddl": true, "driverlog/p03.pddl": true,
	"rovers/p03.pddl": true, "transport-opt08-strips/p02.pddl": true,
	"woodworking-opt08-strips/p01.pddl": true, "parcprinter-opt11-strips/p01.pddl": true,
	"sokoban-opt08-strips/p01.pddl": true, "elevators-opt08-strips/p01.pddl": true,
}

// TestSharedInstancesSolveOptimally solves competition instances with the
// default configuration and checks each plan three ways: its cost is the
// known optimum, it replays on the grounded task, and it replays on the
// PDDL itself (pddl.Replay, which shares no code with grounding).
func TestSharedInstancesSolveOptimally(t *testing.T) {
	all := instances(t)
	optimal := optimalCosts(t)
	for _, in := range all {
		name := in.dir + "/" + in.problem
		t.Run(name, func(t *testing.T) {
			if !allInstances && !quick[name] {
				t.Skip("set PLOY_PDDL_ALL=1 to solve every instance (.ci/run does)")
			}
			domSrc, probSrc := readInstance(t, in)
			d, err := pddl.ParseDomain(in.domain, domSrc)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pddl.ParseProblem(in.problem, probSrc)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Check(d); err != nil {
				t.Fatal(err)
			}
			_, res, took := solveChecked(t, d, p, optimal[name])
			t.Logf("cost %d by %s: %d expanded, %d evaluated, %d states, %d MiB, %v",
				res.Cost, res.Heuristic, res.Expanded, res.Evaluated, res.States, res.Bytes>>20, took.Round(time.Millisecond))
		})
	}
}

// solveChecked grounds p and solves it with the default configuration,
// under the pddl command's memory limit (not the library's smaller
// default), and checks the plan three ways: its cost is want, it replays
// on the grounded task, and it replays on the PDDL itself (pddl.Replay,
// which shares no code with grounding). It returns the grounding, the
// result and the time both took.
func solveChecked(t *testing.T, d *pddl.Domain, p *pddl.Problem, want int64) (*pddl.Grounding, strips.Result, time.Duration) {
	t.Helper()
	begin := time.Now()
	g, err := pddl.Ground(d, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Task.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := strips.Search(g.Task, strips.Options{Limits: search.Limits{MaxBytes: 4 << 30}})
	if err != nil || res.Status != strips.Found {
		t.Fatalf("%s, %v after %d expansions", res.Status, err, res.Expanded)
	}
	took := time.Since(begin)
	if res.Cost != want {
		t.Errorf("cost %d, want the optimum %d", res.Cost, want)
	}
	if cost, err := g.Task.Replay(res.Plan); err != nil || cost != res.Cost {
		t.Errorf("the plan replays on the grounded task to %d, %v; the search said %d", cost, err, res.Cost)
	}
	var lines []string
	for _, a := range res.Plan {
		lines = append(lines, g.Task.Ops[a].Name)
	}
	if cost, err := pddl.Replay(d, p, lines); err != nil || cost != res.Cost {
		t.Errorf("the plan replays on the PDDL to %d, %v; the search said %d", cost, err, res.Cost)
	}
	return g, res, took
}
