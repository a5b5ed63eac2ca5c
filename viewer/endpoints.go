package viewer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/arena"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/search"
)

// sourceName is the file name a pasted domain's errors carry.
const sourceName = "<source>"

// source names the domain a request works on: an offered one by name, or
// its YAML text; with neither, the default domain.
type source struct {
	Domain string `json:"domain"`
	Source string `json:"source"`
}

func (s *Server) load(src source) (*domain.File, error) {
	if s.only != nil {
		switch {
		case src.Source != "":
			return nil, badField("source", "this server answers about %s alone, loaded already: send no source", s.only.Path)
		case src.Domain != "" && src.Domain != s.only.Path:
			return nil, &apiError{Status: http.StatusNotFound, Field: "domain", Message: fmt.Sprintf("unknown domain %q: this server answers about %s alone (leave domain out)", src.Domain, s.only.Path)}
		}
		return s.only, nil
	}
	switch {
	case src.Domain != "" && src.Source != "":
		return nil, badField("source", "give domain or source, not both")
	case src.Source != "":
		f, err := domain.Parse(sourceName, []byte(src.Source))
		if err != nil {
			return nil, invalid("the domain source has errors", err)
		}
		return f, nil
	case src.Domain == "":
		return s.files[domains.Default], nil
	}
	if f, ok := s.files[src.Domain]; ok {
		return f, nil
	}
	if f, ok := s.files[src.Domain+".yaml"]; ok {
		return f, nil
	}
	e := &apiError{Status: http.StatusNotFound, Field: "domain", Message: fmt.Sprintf("unknown domain %q", src.Domain)}
	candidates := append([]string(nil), s.names...)
	for _, name := range s.names {
		if short, ok := strings.CutSuffix(name, ".yaml"); ok {
			candidates = append(candidates, short)
		}
	}
	if sg := suggest.Closest(src.Domain, candidates); sg != "" {
		e.Message += fmt.Sprintf("; did you mean %q?", sg)
	} else {
		e.Message += "; the domains: " + strings.Join(s.names, ", ")
	}
	return nil, e
}

// loadBody decodes a body that is a source, and loads its domain.
func (s *Server) loadBody(body []byte) (source, *domain.File, error) {
	var q source
	if err := decode(body, &q); err != nil {
		return q, nil, err
	}
	f, err := s.load(q)
	return q, f, err
}

// stateSpace loads a state-space domain (facts:), refusing an engine-model
// file as the commands do.
func (s *Server) stateSpace(src source, endpoint string) (*domain.File, error) {
	f, err := s.load(src)
	if err != nil {
		return nil, err
	}
	if f.EngineModel() {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: fmt.Sprintf("%s is an engine-model file (keys:): %s takes state-space files (facts:)", f.Path, endpoint)}
	}
	return f, nil
}

// startRequest is the start state: the file's initial state with facts
// set or cleared.
type startRequest struct {
	Set   []string `json:"set"`
	Unset []string `json:"unset"`
}

func (q startRequest) state(g *goap.Domain) (goap.State, error) {
	s := g.Initial()
	seen := map[string]bool{}
	for _, list := range []struct {
		names []string
		value bool
		field string
	}{{q.Set, true, "set"}, {q.Unset, false, "unset"}} {
		for _, name := range list.names {
			f, ok := g.Fact(name)
			if !ok {
				e := badField(list.field, "unknown fact %q", name)
				if sg := suggest.Closest(name, g.Facts()); sg != "" {
					e.Message += fmt.Sprintf("; did you mean %q?", sg)
				}
				return s, e
			}
			if v, dup := seen[name]; dup && v != list.value {
				return s, badField(list.field, "fact %q is both set and unset", name)
			}
			seen[name] = list.value
			s.Set(f, list.value)
		}
	}
	return s, nil
}

