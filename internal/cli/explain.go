package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/relax"
)

func runExplain(e *env, args []string) int {
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
	pr, st := sf.resolve(e, fset, f.GOAP)
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
	x := explainGOAP(p, pr, res, alternatives)
	if asJSON {
		if st := writeJSON(e, x); st >= 0 {
			return st
		}
	} else {
		x.writeText(e.stdout)
	}
	if res.Status == goap.Found {
		return exitOK
	}
	return exitNoPlan
}

// goapExplanation is what explain finds about a GOAP plan, and the
// contract of `ploy explain --json` (field names in the JSON tags).
type goapExplanation struct {
	Goal   string   `json:"goal"`
	Start  []string `json:"start"`
	Status string   `json:"status"`
	Plan   []string `json:"plan"`
	Cost   *float64 `json:"cost"`
	// Alternatives, for a plan found: the nearest few, cheapest first.
	Alternatives []alternativeJSON `json:"alternatives"`
	// AlternativesCut says the alternatives' searches were cut short after
	// Work states (raise --budget to see more).
	AlternativesCut bool `json:"alternatives_cut"`
	Work            int  `json:"alternatives_work"`
	// Why, for no plan: one sentence per blocked goal fact, or about the
	// budget or the depth limit.
	Why []string `json:"why"`

	start    string // the start state as text prints it
	planCost float64
	limit    int // alternatives to show
}

type alternativeJSON struct {
	Step      int      `json:"step"`
	Action    string   `json:"action"`
	InsteadOf string   `json:"instead_of"`
	Plan      []string `json:"plan"`
	Cost      float64  `json:"cost"`
	More      float64  `json:"more"`
}

func explainGOAP(p *goap.Planner, pr problem, res goap.Result, alternatives int) *goapExplanation {
	d := pr.d
	x := &goapExplanation{Goal: pr.goal.Name(), Start: trueFacts(d, pr.start), Status: res.Status.String(), Plan: actionNames(d, res.Plan), Alternatives: []alternativeJSON{}, Why: []string{}, start: d.FormatState(pr.start), limit: alternatives}
	if res.Status == goap.Found {
		cost := res.Cost
		x.Cost, x.planCost = &cost, cost
		if alternatives > 0 {
			explainAlternatives(x, p, pr, res)
		}
		return x
	}
	switch res.Status {
	case goap.BudgetExhausted:
		x.Why = append(x.Why, fmt.Sprintf("the search gave up after %d states (the --budget); a plan may exist beyond it", res.Expanded))
		return x
	case goap.DepthExceeded:
		unlimited := pr.opt
		unlimited.MaxDepth = 0
		if full, err := p.Plan(nil, pr.start, pr.goal, unlimited); err == nil && full.Status == goap.Found {
			x.Why = append(x.Why, fmt.Sprintf("no plan of at most %d steps; the cheapest plan has %d: %s, cost %s", pr.opt.MaxDepth, len(full.Plan), planText(d, full.Plan), formatCost(full.Cost)))
			return x
		}
		x.Why = append(x.Why, fmt.Sprintf("no plan of at most %d steps, and none without the limit either", pr.opt.MaxDepth))
	}
	var capable func(goap.ActionID) bool
	if pr.opt.Profile != nil {
		capable = pr.opt.Profile.Capable
	}
	reach := relax.From(d, pr.start, capable)
	blocked := false
	for f, v := range pr.goal.Condition().Facts {
		l := relax.Literal{Fact: f, Value: v}
		if pr.start.Has(f) == v || reach.Has(l) {
			continue
		}
		blocked = true
		x.Why = append(x.Why, reach.Why(l))
	}
	if !blocked {
		var facts []string
		for f, v := range pr.goal.Condition().Facts {
			facts = append(facts, relax.Format(d, relax.Literal{Fact: f, Value: v}))
		}
		x.Why = append(x.Why, fmt.Sprintf("each goal fact (%s) can be reached on its own, but no sequence of actions reaches them all at once: the search expanded all %d reachable states", strings.Join(facts, ", "), res.Expanded))
	}
	return x
}

