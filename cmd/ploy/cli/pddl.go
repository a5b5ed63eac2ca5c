package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"

	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// isPDDL says whether a command's arguments name PDDL files: a positional
// argument ending in .pddl (the value of --plan-file aside).
func isPDDL(args []string) bool {
	for i, a := range args {
		if strings.HasPrefix(a, "-") || i > 0 && strings.TrimLeft(args[i-1], "-") == "plan-file" {
			continue
		}
		if strings.HasSuffix(strings.ToLower(a), ".pddl") {
			return true
		}
	}
	return false
}

// pddlFlags are the flags of plan, trace, explain and lint on a PDDL pair.
type pddlFlags struct {
	heuristic string
	budget    int64
	maxWork   int64
	maxBytes  int64
	asJSON    bool
	planFile  string
	format    string
	strict    bool
	// The state-space files' flags, refused here: the problem file gives
	// the start and the goal.
	goal, search, agent string
	set, unset          listFlag
}

// pddlTask is a loaded, grounded PDDL pair.
type pddlTask struct {
	domainPath, problemPath string
	d                       *pddl.Domain
	p                       *pddl.Problem
	g                       *pddl.Grounding
}

func runPDDL(e *env, command string, args []string) int {
	var pf pddlFlags
	about := map[string]string{
		"plan":    "Plan a PDDL problem optimally: ground the domain with the problem's objects,\nsearch with A*, and print a cheapest plan with its cost and statistics.",
		"trace":   "Show an A* search on a PDDL problem expansion by expansion: each state's g, h\nand f and the action that reached it.",
		"explain": "Explain a PDDL planning outcome: with no plan, the goal atoms no sequence of\nactions reaches even ignoring deletes; with a plan, how the estimate falls\nalong it and why no cheaper plan exists.",
		"lint":    "Ground a PDDL problem and report the facts and actions left after each stage\n(instantiation by type, static folding, relaxed reachability, relevance to\nthe goal), with warnings: action schemas with no applicable instance, goal\natoms that cannot be reached.",
	}[command]
	fset := flagSet(e, command, "DOMAIN.pddl PROBLEM.pddl [flags]", about,
		fmt.Sprintf("  ploy %s gripper/domain.pddl gripper/prob01.pddl\n", command))
	if command != "lint" {
		def := strips.Portfolio
		if command == "trace" {
			def = strips.LMCut // a portfolio's two searches cannot be traced as one
		}
		fset.StringVar(&pf.heuristic, "heuristic", def.String(), "A*'s admissible estimate: lmcut (landmark cuts), hmax, blind, or portfolio (lmcut and blind searches side by side, the one needing less counted work answers; not for trace)")
		budgetHelp := "most states to expand before giving up (0: no limit but --max-bytes; in a portfolio, each search's)"
		if command == "trace" {
			budgetHelp = "most states to expand before giving up (0: 1000, which is also the default)"
		}
		fset.Int64Var(&pf.budget, "budget", 0, budgetHelp)
		fset.Int64Var(&pf.maxWork, "max-work", 0, "most units of counted work before giving up: states expanded, successors made, and the estimates' steps, 32 to a unit (0: no limit; in a portfolio, each search's)")
		maxBytesHelp := "most bytes the search may hold (states, their table, open list and estimator): 4 GiB by default"
		if avail, by := strips.AvailableBytes(); avail > 0 {
			// What the process may really use bounds the default and any value.
			maxBytesHelp += fmt.Sprintf(", and at most %d here, from %s", avail, by)
		}
		fset.Int64Var(&pf.maxBytes, "max-bytes", strips.EffectiveMaxBytes(pddlMaxBytes), maxBytesHelp)
		fset.StringVar(&pf.search, "search", "forward", "search direction: forward only on PDDL problems")
	}
	switch command {
	case "plan":
		fset.BoolVar(&pf.asJSON, "json", false, `print one JSON object: {"status", "plan" (IPC plan lines), "cost", "expanded", "generated", ...}`)
		fset.StringVar(&pf.planFile, "plan-file", "", "write the plan to `FILE` in the IPC plan format, \"; cost = N (general cost)\" last (with no plan, FILE is removed)")
	case "trace":
		fset.StringVar(&pf.format, "format", "text", "output format: text or json")
	case "explain":
		fset.BoolVar(&pf.asJSON, "json", false, "print one JSON object instead of text")
	case "lint":
		fset.BoolVar(&pf.asJSON, "json", false, "print one JSON object instead of text")
		fset.BoolVar(&pf.strict, "strict", false, "exit with status 1 if there is any warning")
	}
	fset.StringVar(&pf.goal, "goal", "", "not for PDDL: the problem file's :goal is the goal")
	fset.Var(&pf.set, "set", "not for PDDL: the problem file's :init is the start")
	fset.Var(&pf.unset, "unset", "not for PDDL: the problem file's :init is the start")
	fset.StringVar(&pf.agent, "agent", "", "not for PDDL: a PDDL problem has no agents")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	switch {
	case pf.goal != "" || len(pf.set) > 0 || len(pf.unset) > 0:
		return usageErr(e, fset, "--goal, --set and --unset are for state-space files: a PDDL problem's :init is the start and its :goal the goal")
	case pf.agent != "":
		return usageErr(e, fset, "--agent is for state-space files: a PDDL problem has no agents")
	case command != "lint" && pf.search != "forward":
		return usageErr(e, fset, "--search must be forward on a PDDL problem, not %q", pf.search)
	case pf.budget < 0:
		return usageErr(e, fset, "--budget must not be negative, not %d", pf.budget)
	case pf.maxWork < 0:
		return usageErr(e, fset, "--max-work must not be negative, not %d", pf.maxWork)
	case command != "lint" && pf.maxBytes < 1<<20:
		return usageErr(e, fset, "--max-bytes must be at least 1048576, not %d", pf.maxBytes)
	case command == "trace" && pf.format != "text" && pf.format != "json":
		return usageErr(e, fset, "--format must be text or json on a PDDL problem, not %q", pf.format)
	case len(positional) != 2:
		return usageErr(e, fset, "a PDDL problem takes two files, the domain and the problem, not %d: %s", len(positional), strings.Join(positional, " "))
	}
	var h strips.Heuristic
	if command != "lint" {
		var err error
		if h, err = strips.ParseHeuristic(pf.heuristic); err != nil {
			return usageErr(e, fset, "--heuristic must be portfolio, lmcut, hmax or blind on a PDDL problem, not %q", pf.heuristic)
		}
		if h == strips.Portfolio && command == "trace" {
			return usageErr(e, fset, "--heuristic portfolio runs two searches side by side, which cannot be traced as one: trace lmcut or blind")
		}
	}
	if pf.planFile != "" {
		for _, in := range positional {
			a, errA := os.Stat(in)
			b, errB := os.Stat(pf.planFile)
			if errA == nil && errB == nil && os.SameFile(a, b) {
				return usageErr(e, fset, "--plan-file %s is an input: the plan would overwrite it", pf.planFile)
			}
		}
	}
	pt, st := loadPDDL(e, positional[0], positional[1])
	if st >= 0 {
		return st
	}
	opt := strips.Options{Heuristic: h, Limits: search.Limits{MaxBytes: pf.maxBytes, Budget: pf.budget, MaxWork: pf.maxWork}}
	// The search holds at most MaxBytes; let the heap grow to that before
	// the collector works hard (the command's default limit is for
	// game-sized searches).
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(max(memoryLimit, strips.EffectiveMaxBytes(pf.maxBytes)+memoryLimit))
	}
	switch command {
	case "plan":
		if !pf.asJSON && stderrIsTerminal(e.stderr) {
			opt.Progress = searchProgress(e.stderr)
		}
		return pddlPlan(e, pt, opt, pf)
	case "trace":
		return pddlTrace(e, pt, opt, pf)
	case "explain":
		return pddlExplain(e, pt, opt, pf)
	}
	return pddlLint(e, pt, pf)
}

