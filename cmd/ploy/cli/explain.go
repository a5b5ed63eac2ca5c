package cli

import (
	"fmt"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/search"
)

func runExplain(e *env, args []string) int {
	if isPDDL(args) {
		return runPDDL(e, "explain", args)
	}
	var sf searchFlags
	var alternatives, maxSteps int
	var asJSON, useHTN bool
	fset := flagSet(e, "explain", "[FILE] --goal NAME [flags] | ploy explain --htn [FILE] [flags]",
		"Explain a planning outcome in words a designer can act on. With no plan, say\nwhich goal facts no sequence of actions can reach and which missing fact\nblocks them. With a plan, show the nearest alternatives: the cheapest plans\nthat leave it at some step, and what each costs more. With --htn, say why\neach method of the HTN plan was chosen and why the earlier ones were not:\na condition that fails, or a subtask that failed after it was chosen.\nOn an engine-model file (keys:), explain a resolve: with a chain, the chains\nthe resolve completed and what each costs more (--alternatives of them); with\nnone, the unmet conditions no action serves, the targets not found, the\nactions --capabilities leaves out and the chains too deep.",
		`  ploy explain --goal GetHealthy --unset healthy,potion_at_shrine
  ploy explain --goal Kill
  ploy explain --goal Kill --json
  ploy explain domains/soldier.yaml --goal KillPlayer --unset axe_nearby,gun_nearby
  ploy explain --htn --unset spare_crystals
  ploy explain survivor --goal Warm --target wood_north=0,3
  ploy explain survivor --goal Fed --capabilities Eat,Forage --unset has_food --json
`)
	sf.register(fset)
	var ef engineFlags
	ef.register(fset)
	fset.IntVar(&alternatives, "alternatives", 3, "how many of the nearest alternatives to show (0: none)")
	fset.BoolVar(&asJSON, "json", false, `print one JSON object instead of text (see docs/htn.md for --htn)`)
	fset.BoolVar(&useHTN, "htn", false, "explain the HTN decomposition of the root task instead of a GOAP plan")
	fset.IntVar(&maxSteps, "max-steps", htn.DefaultMaxSteps, "with --htn: most decomposition steps")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if alternatives < 0 {
		return usageErr(e, fset, "--alternatives must not be negative, not %d", alternatives)
	}
	if useHTN && (maxSteps < 1 || maxSteps > maxHTNSteps) {
		return usageErr(e, fset, "--max-steps must be from 1 to %d, not %d", maxHTNSteps, maxSteps)
	}
	if useHTN && sf.goal != "" {
		return usageErr(e, fset, "--goal plans with GOAP; an HTN decomposes its root task, so leave --goal out with --htn")
	}
	ep, st := parseEngineFlags(e, fset, ef, sf.set, sf.unset)
	if st >= 0 {
		return st
	}
	f, st := load(e, fset, positional)
	if st >= 0 {
		return st
	}
	if st := checkFlagsForKind(e, fset, f); st >= 0 {
		return st
	}
	if f.EngineModel() && !useHTN {
		pr, st := engineFromSearchFlags(e, fset, f, sf, ef, ep)
		if st >= 0 {
			return st
		}
		return explainEngine(e, pr, alternatives, asJSON)
	}
	if useHTN {
		s, st := htnStart(e, fset, f, sf)
		if st >= 0 {
			return st
		}
		return explainHTN(e, f.HTN, s, maxSteps, asJSON)
	}
	pr, st := sf.resolve(e, fset, f)
	if st >= 0 {
		return st
	}
	p := goap.NewPlanner(pr.d)
	res, err := p.Plan(nil, pr.start, pr.goal, pr.opt)
	if res.Status == goap.Unsupported {
		fmt.Fprintf(e.stderr, "ploy explain: %s\n", errorText(err))
		return exitInvalid
	}
	if st := checkCost(e, "explain", res); st >= 0 {
		return st
	}
	x := report.ExplainGOAP(p, report.Problem{D: pr.d, Start: pr.start, Goal: pr.goal, Opt: pr.opt}, res, alternatives)
	if asJSON {
		if st := writeJSON(e, x); st >= 0 {
			return st
		}
	} else {
		x.WriteText(e.stdout)
	}
	if res.Status == goap.Found {
		return exitOK
	}
	return exitNoPlan
}

// writeJSON prints v as one line of JSON; it returns -1, or the exit
// status when v cannot be written (a cost past the float range).
func writeJSON(e *env, v any) int {
	return writeJSONLine(e, "explain", v, "the explanation", "narrow the plan (--max-depth, --max-steps) or its alternatives (--alternatives)")
}

// explainHTN prints `ploy explain --htn`.
func explainHTN(e *env, d *htn.Domain, s goap.State, maxSteps int, asJSON bool) int {
	x, res, err := report.ExplainHTN(d, s, htn.Options{Limits: search.Limits{MaxSteps: int64(maxSteps), MaxBytes: htnMaxBytes}})
	if err != nil {
		x.Limit = htnLimitText(err, false)
	}
	if asJSON {
		if st := writeJSON(e, x); st >= 0 {
			return st
		}
	} else {
		x.WriteText(e.stdout, d.GOAP().FormatState(s))
	}
	if res.Status != htn.Found {
		return exitNoPlan
	}
	return exitOK
}
