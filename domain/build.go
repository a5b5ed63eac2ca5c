package domain

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// build compiles the specs, mapping the planners' errors to positions. If
// the GOAP part is invalid, the HTN is still checked against a repaired
// copy, so that the file's errors are reported all at once.
func (l *loader) build(f *File) {
	l.dropUnknownFacts()
	g, err := goap.NewDomain(l.spec)
	if err != nil {
		var es goap.SpecErrors
		if errors.As(err, &es) {
			for _, e := range es {
				if l.costStandIn(e.Path) || l.isBroken(e.Path) || l.unknown[e.Path] {
					continue
				}
				l.errorAt(lookup(l.pos, e.Path), "%s", e.Msg)
			}
		}
		g, err = goap.NewDomain(repaired(l.spec))
		if err != nil {
			return // cannot happen: repaired drops whatever NewDomain rejects
		}
	}
	var h *htn.Domain
	if l.htn != nil {
		h, err = htn.NewDomain(g, *l.htn)
		var es htn.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				if !l.isBroken(e.Path) && !l.unknown[e.Path] {
					l.errorAt(lookup(l.pos, e.Path), "%s", e.Msg)
				}
			}
		}
	}
	f.GOAP, f.HTN = g, h
	f.Sensed = l.resolveSensed(g)
	f.Agents = l.buildAgents(g, h)
	f.Inputs = l.inputs
}

// dropUnknownFacts reports each fact named in a fact map but not declared,
// and takes it out of the map, so that the planners, which would report
// it again with their own suggestion, never see it.
func (l *loader) dropUnknownFacts() {
	declared := make(map[string]bool, len(l.spec.Facts))
	for _, f := range l.spec.Facts {
		declared[f] = true
	}
	l.unknown = map[string]bool{}
	for _, fm := range l.factMaps {
		for _, name := range slices.Sorted(maps.Keys(fm.m)) {
			if declared[name] {
				continue
			}
			path := fm.path + "." + name
			l.errorAt(lookup(l.pos, path), "%s", l.unknownFact(name))
			// The map's own path too: goap would judge the map
			// without the name ("a rule with no condition").
			l.unknown[path], l.unknown[fm.path] = true, true
			delete(fm.m, name)
		}
	}
}

// unknownFact says that name is no declared fact, with the closest one if
// there is one, or else the first few facts there are.
func (l *loader) unknownFact(name string) string {
	msg := "unknown fact " + quote(name)
	if l.suggested >= maxSuggestions {
		return msg
	}
	l.suggested++
	if s := suggest.Closest(name, l.spec.Facts); s != "" {
		return msg + fmt.Sprintf("; did you mean %s?", quote(s))
	}
	const listed = 10
	facts := l.spec.Facts
	if len(facts) == 0 {
		return msg + "; the file declares no facts"
	}
	var sb strings.Builder
	for i, f := range facts[:min(len(facts), listed)] {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(quote(f))
	}
	if len(facts) > listed {
		fmt.Fprintf(&sb, " and %d more", len(facts)-listed)
	}
	return msg + "; declare it under facts, or use a declared one: " + sb.String()
}

// resolveSensed resolves the sensed key's names, reporting unknown and
// repeated ones.
func (l *loader) resolveSensed(g *goap.Domain) []goap.Fact {
	var out []goap.Fact
	seen := map[goap.Fact]bool{}
	for i, name := range l.sensed {
		pos := l.pos[fmt.Sprintf("sensed[%d]", i)]
		if name == "" {
			continue // reported as empty
		}
		fact, ok := g.Fact(name)
		switch {
		case !ok:
			l.errorAt(pos, "%s", l.unknownFact(name))
		case seen[fact]:
			l.errorAt(pos, "fact %q is already listed in sensed", name)
		default:
			seen[fact] = true
			out = append(out, fact)
		}
	}
	return out
}

// isBroken reports whether path is, or is inside, an item already reported.
func (l *loader) isBroken(path string) bool {
	for _, b := range l.broken {
		if path == b || strings.HasPrefix(path, b+".") || strings.HasPrefix(path, b+"[") {
			return true
		}
	}
	return false
}

// costStandIn reports whether a goap error is about a cost the loader
// already rejected and replaced.
func (l *loader) costStandIn(path string) bool {
	for a := range l.badCost {
		if strings.HasPrefix(path, fmt.Sprintf("actions[%d].cost", a)) {
			return true
		}
	}
	return false
}

// repaired returns a copy of spec with whatever goap.NewDomain would reject
// taken out: duplicate and empty names, unknown facts, invalid costs.
func repaired(spec goap.Spec) goap.Spec {
	out := goap.Spec{Name: spec.Name}
	known := map[string]bool{}
	for _, f := range spec.Facts {
		if f != "" && !strings.ContainsAny(f, " \t\n,") && !known[f] {
			known[f] = true
			out.Facts = append(out.Facts, f)
		}
	}
	keep := func(m map[string]bool) map[string]bool {
		r := map[string]bool{}
		for k, v := range m {
			if known[k] {
				r[k] = v
			}
		}
		return r
	}
	out.Initial = keep(spec.Initial)
	seen := map[string]bool{}
	for _, a := range spec.Actions {
		if a.Name == "" || seen[a.Name] {
			continue
		}
		seen[a.Name] = true
		out.Actions = append(out.Actions, goap.ActionSpec{Name: a.Name, Preconditions: keep(a.Preconditions), Effects: keep(a.Effects), Cost: goap.Const(1)})
	}
	seen = map[string]bool{}
	for _, g := range spec.Goals {
		if g.Name == "" || seen[g.Name] {
			continue
		}
		seen[g.Name] = true
		out.Goals = append(out.Goals, goap.GoalSpec{Name: g.Name, Conditions: keep(g.Conditions)})
	}
	return out
}