// loadPDDL reads, parses, checks and grounds a domain and a problem,
// printing the errors; the second result is the exit status, or -1.
func loadPDDL(e *env, domainPath, problemPath string) (*pddlTask, int) {
	pt, st := readPDDL(e, domainPath, problemPath)
	if st >= 0 {
		return nil, st
	}
	var err error
	if pt.g, err = pddl.Ground(pt.d, pt.p); err != nil {
		return nil, pddlFailed(e, err)
	}
	return pt, -1
}

// readPDDL reads, parses and checks a domain and a problem, printing the
// errors; the second result is the exit status, or -1.
func readPDDL(e *env, domainPath, problemPath string) (*pddlTask, int) {
	pt := &pddlTask{domainPath: domainPath, problemPath: problemPath}
	src, err := pddl.ReadFile(domainPath)
	if err != nil {
		return nil, pddlFailed(e, err)
	}
	if pt.d, err = pddl.ParseDomain(domainPath, src); err != nil {
		return nil, pddlFailed(e, err)
	}
	if src, err = pddl.ReadFile(problemPath); err != nil {
		return nil, pddlFailed(e, err)
	}
	if pt.p, err = pddl.ParseProblem(problemPath, src); err != nil {
		return nil, pddlFailed(e, err)
	}
	if err = pt.p.Check(pt.d); err != nil {
		return nil, pddlFailed(e, err)
	}
	return pt, -1
}

