package cli

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/resolver"
)

// How trace and explain, which take both kinds of file, tell their flags
// apart: the file's kind decides which planner runs, and a flag of the
// other planner's, given explicitly, is a usage error rather than
// silently ignored.
var (
	goapOnlyFlags   = []string{"search", "heuristic", "input"}
	engineOnlyFlags = []string{"at", "target", "capabilities"}
)

func givenFlags(fset *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// checkFlagsForKind refuses flags of the other model's planner.
func checkFlagsForKind(e *env, fset *flag.FlagSet, f *domain.File) int {
	given := givenFlags(fset)
	wrong, kind := goapOnlyFlags, "an engine-model file (keys:), resolved by the resolver"
	if !f.EngineModel() {
		wrong, kind = engineOnlyFlags, "a state-space file (facts:), planned by GOAP"
	}
	for _, name := range wrong {
		if given[name] {
			hint := ""
			if name == "input" {
				hint = ": an engine-model agent's inputs are its keys, given with --set"
			}
			return usageErr(e, fset, "--%s does not apply to %s, which %s is%s", name, kind, f.Path, hint)
		}
	}
	return -1
}

// engineLimits turns the shared --budget and --max-depth into the
// resolver's: their defaults are the state-space planner's, so an unset
// flag means the resolver's own default, and a set one is bounded.
func engineLimits(e *env, fset *flag.FlagSet, sf searchFlags) (budget, maxDepth, status int) {
	given := givenFlags(fset)
	budget, maxDepth = resolver.DefaultBudget, resolver.DefaultMaxDepth
	if given["budget"] {
		if sf.budget < 1 || sf.budget > maxResolveBudget {
			return 0, 0, usageErr(e, fset, "--budget must be from 1 to %d for an engine-model file, not %d", maxResolveBudget, sf.budget)
		}
		budget = sf.budget
	}
	if sf.maxDepth < 0 || sf.maxDepth > maxResolveDepth {
		return 0, 0, usageErr(e, fset, "--max-depth must be from 0 (the resolver's default, %d) to %d for an engine-model file, not %d", resolver.DefaultMaxDepth, maxResolveDepth, sf.maxDepth)
	}
	if sf.maxDepth > 0 {
		maxDepth = sf.maxDepth
	}
	return budget, maxDepth, -1
}

// engineFromSearchFlags sets up an engine-model problem for trace and
// explain from their shared flags.
func engineFromSearchFlags(e *env, fset *flag.FlagSet, f *domain.File, sf searchFlags, ef engineFlags, p parsedEngineFlags) (engineProblem, int) {
	budget, maxDepth, st := engineLimits(e, fset, sf)
	if st >= 0 {
		return engineProblem{}, st
	}
	return engineSetup(e, fset, f, p, ef, sf.goal, sf.agent, budget, maxDepth)
}

// traceEngine runs `ploy trace` on an engine-model file.
func traceEngine(e *env, w *bufio.Writer, pr engineProblem, format string) int {
	var tr resolver.Trace
	pr.opt.Trace = &tr
	res, err := resolver.NewResolver(pr.d).Resolve(nil, pr.snap, pr.goal, pr.opt)
	if st := checkChainCost(e, "trace", res); st >= 0 {
		return st
	}
	switch format {
	case "json":
		if err := report.WriteResolveTraceJSON(w, pr.report(), &tr, res); err != nil {
			fmt.Fprintf(e.stderr, "ploy trace: %v\n", err)
			return exitInvalid
		}
	default:
		tr.WriteText(w)
		if res.Status != resolver.Found || len(res.Chain) == 0 {
			fmt.Fprintf(w, "%s\n", resolveOutcome(pr, res, err))
		}
	}
	if res.Status != resolver.Found {
		return exitNoPlan
	}
	return exitOK
}

// resolveOutcome is one line on a resolve that found no chain.
func resolveOutcome(pr engineProblem, res resolver.Result, err error) string {
	if err != nil {
		return "no chain: " + errorText(err)
	}
	if res.Status == resolver.Found && len(res.Chain) == 0 {
		return "the goal already holds: nothing to do"
	}
	return fmt.Sprintf("no chain for %s: run 'ploy explain --goal %s' with the same flags to see why", pr.goal.Name(), pr.goal.Name())
}

func explainEngine(e *env, pr engineProblem, limit int, asJSON bool) int {
	var tr resolver.Trace
	pr.opt.Trace = &tr
	res, err := resolver.NewResolver(pr.d).Resolve(nil, pr.snap, pr.goal, pr.opt)
	if st := checkChainCost(e, "explain", res); st >= 0 {
		return st
	}
	x := report.ExplainResolve(pr.report(), &tr, res, err, limit)
	if asJSON {
		if st := writeJSON(e, x); st >= 0 {
			return st
		}
	} else {
		x.WriteText(e.stdout)
	}
	if res.Status != resolver.Found {
		return exitNoPlan
	}
	return exitOK
}
