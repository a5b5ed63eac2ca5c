package pddl_test

import (
	stderrors "errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// TestReplayADLInstances checks plans written by hand for competition
// ADL instances, from their files: optimal plans at the optimum of
// instances.tsv, a longer valid one at its cost, and wrong ones refused at
// the step that goes wrong, each exercising a part of ADL the instance
// uses.
func TestReplayADLInstances(t *testing.T) {
	dir, _ := adlInstances(t)
	miconic := []string{"(up f0 f1)", "(stop f1)", "(down f1 f0)", "(stop f0)"}
	citycar := []string{
		"(build_straight_oneway junction0-1 junction1-1 road0)",
		"(car_start junction0-1 car0 garage0)",
		"(move_car_in_road junction0-1 junction1-1 car0 road0)",
		"(move_car_out_road junction0-1 junction1-1 car0 road0)",
		"(car_arrived junction1-1 car0)",
		"(car_start junction0-1 car1 garage0)",
		"(move_car_in_road junction0-1 junction1-1 car1 road0)",
		"(move_car_out_road junction0-1 junction1-1 car1 road0)",
		"(build_straight_oneway junction1-1 junction1-0 road1)",
		"(move_car_in_road junction1-1 junction1-0 car1 road1)",
		"(move_car_out_road junction1-1 junction1-0 car1 road1)",
		"(car_arrived junction1-0 car1)",
	}
	for _, c := range []struct {
		dir, domain, problem string
		plan                 []string
		cost                 int64
		err                  string
	}{
		// A when in a forall: boarding at f1 must not serve in the same
		// stop, as the first forall reads the state before it.
		{"miconic-simpleadl", "domain.pddl", "s1-0.pddl", miconic, 4, ""},
		{"miconic-simpleadl", "domain.pddl", "s1-0.pddl", []string{"(up f0 f1)", "(down f1 f0)", "(stop f0)"}, 0,
			"the goal does not hold after the plan's 3 steps: (served p0) at " + filepath.Join(dir, "miconic-simpleadl", "s1-0.pddl") + ":28:1 is false"},
		{"miconic-simpleadl", "domain.pddl", "s1-0.pddl", []string{"(down f0 f1)"}, 0,
			"step 1 (down f0 f1): the precondition does not hold: (above f1 f0) at " + filepath.Join(dir, "miconic-simpleadl", "domain.pddl") + ":58:36 is false"},
		// imply, exists, or and forall in the precondition; a forall goal.
		{"miconic-fulladl", "domain.pddl", "f1-0.pddl", miconic, 4, ""},
		{"miconic-fulladl", "domain.pddl", "f1-0.pddl", miconic[:3], 0,
			"the goal does not hold after the plan's 3 steps: (forall (?p - passenger) (served ?p)) at " + filepath.Join(dir, "miconic-fulladl", "f1-0.pddl") + ":28:8 is false for ?p = p0"},
		// Four whens a face, each moving a cubie to where the next
		// one's condition looks: all must read the state before.
		{"rubiks-cube-opt23-adl", "domain.pddl", "p01.pddl", []string{"(drev)"}, 1, ""},
		{"rubiks-cube-opt23-adl", "domain.pddl", "p01.pddl", []string{"(d)", "(drev)", "(drev)"}, 3, ""},
		{"rubiks-cube-opt23-adl", "domain.pddl", "p01.pddl", []string{"(d)"}, 0, "the goal does not hold after the plan's 1 steps: (cube2 orange white blue)"},
		// A forall with an equality in its when deletes the old shape
		// but not the one just added.
		{"schedule", "domain.pddl", "probschedule-2-0.pddl", []string{"(do-roll b0)", "(do-lathe a0)"}, 2, ""},
		{"schedule", "domain.pddl", "probschedule-2-0.pddl", []string{"(do-roll b0)", "(do-roll a0)"}, 0,
			"step 2 (do-roll a0): the precondition does not hold: (not (busy roller)) at " + filepath.Join(dir, "schedule", "domain.pddl") + ":50:24 is false"},
		{"schedule", "domain.pddl", "probschedule-2-0.pddl", []string{"(do-roll b0)", "(do-time-step)", "(do-roll a0)"}, 3, ""},
		// Derived predicates, recursive and under negation: both
		// breakers are affected at the start; waiting opens them,
		// opening sd8 isolates l7's fault, and cb2 feeds l5 and l6.
		{"psr-middle", "domain.pddl", "p02-s23-n2-l3-f70.pddl", []string{"(wait)", "(open sd8)", "(close cb2)"}, 3, ""},
		{"psr-middle", "domain.pddl", "p02-s23-n2-l3-f70.pddl", []string{"(open sd8)"}, 0,
			"step 1 (open sd8): the precondition does not hold: (forall (?b - device) (not (affected ?b))) at " + filepath.Join(dir, "psr-middle", "domain.pddl") + ":71:24 is false for ?b = cb1"},
		{"psr-middle", "domain.pddl", "p02-s23-n2-l3-f70.pddl", []string{"(wait)", "(close cb2)"}, 0,
			"the goal does not hold after the plan's 2 steps: (forall (?b - device) (not (affected ?b))) at " + filepath.Join(dir, "psr-middle", "p02-s23-n2-l3-f70.pddl") + ":93:7 is false for ?b = cb2"},
		{"psr-middle", "domain.pddl", "p02-s23-n2-l3-f70.pddl", []string{"(wait)", "(close cb2)", "(wait)"}, 0,
			"the goal does not hold after the plan's 3 steps: (fed l5)"},
		// Action costs; destroy_road's when puts the car on the road
		// back at the road's start, from where it drives again.
		{"citycar-opt14-adl", "domain.pddl", "p2-2-2-1-2.pddl", citycar, 46, ""},
		{"citycar-opt14-adl", "domain.pddl", "p2-2-2-1-2.pddl", append(append(append([]string{}, citycar[:3]...),
			"(destroy_road junction0-1 junction1-1 road0)",
			"(build_straight_oneway junction0-1 junction1-1 road0)",
			"(move_car_in_road junction0-1 junction1-1 car0 road0)"), citycar[3:]...), 46 + 10 + 20 + 1, ""},
		{"citycar-opt14-adl", "domain.pddl", "p2-2-2-1-2.pddl", append(append([]string{}, citycar[:3]...),
			"(destroy_road junction0-1 junction1-1 road0)", "(move_car_out_road junction0-1 junction1-1 car0 road0)"), 0,
			"step 5 (move_car_out_road junction0-1 junction1-1 car0 road0): the precondition does not hold: (at_car_road car0 road0) at " + filepath.Join(dir, "citycar-opt14-adl", "domain.pddl") + ":45:3 is false"},
	} {
		d, p, err := pddl.ReadPair(filepath.Join(dir, c.dir, c.domain), filepath.Join(dir, c.dir, c.problem))
		if err != nil {
			t.Fatal(err)
		}
		cost, err := pddl.Replay(d, p, c.plan)
		if c.err == "" {
			if err != nil || cost != c.cost {
				t.Errorf("%s %s %v: cost %d, %v; want %d", c.dir, c.problem, c.plan, cost, err, c.cost)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s %s %v: %v, want an error containing %q", c.dir, c.problem, c.plan, err, c.err)
		}
	}
}

// TestReplayEveryADLInstance: every shared ADL instance loads, and an
// empty plan is refused for its goal (every optimum is above 0) well
// within the checker's work limit, derived predicates and all.
func TestReplayEveryADLInstance(t *testing.T) {
	dir, _ := adlInstances(t)
	tsv, err := os.ReadFile(filepath.Join(dir, "instances.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:]
	if len(lines) != 26 {
		t.Errorf("instances.tsv lists %d instances, want 26", len(lines))
	}
	for _, line := range lines {
		f := strings.Split(line, "\t")
		d, p, err := pddl.ReadPair(filepath.Join(dir, f[0], f[2]), filepath.Join(dir, f[0], f[1]))
		if err != nil {
			t.Errorf("%s %s: %v", f[0], f[1], err)
			continue
		}
		_, err = pddl.Replay(d, p, nil)
		if err == nil || stderrors.Is(err, pddl.ErrReplayLimit) || !strings.Contains(err.Error(), "the goal does not hold after the plan's 0 steps") {
			t.Errorf("%s %s: the empty plan: %v", f[0], f[1], err)
		}
	}
}