// writeText prints the explanation as explain always has.
func (x *goapExplanation) writeText(w io.Writer) {
	if x.Cost != nil {
		fmt.Fprintf(w, "%s from %s: %s, cost %s\n", x.Goal, x.start, joinPlan(x.Plan), formatCost(x.planCost))
		if x.limit == 0 {
			return
		}
		if len(x.Alternatives) == 0 {
			fmt.Fprintln(w, "no alternative: at every step, no other action leads to the goal")
		} else {
			fmt.Fprintln(w, "nearest alternatives:")
			for _, alt := range x.Alternatives {
				fmt.Fprintf(w, "  %s instead of %s at step %d: %s, cost %s", alt.Action, alt.InsteadOf, alt.Step, joinPlan(alt.Plan), formatCost(alt.Cost))
				if alt.More == 0 {
					fmt.Fprintln(w, ", the same: a tie, which goes to the state the search reached first")
				} else {
					fmt.Fprintf(w, ", %s more\n", formatCost(alt.More))
				}
			}
		}
		if x.AlternativesCut {
			fmt.Fprintf(w, "(alternatives cut short after %d states expanded; raise --budget to see more)\n", x.Work)
		}
		return
	}
	fmt.Fprintf(w, "no plan for %s from %s:\n", x.Goal, x.start)
	for _, why := range x.Why {
		fmt.Fprintf(w, "  %s\n", why)
	}
}

// writeJSON prints v as one line of JSON; it returns -1, or the exit
// status when v cannot be written (a cost past the float range).
func writeJSON(e *env, v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(e.stderr, "ploy explain: cannot write JSON: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(e.stdout, "%s\n", b)
	return -1
}

func trueFacts(d *goap.Domain, s goap.State) []string {
	out := []string{}
	for f := goap.Fact(0); int(f) < d.NumFacts(); f++ {
		if s.Has(f) {
			out = append(out, d.FactName(f))
		}
	}
	return out
}

func actionNames(d *goap.Domain, plan []goap.ActionID) []string {
	out := make([]string, len(plan))
	for i, a := range plan {
		out[i] = d.ActionName(a)
	}
	return out
}

func joinPlan(names []string) string {
	if len(names) == 0 {
		return "nothing to do"
	}
	return strings.Join(names, " → ")
}

func planText(d *goap.Domain, plan []goap.ActionID) string { return joinPlan(actionNames(d, plan)) }

type alternative struct {
	step   int
	action goap.ActionID
	plan   []goap.ActionID
	cost   float64
}

// explainAlternatives finds, for every step of the plan and every other
// action that applies there, the cheapest plan that takes that action at
// that step, and keeps the nearest few.
func explainAlternatives(x *goapExplanation, p *goap.Planner, pr problem, best goap.Result) {
	d := pr.d
	prof := pr.opt.Profile
	if prof == nil {
		prof = d.DefaultProfile()
	}
	opt := pr.opt
	opt.Trace = nil
	var alts []alternative
	// Every alternative is a search: bound their total work by a few
	// searches' budgets, so that a wide domain cannot run for minutes.
	work, maxWork, cut := 0, 4*pr.opt.Budget, false
	s := pr.start.Clone()
	prefix := 0.0
	for i, chosen := range best.Plan {
		for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
			if a == chosen || !prof.Capable(a) || !d.Applicable(a, s) {
				continue
			}
			next := s.Clone()
			d.Apply(a, next)
			if next.Equal(s) {
				continue
			}
			if opt.MaxDepth > 0 {
				opt.MaxDepth = pr.opt.MaxDepth - i - 1
				if opt.MaxDepth < 0 {
					continue
				}
				if opt.MaxDepth == 0 && !pr.goal.Holds(next) {
					continue
				}
			}
			if work >= maxWork {
				cut = true
				continue
			}
			rest, err := p.Plan(nil, next, pr.goal, opt)
			work += rest.Expanded
			if err != nil || rest.Status != goap.Found {
				continue
			}
			plan := append(slices.Clone(best.Plan[:i]), a)
			plan = append(plan, rest.Plan...)
			alts = append(alts, alternative{step: i + 1, action: a, plan: plan, cost: prefix + prof.CostIn(a, s) + rest.Cost})
		}
		prefix += prof.CostIn(chosen, s)
		d.Apply(chosen, s)
	}
	x.AlternativesCut, x.Work = cut, work
	slices.SortStableFunc(alts, func(a, b alternative) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	})
	for _, alt := range alts[:min(x.limit, len(alts))] {
		x.Alternatives = append(x.Alternatives, alternativeJSON{
			Step: alt.step, Action: d.ActionName(alt.action), InsteadOf: d.ActionName(best.Plan[alt.step-1]),
			Plan: actionNames(d, alt.plan), Cost: alt.cost, More: alt.cost - best.Cost,
		})
	}
}

