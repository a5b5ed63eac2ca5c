package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/search"
)

// maxHTNSteps is the most --max-steps ploy accepts: 100 times the default,
// about a second of decomposition. Memory is capped apart (--max-memory),
// but a search that backtracks over a small stack is bounded only by its
// steps, and ploy must end within seconds.
const maxHTNSteps = 100 * htn.DefaultMaxSteps

// htnMaxBytes is the command's HTN memory cap (--max-memory's default,
// and the cap of trace and explain): 64 MiB, htn's default before every
// planner shared search.DefaultMaxBytes, kept so that the command's
// figures and help stay as they were.
const htnMaxBytes = 64 << 20

func runHTN(e *env, args []string) int {
	var set, unset listFlag
	var maxSteps, maxMemory int
	var asJSON bool
	var agentName string
	fset := flagSet(e, "htn", "[FILE] [flags]",
		"Decompose the file's HTN root task from its initial state, with facts set or\ncleared, and print the plan, its method traversal record (MTR, 1-based) and\nthe work it took: steps are tasks taken off the list plus method conditions\ntested, backtracks are method choices undone.",
		`  ploy htn
  ploy htn --unset spare_crystals
  ploy htn --unset healthy,potion_at_shrine --json
`)
	fset.Var(&set, "set", "facts to set in the initial state, comma-separated (repeatable)")
	fset.Var(&unset, "unset", "facts to clear in the initial state, comma-separated (repeatable)")
	fset.IntVar(&maxSteps, "max-steps", htn.DefaultMaxSteps, "most decomposition steps before giving up")
	fset.IntVar(&maxMemory, "max-memory", htnMaxBytes, "most bytes the task stack, undo log and saved facts may hold before giving up")
	fset.BoolVar(&asJSON, "json", false, `print one JSON object: {"status", "plan", "mtr", "steps", "backtracks", "limit" when a limit stopped it}`)
	fset.StringVar(&agentName, "agent", "", "decompose as the file's HTN agent `NAME` (its agents: section): its root task, costs and capabilities")
	f, st := parseAndLoad(e, fset, args)
	if st >= 0 {
		return st
	}
	if f.HTN == nil {
		fmt.Fprintf(e.stderr, "%s: the domain has no htn section\n", f.Path)
		return exitInvalid
	}
	if maxSteps < 1 || maxSteps > maxHTNSteps {
		return usageErr(e, fset, "--max-steps must be from 1 to %d, not %d", maxHTNSteps, maxSteps)
	}
	if maxMemory < 1 {
		return usageErr(e, fset, "--max-memory must be at least 1, not %d", maxMemory)
	}
	s, st := startState(e, fset, f.GOAP, set, unset)
	if st >= 0 {
		return st
	}
	opt := htn.Options{Limits: search.Limits{MaxSteps: int64(maxSteps), MaxBytes: int64(maxMemory)}}
	root := f.HTN.Root()
	if agentName != "" {
		a, err := f.Agent(agentName)
		if err != nil {
			return usageErr(e, fset, "--agent: %s", err)
		}
		switch {
		case a.Tree != nil:
			return usageErr(e, fset, "--agent: %q is a behaviour-tree agent: it decomposes or plans only in its tree's leaves", a.Name)
		case !a.IsHTN():
			return usageErr(e, fset, "--agent: %q is a GOAP agent: plan as it with ploy plan --agent %s", a.Name, a.Name)
		}
		root = a.Root
		opt.Root, opt.HasRoot, opt.Profile = a.Root, true, a.Profile
	}
	var res htn.Result
	err := htn.NewPlanner(f.HTN).Plan(&res, s, opt)
	d, g := f.HTN, f.GOAP
	if asJSON {
		out := report.HTNOf(g, &res)
		if err != nil {
			out.Limit = htnLimitText(err, true)
		}
		if st := writeJSONLine(e, "htn", out, "the decomposition", htnTooLarge); st >= 0 {
			return st
		}
	} else {
		w := e.stdout
		fmt.Fprintf(w, "%s from %s:\n", d.TaskName(root), g.FormatState(s))
		switch {
		case res.Status == htn.Found:
			if len(res.Plan) == 0 {
				fmt.Fprintln(w, "  nothing to do")
			}
			for i, a := range res.Plan {
				if outputStopped(e) {
					return exitInvalid // outputCut says why
				}
				fmt.Fprintf(w, "  %d. %s\n", i+1, g.ActionName(a))
			}
			// A piece at a time: the line names every task of the
			// decomposition, and may be larger than --max-output.
			fmt.Fprintf(w, "MTR %s: ", res.MTR)
			for i, t := range res.Tasks {
				if outputStopped(e) {
					return exitInvalid
				}
				if i > 0 {
					io.WriteString(w, " > ")
				}
				fmt.Fprintf(w, "%s: %s (%d)", d.TaskName(t), d.MethodName(t, int(res.MTR[i]-1)), res.MTR[i])
			}
			io.WriteString(w, "\n")
		case errors.Is(err, htn.ErrStepLimit), errors.Is(err, htn.ErrMemoryLimit):
			fmt.Fprintf(w, "  no plan: %s\n", htnLimitText(err, true))
		default:
			fmt.Fprintln(w, "  no plan: no method of the root decomposes from here")
		}
		fmt.Fprintf(w, "%d steps, %d backtracks\n", res.Steps, res.Backtracks)
	}
	if res.Status != htn.Found {
		return exitNoPlan
	}
	return exitOK
}

// htnLimitText is a decomposition limit's message, with, when no task was
// open inside itself (so the decomposition may just need more), the flag
// that gives it more: --max-memory only where the command has it.
func htnLimitText(err error, memoryFlag bool) string {
	text := errorText(err)
	var sl *htn.StepLimitError
	var ml *htn.MemoryLimitError
	switch {
	case errors.As(err, &sl) && !sl.Recursion() && sl.Limit < maxHTNSteps:
		text += fmt.Sprintf("; raise --max-steps (up to %d) to give it more", maxHTNSteps)
	case errors.As(err, &ml) && !ml.Recursion() && memoryFlag:
		text += "; raise --max-memory to give it more"
	}
	return text
}
