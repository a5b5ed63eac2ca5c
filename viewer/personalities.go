package viewer

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// personality is a GOAP agent kind of a domain file (its agents:
// section): a personality made of goal priorities and cost overrides over
// one shared domain.
type personality struct {
	name    string
	agent   *domain.Agent
	profile *goap.Profile // nil: the domain's own costs
	// overrides are the actions whose cost it sees differently, with that
	// cost when it is a constant.
	overrides map[string]float64
}

// personalitiesOf returns f's GOAP agents, in the file's order. HTN and
// tree agents choose no goal, so figure 6 leaves them out.
func personalitiesOf(f *domain.File) []personality {
	var out []personality
	for _, a := range f.Agents {
		if len(a.Goals) == 0 {
			continue
		}
		p := personality{name: a.Name, agent: a, profile: a.Profile, overrides: map[string]float64{}}
		for name, c := range a.ProfileSpec.Costs {
			if v, ok := c.Constant(); ok {
				p.overrides[name] = v
			}
		}
		out = append(out, p)
	}
	return out
}

// personalityNamed finds the personality a request names in f, or says
// why there is none.
func personalityNamed(f *domain.File, name string) (personality, error) {
	var names []string
	for _, p := range personalitiesOf(f) {
		if p.name == name {
			return p, nil
		}
		names = append(names, p.name)
	}
	e := badField("personality", "unknown personality %q", name)
	if a, err := f.Agent(name); err == nil {
		e.Message = fmt.Sprintf("agent %q chooses no goal (an HTN or tree agent): a personality is a GOAP agent", a.Name)
		return personality{}, e
	}
	switch {
	case len(names) == 0:
		e.Message += fmt.Sprintf("; domain %q has no personalities (GOAP agents under agents:)", f.GOAP.Name())
	case suggest.Closest(name, names) != "":
		e.Message += fmt.Sprintf("; did you mean %q?", suggest.Closest(name, names))
	default:
		e.Message += "; the domain's personalities: " + strings.Join(names, ", ")
	}
	return personality{}, e
}

