package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/relax"
)

func runExplain(e *env, args []string) int {
	var sf searchFlags
	var alternatives int
	fset := flagSet(e, "explain", "[FILE] --goal NAME [flags]",
		"Explain a planning outcome in words a designer can act on. With no plan, say\nwhich goal facts no sequence of actions can reach and which missing fact\nblocks them. With a plan, show the nearest alternatives: the cheapest plans\nthat leave it at some step, and what each costs more.",
		`  ploy explain --goal GetHealthy --unset healthy,potion_at_shrine
  ploy explain --goal Kill
  ploy explain domains/soldier.yaml --goal KillPlayer --unset axe_nearby,gun_nearby
`)
	sf.register(fset)
	fset.IntVar(&alternatives, "alternatives", 3, "how many of the nearest alternatives to show")
	pr, st := sf.setup(e, fset, args)
	if st >= 0 {
		return st
	}
	p := goap.NewPlanner(pr.d)
	res, err := p.Plan(nil, pr.start, pr.goal, pr.opt)
	w := e.stdout
	d := pr.d
	switch res.Status {
	case goap.Found:
		fmt.Fprintf(w, "%s from %s: %s, cost %s\n", pr.goal.Name(), d.FormatState(pr.start), planText(d, res.Plan), formatCost(res.Cost))
		explainAlternatives(e, p, pr, res, alternatives)
		return exitOK
	case goap.Unsupported:
		fmt.Fprintf(e.stderr, "ploy explain: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(w, "no plan for %s from %s:\n", pr.goal.Name(), d.FormatState(pr.start))
	switch res.Status {
	case goap.BudgetExhausted:
		fmt.Fprintf(w, "  the search gave up after %d states (the --budget); a plan may exist beyond it\n", res.Expanded)
		return exitNoPlan
	case goap.DepthExceeded:
		unlimited := pr.opt
		unlimited.MaxDepth = 0
		if full, err := p.Plan(nil, pr.start, pr.goal, unlimited); err == nil && full.Status == goap.Found {
			fmt.Fprintf(w, "  no plan of at most %d steps; the cheapest plan has %d: %s, cost %s\n", pr.opt.MaxDepth, len(full.Plan), planText(d, full.Plan), formatCost(full.Cost))
			return exitNoPlan
		}
		fmt.Fprintf(w, "  no plan of at most %d steps, and none without the limit either\n", pr.opt.MaxDepth)
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
		fmt.Fprintf(w, "  %s\n", reach.Why(l))
	}
	if !blocked {
		var facts []string
		for f, v := range pr.goal.Condition().Facts {
			facts = append(facts, relax.Format(d, relax.Literal{Fact: f, Value: v}))
		}
		fmt.Fprintf(w, "  each goal fact (%s) can be reached on its own, but no sequence of actions reaches them all at once: the search expanded all %d reachable states\n", strings.Join(facts, ", "), res.Expanded)
	}
	return exitNoPlan
}

func planText(d *goap.Domain, plan []goap.ActionID) string {
	if len(plan) == 0 {
		return "nothing to do"
	}
	names := make([]string, len(plan))
	for i, a := range plan {
		names[i] = d.ActionName(a)
	}
	return strings.Join(names, " → ")
}

type alternative struct {
	step   int
	action goap.ActionID
	plan   []goap.ActionID
	cost   float64
}

// explainAlternatives finds, for every step of the plan and every other
// action that applies there, the cheapest plan that takes that action at
// that step, and shows the nearest few.
func explainAlternatives(e *env, p *goap.Planner, pr problem, best goap.Result, limit int) {
	d := pr.d
	w := e.stdout
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
	if cut {
		defer fmt.Fprintf(w, "(alternatives cut short after %d states expanded; raise --budget to see more)\n", work)
	}
	if len(alts) == 0 {
		fmt.Fprintln(w, "no alternative: at every step, no other action leads to the goal")
		return
	}
	slices.SortStableFunc(alts, func(a, b alternative) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	})
	fmt.Fprintln(w, "nearest alternatives:")
	for _, alt := range alts[:min(limit, len(alts))] {
		delta := alt.cost - best.Cost
		fmt.Fprintf(w, "  %s instead of %s at step %d: %s, cost %s", d.ActionName(alt.action), d.ActionName(best.Plan[alt.step-1]), alt.step, planText(d, alt.plan), formatCost(alt.cost))
		if delta == 0 {
			fmt.Fprintln(w, ", the same: a tie, which goes to the state the search reached first")
		} else {
			fmt.Fprintf(w, ", %s more\n", formatCost(delta))
		}
	}
}
