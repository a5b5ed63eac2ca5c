package report

import (
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// PDDLPlanJSON is `ploy plan --json`'s answer on a PDDL problem (and the
// C library's plan call on a PDDL domain): the fields of a state-space
// plan, and the search's other figures.
type PDDLPlanJSON struct {
	Status    string   `json:"status"`
	Plan      []string `json:"plan"`
	Cost      int64    `json:"cost"`
	Expanded  int64    `json:"expanded"`
	Generated int64    `json:"generated"`
	Bound     string   `json:"bound,omitempty"`
	Heuristic string   `json:"heuristic"`
	InitialH  int64    `json:"initial_h"`
	Evaluated int64    `json:"evaluated"`
	Reopened  int64    `json:"reopened"`
	DeadEnds  int64    `json:"dead_ends"`
	States    int64    `json:"states"`
	Bytes     int64    `json:"bytes"`
	Facts     int      `json:"facts"`
	Actions   int      `json:"actions"`
	// An ADL task's conditional effects and axioms (none: left out).
	ConditionalEffects int `json:"conditional_effects,omitempty"`
	Axioms             int `json:"axioms,omitempty"`
}

// PDDLStatus names a search's outcome as the state-space commands do.
func PDDLStatus(res strips.Result) (status, bound string) {
	switch {
	case res.Status == strips.Found:
		return "found", ""
	case res.Status == strips.NoPlan:
		return "no_plan", ""
	case res.Bound == search.Budget:
		return "budget_exhausted", "states"
	case res.Bound == search.Work:
		return "budget_exhausted", "work"
	}
	return "budget_exhausted", "bytes"
}

// PlanLines is a ground plan's action names, one per step.
func PlanLines(t *strips.Task, plan []int32) []string {
	lines := make([]string, 0, len(plan))
	for _, a := range plan {
		lines = append(lines, t.Ops[a].Name)
	}
	return lines
}

// PDDLPlan is the answer of `ploy plan --json` to a PDDL search's result.
func PDDLPlan(t *strips.Task, res strips.Result) PDDLPlanJSON {
	out := PDDLPlanJSON{Plan: PlanLines(t, res.Plan), Cost: res.Cost, Expanded: res.Expanded,
		Generated: res.Generated, Heuristic: res.Heuristic.String(), InitialH: res.InitialH,
		Evaluated: res.Evaluated, Reopened: res.Reopened, DeadEnds: res.DeadEnds, States: res.States,
		Bytes: res.Bytes, Facts: len(t.Facts), Actions: len(t.Ops), Axioms: len(t.Axioms)}
	for i := range t.Ops {
		out.ConditionalEffects += len(t.Ops[i].Effects)
	}
	out.Status, out.Bound = PDDLStatus(res)
	if res.Status != strips.Found {
		out.Cost = 0
	}
	return out
}
