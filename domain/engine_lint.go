package domain

import (
	"errors"
	"fmt"

	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// LintResolves is the most goals lint resolves in an engine-model file,
// each within the resolver's default node budget and lintResolveWork, so
// that a file of many goals lints in bounded time.
const (
	LintResolves    = 1000
	lintResolveWork = 1 << 14
)

// lintEngine returns an engine-model file's warnings: conditions no
// action serves, actions that serve nothing, keys never used or never
// read, targets the file's world gives no position, goals with no chain
// from that world, and a domain with no goals.
func lintEngine(f *File) ErrorList {
	var out ErrorList
	warn := func(path, format string, args ...any) {
		out = append(out, &Error{File: f.Path, Pos: f.Pos(path), Msg: "warning: " + fmt.Sprintf(format, args...)})
	}
	d := f.Resolver
	for _, u := range d.Unserved() {
		if u.Action == resolver.NoAction {
			g := d.Goals()[u.Goal]
			warn(fmt.Sprintf("goals[%d].conditions[%d]", u.Goal, u.Condition), "condition %s of goal %q: no action's effect serves it, so only the world can make it hold", g.Conditions()[u.Condition], g.Name())
			continue
		}
		warn(fmt.Sprintf("actions[%d].conditions[%d]", u.Action, u.Condition), "condition %s of action %q: no action's effect serves it, so only the world can make it hold; while it does not, no chain passes through %q", d.Conditions(u.Action)[u.Condition], d.ActionName(u.Action), d.ActionName(u.Action))
	}
	for _, a := range d.ServesNothing() {
		if len(d.Effects(a)) == 0 {
			warn(fmt.Sprintf("actions[%d].name", a), "action %q has no effects: it serves nothing, so no chain can contain it", d.ActionName(a))
		} else {
			warn(fmt.Sprintf("actions[%d].name", a), "action %q serves no condition of any goal or action: no chain can contain it", d.ActionName(a))
		}
	}

	read := map[string]bool{}
	written := map[string]bool{}
	for a := resolver.ActionID(0); int(a) < d.NumActions(); a++ {
		for _, c := range d.Conditions(a) {
			read[c.Key] = true
		}
		for _, e := range d.Effects(a) {
			written[e.Key] = true
		}
	}
	for _, g := range d.Goals() {
		for _, c := range g.Conditions() {
			read[c.Key] = true
		}
	}
	for i, k := range d.Keys() {
		path := fmt.Sprintf("keys[%d]", i)
		switch {
		case !read[k.Name] && !written[k.Name]:
			warn(path, "key %q is never used", k.Name)
		case !read[k.Name]:
			warn(path, "key %q is written but no goal or action reads it", k.Name)
		}
	}

	// The file's world is what the commands resolve from by default: a
	// target it leaves out is one the sensor does not find there.
	if _, ok := f.pos["targets"]; ok {
		seen := map[string]bool{}
		for a := resolver.ActionID(0); int(a) < d.NumActions(); a++ {
			t := d.ActionTarget(a)
			if t == resolver.NoTarget {
				continue
			}
			name := d.Targets()[t]
			if _, ok := f.World.Targets[name]; ok || seen[name] {
				continue
			}
			seen[name] = true
			warn(fmt.Sprintf("actions[%d].target", a), "target %q has no position under targets:, so in the file's world its sensor finds nothing and %q is never in a chain; give it one (or pass --target %s=X,Y)", name, d.ActionName(a), name)
		}
	}

	if len(d.Goals()) == 0 {
		warn("goals", "the domain has no goals: nothing to resolve; add some under goals:, each with a name and conditions")
		return sortErrors(out)
	}
	snap, err := d.SnapshotOf(f.World.Values, f.World.At, f.World.Targets)
	if err != nil {
		return sortErrors(out) // cannot happen: the loader checked the world against the domain
	}
	blocked := map[int]bool{} // goals with an unmet condition no action serves
	for _, u := range d.Unserved() {
		if u.Action == resolver.NoAction && !d.Holds(d.Goals()[u.Goal].Conditions()[u.Condition], snap) {
			blocked[u.Goal] = true
		}
	}
	r := resolver.NewResolver(d)
	var chain []resolver.ActionID
	for i, g := range d.Goals() {
		path := fmt.Sprintf("goals[%d].name", i)
		if i == LintResolves {
			warn(path, "goal %q and the %d after it: not resolved; lint resolves the first %d goals: try ploy resolve --goal %s", g.Name(), len(d.Goals())-i-1, LintResolves, g.Name())
			break
		}
		res, err := r.Resolve(chain[:0], snap, g, resolver.Options{Limits: search.Limits{MaxWork: lintResolveWork}})
		var se *resolver.SearchError
		switch {
		case errors.As(err, &se):
			warn(path, "goal %q: no chain found from the file's world within the resolver's limits (%s); inconclusive: try ploy explain --goal %s", g.Name(), resolver.StatusName(res.Status, res.Bound), g.Name())
		case res.Status == resolver.NoPlan && blocked[i]:
			// An unmet condition nothing serves: already said above.
		case res.Status == resolver.NoPlan:
			warn(path, "goal %q: no chain from the file's world (initial, at, targets): ploy explain --goal %s says why", g.Name(), g.Name())
		}
	}
	return sortErrors(out)
}