// htnExplanation is what `ploy explain --htn` finds, and the contract of
// its --json output.
type htnExplanation struct {
	Root       string   `json:"root"`
	Start      []string `json:"start"`
	Status     string   `json:"status"`
	Plan       []string `json:"plan"`
	MTR        []int32  `json:"mtr"`
	Steps      int      `json:"steps"`
	Backtracks int      `json:"backtracks"`
	// Choices are the plan's method choices, in MTR order; with no plan,
	// the root's own choice, every method of it rejected.
	Choices []htnChoice `json:"choices"`
	// Limit is the step or memory limit's message, when one stopped it.
	Limit string `json:"limit,omitempty"`
}

// htnChoice is one compound task's choice: the method taken (none when
// every method was rejected), and why each earlier one was not.
type htnChoice struct {
	Task      string        `json:"task"`
	Method    string        `json:"method,omitempty"`
	Number    int           `json:"number,omitempty"` // 1-based, as in the MTR
	Condition []string      `json:"condition"`        // what held, "not f" for a fact required false
	Rejected  []htnRejected `json:"rejected"`
}

// htnRejected is an earlier method and why it was not taken: its
// condition failed (Unmet lists the facts that did not have their value),
// or it was chosen and its decomposition failed, Failed saying where:
// an action whose preconditions were unmet, or a compound task none of
// whose methods applied, at decomposition step Step.
type htnRejected struct {
	Method string   `json:"method"`
	Number int      `json:"number"`
	Reason string   `json:"reason"` // "condition" or "backtracked"
	Unmet  []string `json:"unmet,omitempty"`
	Failed string   `json:"failed,omitempty"`
	Step   int      `json:"step,omitempty"`
}

// decision is one compound task taken off the list while replaying a
// trace: the methods tested for it, in order.
type decision struct {
	task     htn.Task
	choice   htnChoice
	chosen   bool       // a method of it was chosen at some point
	snapshot goap.State // the facts when its current method was chosen
}

