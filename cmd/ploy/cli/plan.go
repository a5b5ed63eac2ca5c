package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"strings"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/report"
)

// searchFlags are the flags shared by plan, trace and explain.
type searchFlags struct {
	goal      string
	set       listFlag
	unset     listFlag
	search    string
	heuristic string
	budget    int
	maxDepth  int
	agent     string
	inputs    listFlag
	// json, if set, is the command's --json: an agent that pursues
	// nothing is then said as JSON on standard output too.
	json *bool
}

func (s *searchFlags) register(fset *flag.FlagSet) {
	fset.StringVar(&s.goal, "goal", "", "the goal to plan for (required, but with --agent, which chooses one)")
	fset.Var(&s.set, "set", "facts to set in the initial state, comma-separated (repeatable)")
	fset.Var(&s.unset, "unset", "facts to clear in the initial state, comma-separated (repeatable)")
	fset.StringVar(&s.search, "search", "forward", "search direction: forward or backward")
	fset.StringVar(&s.heuristic, "heuristic", "goal-count", "heuristic: goal-count (the lessons' count of goal facts still false), goal-cost (the library's default: also the dearest wrong goal fact's cheapest achiever), hmax or blind (all admissible)")
	fset.IntVar(&s.budget, "budget", goap.DefaultBudget, "most states to expand before giving up")
	fset.IntVar(&s.maxDepth, "max-depth", 0, "longest plan to consider, in steps (0: no limit)")
	fset.Var(&s.inputs, "input", "with --agent: an input's value, `NAME=VALUE` (comma-separated, repeatable); the file's inputs: give the rest")
	fset.StringVar(&s.agent, "agent", "", "plan as the file's agent `NAME` (its agents: section): with its costs and capabilities, and, without --goal, for the goal it would choose from the start state")
}

// problem is a resolved planning problem.
type problem struct {
	d     *goap.Domain
	start goap.State
	goal  *goap.Goal
	opt   goap.Options
	// agent is the --agent planned as, if any, and chosen says the goal
	// is its choice rather than --goal's.
	agent  *domain.Agent
	chosen bool
	// skipped are the agent's options ranked above its choice that have
	// no plan from the start state.
	skipped []string
}

// setup parses the arguments, loads the domain file and resolves the
// search flags against it; the second result is the exit status to return,
// or -1 to go on.
func (s *searchFlags) setup(e *env, fset *flag.FlagSet, args []string) (problem, int) {
	f, st := parseAndLoad(e, fset, args)
	if st >= 0 {
		return problem{}, st
	}
	if f.EngineModel() {
		return problem{}, usageErr(e, fset, "%s is an engine-model file (keys:): resolve it with ploy resolve %s --goal G; ploy plan takes state-space files (facts:)", f.Path, f.Path)
	}
	return s.resolve(e, fset, f)
}

