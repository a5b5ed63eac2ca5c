package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// Bounds of the engine-model commands' numeric flags: a resolve holds at
// most resolver.DefaultMaxWork nodes whatever the budget, and no chain
// repeats an action, so neither bound limits a real domain.
const (
	maxResolveBudget = 1 << 20
	maxResolveDepth  = 1 << 10
)

// defaultEngineFile is the file resolve uses when given none.
const defaultEngineFile = "survivor.yaml"

// engineFlags are the flags the engine-model commands add: where the
// agent stands, where its targets are, what it can do. resolve registers
// them, and trace and explain too, for engine-model files.
type engineFlags struct {
	at           string
	targets      listFlag
	capabilities listFlag
	// json, if set, is ploy resolve's --json (see searchFlags.json).
	json *bool
}

func (f *engineFlags) register(fset *flag.FlagSet) {
	fset.StringVar(&f.at, "at", "", "engine model: the agent's position X,Y (default: the file's at:, or 0,0)")
	fset.Var(&f.targets, "target", "engine model: target positions NAME=X,Y, or NAME=none for a target the sensor does not find, comma-separated or repeated (default: the file's targets:)")
	fset.Var(&f.capabilities, "capabilities", "engine model: the actions the agent can do, comma-separated (default: all)")
}

// engineProblem is a resolved engine-model problem: the domain, the
// snapshot the flags and the file's world make, the goal and the options.
type engineProblem struct {
	f    *domain.File
	d    *resolver.Domain
	snap *resolver.Snapshot
	goal *resolver.Goal
	opt  resolver.Options
	// agent is the --agent resolved as, if any; chosen says the goal is
	// its choice, and skipped are the options ranked above it that have
	// no chain.
	agent   *domain.EngineAgent
	chosen  bool
	skipped []string
}

// parsedEngineFlags is what the flags say before the file is read:
// checked for form and bounds, not yet against the domain's names.
type parsedEngineFlags struct {
	at      *resolver.Point
	targets map[string]resolver.Point
	// lost are the targets given as NAME=none: the sensor finds nothing.
	lost   map[string]bool
	values map[string]string // --set key=value, as written
	unset  []string
}

// parseEngineFlags checks the engine-model flags' form and bounds, before
// any file is read; the second result is the exit status, or -1.
func parseEngineFlags(e *env, fset *flag.FlagSet, ef engineFlags, set, unset listFlag) (parsedEngineFlags, int) {
	p := parsedEngineFlags{targets: map[string]resolver.Point{}, lost: map[string]bool{}, values: map[string]string{}, unset: unset}
	if ef.at != "" {
		pt, err := parsePoint(ef.at)
		if err != nil {
			return p, usageErr(e, fset, "--at %q: %v", ef.at, err)
		}
		p.at = &pt
	}
	// "a=1,2,b=3,4" arrives split on commas: an item with = starts a
	// target, the next item is its y; "a=none" is a whole target.
	items := []string(ef.targets)
	for i := 0; i < len(items); i++ {
		name, x, ok := strings.Cut(items[i], "=")
		if ok && name != "" && strings.TrimSpace(x) == "none" {
			if _, dup := p.targets[name]; dup || p.lost[name] {
				return p, usageErr(e, fset, "--target: target %q given twice", name)
			}
			p.lost[name] = true
			continue
		}
		if !ok || name == "" || i+1 == len(items) || strings.Contains(items[i+1], "=") {
			return p, usageErr(e, fset, "--target wants NAME=X,Y, such as --target wood_north=3,4, or NAME=none for a target not found; got %q", items[i])
		}
		pt, err := parsePoint(x + "," + items[i+1])
		if err != nil {
			return p, usageErr(e, fset, "--target %s=%s,%s: %v", name, x, items[i+1], err)
		}
		if _, dup := p.targets[name]; dup || p.lost[name] {
			return p, usageErr(e, fset, "--target: target %q given twice", name)
		}
		p.targets[name] = pt
		i++
	}
	for _, item := range set {
		name, value, hasValue := strings.Cut(item, "=")
		if !hasValue {
			value = "true" // --set has_wood, as with facts
		}
		if name == "" {
			return p, usageErr(e, fset, "--set wants KEY=VALUE, such as --set hunger=70,has_wood=true; got %q", item)
		}
		if _, dup := p.values[name]; dup {
			return p, usageErr(e, fset, "--set: key %q given twice", name)
		}
		p.values[name] = value
	}
	return p, -1
}