// searchRequest is the body of plan, trace and explain.
type searchRequest struct {
	source
	startRequest
	Goal      string `json:"goal"`
	Search    string `json:"search"`
	Heuristic string `json:"heuristic"`
	Budget    int    `json:"budget"`
	MaxDepth  int    `json:"max_depth"`
	// Personality plans with that personality's costs (figure 6); the
	// domain's own when empty.
	Personality string `json:"personality"`
	// Agent is the command's --agent: the agent's costs and
	// capabilities and, without a goal, the goal it would choose; Inputs
	// its --input values, by name (the file's inputs: give the rest).
	Agent  string             `json:"agent"`
	Inputs map[string]float64 `json:"inputs"`
	// ctx is the request's (see endpoint), for its searches.
	ctx context.Context
}

type problem struct {
	d     *goap.Domain
	start goap.State
	goal  *goap.Goal
	opt   goap.Options
	// agent is the request's agent, if any, and chosen says the goal is
	// its choice.
	agent  *domain.Agent
	chosen bool
}

// problem resolves the request against g; maxBudget is the server's cap,
// and the budget when the request gives none.
func (q *searchRequest) problem(f *domain.File, maxBudget, maxBytes int) (problem, error) {
	g := f.GOAP
	pr := problem{d: g}
	switch q.Search {
	case "", "forward":
		pr.opt.Search = goap.Forward
	case "backward":
		pr.opt.Search = goap.Backward
	default:
		return pr, badField("search", "search must be forward or backward, not %q", q.Search)
	}
	switch q.Heuristic {
	case "", "goal-count":
		pr.opt.Heuristic = goap.GoalCount
	case "goal-cost":
		pr.opt.Heuristic = goap.GoalCost
	case "hmax":
		pr.opt.Heuristic = goap.HMax
	case "blind":
		pr.opt.Heuristic = goap.Blind
	default:
		return pr, badField("heuristic", "heuristic must be goal-count, goal-cost, hmax or blind, not %q", q.Heuristic)
	}
	switch {
	case q.Budget < 0:
		return pr, badField("budget", "budget must be at least 1, not %d", q.Budget)
	case q.Budget > maxBudget:
		return pr, badField("budget", "budget %d is above the server's cap of %d states", q.Budget, maxBudget)
	case q.Budget == 0:
		pr.opt.Limits.Budget = int64(maxBudget)
	default:
		pr.opt.Limits.Budget = int64(q.Budget)
	}
	if q.MaxDepth < 0 {
		return pr, badField("max_depth", "max_depth must not be negative, not %d", q.MaxDepth)
	}
	pr.opt.Limits.MaxDepth = int64(q.MaxDepth)
	pr.opt.Limits.MaxBytes = int64(maxBytes)
	pr.opt.Context = q.ctx
	var names []string
	for _, goal := range g.Goals() {
		names = append(names, goal.Name())
	}
	if q.Agent != "" {
		if err := q.agentProblem(f, &pr); err != nil || pr.goal != nil {
			return pr, err
		}
	} else if q.Inputs != nil {
		return pr, badField("inputs", "inputs weigh an agent's goals: give them with agent")
	}
	if q.Goal == "" {
		return pr, badField("goal", "goal is required (or agent, which chooses); the domain's goals: %s", strings.Join(names, ", "))
	}
	if pr.goal = g.Goal(q.Goal); pr.goal == nil {
		e := badField("goal", "unknown goal %q", q.Goal)
		if sg := suggest.Closest(q.Goal, names); sg != "" {
			e.Message += fmt.Sprintf("; did you mean %q?", sg)
		} else {
			e.Message += "; the domain's goals: " + strings.Join(names, ", ")
		}
		return pr, e
	}
	if q.Personality != "" {
		p, err := personalityNamed(f, q.Personality)
		if err != nil {
			return pr, err
		}
		pr.opt.Profile = p.profile
	}
	var err error
	pr.start, err = q.state(g)
	return pr, err
}

