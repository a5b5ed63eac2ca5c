package viewer

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// personality is a domains.Personality compiled against one domain.
type personality struct {
	name    string
	goals   []goalPriority // in the registry's order
	profile *goap.Profile
	// overrides are the actions whose cost it sees differently, with that
	// cost when it is a constant.
	overrides map[string]float64
}

type goalPriority struct {
	goal     *goap.Goal
	priority float64
}

// personalitiesOf compiles the personalities registered for g's name.
// Those that do not fit g (a file of the same name whose actions or goals
// differ) are left out, each with the reason, so that a request naming one
// hears why.
func personalitiesOf(g *goap.Domain) (fit []personality, misfit []unfitJSON) {
	for _, p := range domains.Personalities(g.Name()) {
		out := personality{name: p.Name, overrides: map[string]float64{}}
		prof, err := g.NewProfile(p.Profile)
		if err != nil {
			misfit = append(misfit, unfitJSON{p.Name, report.ErrorText(err)})
			continue
		}
		out.profile = prof
		for name, c := range p.Profile.Costs {
			if v, ok := c.Constant(); ok {
				out.overrides[name] = v
			}
		}
		var missing []string
		for _, gp := range p.Goals {
			goal := g.Goal(gp.Goal)
			if goal == nil {
				missing = append(missing, fmt.Sprintf("%q", gp.Goal))
				continue
			}
			out.goals = append(out.goals, goalPriority{goal, gp.Priority})
		}
		if len(missing) > 0 {
			misfit = append(misfit, unfitJSON{p.Name, "the domain has no goal " + strings.Join(missing, ", ")})
			continue
		}
		fit = append(fit, out)
	}
	return fit, misfit
}

// personalityNamed finds the personality a request names on g, or says
// why there is none.
func personalityNamed(g *goap.Domain, name string) (personality, error) {
	fit, misfit := personalitiesOf(g)
	var names []string
	for _, p := range fit {
		if p.name == name {
			return p, nil
		}
		names = append(names, p.name)
	}
	for _, m := range misfit {
		if m.Name == name {
			return personality{}, &apiError{Status: http.StatusUnprocessableEntity, Field: "personality", Message: fmt.Sprintf("personality %q does not fit domain %q: %s", name, g.Name(), m.Why)}
		}
	}
	e := badField("personality", "unknown personality %q", name)
	switch {
	case len(names) == 0:
		e.Message += fmt.Sprintf("; domain %q has no personalities", g.Name())
	case suggest.Closest(name, names) != "":
		e.Message += fmt.Sprintf("; did you mean %q?", suggest.Closest(name, names))
	default:
		e.Message += "; the domain's personalities: " + strings.Join(names, ", ")
	}
	return personality{}, e
}

// byPriority is p's goals, highest priority first, ties in the
// registry's order.
func (p personality) byPriority() []goalPriority {
	out := append([]goalPriority(nil), p.goals...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].priority > out[j].priority })
	return out
}

// personalityJSON describes a personality in GET /api/v1/domains.
type personalityJSON struct {
	Name  string             `json:"name"`
	Goals []goalPriorityJSON `json:"goals"`
	// Costs are its cost overrides (constant ones), by action name.
	Costs map[string]float64 `json:"costs"`
}

type goalPriorityJSON struct {
	Goal     string  `json:"goal"`
	Priority float64 `json:"priority"`
}

func describePersonalities(g *goap.Domain) []personalityJSON {
	fit, _ := personalitiesOf(g)
	out := []personalityJSON{}
	for _, p := range fit {
		pj := personalityJSON{Name: p.name, Goals: []goalPriorityJSON{}, Costs: p.overrides}
		for _, gp := range p.goals {
			pj.Goals = append(pj.Goals, goalPriorityJSON{gp.goal.Name(), gp.priority})
		}
		out = append(out, pj)
	}
	return out
}