// explainHTN decomposes from s with a trace and replays the trace: it
// keeps the facts as the planner predicted them (restored on backtrack)
// and the open method choices, so that every method test and every
// backtrack is told against the facts it saw. The choices open at the end
// are the plan's, in MTR order.
func explainHTN(e *env, d *htn.Domain, s goap.State, maxSteps int, asJSON bool) int {
	g := d.GOAP()
	var tr htn.Trace
	var res htn.Result
	err := htn.NewPlanner(d).Plan(&res, s, htn.Options{MaxSteps: maxSteps, Trace: &tr})
	x := &htnExplanation{Root: d.TaskName(d.Root()), Start: trueFacts(g, s), Status: res.Status.String(), Plan: actionNames(g, res.Plan), MTR: append([]int32{}, res.MTR...), Steps: res.Steps, Backtracks: res.Backtracks, Choices: []htnChoice{}}
	if err != nil {
		x.Limit = errorText(err)
	}
	unmet := func(c goap.Condition, facts goap.State) []string {
		var out []string
		for f, v := range c.Facts {
			if facts.Has(f) != v {
				out = append(out, relax.Format(g, relax.Literal{Fact: f, Value: v}))
			}
		}
		return out
	}
	facts := s.Clone()
	var open []*decision // method choices open, outermost first
	var current, first *decision
	failed, failedStep := "", 0
	step := 0
	for _, ts := range tr.Steps {
		if ts.Kind != htn.Backtrack {
			step++
		}
		switch ts.Kind {
		case htn.TakeTask:
			if ts.Task.IsPrimitive() {
				a := ts.Task.Action()
				if ts.Holds {
					g.Apply(a, facts)
				} else {
					why := strings.Join(unmet(g.Preconditions(a), facts), ", ")
					if why == "" {
						why = "the agent cannot do it"
					}
					failed, failedStep = fmt.Sprintf("%s could not run: it needs %s", g.ActionName(a), why), step
				}
				continue
			}
			current = &decision{task: ts.Task, choice: htnChoice{Task: d.TaskName(ts.Task), Condition: []string{}, Rejected: []htnRejected{}}}
			if first == nil {
				first = current
			}
		case htn.TestMethod:
			name := d.MethodName(ts.Task, int(ts.Method))
			if !ts.Holds {
				current.choice.Rejected = append(current.choice.Rejected, htnRejected{Method: name, Number: int(ts.Method) + 1, Reason: "condition", Unmet: unmet(d.MethodCondition(ts.Task, int(ts.Method)), facts)})
				continue
			}
			current.chosen = true
			current.choice.Method, current.choice.Number = name, int(ts.Method)+1
			current.choice.Condition = []string{}
			for f, v := range d.MethodCondition(ts.Task, int(ts.Method)).Facts {
				current.choice.Condition = append(current.choice.Condition, relax.Format(g, relax.Literal{Fact: f, Value: v}))
			}
			current.snapshot = facts.Clone()
			open = append(open, current)
		case htn.Backtrack:
			// A task taken whose methods all failed is the failure that
			// starts this backtrack, unless an action failed just before.
			if current != nil && !current.chosen && (len(open) == 0 || current != open[len(open)-1]) {
				failed, failedStep = fmt.Sprintf("no method of %s applied", current.choice.Task), step
			}
			back := open[len(open)-1]
			open = open[:len(open)-1]
			facts.CopyFrom(back.snapshot)
			back.choice.Rejected = append(back.choice.Rejected, htnRejected{Method: back.choice.Method, Number: back.choice.Number, Reason: "backtracked", Failed: failed, Step: failedStep})
			back.choice.Method, back.choice.Number, back.choice.Condition = "", 0, []string{}
			current = back
		}
	}
	if res.Status == htn.Found {
		for _, dc := range open {
			x.Choices = append(x.Choices, dc.choice)
		}
	} else if res.Status == htn.NoPlan && first != nil {
		x.Choices = append(x.Choices, first.choice)
	}
	if asJSON {
		if st := writeJSON(e, x); st >= 0 {
			return st
		}
	} else {
		x.writeText(e.stdout, g.FormatState(s))
	}
	if res.Status != htn.Found {
		return exitNoPlan
	}
	return exitOK
}

func (x *htnExplanation) writeText(w io.Writer, start string) {
	if x.Status == "found" {
		fmt.Fprintf(w, "%s from %s: %s\n", x.Root, start, joinPlan(x.Plan))
		fmt.Fprintf(w, "MTR %s; %d steps, %d backtracks\n", htn.MTR(x.MTR), x.Steps, x.Backtracks)
	} else {
		fmt.Fprintf(w, "%s from %s: no plan\n", x.Root, start)
		if x.Limit != "" {
			fmt.Fprintf(w, "  %s\n", x.Limit)
		}
		fmt.Fprintf(w, "%d steps, %d backtracks\n", x.Steps, x.Backtracks)
	}
	for _, c := range x.Choices {
		if c.Method == "" {
			fmt.Fprintf(w, "%s: no method applies\n", c.Task)
		} else {
			cond := "it has no condition"
			if len(c.Condition) > 0 {
				cond = "its condition holds: " + strings.Join(c.Condition, ", ")
			}
			fmt.Fprintf(w, "%s: %s (%d), %s\n", c.Task, c.Method, c.Number, cond)
		}
		for _, r := range c.Rejected {
			switch r.Reason {
			case "condition":
				fmt.Fprintf(w, "  not %s (%d): its condition fails: needs %s\n", r.Method, r.Number, strings.Join(r.Unmet, ", "))
			default:
				fmt.Fprintf(w, "  not %s (%d): chosen, but at step %d %s; backtracked\n", r.Method, r.Number, r.Step, r.Failed)
			}
		}
	}
}