// agentProblem sets pr up as the command's --agent does: the agent's
// profile, the start state, and the goal: the request's (one of the
// domain's or the agent's own), or without one the agent's choice, with
// the request's inputs. It leaves pr.goal nil for a goal of the domain's
// that the caller looks up.
func (q *searchRequest) agentProblem(f *domain.File, pr *problem) error {
	if q.Personality != "" {
		return badField("personality", "give agent or personality, not both: agent also chooses the goal when none is given")
	}
	a, err := f.Agent(q.Agent)
	if err != nil {
		return badField("agent", "%s", report.ErrorText(err))
	}
	switch {
	case a.Tree != nil:
		return badField("agent", "%q is a behaviour-tree agent: it plans only in its tree's leaves; give a GOAP agent", a.Name)
	case a.IsHTN():
		return badField("agent", "%q is an HTN agent: decompose as it with /api/v1/htn and agent", a.Name)
	}
	pr.agent, pr.opt.Profile = a, a.Profile
	g := f.GOAP
	if pr.start, err = q.state(g); err != nil {
		return err
	}
	inputs := f.InputDefaults()
	var known []string
	for _, in := range f.Inputs {
		known = append(known, in.Name)
	}
	for _, name := range slices.Sorted(maps.Keys(q.Inputs)) {
		i := slices.Index(known, name)
		if i < 0 {
			e := badField("inputs", "unknown input %q", name)
			switch sg := suggest.Closest(name, known); {
			case len(known) == 0:
				e.Message += ": the file declares no inputs"
			case sg != "":
				e.Message += fmt.Sprintf("; did you mean %q?", sg)
			default:
				e.Message += "; the file's inputs: " + strings.Join(known, ", ")
			}
			return e
		}
		inputs[i] = q.Inputs[name]
	}
	if q.Goal == "" {
		goal, _, ok := report.ChooseGoal(a, g, pr.start, inputs, pr.opt)
		if !ok {
			return &errNoGoal{agent: a.Name, where: g.FormatState(pr.start)}
		}
		pr.goal, pr.chosen = goal, true
		return nil
	}
	// The agent's own goals (conditions: in its options) are goals for
	// it, as for the command.
	for _, o := range a.Goals {
		if o.Goal.Name() == q.Goal && g.Goal(q.Goal) == nil {
			pr.goal = o.Goal
		}
	}
	return nil
}

// searchFailed is the answer to a search that could not run or whose
// cost has no JSON number: what the commands print and exit 1 for.
func searchFailed(res goap.Result, err error) error {
	if res.Status == goap.Unsupported {
		return &apiError{Status: http.StatusUnprocessableEntity, Message: strings.TrimPrefix(err.Error(), "goap: ")}
	}
	if res.Status == goap.Found && (math.IsInf(res.Cost, 0) || math.IsNaN(res.Cost)) {
		return &apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("the plan's cost adds up past the float range (%s): make the domain's costs smaller", report.FormatCost(res.Cost))}
	}
	return nil
}

// line is v as one line of JSON, as the commands print it.
func line(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("cannot write JSON: %v", err)}
	}
	return append(b, '\n'), nil
}

// plan answers `ploy plan --json`.
func (s *Server) plan(ctx context.Context, body []byte) ([]byte, error) {
	var q searchRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	q.ctx = ctx
	f, err := s.stateSpace(q.source, "plan")
	if err != nil {
		return nil, err
	}
	pr, _, res, done, err := s.search(f, &q)
	defer done()
	if ng := (*errNoGoal)(nil); errors.As(err, &ng) {
		return line(report.NoGoal(ng.agent)) // as the command's --json says it
	}
	if err != nil {
		return nil, err
	}
	answer := report.PlanAs{Plan: report.PlanOf(pr.d, res)}
	if pr.agent != nil {
		answer.Agent, answer.Goal = pr.agent.Name, pr.goal.Name()
	}
	return s.answer(answer, "the plan", "max_depth", planTooLarge)
}

// planTooLarge and decompositionTooLarge are what to lower for a plan or
// a decomposition too large to answer.
const (
	planTooLarge          = "lower max_depth (the plan's length), or give the domain's actions shorter names"
	decompositionTooLarge = "lower max_steps (the decomposition's length), or give the domain's actions and tasks shorter names"
)