// personalitiesRequest is the body of /api/v1/personalities: a start
// state and figure 1's search settings.
type personalitiesRequest struct {
	source
	startRequest
	Search    string `json:"search"`
	Heuristic string `json:"heuristic"`
	Budget    int    `json:"budget"`
	MaxDepth  int    `json:"max_depth"`
}

// The answer of /api/v1/personalities: per personality, what it would
// pursue now and how.
type personalitiesAnswer struct {
	Personalities []personalityAnswer `json:"personalities"`
	// Unfit are the personalities registered for the domain's name that
	// its actions or goals do not fit (a file named like the soldier's
	// but different), each with why.
	Unfit []unfitJSON `json:"unfit,omitempty"`
}

type unfitJSON struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

type personalityAnswer struct {
	Name string `json:"name"`
	// Chosen is the goal it pursues from this state: the highest-priority
	// goal not already met that has a plan; "" when none (it idles).
	Chosen string `json:"chosen"`
	// Goals are all its goals, highest priority first, each with its plan
	// under this personality's costs (the answer of /api/v1/plan with
	// "personality").
	Goals []goalAnswer `json:"goals"`
	// Costs are every action's cost for it in the start state, beside
	// the domain's own.
	Costs []costAnswer `json:"costs"`
}

type goalAnswer struct {
	Goal     string      `json:"goal"`
	Priority float64     `json:"priority"`
	Holds    bool        `json:"holds"`
	Plan     report.Plan `json:"plan"`
}

type costAnswer struct {
	Action string  `json:"action"`
	Cost   float64 `json:"cost"`
	Base   float64 `json:"base"`
}

// personalities answers figure 6: each personality of the domain on one
// start state. Its work is a search per goal per personality, both fixed
// by the registry in package domains, each held to the plan's budget.
func (s *Server) personalities(body []byte) ([]byte, error) {
	var q personalitiesRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, err := s.stateSpace(q.source, "personalities")
	if err != nil {
		return nil, err
	}
	g := f.GOAP
	fit, unfit := personalitiesOf(g)
	answer := personalitiesAnswer{Personalities: []personalityAnswer{}, Unfit: unfit}
	// The request is checked in full even for a domain without
	// personalities: a misspelt fact is an error either way.
	sq := searchRequest{source: q.source, startRequest: q.startRequest, Search: q.Search, Heuristic: q.Heuristic, Budget: q.Budget, MaxDepth: q.MaxDepth}
	if len(g.Goals()) > 0 {
		sq.Goal = g.Goals()[0].Name()
		if _, err := sq.problem(g, s.cfg.MaxBudget, s.cfg.MaxSearchBytes); err != nil {
			return nil, err
		}
	}
	p, done := s.planner(g)
	defer done()
	for _, pers := range fit {
		pa := personalityAnswer{Name: pers.name, Goals: []goalAnswer{}, Costs: []costAnswer{}}
		for _, gp := range pers.byPriority() {
			sq.Goal = gp.goal.Name()
			pr, err := sq.problem(g, s.cfg.MaxBudget, s.cfg.MaxSearchBytes)
			if err != nil {
				return nil, err
			}
			pr.opt.Profile = pers.profile
			res, err := p.Plan(nil, pr.start, pr.goal, pr.opt)
			if err := searchFailed(res, err); err != nil {
				return nil, err
			}
			holds := gp.goal.Holds(pr.start)
			if pa.Chosen == "" && !holds && res.Status == goap.Found {
				pa.Chosen = gp.goal.Name()
			}
			pa.Goals = append(pa.Goals, goalAnswer{Goal: gp.goal.Name(), Priority: gp.priority, Holds: holds, Plan: report.PlanOf(g, res)})
		}
		start, _ := q.state(g)
		for a := range g.NumActions() {
			id := goap.ActionID(a)
			pa.Costs = append(pa.Costs, costAnswer{Action: g.ActionName(id), Cost: pers.profile.CostIn(id, start), Base: g.DefaultProfile().CostIn(id, start)})
		}
		answer.Personalities = append(answer.Personalities, pa)
	}
	return line(answer)
}