// pddlFailed prints a reading, parsing, checking or grounding error, one
// positioned line each, and returns the exit status for invalid input.
func pddlFailed(e *env, err error) int {
	var list pddl.ErrorList
	var one *pddl.Error
	if errors.As(err, &list) {
		for _, x := range list {
			fmt.Fprintln(e.stderr, x.Error())
		}
	} else if errors.As(err, &one) {
		fmt.Fprintln(e.stderr, one.Error())
	} else if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		fmt.Fprintln(e.stderr, (&pddl.Error{File: pe.Path, Msg: pe.Err.Error()}).Error())
	} else {
		fmt.Fprintf(e.stderr, "ploy: %s\n", errorText(err))
	}
	return exitInvalid
}

// pddlSearch runs the search, and returns with the exit status to end
// with, or -1: an error that is not a limit reached is invalid input.
// pddlMaxBytes is the command's PDDL memory limit, --max-bytes's default
// (lowered to what the process may use): 4 GiB, more than the library's
// search.DefaultMaxBytes, since the command is a solver for benchmark
// problems, run alone, that a game's searches are not.
const pddlMaxBytes = 4 << 30

func pddlSearch(e *env, command string, t *strips.Task, opt strips.Options) (strips.Result, int, error) {
	res, err := strips.Search(t, opt)
	if err != nil && res.Status != strips.LimitReached {
		fmt.Fprintf(e.stderr, "ploy %s: %s\n", command, errorText(err))
		return res, exitInvalid, err
	}
	return res, -1, err
}