// search runs the request's GOAP search on a pooled planner, which stays
// the caller's until it calls done (always, error or not).
func (s *Server) search(f *domain.File, q *searchRequest) (problem, *goap.Planner, goap.Result, func(), error) {
	pr, err := q.problem(f, s.cfg.MaxBudget, s.cfg.MaxSearchBytes)
	if err != nil {
		return pr, nil, goap.Result{}, func() {}, err
	}
	p, done := s.planner(pr.d)
	res, err := p.Plan(nil, pr.start, pr.goal, pr.opt)
	return pr, p, res, done, searchFailed(res, err)
}

// traceRequest is the body of trace: a search, or with htn a
// decomposition.
type traceRequest struct {
	searchRequest
	engineFields
	HTN      bool `json:"htn"`
	MaxSteps int  `json:"max_steps"`
}

// trace answers `ploy trace --format json` (GOAP or, with htn, HTN).
func (s *Server) trace(ctx context.Context, body []byte) ([]byte, error) {
	var q traceRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	q.ctx = ctx
	f, err := s.load(q.source)
	if err != nil {
		return nil, err
	}
	if err := engineCheck(f, &q.searchRequest, q.engineFields); err != nil {
		return nil, err
	}
	if f.EngineModel() && !q.HTN {
		return s.traceEngine(f, &q)
	}
	if f.EngineModel() {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "htn", Message: fmt.Sprintf("%s is an engine-model file (keys:): it has no htn section", f.Path)}
	}
	if q.HTN {
		steps, start, err := s.htnProblem(f, &q)
		if err != nil {
			return nil, err
		}
		var tr htn.Trace
		var res htn.Result
		htn.NewPlanner(f.HTN).Plan(&res, start, htn.Options{Limits: htnLimits(steps), Trace: &tr, Context: ctx})
		return s.traceAnswer(func(w *bufio.Writer) error {
			report.WriteHTNTraceJSON(w, &tr, &res)
			return nil
		})
	}
	if q.MaxSteps != 0 {
		return nil, badField("max_steps", "max_steps bounds an HTN decomposition: give it with htn")
	}
	pr, err := q.problem(f, s.cfg.MaxTraceBudget, s.cfg.MaxSearchBytes)
	if err != nil {
		return nil, err
	}
	var tr goap.Trace
	pr.opt.Trace = &tr
	p, done := s.planner(pr.d)
	defer done()
	res, err := p.Plan(nil, pr.start, pr.goal, pr.opt)
	if err := searchFailed(res, err); err != nil {
		return nil, err
	}
	if err := report.CheckTraceCosts(&tr); err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Message: err.Error()}
	}
	return s.traceAnswer(func(w *bufio.Writer) error {
		report.WriteTraceJSON(w, &tr)
		return nil
	})
}

// htnProblem is an HTN trace or explain request's step limit and start
// state, or why there is none.
func (s *Server) htnProblem(f *domain.File, q *traceRequest) (int, goap.State, error) {
	if q.Goal != "" {
		return 0, goap.State{}, badField("goal", "goal plans with GOAP; an HTN decomposes its root task, so leave goal out with htn")
	}
	if q.Personality != "" {
		return 0, goap.State{}, badField("personality", "personality plans with GOAP; an HTN decomposes its root task, so leave personality out with htn")
	}
	if q.Agent != "" {
		return 0, goap.State{}, badField("agent", "agent plans with GOAP here; to decompose as an HTN agent, give agent to /api/v1/htn")
	}
	if q.Inputs != nil {
		return 0, goap.State{}, badField("inputs", "inputs weigh a GOAP agent's goals; an HTN decomposes its root task, so leave inputs out with htn")
	}
	steps, err := s.htnSteps(q.MaxSteps)
	if err != nil {
		return 0, goap.State{}, err
	}
	if f.HTN == nil {
		return 0, goap.State{}, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: fmt.Sprintf("%s: the domain has no htn section", f.Path)}
	}
	start, err := q.state(f.GOAP)
	return steps, start, err
}

func (s *Server) htnSteps(asked int) (int, error) {
	switch {
	case asked < 0:
		return 0, badField("max_steps", "max_steps must be at least 1, not %d", asked)
	case asked > s.cfg.MaxHTNSteps:
		return 0, badField("max_steps", "max_steps %d is above the server's cap of %d", asked, s.cfg.MaxHTNSteps)
	case asked == 0:
		return s.cfg.MaxHTNSteps, nil
	}
	return asked, nil
}

