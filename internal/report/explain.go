package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/relax"
	"github.com/ploy-ai/ploy/search"
)

// Problem is a GOAP planning problem: the domain, the start state, the
// goal and the search's options.
type Problem struct {
	D     *goap.Domain
	Start goap.State
	Goal  *goap.Goal
	Opt   goap.Options
}

// Explanation is what explain finds about a GOAP plan, and the
// contract of `ploy explain --json` (field names in the JSON tags).
type Explanation struct {
	Goal   string   `json:"goal"`
	Start  []string `json:"start"`
	Status string   `json:"status"`
	Plan   []string `json:"plan"`
	Cost   *float64 `json:"cost"`
	// Alternatives, for a plan found: the nearest few, cheapest first.
	Alternatives []Alternative `json:"alternatives"`
	// AlternativesCut says the alternatives' searches were cut short after
	// Work states (raise --budget to see more), or by their shared work
	// limit (one search's).
	AlternativesCut bool `json:"alternatives_cut"`
	Work            int  `json:"alternatives_work"`
	// Why, for no plan: one sentence per blocked goal fact, or about the
	// budget or the depth limit.
	Why []string `json:"why"`

	start    string // the start state as text prints it
	planCost float64
	limit    int // alternatives to show
}

type Alternative struct {
	Step      int      `json:"step"`
	Action    string   `json:"action"`
	InsteadOf string   `json:"instead_of"`
	Plan      []string `json:"plan"`
	Cost      float64  `json:"cost"`
	More      float64  `json:"more"`
}

func ExplainGOAP(p *goap.Planner, pr Problem, res goap.Result, alternatives int) *Explanation {
	d := pr.D
	x := &Explanation{Goal: pr.Goal.Name(), Start: TrueFacts(d, pr.Start), Status: goap.StatusName(res.Status, res.Bound), Plan: ActionNames(d, res.Plan), Alternatives: []Alternative{}, Why: []string{}, start: d.FormatState(pr.Start), limit: alternatives}
	if res.Status == goap.Found {
		cost := res.Cost
		x.Cost, x.planCost = &cost, cost
		if alternatives > 0 {
			explainAlternatives(x, p, pr, res)
		}
		return x
	}
	switch {
	case res.Status == goap.LimitReached && res.Bound != goap.BoundDepth:
		x.Why = append(x.Why, fmt.Sprintf("the search gave up after %d states (the --budget); a plan may exist beyond it", res.Expanded))
		return x
	case res.Status == goap.LimitReached:
		unlimited := goapInForce(pr.Opt)
		maxDepth := unlimited.Limits.MaxDepth
		unlimited.Limits.MaxDepth = 0
		if full, err := p.Plan(nil, pr.Start, pr.Goal, unlimited); err == nil && full.Status == goap.Found {
			x.Why = append(x.Why, fmt.Sprintf("no plan of at most %d steps; the cheapest plan has %d: %s, cost %s", maxDepth, len(full.Plan), planTextUpTo(d, full.Plan, maxWhyPlan), FormatCost(full.Cost)))
			return x
		}
		x.Why = append(x.Why, fmt.Sprintf("no plan of at most %d steps, and none without the limit either", maxDepth))
	}
	var capable func(goap.ActionID) bool
	if pr.Opt.Profile != nil {
		capable = pr.Opt.Profile.Capable
	}
	reach := relax.From(d, pr.Start, capable)
	blocked := false
	for f, v := range pr.Goal.Condition().Facts {
		l := relax.Literal{Fact: f, Value: v}
		if pr.Start.Has(f) == v || reach.Has(l) {
			continue
		}
		blocked = true
		x.Why = append(x.Why, reach.Why(l))
	}
	if !blocked {
		var facts []string
		for f, v := range pr.Goal.Condition().Facts {
			facts = append(facts, relax.Format(d, relax.Literal{Fact: f, Value: v}))
		}
		x.Why = append(x.Why, fmt.Sprintf("each goal fact (%s) can be reached on its own, but no sequence of actions reaches them all at once: the search expanded all %d reachable states", strings.Join(facts, ", "), res.Expanded))
	}
	return x
}