func pddlPlan(e *env, pt *pddlTask, opt strips.Options, pf pddlFlags) int {
	t := pt.g.Task
	res, st, err := pddlSearch(e, "plan", t, opt)
	if st >= 0 {
		return st
	}
	if pf.planFile != "" && res.Status != strips.Found {
		// No plan: a plan file left from an earlier run must not pass
		// for this one's.
		if err := os.Remove(pf.planFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(e.stderr, "ploy plan: %s\n", errorText(err))
		}
	}
	if res.Status == strips.Found && pf.planFile != "" {
		var b strings.Builder
		for _, l := range report.PlanLines(t, res.Plan) {
			b.WriteString(l + "\n")
		}
		fmt.Fprintf(&b, "; cost = %d (general cost)\n", res.Cost)
		if err := os.WriteFile(pf.planFile, []byte(b.String()), 0o644); err != nil {
			fmt.Fprintf(e.stderr, "ploy plan: %s\n", errorText(err))
			return exitInvalid
		}
	}
	if pf.asJSON {
		if st := writeJSONLine(e, "plan", report.PDDLPlan(t, res), "the plan", "give --budget or a smaller problem"); st >= 0 {
			return st
		}
	} else {
		w := e.stdout
		by := opt.Heuristic.String()
		if opt.Heuristic == strips.Portfolio {
			by = "portfolio (" + res.Heuristic.String() + " answered)"
		}
		fmt.Fprintf(w, "%s, problem %s: %d facts, %d actions%s; A* with %s:\n", pt.d.Name, pt.p.Name, len(t.Facts), len(t.Ops), adlParts(t), by)
		if len(t.Axioms) > 0 || t.HasConditionalEffects() {
			// The estimators read a relaxation of the ADL task: say which,
			// as a user comparing estimates with other planners needs to.
			fmt.Fprintln(w, "  estimates on the delete relaxation with conditional effects split (an action's share its cost), axioms as free actions and negated derived facts ignored: admissible")
		}
		switch res.Status {
		case strips.Found:
			if len(res.Plan) == 0 {
				fmt.Fprintln(w, "  the goal already holds: nothing to do")
			}
			width := 0
			for _, a := range res.Plan {
				width = max(width, len(t.Ops[a].Name))
			}
			digits := len(fmt.Sprint(len(res.Plan)))
			for i, a := range res.Plan {
				if outputStopped(e) {
					break
				}
				fmt.Fprintf(w, "  %*d. %-*s  cost %d\n", digits, i+1, width, t.Ops[a].Name, t.Ops[a].Cost)
			}
			fmt.Fprintf(w, "cost %d; %d states expanded, %d generated, %d evaluated (h of the start %d)\n", res.Cost, res.Expanded, res.Generated, res.Evaluated, res.InitialH)
		case strips.NoPlan:
			fmt.Fprintf(w, "  no plan: every one of the %d states reachable and not a dead end was expanded, and none meets the goal\n", res.Expanded)
			fmt.Fprintf(w, "run 'ploy explain %s %s' to see why\n", pt.domainPath, pt.problemPath)
		default:
			fmt.Fprintf(w, "  no plan: %s\n", errorText(err))
			fmt.Fprintf(w, "%d states expanded, %d generated, %d bytes held\n", res.Expanded, res.Generated, res.Bytes)
		}
	}
	if res.Status != strips.Found {
		return exitNoPlan
	}
	return exitOK
}

// pddlTraceStep is one expansion of `ploy trace --format json` on a PDDL problem.
type pddlTraceStep struct {
	N        int64  `json:"n"`
	G        int64  `json:"g"`
	H        int64  `json:"h"`
	F        int64  `json:"f"`
	Via      string `json:"via,omitempty"`
	Reopened bool   `json:"reopened,omitempty"`
}