// maxHTNBytes is the memory cap of the server's decompositions: 64 MiB,
// what htn's default was before every planner shared
// search.DefaultMaxBytes (256 MiB), kept so that the server's limits stay
// as docs/limits.md gives them.
const maxHTNBytes = 64 << 20

// htnLimits are the limits of a decomposition of steps steps.
func htnLimits(steps int) search.Limits {
	return search.Limits{MaxSteps: int64(steps), MaxBytes: maxHTNBytes}
}

// htnLimitText is a decomposition limit's message, with, when no task was
// open inside itself (so the decomposition may just need more), the field
// that gives it more. The memory cap is the server's (maxHTNBytes), which
// no request can raise.
func (s *Server) htnLimitText(err error) string {
	text := report.ErrorText(err)
	if sl := (*htn.StepLimitError)(nil); errors.As(err, &sl) && !sl.Recursion() && sl.Limit < s.cfg.MaxHTNSteps {
		text += fmt.Sprintf("; raise max_steps (up to the server's cap of %d) to give it more", s.cfg.MaxHTNSteps)
	}
	return text
}

// htnRequest is the body of htn.
type htnRequest struct {
	source
	startRequest
	MaxSteps int `json:"max_steps"`
	// Agent is the command's --agent: decompose as that HTN agent, from
	// its root task with its costs and capabilities.
	Agent string `json:"agent"`
}

// htn answers `ploy htn --json`.
func (s *Server) htn(ctx context.Context, body []byte) ([]byte, error) {
	var q htnRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, err := s.stateSpace(q.source, "htn")
	if err != nil {
		return nil, err
	}
	steps, err := s.htnSteps(q.MaxSteps)
	if err != nil {
		return nil, err
	}
	if f.HTN == nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: fmt.Sprintf("%s: the domain has no htn section", f.Path)}
	}
	start, err := q.state(f.GOAP)
	if err != nil {
		return nil, err
	}
	opt := htn.Options{Limits: htnLimits(steps), Context: ctx}
	if q.Agent != "" {
		a, err := f.Agent(q.Agent)
		if err != nil {
			return nil, badField("agent", "%s", report.ErrorText(err))
		}
		switch {
		case a.Tree != nil:
			return nil, badField("agent", "%q is a behaviour-tree agent: it decomposes or plans only in its tree's leaves", a.Name)
		case !a.IsHTN():
			return nil, badField("agent", "%q is a GOAP agent: plan as it with /api/v1/plan and agent", a.Name)
		}
		opt.Root, opt.HasRoot, opt.Profile = a.Root, true, a.Profile
	}
	var res htn.Result
	err = htn.NewPlanner(f.HTN).Plan(&res, start, opt)
	out := report.HTNOf(f.GOAP, &res)
	if err != nil {
		out.Limit = s.htnLimitText(err)
	}
	return s.answer(out, "the decomposition", "max_steps", decompositionTooLarge)
}

// lint answers with the warnings `ploy lint` prints, as JSON.
func (s *Server) lint(body []byte) ([]byte, error) {
	_, f, err := s.loadBody(body)
	if err != nil {
		return nil, err
	}
	return line(report.LintOf(f.Path, domain.Lint(f)))
}

// arenaRequest is the body of arena.
type arenaRequest struct {
	source
	Fights int      `json:"fights"`
	Seed   *uint64  `json:"seed"`
	Agents []string `json:"agents"`
}