func (s *searchFlags) resolve(e *env, fset *flag.FlagSet, f *domain.File) (problem, int) {
	g := f.GOAP
	pr := problem{d: g}
	switch s.search {
	case "forward":
		pr.opt.Search = goap.Forward
	case "backward":
		pr.opt.Search = goap.Backward
	default:
		return pr, usageErr(e, fset, "--search must be forward or backward, not %q", s.search)
	}
	switch s.heuristic {
	case "goal-count":
		pr.opt.Heuristic = goap.GoalCount
	case "goal-cost":
		pr.opt.Heuristic = goap.GoalCost
	case "hmax":
		pr.opt.Heuristic = goap.HMax
	case "blind":
		pr.opt.Heuristic = goap.Blind
	default:
		return pr, usageErr(e, fset, "--heuristic must be goal-count, goal-cost, hmax or blind, not %q", s.heuristic)
	}
	if s.budget < 1 {
		return pr, usageErr(e, fset, "--budget must be at least 1, not %d", s.budget)
	}
	if s.maxDepth < 0 {
		return pr, usageErr(e, fset, "--max-depth must not be negative, not %d", s.maxDepth)
	}
	pr.opt.Limits.Budget, pr.opt.Limits.MaxDepth = int64(s.budget), int64(s.maxDepth)
	var st int
	if s.agent != "" {
		a, err := f.Agent(s.agent)
		if err != nil {
			return pr, usageErr(e, fset, "--agent: %s", err)
		}
		switch {
		case a.Tree != nil:
			return pr, usageErr(e, fset, "--agent: %q is a behaviour-tree agent: it plans only in its tree's leaves; give ploy plan a GOAP agent", a.Name)
		case a.IsHTN():
			return pr, usageErr(e, fset, "--agent: %q is an HTN agent: decompose as it with ploy htn --agent %s", a.Name, a.Name)
		}
		pr.agent, pr.opt.Profile = a, a.Profile
	} else if len(s.inputs) > 0 {
		// Inputs only weigh an agent's choice of goal: without --agent
		// they would be ignored, so they are refused, as the API refuses
		// inputs without agent.
		return pr, usageErr(e, fset, "--input without --agent: inputs weigh an agent's goal choice; give --agent NAME")
	}
	if pr.start, st = startState(e, fset, g, s.set, s.unset); st >= 0 {
		return pr, st
	}
	inputs, st := inputValues(e, fset, f, s.inputs)
	if st >= 0 {
		return pr, st
	}
	if s.goal == "" && pr.agent != nil {
		// As the runtime does: the first option that applies, or, when it
		// has no plan, the next that has one.
		goal, skipped, ok := report.ChooseGoal(pr.agent, g, pr.start, inputs, pr.opt)
		if !ok {
			return pr, noGoal(e, fset, s.json != nil && *s.json, pr.agent.Name, g.FormatState(pr.start))
		}
		pr.goal, pr.chosen, pr.skipped = goal, true, skipped
		return pr, -1
	}
	if pr.agent != nil {
		// The agent's own goals (conditions: in its options) are goals
		// for it: its choice may be one, and the hint after no plan
		// names it with --goal.
		for _, o := range pr.agent.Goals {
			if o.Goal.Name() == s.goal && g.Goal(s.goal) == nil {
				pr.goal = o.Goal
				return pr, -1
			}
		}
	}
	pr.goal, st = goalByName(e, fset, g, s.goal)
	return pr, st
}

// noGoal says an agent pursues no goal from where it stands, and returns
// the exit status: on standard error, or as JSON with status "no_goal".
func noGoal(e *env, fset *flag.FlagSet, asJSON bool, agent, where string) int {
	if asJSON {
		b, _ := json.Marshal(report.NoGoal(agent))
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		fmt.Fprintf(e.stderr, "%s: agent %q pursues no goal from %s: each of its goals holds already, or its when: is false\n", fset.Name(), agent, where)
	}
	return exitNoPlan
}

func planAnswer(pr problem, res goap.Result) report.PlanAs {
	out := report.PlanAs{Plan: report.PlanOf(pr.d, res)}
	if pr.agent != nil {
		out.Agent, out.Goal = pr.agent.Name, pr.goal.Name()
	}
	return out
}

// planTooLarge and htnTooLarge say what to narrow when a plan is too
// large to write.
const (
	planTooLarge = "give --max-depth (the plan's length), or the domain's actions shorter names"
	htnTooLarge  = "lower --max-steps (the decomposition's length), or give the domain's actions and tasks shorter names"
)