// parsePoint reads "X,Y" (resolver.Dimensions coordinates): finite
// numbers within domain.MaxCoordinate.
func parsePoint(s string) (resolver.Point, error) {
	coords := strings.Split(s, ",")
	if len(coords) != resolver.Dimensions {
		return resolver.Point{}, fmt.Errorf("want X,Y, such as 3,4: a position has %d coordinates, not %d", resolver.Dimensions, len(coords))
	}
	var xy [resolver.Dimensions]float64
	for i, v := range coords {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return resolver.Point{}, fmt.Errorf("%q is not a number", v)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return resolver.Point{}, fmt.Errorf("coordinate %s is not a finite number", strings.TrimSpace(v))
		}
		if !(math.Abs(f) <= domain.MaxCoordinate) {
			return resolver.Point{}, fmt.Errorf("coordinate %s is out of range: at most %g in size", v, float64(domain.MaxCoordinate))
		}
		xy[i] = f
	}
	return resolver.Point{X: xy[0], Y: xy[1]}, nil
}

// engineSetup resolves the parsed flags against an engine-model file:
// the snapshot (the file's world with the flags applied), the goal, the
// capabilities; the second result is the exit status, or -1.
func engineSetup(e *env, fset *flag.FlagSet, f *domain.File, p parsedEngineFlags, ef engineFlags, goalName, agentName string, budget, maxDepth int) (engineProblem, int) {
	d := f.Resolver
	pr := engineProblem{f: f, d: d, opt: resolver.Options{Limits: search.Limits{Budget: int64(budget), MaxDepth: int64(maxDepth)}}}
	values := map[string]int64{}
	for k, v := range f.World.Values {
		values[k] = v
	}
	var keyNames []string
	for _, k := range d.Keys() {
		keyNames = append(keyNames, k.Name)
	}
	unknownKey := func(flagName, name string) int {
		return usageErr(e, fset, "%s: unknown key %q%s", flagName, name, suggestion(name, keyNames, "the domain's keys"))
	}
	for _, name := range sortedNames(p.values) {
		k, ok := d.Key(name)
		if !ok {
			return pr, unknownKey("--set", name)
		}
		text := p.values[name]
		if d.Keys()[k].Kind == resolver.Bool {
			switch text {
			case "true":
				values[name] = 1
			case "false":
				values[name] = 0
			default:
				return pr, usageErr(e, fset, "--set %s=%s: %q is a boolean key: true or false", name, text, name)
			}
			continue
		}
		v, err := strconv.ParseInt(text, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return pr, usageErr(e, fset, "--set %s=%s: out of range: %q holds a 64-bit whole number, from %d to %d", name, text, name, int64(math.MinInt64), int64(math.MaxInt64))
		}
		if err != nil {
			return pr, usageErr(e, fset, "--set %s=%s: %q is an integer key: a whole number", name, text, name)
		}
		values[name] = v
	}
	for _, name := range p.unset {
		k, ok := d.Key(name)
		if !ok {
			return pr, unknownKey("--unset", name)
		}
		if d.Keys()[k].Kind != resolver.Bool {
			return pr, usageErr(e, fset, "--unset %s: %q is an integer key: give its value with --set %s=N", name, name, name)
		}
		if _, set := p.values[name]; set {
			return pr, usageErr(e, fset, "key %q is both set and unset", name)
		}
		values[name] = 0
	}
	at := f.World.At
	if p.at != nil {
		at = *p.at
	}
	targets := map[string]resolver.Point{}
	for k, v := range f.World.Targets {
		targets[k] = v
	}
	given := sortedNames(p.targets)
	given = append(given, sortedNames(p.lost)...)
	for _, name := range given {
		if _, ok := d.Target(name); !ok {
			listed := "the domain's targets"
			if len(d.Targets()) == 0 {
				listed = ""
			}
			return pr, usageErr(e, fset, "--target: no action targets %q%s", name, suggestion(name, d.Targets(), listed))
		}
		if p.lost[name] {
			delete(targets, name) // a target with no position is not found
			continue
		}
		targets[name] = p.targets[name]
	}
	snap, err := d.SnapshotOf(values, at, targets)
	if err != nil {
		return pr, usageErr(e, fset, "%s", errorText(err)) // cannot happen: every name was checked
	}
	pr.snap = snap
	if len(ef.capabilities) > 0 {
		prof, err := d.NewProfile(resolver.ProfileSpec{Capabilities: ef.capabilities})
		if err != nil {
			// One line per unknown name, each saying what it is about.
			var es resolver.SpecErrors
			lines := []string{errorText(err)}
			if errors.As(err, &es) {
				lines = lines[:0]
				for _, se := range es {
					lines = append(lines, se.Msg)
				}
			}
			return pr, usageErr(e, fset, "--capabilities: %s", strings.Join(lines, "\n"+fset.Name()+": --capabilities: "))
		}
		pr.opt.Profile = prof
	}
	if agentName != "" {
		if len(ef.capabilities) > 0 {
			return pr, usageErr(e, fset, "--capabilities with --agent: the agent's capabilities are its own (its agents: entry)")
		}
		k, err := f.EngineAgent(agentName)
		if err != nil {
			return pr, usageErr(e, fset, "--agent: %s", err)
		}
		pr.agent, pr.opt.Profile = k, k.Profile
		if goalName == "" {
			// As a resolver agent does: the first option that applies,
			// or, when it has no chain, the next that has one.
			goal, skipped, ok := report.ChooseEngineGoal(k, pr.report())
			if !ok {
				return pr, noGoal(e, fset, ef.json != nil && *ef.json, k.Name, d.FormatSnapshot(pr.snap))
			}
			pr.goal, pr.chosen, pr.skipped = goal, true, skipped
			return pr, -1
		}
	}
	var names []string
	for _, g := range d.Goals() {
		names = append(names, g.Name())
	}
	goals := "; the domain's goals: " + strings.Join(names, ", ")
	if len(names) == 0 {
		goals = fmt.Sprintf("; %s has no goals: add some under goals:, each with a name and conditions", f.Path)
	}
	switch {
	case goalName == "":
		return pr, usageErr(e, fset, "--goal is required (or --agent, which chooses)%s", goals)
	case d.Goal(goalName) == nil:
		msg := fmt.Sprintf("unknown goal %q", goalName)
		if s := suggest.Closest(goalName, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		} else {
			msg += goals
		}
		return pr, usageErr(e, fset, "%s", msg)
	}
	pr.goal = d.Goal(goalName)
	return pr, -1
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func runResolve(e *env, args []string) int {
	var set, unset listFlag
	var ef engineFlags
	var goalName, agentName string
	var budget, maxDepth int
	var asJSON bool
	fset := flagSet(e, "resolve", "[FILE] --goal NAME [flags]",
		"Resolve a goal of an engine-model file (keys:) with the engine model's resolver: chain\nbackwards from the goal to an action that can run now, the head, and print the\nleast-cost chain, head first, with each action's cost and its share of the\ndistance walked. The world is the file's (initial:, at:, targets:) with the\nflags applied. Without FILE, the embedded survivor.yaml.",
		`  ploy resolve --goal Warm
  ploy resolve --goal Warm --target wood_north=0,3
  ploy resolve --goal Fed --set hunger=70 --capabilities Hunt,Eat --json
  ploy resolve shopkeeper --goal ServeCustomer --set can_reach_item=true
  ploy resolve --agent wounded
`)
	fset.StringVar(&goalName, "goal", "", "the goal to resolve (required, but with --agent, which chooses one)")
	fset.StringVar(&agentName, "agent", "", "resolve as the file's agent `NAME` (its agents: section): with its capabilities and costs, and, without --goal, for the goal it would choose from the world")
	fset.Var(&set, "set", "key values KEY=VALUE (true or false for a boolean, a whole number for an integer; KEY alone is KEY=true), comma-separated (repeatable)")
	fset.Var(&unset, "unset", "boolean keys to make false, comma-separated (repeatable)")
	ef.register(fset)
	ef.json = &asJSON
	fset.IntVar(&budget, "budget", resolver.DefaultBudget, fmt.Sprintf("most partial chains to expand, from 1 to %d", maxResolveBudget))
	fset.IntVar(&maxDepth, "max-depth", resolver.DefaultMaxDepth, fmt.Sprintf("longest chain, in actions, from 1 to %d", maxResolveDepth))
	fset.BoolVar(&asJSON, "json", false, `print one JSON object: {"status", "plan", "cost", "expanded", "generated"}, and "bound" ("chains" or "work") when the budget ran out`)
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if budget < 1 || budget > maxResolveBudget {
		return usageErr(e, fset, "--budget must be from 1 to %d, not %d", maxResolveBudget, budget)
	}
	if maxDepth < 1 || maxDepth > maxResolveDepth {
		return usageErr(e, fset, "--max-depth must be from 1 to %d, not %d", maxResolveDepth, maxDepth)
	}
	p, st := parseEngineFlags(e, fset, ef, set, unset)
	if st >= 0 {
		return st
	}
	if len(positional) == 0 {
		positional = []string{defaultEngineFile}
	}
	f, st := load(e, fset, positional)
	if st >= 0 {
		return st
	}
	if !f.EngineModel() {
		return usageErr(e, fset, "%s is a state-space file (facts:): plan it with ploy plan; ploy resolve takes engine-model files (keys:)", f.Path)
	}
	pr, st := engineSetup(e, fset, f, p, ef, goalName, agentName, budget, maxDepth)
	if st >= 0 {
		return st
	}
	res, err := resolver.NewResolver(pr.d).Resolve(nil, pr.snap, pr.goal, pr.opt)
	if st := checkChainCost(e, "resolve", res); st >= 0 {
		return st
	}
	if asJSON {
		answer := report.ResolveAs{Resolve: report.ResolveOf(pr.d, res, err)}
		if pr.agent != nil {
			answer.Agent, answer.Goal = pr.agent.Name, pr.goal.Name()
		}
		b, err := json.Marshal(answer)
		if err != nil {
			fmt.Fprintf(e.stderr, "ploy resolve: %s\n", errorText(err))
			return exitInvalid
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		printChain(e.stdout, pr, res, err)
	}
	if res.Status != resolver.Found {
		return exitNoPlan
	}
	return exitOK
}

// checkChainCost refuses a chain whose cost is past the float range.
func checkChainCost(e *env, command string, res resolver.Result) int {
	if res.Status != resolver.Found || !math.IsInf(res.Cost, 0) && !math.IsNaN(res.Cost) {
		return -1
	}
	fmt.Fprintf(e.stderr, "ploy %s: the chain's cost adds up past the float range (%s): make the domain's costs or distances smaller\n", command, formatCost(res.Cost))
	return exitInvalid
}

// step is one action of a chain with its share of the chain's cost: its
// own cost, and the distance walked to its target from where the agent
// was (the agent's position for the head, the last target after), times
// the domain's distance cost. An action without a target happens where
// the agent then is: no walk.
type step struct {
	action   resolver.ActionID
	cost     float64
	distance float64
	target   string
}

func chainSteps(pr engineProblem, chain []resolver.ActionID) []step {
	d := pr.d
	out := make([]step, len(chain))
	here := pr.snap.At
	for i, a := range chain {
		s := step{action: a, cost: actionCost(pr, a)}
		if t := d.ActionTarget(a); t != resolver.NoTarget {
			to := pr.snap.Targets[t].At
			s.distance = resolver.StraightLine{}.Distance(here, to) * d.DistanceCost()
			s.target = d.Targets()[t]
			here = to
		}
		out[i] = s
	}
	return out
}

// actionCost is a's cost for the agent resolved for: its profile's
// override (an agent kind's costs:), else the file's constant.
func actionCost(pr engineProblem, a resolver.ActionID) float64 {
	if p := pr.opt.Profile; p != nil {
		if c, ok := p.Spec().Costs[pr.d.ActionName(a)]; ok {
			return c
		}
	}
	return pr.f.ResolverSpec.Actions[a].Cost
}

func formatPoint(p resolver.Point) string { return report.FormatPoint(p) }

func chainNames(d *resolver.Domain, chain []resolver.ActionID) []string {
	return report.ChainNames(d, chain)
}

// report is the problem as package report takes it.
func (pr engineProblem) report() report.EngineProblem {
	return report.EngineProblem{D: pr.d, Snap: pr.snap, Goal: pr.goal, Opt: pr.opt}
}

func printChain(w io.Writer, pr engineProblem, res resolver.Result, err error) {
	d := pr.d
	fmt.Fprintf(w, "%s%s from %s, agent at %s:\n", pr.goal.Name(), pr.as(), d.FormatSnapshot(pr.snap), formatPoint(pr.snap.At))
	switch res.Status {
	case resolver.Found:
		if len(res.Chain) == 0 {
			fmt.Fprintln(w, "  the goal already holds: nothing to do")
		}
		width := 0
		for _, a := range res.Chain {
			width = max(width, len(d.ActionName(a)))
		}
		for i, s := range chainSteps(pr, res.Chain) {
			fmt.Fprintf(w, "  %d. %-*s  cost %s", i+1, width, d.ActionName(s.action), formatCost(s.cost))
			if s.target != "" {
				fmt.Fprintf(w, " + distance %s (to %s)", formatCost(s.distance), s.target)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "cost %s; %d chain%s expanded, %d generated\n", formatCost(res.Cost), res.Expanded, plural(res.Expanded), res.Generated)
	case resolver.NoPlan:
		fmt.Fprintln(w, "  no chain: no chain of capable actions reaches an action whose conditions all hold now")
		fmt.Fprintf(w, "run 'ploy explain --goal %s' with the same flags to see why\n", pr.goal.Name())
	default:
		fmt.Fprintf(w, "  no chain: %s\n", errorText(err))
		fmt.Fprintf(w, "%d chain%s expanded, %d generated\n", res.Expanded, plural(res.Expanded), res.Generated)
	}
}