// arena answers `ploy arena --json`: the batch's rows. Nothing is
// recorded and no chart is drawn: those write files.
func (s *Server) arena(ctx context.Context, body []byte) ([]byte, error) {
	cfg, err := s.arenaConfig(body)
	if err != nil {
		return nil, err
	}
	tab, err := arena.RunContext(ctx, cfg)
	if err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Message: strings.TrimPrefix(err.Error(), "arena: ")}
	}
	var buf bytes.Buffer
	if err := tab.WriteJSON(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// arenaConfig reads an arenaRequest into the batch it asks for, within
// the server's caps.
func (s *Server) arenaConfig(body []byte) (arena.Config, error) {
	var q arenaRequest
	if err := decode(body, &q); err != nil {
		return arena.Config{}, err
	}
	cfg := arena.Config{Fights: 40, Seed: 1}
	switch {
	case q.Fights < 0:
		return arena.Config{}, badField("fights", "fights must be at least 1, not %d", q.Fights)
	case q.Fights > s.cfg.MaxFights:
		return arena.Config{}, badField("fights", "fights %d is above the server's cap of %d", q.Fights, s.cfg.MaxFights)
	case q.Fights > 0:
		cfg.Fights = q.Fights
	}
	cfg.Fights = min(cfg.Fights, s.cfg.MaxFights)
	if q.Seed != nil {
		cfg.Seed = *q.Seed
	}
	f, err := s.stateSpace(q.source, "arena")
	if err != nil {
		return arena.Config{}, err
	}
	// The file's own kinds (its agents: section), else the built-in ones.
	kinds, err := arena.KindsOf(f)
	if err != nil {
		return arena.Config{}, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: strings.TrimPrefix(err.Error(), "arena: ")}
	}
	if len(q.Agents) > 0 {
		// A kind named again would fight the batch again: a body of
		// repeated names would multiply the work past every cap.
		if cfg.Kinds, err = arena.Pick(kinds, q.Agents); err != nil {
			return arena.Config{}, badField("agents", "%s", err)
		}
	} else {
		cfg.Kinds = kinds
	}
	cfg.GOAP, cfg.HTN = f.GOAP, f.HTN
	return cfg, nil
}

// maxAlternatives caps the alternatives explain looks for: each is a
// search, and their work together is bounded by four budgets.
const maxAlternatives = 20

// explainRequest is the body of explain.
type explainRequest struct {
	traceRequest
	Alternatives *int `json:"alternatives"`
}

// explain answers `ploy explain --json` (GOAP or, with htn, HTN).
func (s *Server) explain(ctx context.Context, body []byte) ([]byte, error) {
	var q explainRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	q.ctx = ctx
	alternatives := 3
	if q.Alternatives != nil {
		alternatives = *q.Alternatives
	}
	if alternatives < 0 || alternatives > maxAlternatives {
		return nil, badField("alternatives", "alternatives must be from 0 to %d, not %d", maxAlternatives, alternatives)
	}
	f, err := s.load(q.source)
	if err != nil {
		return nil, err
	}
	if err := engineCheck(f, &q.searchRequest, q.engineFields); err != nil {
		return nil, err
	}
	if f.EngineModel() && !q.HTN {
		return s.explainEngine(f, &q, alternatives)
	}
	if f.EngineModel() {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "htn", Message: fmt.Sprintf("%s is an engine-model file (keys:): it has no htn section", f.Path)}
	}
	if q.HTN {
		steps, start, err := s.htnProblem(f, &q.traceRequest)
		if err != nil {
			return nil, err
		}
		x, _, err := report.ExplainHTN(f.HTN, start, htn.Options{Limits: htnLimits(steps), Context: ctx})
		if err != nil {
			x.Limit = s.htnLimitText(err)
		}
		return s.answer(x, "the explanation of the decomposition", "max_steps", decompositionTooLarge)
	}
	if q.MaxSteps != 0 {
		return nil, badField("max_steps", "max_steps bounds an HTN decomposition: give it with htn")
	}
	pr, p, res, done, err := s.search(f, &q.searchRequest)
	defer done()
	if err != nil {
		return nil, err
	}
	// The plan is counted before the alternatives are looked for: each
	// of them is a plan as long again.
	if err := s.answerFits(report.PlanOf(pr.d, res), "the plan", "max_depth", planTooLarge); err != nil {
		return nil, err
	}
	x := report.ExplainGOAP(p, report.Problem{D: pr.d, Start: pr.start, Goal: pr.goal, Opt: pr.opt}, res, alternatives)
	return s.answer(x, "the explanation of the plan", "max_depth", planTooLarge+" (or alternatives)")
}