func pddlTrace(e *env, pt *pddlTask, opt strips.Options, pf pddlFlags) int {
	t := pt.g.Task
	if opt.Limits.Budget == 0 {
		opt.Limits.Budget = 1000
	}
	w := e.stdout
	if pf.format == "text" {
		fmt.Fprintf(w, "%s, problem %s: A* with %s, at most %d expansions\n", pt.d.Name, pt.p.Name, opt.Heuristic, opt.Limits.Budget)
	}
	var trace strips.Trace
	opt.Trace = &trace
	res, st, _ := pddlSearch(e, "trace", t, opt)
	if st >= 0 {
		return st
	}
	status, bound := report.PDDLStatus(res)
	if pf.format == "json" {
		steps := make([]pddlTraceStep, 0, len(trace.Expansions))
		for _, x := range trace.Expansions {
			s := pddlTraceStep{N: x.N, G: x.G, H: x.H, F: x.G + x.H, Reopened: x.Reopened}
			if x.Op >= 0 {
				s.Via = t.Ops[x.Op].Name
			}
			steps = append(steps, s)
		}
		b, _ := json.Marshal(struct {
			Expansions []pddlTraceStep `json:"expansions"`
			Status     string          `json:"status"`
			Bound      string          `json:"bound,omitempty"`
			Plan       []string        `json:"plan"`
			Cost       int64           `json:"cost"`
		}{steps, status, bound, report.PlanLines(t, res.Plan), res.Cost})
		fmt.Fprintf(w, "%s\n", b)
	} else {
		// Write errors go unchecked here as for every line of the
		// command's text: stdout is the user's terminal or pipe.
		_ = trace.WriteText(w)
		if res.Status == strips.Found {
			fmt.Fprintf(w, "found: cost %d, %d steps, %d states expanded\n", res.Cost, len(res.Plan), res.Expanded)
		} else {
			fmt.Fprintf(w, "%s after %d states expanded\n", strings.ReplaceAll(status, "_", " "), res.Expanded)
		}
	}
	if res.Status != strips.Found {
		return exitNoPlan
	}
	return exitOK
}

func pddlExplain(e *env, pt *pddlTask, opt strips.Options, pf pddlFlags) int {
	t := pt.g.Task
	res, st, err := pddlSearch(e, "explain", t, opt)
	if st >= 0 {
		return st
	}
	unreached := strips.RelaxedUnreachable(t)
	type stepJSON struct {
		Action string `json:"action"`
		Cost   int64  `json:"cost"`
		G      int64  `json:"g"`
		H      int64  `json:"h"`
	}
	var steps []stepJSON
	h := res.Heuristic
	if h == strips.Portfolio {
		h = strips.LMCut
	}
	if res.Status == strips.Found {
		est, err := strips.Estimates(t, h, res.Plan)
		if err != nil {
			fmt.Fprintf(e.stderr, "ploy explain: %s\n", errorText(err))
			return exitInvalid
		}
		var g int64
		for i, a := range res.Plan {
			g += t.Ops[a].Cost
			steps = append(steps, stepJSON{t.Ops[a].Name, t.Ops[a].Cost, g, est[i+1]})
		}
	}
	status, bound := report.PDDLStatus(res)
	if pf.asJSON {
		b, _ := json.Marshal(struct {
			Status    string     `json:"status"`
			Bound     string     `json:"bound,omitempty"`
			Cost      int64      `json:"cost"`
			Heuristic string     `json:"heuristic"`
			InitialH  int64      `json:"initial_h"`
			Expanded  int64      `json:"expanded"`
			Steps     []stepJSON `json:"steps"`
			Unreached []string   `json:"unreachable_goals"`
		}{status, bound, res.Cost, h.String(), res.InitialH, res.Expanded, append([]stepJSON{}, steps...), append([]string{}, unreached...)})
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		w := e.stdout
		switch {
		case res.Status == strips.Found:
			fmt.Fprintf(w, "a cheapest plan costs %d. %s estimated %d from the start and never overestimates,\n", res.Cost, h, res.InitialH)
			fmt.Fprintf(w, "and A* expanded %d states, every one that could still lead to a cheaper plan:\n", res.Expanded)
			fmt.Fprintf(w, "  %4s  %6s  %6s  %s\n", "step", "g", "h", "action (cost)")
			for i, s := range steps {
				fmt.Fprintf(w, "  %4d  %6d  %6d  %s (%d)\n", i+1, s.G, s.H, s.Action, s.Cost)
			}
		case len(unreached) > 0:
			fmt.Fprintf(w, "no plan: %d goal atom%s cannot be reached even if no action deleted anything:\n", len(unreached), plural(len(unreached)))
			for _, u := range unreached {
				fmt.Fprintf(w, "  %s\n", u)
			}
		case res.Status == strips.NoPlan:
			fmt.Fprintf(w, "no plan: each goal atom can be reached on its own, but every one of the %d states reachable from the start was expanded (%d more proved dead ends) and none meets the whole goal\n", res.Expanded, res.DeadEnds)
		default:
			fmt.Fprintf(w, "no plan within the limits: %s after %d states expanded (%d bytes held)\n", errorText(err), res.Expanded, res.Bytes)
		}
	}
	if res.Status != strips.Found {
		return exitNoPlan
	}
	return exitOK
}

