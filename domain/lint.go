package domain

import (
	"fmt"
	"strings"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/relax"
	"github.com/ploy-ai/ploy/search"
)

// LintSearchBudget is the number of states lint's searches may expand, over
// all the goals that relaxed reachability cannot settle, shared evenly;
// minGoalBudget is the least share, so that with many goals the first get
// a useful search and the rest are reported as not searched.
//
// LintSearchWork bounds the same searches' work, in goap.Options.MaxWork's
// units, shared the same way: on a wide domain one expansion reads every
// action's preconditions, so states alone let a hundred searches of
// goap.DefaultMaxWork each take minutes. Each search is charged the work
// its states and successors take (an expansion reads actions × state
// words, a successor writes a state), and at least one expansion, so that
// the number of searches, and their setting up, is bounded too.
const (
	LintSearchBudget = 100_000
	minGoalBudget    = 1_000
	LintSearchWork   = 1 << 28
	minGoalWork      = LintSearchWork / (LintSearchBudget / minGoalBudget)
)

// Lint returns the warnings a designer wants before run time, sorted by
// position: actions that never change anything or can never apply from the
// initial state, goals unreachable from it, facts read but never written
// or written but never read, HTN methods whose conditions can never hold
// and compound tasks the root never reaches, and a domain with no goals.
// Facts the file lists as sensed can take either value at any time, as far
// as the reachability of actions and methods goes. Relaxed reachability
// settles most goals without a search; the rest share LintSearchBudget,
// and a search cut short is reported as inconclusive, never as a verdict.
//
// For an engine-model file (keys:), Lint reports instead conditions no
// action serves, actions that serve nothing, keys never used or never
// read, targets the file's world gives no position, goals with no chain
// from that world, and a domain with no goals.
func Lint(f *File) ErrorList {
	if f.EngineModel() {
		return lintEngine(f)
	}
	var out ErrorList
	warn := func(path, format string, args ...any) {
		out = append(out, &Error{File: f.Path, Pos: f.Pos(path), Msg: "warning: " + fmt.Sprintf(format, args...)})
	}
	g := f.GOAP
	reach := relax.From(g, g.Initial(), nil, f.Sensed...)
	unsensed := reach
	if len(f.Sensed) > 0 {
		unsensed = relax.From(g, g.Initial(), nil)
	}
	sensed := make([]bool, g.NumFacts())
	for _, fact := range f.Sensed {
		sensed[fact] = true
	}

	read := make([]bool, g.NumFacts())
	written := make([]bool, g.NumFacts())
	mark := func(c goap.Condition, into []bool) {
		for f := range c.Facts {
			into[f] = true
		}
	}
	for a := goap.ActionID(0); int(a) < g.NumActions(); a++ {
		path := fmt.Sprintf("actions[%d].name", a)
		name := g.ActionName(a)
		pre, eff := g.Preconditions(a), g.Effects(a)
		mark(pre, read)
		mark(eff, written)
		if rules, _, ok := g.Cost(a).RuleList(); ok {
			for _, r := range rules {
				c, _ := g.Condition(r.When)
				mark(c, read)
			}
		}
		changes := false
		for f, v := range eff.Facts {
			if pv, ok := pre.Get(f); !ok || pv != v {
				changes = true
			}
		}
		if !changes {
			if eff.Len() == 0 {
				warn(path, "action %q has no effects: it never changes anything", name)
			} else {
				warn(path, "action %q never changes anything: its effects only restate its preconditions", name)
			}
			continue
		}
		if miss, ok := reach.Missing(pre); !ok {
			warn(path, "action %q can never apply from the initial state: it needs %s (%s)", name, relax.Format(g, miss), reach.Why(miss))
		}
	}

	// Relaxed reachability settles most goals for free; the rest need a
	// search, which lint keeps small: LintSearchBudget states over all
	// goals, shared evenly, each share at least minGoalBudget and at most
	// what is left. A search cut short says so, rather than guessing.
	var toSearch []int
	for i, goal := range g.Goals() {
		mark(goal.Condition(), read)
		path := fmt.Sprintf("goals[%d].name", i)
		if miss, ok := reach.Missing(goal.Condition()); !ok {
			warn(path, "goal %q is unreachable from the initial state: %s", goal.Name(), reach.Why(miss))
			continue
		}
		if _, ok := unsensed.Missing(goal.Condition()); !ok {
			continue // only once the world changes a sensed fact: a plan from the initial state cannot tell
		}
		toSearch = append(toSearch, i)
	}
	if len(toSearch) > 0 {
		p := goap.NewPlanner(g)
		left, workLeft := LintSearchBudget, LintSearchWork
		share := max(LintSearchBudget/len(toSearch), minGoalBudget)
		workShare := max(LintSearchWork/len(toSearch), minGoalWork)
		words := max(1, (g.NumFacts()+63)/64)
		perExpansion := g.NumActions() * words
		for _, i := range toSearch {
			goal := g.Goals()[i]
			path := fmt.Sprintf("goals[%d].name", i)
			if left <= 0 {
				warn(path, "goal %q: not searched; lint's search budget (%d states) went to the goals above it: try ploy plan --goal %s", goal.Name(), LintSearchBudget, goal.Name())
				continue
			}
			if workLeft <= 0 {
				warn(path, "goal %q: not searched; lint's search work (%d units) went to the goals above it: try ploy plan --goal %s", goal.Name(), LintSearchWork, goal.Name())
				continue
			}
			budget := min(share, left)
			res, _ := p.Plan(nil, g.Initial(), goal, goap.Options{Limits: search.Limits{Budget: int64(budget), MaxWork: int64(min(workShare, workLeft))}}) // a limit reached is in res
			left -= max(res.Expanded, 1)
			workLeft -= max(res.Expanded, 1)*perExpansion + res.Generated*(words+1)
			switch {
			case res.Status == goap.LimitReached && res.Bound != goap.BoundStates && res.Bound != goap.BoundDepth:
				warn(path, "goal %q: no plan found before the search's %s limit, after %d states; inconclusive: try ploy plan --goal %s", goal.Name(), res.Bound, res.Expanded, goal.Name())
			case res.Status == goap.LimitReached && res.Bound == goap.BoundStates:
				warn(path, "goal %q: no plan found within lint's budget of %d states; inconclusive: try ploy plan --goal %s", goal.Name(), budget, goal.Name())
			case res.Status == goap.NoPlan:
				warn(path, "goal %q is unreachable from the initial state: each of its facts can be reached, but not all together (%d reachable states searched)", goal.Name(), res.Expanded)
			}
		}
	}
	if len(g.Goals()) == 0 {
		warn("goals", "the domain has no goals: nothing to plan for; add some under goals:, each with a name and conditions")
	}

	// An agent whose capabilities leave out actions may never reach a
	// goal the domain can: it would choose it, fail to plan, and wait.
	// An agent's own goal (conditions: in its option) is said here, as a
	// file's goal is above: no other warning would name it.
	for _, a := range f.Agents {
		a.conditions(func(c Condition) { mark(c.Facts(), read) })
		var agentReach *relax.Reach
		for _, o := range a.Goals {
			mark(o.Goal.Condition(), read)
			if g.Goal(o.Goal.Name()) != o.Goal {
				if miss, ok := reach.Missing(o.Goal.Condition()); !ok {
					warn(o.path+".goal", "agent %q: its own goal %q is unreachable from the initial state: %s", a.Name, o.Goal.Name(), reach.Why(miss))
					continue
				}
			}
			if a.Profile == nil || len(a.ProfileSpec.Incapable) == 0 {
				continue
			}
			if _, ok := reach.Missing(o.Goal.Condition()); !ok {
				continue // no agent can: said at the goal
			}
			if agentReach == nil {
				agentReach = relax.From(g, g.Initial(), a.Profile.Capable, f.Sensed...)
			}
			if miss, ok := agentReach.Missing(o.Goal.Condition()); !ok {
				warn(o.path+".goal", "agent %q can never reach goal %q with its capabilities: %s", a.Name, o.Goal.Name(), agentReach.Why(miss))
			}
		}
	}
	lintTrees(f, reach, warn)

	if f.HTN != nil {
		h := f.HTN
		reached := make([]bool, h.NumTasks())
		var visit func(t htn.Task)
		visit = func(t htn.Task) {
			if t.IsPrimitive() || reached[t] {
				return
			}
			reached[t] = true
			for m := 0; m < h.NumMethods(t); m++ {
				for _, s := range h.Subtasks(t, m) {
					visit(s)
				}
			}
		}
		visit(h.Root())
		for t := htn.Task(0); int(t) < h.NumTasks(); t++ {
			tpath := fmt.Sprintf("htn.tasks[%d]", t)
			if !reached[t] {
				warn(tpath+".name", "task %q is never reached from the root %q", h.TaskName(t), h.TaskName(h.Root()))
			}
			for m := 0; m < h.NumMethods(t); m++ {
				cond := h.MethodCondition(t, m)
				mark(cond, read)
				if miss, ok := reach.Missing(cond); !ok {
					warn(fmt.Sprintf("%s.methods[%d].name", tpath, m), "method %s.%s can never be chosen: its condition needs %s (%s)", h.TaskName(t), h.MethodName(t, m), relax.Format(g, miss), reach.Why(miss))
				}
			}
		}
		// A cycle of leading subtasks decomposes again with the same facts:
		// the planner goes round it until the step limit.
		for _, cycle := range h.RecursionsWithoutProgress() {
			var round []string
			for _, m := range cycle[:min(len(cycle), 8)] {
				round = append(round, h.TaskName(m.Task)+"."+h.MethodName(m.Task, m.Method))
			}
			if len(cycle) > 8 {
				round = append(round, fmt.Sprintf("… (%d more)", len(cycle)-8))
			}
			first := cycle[0]
			warn(fmt.Sprintf("htn.tasks[%d].methods[%d].name", first.Task, first.Method), "task %q can recurse without progress: %s → %s comes back to it before any action, so with the same facts it can go round until the step limit", h.TaskName(first.Task), strings.Join(round, " → "), h.TaskName(first.Task))
		}
	}

	for i := 0; i < g.NumFacts(); i++ {
		path := fmt.Sprintf("facts[%d]", i)
		name := g.FactName(goap.Fact(i))
		switch {
		case !read[i] && !written[i]:
			warn(path, "fact %q is never used", name)
		case read[i] && !written[i] && !sensed[i]:
			warn(path, "fact %q is read but no action changes it; only the world (sensors, the initial state) can: if a sensor does, list it under sensed", name)
		case !read[i] && written[i]:
			warn(path, "fact %q is written but nothing reads it", name)
		}
	}
	return sortErrors(out)
}