// ranked is p's goal options as it would weigh them in state s with the
// file's default inputs: highest score (utility, else priority) first,
// ties in the file's order.
func (p personality) ranked(s goap.State, inputs []float64) []rankedGoal {
	var out []rankedGoal
	for _, o := range p.agent.Goals {
		r := rankedGoal{option: o, score: o.Priority, applies: o.When.Holds(s, inputs)}
		if o.Utility != nil {
			r.score = o.Utility.At(s, inputs)
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

type rankedGoal struct {
	option  domain.AgentGoal
	score   float64
	applies bool // its when: holds
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

func describePersonalities(f *domain.File) []personalityJSON {
	out := []personalityJSON{}
	for _, p := range personalitiesOf(f) {
		pj := personalityJSON{Name: p.name, Goals: []goalPriorityJSON{}, Costs: p.overrides}
		for _, o := range p.agent.Goals {
			pj.Goals = append(pj.Goals, goalPriorityJSON{o.Goal.Name(), o.Priority})
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
}

type personalityAnswer struct {
	Name string `json:"name"`
	// Chosen is the goal it pursues from this state: of the goals not
	// already met whose when: holds, the highest-scored that has a plan;
	// "" when none (it idles).
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
	Goal     string  `json:"goal"`
	Priority float64 `json:"priority"`
	// Score is what ranks it here: its utility, else its priority.
	Score float64 `json:"score"`
	Holds bool    `json:"holds"`
	// Applies says its when: holds (with the file's default inputs).
	Applies bool        `json:"applies"`
	Plan    report.Plan `json:"plan"`
}

type costAnswer struct {
	Action string  `json:"action"`
	Cost   float64 `json:"cost"`
	Base   float64 `json:"base"`
}

// maxPersonalitySearches bounds figure 6's searches in one request: one
// per goal option of each personality. A pasted file may give 256 agents
// a hundred options each; the shipped files need four.
const maxPersonalitySearches = 64

// maxPersonalitiesWork is the work one personalities request may do, in
// goap's units (Options.MaxWork): what one plan request may do, shared by
// all its searches, so that 64 options cost no more than one plan. Its
// fixed part (scoring the options, the tables of every action's cost) may
// take at most half, maxPersonalitiesFixedWork; the searches share the
// rest, each in turn given an even share of what is left (what a cheap
// search does not use goes to those after it), and one whose share is too
// small for an expansion ends at once with "bound": "work".
const (
	maxPersonalitiesWork      = goap.DefaultMaxWork
	maxPersonalitiesFixedWork = maxPersonalitiesWork / 2
)

// personalities answers figure 6: each personality of the domain on one
// start state. Its work is a search per goal per personality, at most
// maxPersonalitySearches in all, sharing maxPersonalitiesWork.
func (s *Server) personalities(ctx context.Context, body []byte) ([]byte, error) {
	var q personalitiesRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, err := s.stateSpace(q.source, "personalities")
	if err != nil {
		return nil, err
	}
	g := f.GOAP
	searches := 0
	for _, p := range personalitiesOf(f) {
		searches += len(p.agent.Goals)
	}
	if searches > maxPersonalitySearches {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: fmt.Sprintf("the domain's personalities have %d goal options in all: figure 6 plans each, and at most %d in one request", searches, maxPersonalitySearches)}
	}
	answer := personalitiesAnswer{Personalities: []personalityAnswer{}}
	// The request is checked in full even for a domain without
	// personalities: a misspelt fact is an error either way.
	sq := searchRequest{source: q.source, startRequest: q.startRequest, Search: q.Search, Heuristic: q.Heuristic, Budget: q.Budget, MaxDepth: q.MaxDepth, ctx: ctx}
	if len(g.Goals()) > 0 {
		sq.Goal = g.Goals()[0].Name()
		if _, err := sq.problem(f, s.cfg.MaxBudget, s.cfg.MaxSearchBytes); err != nil {
			return nil, err
		}
	}
	fixed := personalitiesFixedWork(f)
	if fixed > maxPersonalitiesFixedWork {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: fmt.Sprintf("scoring the personalities' goal options and listing every action's cost for each takes %d units of work, more than the %d figure 6 allows: fewer personalities, actions or cost rules", fixed, maxPersonalitiesFixedWork)}
	}
	left := maxPersonalitiesWork - fixed
	p, done := s.planner(g)
	defer done()
	start, _ := q.state(g)
	inputs := f.InputDefaults()
	for _, pers := range personalitiesOf(f) {
		pa := personalityAnswer{Name: pers.name, Goals: []goalAnswer{}, Costs: []costAnswer{}}
		for _, r := range pers.ranked(start, inputs) {
			goal := r.option.Goal
			pr, err := sq.problem(f, s.cfg.MaxBudget, s.cfg.MaxSearchBytes)
			if err != nil {
				return nil, err
			}
			pr.goal = goal // an agent's own goal is not among the file's
			pr.opt.Profile = pers.profile
			// The searches share what the fixed work left, evenly among
			// those still to run.
			res := goap.Result{Status: goap.LimitReached, Bound: goap.BoundWork}
			if share := left / searches; share > 0 {
				pr.opt.Limits.MaxWork = int64(share)
				var err error
				res, err = p.Plan(nil, pr.start, pr.goal, pr.opt)
				if err := searchFailed(res, err); err != nil {
					return nil, err
				}
				left -= p.Work()
			}
			searches--
			holds := goal.Holds(pr.start)
			if pa.Chosen == "" && !holds && r.applies && res.Status == goap.Found {
				pa.Chosen = goal.Name()
			}
			pa.Goals = append(pa.Goals, goalAnswer{Goal: goal.Name(), Priority: r.option.Priority, Score: r.score, Holds: holds, Applies: r.applies, Plan: report.PlanOf(g, res)})
		}
		for a := range g.NumActions() {
			id := goap.ActionID(a)
			pa.Costs = append(pa.Costs, costAnswer{Action: g.ActionName(id), Cost: costIn(pers.profile, g, id, start), Base: g.DefaultProfile().CostIn(id, start)})
		}
		answer.Personalities = append(answer.Personalities, pa)
	}
	return s.answer(answer, "figure 6 (every personality's plans)", "max_depth", planTooLarge)
}

// personalitiesFixedWork is the work, in goap's units, of figure 6 before
// and after its searches: scoring every goal option (its when:, its
// utility) and testing its goal, a word of state per fact word and a unit
// per input test, curve point and rule; and each personality's table of
// every action's cost, its own and the domain's, a unit per action plus
// what each rule list takes (goap.Profile.CostWork).
func personalitiesFixedWork(f *domain.File) int {
	g := f.GOAP
	words := (g.NumFacts() + 63) / 64
	base := g.DefaultProfile()
	baseCosts := 0
	for a := range g.NumActions() {
		baseCosts += 1 + base.CostWork(goap.ActionID(a))
	}
	work := 0
	for _, pers := range personalitiesOf(f) {
		for _, o := range pers.agent.Goals {
			work += 2*words + conditionWork(o.When, words) + scoreWork(o.Utility, words)
		}
		work += baseCosts
		if pers.profile == nil {
			work += baseCosts
			continue
		}
		for a := range g.NumActions() {
			work += 1 + pers.profile.CostWork(goap.ActionID(a))
		}
	}
	return work
}

// conditionWork is what testing c takes: its facts' words and its inputs.
func conditionWork(c domain.Condition, words int) int { return words + len(c.Inputs) }

// scoreWork is what computing sc takes (nil: none): a unit, a unit per
// curve point, and a rule list's conditions and scores.
func scoreWork(sc *domain.Score, words int) int {
	if sc == nil {
		return 0
	}
	work := 1 + len(sc.Points)
	for i := range sc.Rules {
		work += conditionWork(sc.Rules[i].When, words) + scoreWork(&sc.Rules[i].Score, words)
	}
	return work
}

// costIn is a's cost in s as profile p sees it (nil: the domain's own).
func costIn(p *goap.Profile, g *goap.Domain, a goap.ActionID, s goap.State) float64 {
	if p == nil {
		p = g.DefaultProfile()
	}
	return p.CostIn(a, s)
}