func runPlan(e *env, args []string) int {
	if isPDDL(args) {
		return runPDDL(e, "plan", args)
	}
	var sf searchFlags
	var asJSON bool
	fset := flagSet(e, "plan", "[FILE] --goal NAME [flags]",
		"Plan a goal with GOAP from the file's initial state, with facts set or cleared,\nand print the least-cost plan with its cost and search statistics.",
		`  ploy plan --goal Kill
  ploy plan --goal Kill --unset spare_crystals
  ploy plan domains/soldier.yaml --goal KillPlayer --search backward --json
  ploy plan domains/soldier.yaml --agent defensive
`)
	sf.register(fset)
	fset.BoolVar(&asJSON, "json", false, `print one JSON object: {"status", "plan", "cost", "expanded", "generated"}, and "bound" ("states", "bytes" or "work") when the budget ran out; with --agent, "agent" and "goal", and "status": "no_goal" when the agent pursues nothing`)
	sf.json = &asJSON // read after setup has parsed the flags
	pr, st := sf.setup(e, fset, args)
	if st >= 0 {
		return st
	}
	res, err := goap.NewPlanner(pr.d).Plan(nil, pr.start, pr.goal, pr.opt)
	if res.Status == goap.Unsupported {
		fmt.Fprintf(e.stderr, "ploy plan: %s\n", errorText(err))
		return exitInvalid
	}
	if st := checkCost(e, "plan", res); st >= 0 {
		return st
	}
	if asJSON {
		if st := writeJSONLine(e, "plan", planAnswer(pr, res), "the plan", planTooLarge); st >= 0 {
			return st
		}
	} else {
		printPlan(e, pr, res, err)
	}
	if res.Status != goap.Found {
		return exitNoPlan
	}
	return exitOK
}

// checkCost refuses a plan whose cost is past the float range (costs near
// 1e308 add up to +Inf): no number in JSON, and no answer to trust.
func checkCost(e *env, command string, res goap.Result) int {
	if res.Status != goap.Found || !math.IsInf(res.Cost, 0) && !math.IsNaN(res.Cost) {
		return -1
	}
	fmt.Fprintf(e.stderr, "ploy %s: the plan's cost adds up past the float range (%s): make the domain's costs smaller\n", command, formatCost(res.Cost))
	return exitInvalid
}

func printPlan(e *env, pr problem, res goap.Result, err error) {
	d := pr.d
	w := e.stdout
	fmt.Fprintf(w, "%s%s from %s, %s search:\n", pr.goal.Name(), pr.as(), d.FormatState(pr.start), pr.opt.Search)
	switch res.Status {
	case goap.Found:
		if len(res.Plan) == 0 {
			fmt.Fprintln(w, "  the goal already holds: nothing to do")
		}
		width := 0
		for _, a := range res.Plan {
			width = max(width, len(d.ActionName(a)))
		}
		s := pr.start.Clone()
		prof := pr.opt.Profile
		if prof == nil {
			prof = d.DefaultProfile()
		}
		for i, a := range res.Plan {
			if outputStopped(e) {
				return
			}
			fmt.Fprintf(w, "  %d. %-*s  cost %s\n", i+1, width, d.ActionName(a), formatCost(prof.CostIn(a, s)))
			d.Apply(a, s)
		}
		fmt.Fprintf(w, "cost %s; %d states expanded, %d generated\n", formatCost(res.Cost), res.Expanded, res.Generated)
	case goap.NoPlan:
		fmt.Fprintf(w, "  no plan: all %d reachable states were expanded and none meets the goal\n", res.Expanded)
		fmt.Fprintf(w, "run 'ploy explain --goal %s' with the same flags to see why\n", pr.goal.Name())
	default:
		fmt.Fprintf(w, "  no plan: %s\n", errorText(err))
		fmt.Fprintf(w, "%d states expanded, %d generated\n", res.Expanded, res.Generated)
	}
}

// as says whose goal and costs a plan is for: "", or
// " (agent defensive's choice)", or " as agent defensive".
func (pr problem) as() string {
	if pr.agent == nil {
		return ""
	}
	return agentNote(pr.agent.Name, pr.chosen, pr.skipped, "plan")
}

func (pr engineProblem) as() string {
	if pr.agent == nil {
		return ""
	}
	return agentNote(pr.agent.Name, pr.chosen, pr.skipped, "chain")
}

func agentNote(name string, chosen bool, skipped []string, what string) string {
	switch {
	case chosen && len(skipped) > 0:
		return fmt.Sprintf(" (agent %s's choice: %s, ranked higher, has no %s)", name, strings.Join(skipped, ", "), what)
	case chosen:
		return fmt.Sprintf(" (agent %s's choice)", name)
	}
	return " as agent " + name
}

func formatCost(c float64) string { return report.FormatCost(c) }
