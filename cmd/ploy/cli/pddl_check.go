package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ploy-ai/ploy/pddl"
)

// pddlCheckJSON is `ploy replay DOMAIN.pddl PROBLEM.pddl PLAN --json`'s
// answer.
type pddlCheckJSON struct {
	Valid bool   `json:"valid"`
	Steps int    `json:"steps"`
	Cost  int64  `json:"cost"`
	Error string `json:"error,omitempty"`
	// Undecided: the check passed pddl.MaxReplayWork before it could
	// say (exit status 3, as a search stopped by a limit).
	Undecided bool `json:"undecided,omitempty"`
}

// runPDDLReplay checks a plan file against a PDDL domain and problem with
// pddl.Replay: the PDDL semantics read directly, ADL included, sharing
// no code with the grounder that made the plan. Exit status 0 when the
// plan is valid, 4 when it is not (as replay's "a decision came out
// otherwise"), 3 when the check passed pddl.MaxReplayWork undecided (as
// a search stopped by a limit), 1 when a file is wrong.
func runPDDLReplay(e *env, args []string) int {
	var asJSON bool
	fset := flagSet(e, "replay", "DOMAIN.pddl PROBLEM.pddl PLAN [--json]",
		"Check a plan for a PDDL problem, as a plan validator does: every step's\nprecondition holds in the state before it (derived predicates derived), its\nconditional effects read that state, deletes apply before adds, and the goal\nholds at the end. PLAN holds one action a line, \"(pick ball1 rooma left)\",\nas ploy plan --plan-file writes it; \";\" starts a comment. Prints the plan's\ncost under the problem's metric. Exit status 0 when the plan is valid, 4\nwhen it is not, 3 when the check passed its work limit undecided.",
		`  ploy plan gripper/domain.pddl gripper/prob01.pddl --plan-file p.plan
  ploy replay gripper/domain.pddl gripper/prob01.pddl p.plan
`)
	fset.BoolVar(&asJSON, "json", false, `print one JSON object: {"valid", "steps", "cost", "error"}`)
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if len(positional) != 3 {
		return usageErr(e, fset, "give the domain, the problem and the plan file: got %d arguments", len(positional))
	}
	pt, st := readPDDL(e, positional[0], positional[1])
	if st >= 0 {
		return st
	}
	src, err := pddl.ReadFile(positional[2])
	if err != nil {
		return pddlFailed(e, err)
	}
	lines := strings.Split(string(src), "\n")
	steps := 0
	for _, l := range lines {
		if l, _, _ = strings.Cut(l, ";"); strings.TrimSpace(l) != "" {
			steps++
		}
	}
	cost, err := pddl.Replay(pt.d, pt.p, lines)
	out := pddlCheckJSON{Valid: err == nil, Steps: steps, Cost: cost}
	if err != nil {
		out.Error = strings.TrimPrefix(err.Error(), "pddl: ")
		// Not a verdict on the plan: the check gave up.
		out.Undecided = errors.Is(err, pddl.ErrReplayLimit)
	}
	switch {
	case asJSON:
		if st := writeJSONLine(e, "replay", out, "the answer", "give a shorter plan"); st >= 0 {
			return st
		}
	case out.Valid:
		fmt.Fprintf(e.stdout, "%s: valid, %d steps, cost %d\n", positional[2], steps, cost)
	case out.Undecided:
		fmt.Fprintf(e.stdout, "%s: not decided: %s\n", positional[2], out.Error)
	default:
		fmt.Fprintf(e.stdout, "%s: invalid: %s\n", positional[2], out.Error)
	}
	switch {
	case out.Undecided:
		return exitNoPlan
	case !out.Valid:
		return exitChanged
	}
	return exitOK
}
