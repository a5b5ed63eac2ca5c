package pddl_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/pddl"
)

func loadADL(t testing.TB, dir string, in adlInstance) (*pddl.Domain, *pddl.Problem) {
	t.Helper()
	d, p, err := pddl.ReadPair(filepath.Join(dir, in.dir, in.domain), filepath.Join(dir, in.dir, in.problem))
	if err != nil {
		t.Fatal(err)
	}
	return d, p
}

// quickADL are the ADL instances solved by default, each in well under
// a second even under the race detector; .ci/run solves them all.
var quickADL = map[string]bool{
	"miconic-simpleadl/s1-0.pddl": true, "miconic-simpleadl/s2-0.pddl": true,
	"miconic-fulladl/f1-0.pddl": true, "miconic-fulladl/f2-0.pddl": true,
	"schedule/probschedule-2-0.pddl": true, "psr-middle/p01-s17-n2-l2-f30.pddl": true,
	"psr-middle/p02-s23-n2-l3-f70.pddl": true, "pathways/p01.pddl": true,
	"rubiks-cube-opt23-adl/p01.pddl": true, "rubiks-cube-opt23-adl/p02.pddl": true,
	"trucks/p01.pddl": true,
}

// TestADLInstancesSolveOptimally solves the competition's ADL instances
// with the default configuration, as `ploy plan` does, and checks each
// plan three ways: its cost is the known optimum, it replays on the
// grounded task, and it replays on the PDDL itself (pddl.Replay, which
// shares no code with grounding). The time each takes is logged, never
// asserted: docs/pddl.md gives the figures.
func TestADLInstancesSolveOptimally(t *testing.T) {
	dir, all := adlInstances(t)
	if len(all) != 26 {
		t.Errorf("instances.tsv lists %d instances, want 26", len(all))
	}
	for _, in := range all {
		t.Run(in.name(), func(t *testing.T) {
			if !allInstances && !quickADL[in.name()] || race.Enabled && !quickADL[in.name()] {
				t.Skip("set PLOY_PDDL_ALL=1 to solve every instance (.ci/run does)")
			}
			d, p := loadADL(t, dir, in)
			g, res, took := solveChecked(t, d, p, in.optimal)
			t.Logf("cost %d by %s: %d expanded (reference blind %d, LM-cut %d), %d facts, %d operators, %d axioms, %v",
				res.Cost, res.Heuristic, res.Expanded, in.fdBlind, in.fdLMCut, len(g.Task.Facts), len(g.Task.Ops), len(g.Task.Axioms), took.Round(time.Millisecond))
		})
	}
}