func pddlLint(e *env, pt *pddlTask, pf pddlFlags) int {
	g := pt.g
	warnings := pddlWarnings(pt)
	if pf.asJSON {
		type stage struct {
			Name    string `json:"name"`
			Facts   int64  `json:"facts"`
			Actions int64  `json:"actions"`
		}
		var stages []stage
		for _, s := range g.Stages {
			stages = append(stages, stage{s.Name, s.Facts, s.Actions})
		}
		b, _ := json.Marshal(struct {
			Domain   string   `json:"domain"`
			Problem  string   `json:"problem"`
			Stages   []stage  `json:"stages"`
			Warnings []string `json:"warnings"`
		}{pt.domainPath, pt.problemPath, stages, append([]string{}, warnings...)})
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		w := e.stdout
		fmt.Fprintf(w, "%s, problem %s: grounding\n", pt.d.Name, pt.p.Name)
		fmt.Fprintf(w, "  %-10s %14s %14s\n", "stage", "facts", "actions")
		for _, s := range g.Stages {
			fmt.Fprintf(w, "  %-10s %14s %14s\n", s.Name, countText(s.Facts), countText(s.Actions))
		}
		for _, x := range warnings {
			fmt.Fprintln(w, x)
		}
		fmt.Fprintf(w, "%s: %d warning%s\n", pt.problemPath, len(warnings), plural(len(warnings)))
	}
	if pf.strict && len(warnings) > 0 {
		return exitInvalid
	}
	return exitOK
}

// countText writes a count, saturated counts as "more than 2^63".
func countText(n int64) string {
	if n == 1<<63-1 {
		return ">9.2e18"
	}
	return fmt.Sprint(n)
}

// pddlWarnings are lint's warnings on a grounded pair: schemas without
// an instance that can ever apply, goal atoms out of reach.
func pddlWarnings(pt *pddlTask) []string {
	var out []string
	used := map[string]bool{}
	for _, o := range pt.g.Task.Ops {
		name, _, _ := strings.Cut(strings.TrimPrefix(o.Name, "("), " ")
		used[strings.TrimSuffix(name, ")")] = true
	}
	for _, a := range pt.d.Actions {
		if !used[a.Name] {
			out = append(out, (&pddl.Error{File: pt.domainPath, Pos: a.Pos, Msg: fmt.Sprintf("action %q has no instance that can apply or matter in %s: no ground action is left of it", a.Name, pt.problemPath)}).Error())
		}
	}
	for _, u := range strips.RelaxedUnreachable(pt.g.Task) {
		out = append(out, (&pddl.Error{File: pt.problemPath, Pos: pt.p.Goal.Pos, Msg: fmt.Sprintf("goal atom %s cannot be reached, even ignoring deletes: the problem has no plan", u)}).Error())
	}
	return out
}

// adlParts counts what an ADL task has beyond STRIPS, for the plan's
// header: ", 12 conditional effects, 106 axioms", or "".
func adlParts(t *strips.Task) string {
	j := report.PDDLPlan(t, strips.Result{})
	var s string
	if j.ConditionalEffects > 0 {
		s += fmt.Sprintf(", %d conditional effects", j.ConditionalEffects)
	}
	if j.Axioms > 0 {
		s += fmt.Sprintf(", %d axioms", j.Axioms)
	}
	return s
}