// WriteText prints the explanation as explain always has.
func (x *Explanation) WriteText(w io.Writer) {
	if x.Cost != nil {
		fmt.Fprintf(w, "%s from %s: %s, cost %s\n", x.Goal, x.start, JoinPlan(x.Plan), FormatCost(x.planCost))
		if x.limit == 0 {
			return
		}
		if len(x.Alternatives) == 0 {
			fmt.Fprintln(w, "no alternative: at every step, no other action leads to the goal")
		} else {
			fmt.Fprintln(w, "nearest alternatives:")
			for _, alt := range x.Alternatives {
				fmt.Fprintf(w, "  %s instead of %s at step %d: %s, cost %s", alt.Action, alt.InsteadOf, alt.Step, JoinPlan(alt.Plan), FormatCost(alt.Cost))
				if alt.More == 0 {
					fmt.Fprintln(w, ", the same: a tie, which goes to the state the search reached first")
				} else {
					fmt.Fprintf(w, ", %s more\n", FormatCost(alt.More))
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

// TrueFacts names the facts that hold in s.
func TrueFacts(d *goap.Domain, s goap.State) []string {
	out := []string{}
	for f := goap.Fact(0); int(f) < d.NumFacts(); f++ {
		if s.Has(f) {
			out = append(out, d.FactName(f))
		}
	}
	return out
}

// ActionNames names a plan's actions.
func ActionNames(d *goap.Domain, plan []goap.ActionID) []string {
	out := make([]string, len(plan))
	for i, a := range plan {
		out[i] = d.ActionName(a)
	}
	return out
}

// JoinPlan writes a plan as its steps joined by arrows.
func JoinPlan(names []string) string {
	if len(names) == 0 {
		return "nothing to do"
	}
	return strings.Join(names, " → ")
}

// maxWhyPlan is the most bytes of action names a sentence of explain's
// lists: the plan it names is one no request asked for in full (the one
// past the depth limit), and may be tens of thousands of long names.
const maxWhyPlan = 4096

// planTextUpTo is PlanText of the plan's first steps whose names take at
// most max bytes, and how many steps it leaves out.
func planTextUpTo(d *goap.Domain, plan []goap.ActionID, max int) string {
	n, size := 0, 0
	for n < len(plan) && size+len(d.ActionName(plan[n])) <= max {
		size += len(d.ActionName(plan[n]))
		n++
	}
	switch n {
	case len(plan):
		return PlanText(d, plan)
	case 0:
		return fmt.Sprintf("… (%d steps left out)", len(plan))
	}
	return fmt.Sprintf("%s → … (%d more steps left out)", JoinPlan(ActionNames(d, plan[:n])), len(plan)-n)
}

// PlanText is JoinPlan of the plan's action names.
func PlanText(d *goap.Domain, plan []goap.ActionID) string { return JoinPlan(ActionNames(d, plan)) }

type alternative struct {
	step   int
	action goap.ActionID
	plan   []goap.ActionID
	cost   float64
}

// explainAlternatives finds, for every step of the plan and every other
// action that applies there, the cheapest plan that takes that action at
// that step, and keeps the nearest few.
func explainAlternatives(x *Explanation, p *goap.Planner, pr Problem, best goap.Result) {
	d := pr.D
	prof := pr.Opt.Profile
	if prof == nil {
		prof = d.DefaultProfile()
	}
	opt := goapInForce(pr.Opt)
	opt.Trace = nil
	lim := opt.Limits // as the caller set them
	var alts []alternative
	// Every alternative is a search: bound their total work by a few
	// searches' budgets, so that a wide domain cannot run for minutes; and
	// their work (goap's units, which count what an expansion costs) by
	// one search's work limit, shared: each search may run to that limit
	// in a few thousand expansions when its actions are many or their
	// costs long rule lists.
	work, maxWork, cut := int64(0), 4*lim.Budget, false
	workLeft := lim.MaxWork
	if workLeft == 0 {
		workLeft = goap.DefaultMaxWork
	}
	s := pr.Start.Clone()
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
			if opt.Limits.MaxDepth > 0 {
				opt.Limits.MaxDepth = lim.MaxDepth - int64(i) - 1
				if opt.Limits.MaxDepth < 0 {
					continue
				}
				if opt.Limits.MaxDepth == 0 && !pr.Goal.Holds(next) {
					continue
				}
			}
			if work >= maxWork || workLeft <= 0 {
				cut = true
				continue
			}
			opt.Limits.MaxWork = workLeft
			rest, err := p.Plan(nil, next, pr.Goal, opt)
			work += rest.Stats.Expanded
			workLeft -= rest.Stats.Work
			if rest.Status == goap.LimitReached && rest.Bound == goap.BoundWork {
				cut = true // this alternative's search may have had a plan
			}
			if err != nil || rest.Status != goap.Found {
				continue
			}
			// Only the nearest few are kept, each a plan as long as the
			// best: all of them would be the budget times the plan's
			// length. A later one goes after those of its cost, as a
			// stable sort of them all would put it.
			cost := prefix + prof.CostIn(a, s) + rest.Cost
			at := len(alts)
			for at > 0 && alts[at-1].cost > cost {
				at--
			}
			if at >= x.limit {
				continue
			}
			plan := append(slices.Clone(best.Plan[:i]), a)
			plan = append(plan, rest.Plan...)
			alts = slices.Insert(alts, at, alternative{step: i + 1, action: a, plan: plan, cost: cost})
			alts = alts[:min(len(alts), x.limit)]
		}
		prefix += prof.CostIn(chosen, s)
		d.Apply(chosen, s)
	}
	x.AlternativesCut, x.Work = cut, int(work)
	for _, alt := range alts {
		x.Alternatives = append(x.Alternatives, Alternative{
			Step: alt.step, Action: d.ActionName(alt.action), InsteadOf: d.ActionName(best.Plan[alt.step-1]),
			Plan: ActionNames(d, alt.plan), Cost: alt.cost, More: alt.cost - best.Cost,
		})
	}
}

// HTNExplanation is what `ploy explain --htn` finds, and the contract of
// its --json output.
type HTNExplanation struct {
	Root       string   `json:"root"`
	Start      []string `json:"start"`
	Status     string   `json:"status"`
	Plan       []string `json:"plan"`
	MTR        []int32  `json:"mtr"`
	Steps      int      `json:"steps"`
	Backtracks int      `json:"backtracks"`
	// Choices are the plan's method choices, in MTR order; with no plan,
	// the root's own choice, every method of it rejected.
	Choices []HTNChoice `json:"choices"`
	// Limit is the step or memory limit's message, when one stopped it.
	Limit string `json:"limit,omitempty"`
}

// HTNChoice is one compound task's choice: the method taken (none when
// every method was rejected), and why each earlier one was not.
type HTNChoice struct {
	Task      string        `json:"task"`
	Method    string        `json:"method,omitempty"`
	Number    int           `json:"number,omitempty"` // 1-based, as in the MTR
	Condition []string      `json:"condition"`        // what held, "not f" for a fact required false
	Rejected  []HTNRejected `json:"rejected"`
}

// HTNRejected is an earlier method and why it was not taken: its
// condition failed (Unmet lists the facts that did not have their value),
// or it was chosen and its decomposition failed, Failed saying where:
// an action whose preconditions were unmet, or a compound task none of
// whose methods applied, at decomposition step Step.
type HTNRejected struct {
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
	choice   HTNChoice
	chosen   bool       // a method of it was chosen at some point
	snapshot goap.State // the facts when its current method was chosen
}

func (x *HTNExplanation) WriteText(w io.Writer, start string) {
	if x.Status == "found" {
		fmt.Fprintf(w, "%s from %s: %s\n", x.Root, start, JoinPlan(x.Plan))
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

// ExplainHTN decomposes from s with a trace and replays the trace: it
// keeps the facts as the planner predicted them (restored on backtrack)
// and the open method choices, so that every method test and every
// backtrack is told against the facts it saw. The choices open at the end
// are the plan's, in MTR order. opt bounds the decomposition (its
// MaxSteps, MaxMemory, Context); its Trace is explain's own.
func ExplainHTN(d *htn.Domain, s goap.State, opt htn.Options) (*HTNExplanation, htn.Result, error) {
	g := d.GOAP()
	var tr htn.Trace
	var res htn.Result
	opt.Trace = &tr
	err := htn.NewPlanner(d).Plan(&res, s, opt)
	x := &HTNExplanation{Root: d.TaskName(d.Root()), Start: TrueFacts(g, s), Status: htn.StatusName(res.Status, res.Bound), Plan: ActionNames(g, res.Plan), MTR: append([]int32{}, res.MTR...), Steps: res.Steps, Backtracks: res.Backtracks, Choices: []HTNChoice{}}
	if err != nil {
		x.Limit = ErrorText(err)
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
			current = &decision{task: ts.Task, choice: HTNChoice{Task: d.TaskName(ts.Task), Condition: []string{}, Rejected: []HTNRejected{}}}
			if first == nil {
				first = current
			}
		case htn.TestMethod:
			name := d.MethodName(ts.Task, int(ts.Method))
			if !ts.Holds {
				current.choice.Rejected = append(current.choice.Rejected, HTNRejected{Method: name, Number: int(ts.Method) + 1, Reason: "condition", Unmet: unmet(d.MethodCondition(ts.Task, int(ts.Method)), facts)})
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
			back.choice.Rejected = append(back.choice.Rejected, HTNRejected{Method: back.choice.Method, Number: back.choice.Number, Reason: "backtracked", Failed: failed, Step: failedStep})
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
	return x, res, err
}

// goapInForce returns opt with the limits in force (Limits winning over
// the deprecated fields, by search.Limits.Or) in Options.Limits alone,
// the deprecated fields zero: an explanation that reads a limit reads the
// one the search used, and one that changes a limit (0: none) is not
// overridden by an old field left set.
func goapInForce(opt goap.Options) goap.Options {
	opt.Limits = opt.Limits.Or(search.Limits{Budget: int64(opt.Budget), MaxDepth: int64(opt.MaxDepth), MaxBytes: int64(opt.MaxBytes), MaxWork: int64(opt.MaxWork)})
	opt.Budget, opt.MaxDepth, opt.MaxBytes, opt.MaxWork = 0, 0, 0, 0
	return opt
}
