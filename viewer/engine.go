package viewer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// Caps of an engine-model request: a resolve also holds at most
// resolver.DefaultMaxWork nodes whatever its budget.
const (
	maxResolveBudget = 1 << 16
	maxResolveDepth  = 1 << 10
)

// defaultEngineFile is the domain resolve and graph use when given none,
// as the commands do.
const defaultEngineFile = "survivor.yaml"

// engineFields are what an engine-model request adds: the agent's
// position, its targets' and what it can do.
type engineFields struct {
	// Positions are read as lists of any length and checked by point, so
	// that [1] or [0, 0, 5] is refused rather than padded or cut to
	// [x, y], as a Go array would be.
	// A target given as null is one the sensor does not find (the
	// command's --target NAME=none).
	At           []float64            `json:"at"`
	Targets      map[string][]float64 `json:"targets"`
	Capabilities []string             `json:"capabilities"`
}

// engineAgent is who an engine-model request resolves as: agent is the
// command's --agent (the kind's capabilities and costs, and without a
// goal, the goal it would choose), personality only the kind's
// capabilities and costs, as personality is on a state-space file.
type engineAgent struct {
	agent, personality string
}

// resolveRequest is the body of resolve.
type resolveRequest struct {
	source
	startRequest
	engineFields
	Goal     string `json:"goal"`
	Budget   int    `json:"budget"`
	MaxDepth int    `json:"max_depth"`
	// Agent and Personality: see engineAgent.
	Agent       string `json:"agent"`
	Personality string `json:"personality"`
}

// point reads a position of the request: resolver.Dimensions coordinates,
// each finite and within domain.MaxCoordinate.
func point(field string, xy []float64) (resolver.Point, error) {
	if len(xy) != resolver.Dimensions {
		return resolver.Point{}, badField(field, "%s must be a position [x, y] of %d coordinates, not %d", field, resolver.Dimensions, len(xy))
	}
	for _, v := range xy {
		if !(math.Abs(v) <= domain.MaxCoordinate) {
			return resolver.Point{}, badField(field, "coordinate %s is out of range: at most %g in size", strconv.FormatFloat(v, 'g', -1, 64), float64(domain.MaxCoordinate))
		}
	}
	return resolver.Point{X: xy[0], Y: xy[1]}, nil
}

// engineChoice is an engine-model problem with, when it names an agent,
// the kind and whether the goal is its choice.
type engineChoice struct {
	report.EngineProblem
	kind   *domain.EngineAgent
	chosen bool
}

// errNoGoal says an agent pursues no goal where it stands: each of its
// goals holds already, or its when: is false.
type errNoGoal struct{ agent, where string }

func (e *errNoGoal) Error() string {
	return fmt.Sprintf("agent %q pursues no goal from %s: each of its goals holds already, or its when: is false", e.agent, e.where)
}

// engineProblem resolves an engine-model request against f: the
// snapshot (the file's world with the request's values, position and
// targets), the goal, the capabilities or the agent kind, and the bounds.
// An agent with no goal to pursue is an *errNoGoal.
func engineProblem(f *domain.File, q startRequest, ef engineFields, as engineAgent, goalName string, budget, maxDepth int) (engineChoice, error) {
	d := f.Resolver
	ch := engineChoice{}
	pr := &ch.EngineProblem
	pr.D = d
	switch {
	case budget < 0 || budget > maxResolveBudget:
		return ch, badField("budget", "budget must be from 1 to %d for an engine-model file, not %d", maxResolveBudget, budget)
	case budget == 0:
		budget = resolver.DefaultBudget
	}
	switch {
	case maxDepth < 0 || maxDepth > maxResolveDepth:
		return ch, badField("max_depth", "max_depth must be from 0 (the resolver's default, %d) to %d for an engine-model file, not %d", resolver.DefaultMaxDepth, maxResolveDepth, maxDepth)
	case maxDepth == 0:
		maxDepth = resolver.DefaultMaxDepth
	}
	pr.Opt = resolver.Options{Limits: search.Limits{Budget: int64(budget), MaxDepth: int64(maxDepth)}}
	values := map[string]int64{}
	for k, v := range f.World.Values {
		values[k] = v
	}
	var keyNames []string
	for _, k := range d.Keys() {
		keyNames = append(keyNames, k.Name)
	}
	unknownKey := func(field, name string) error {
		e := badField(field, "unknown key %q", name)
		if s := suggest.Closest(name, keyNames); s != "" {
			e.Message += fmt.Sprintf("; did you mean %q?", s)
		} else {
			e.Message += "; the domain's keys: " + strings.Join(keyNames, ", ")
		}
		return e
	}
	given := map[string]bool{}
	for _, item := range q.Set {
		name, text, hasValue := strings.Cut(item, "=")
		if !hasValue {
			text = "true"
		}
		k, ok := d.Key(name)
		if !ok {
			return ch, unknownKey("set", name)
		}
		if given[name] {
			return ch, badField("set", "key %q given twice", name)
		}
		given[name] = true
		if d.Keys()[k].Kind == resolver.Bool {
			switch text {
			case "true":
				values[name] = 1
			case "false":
				values[name] = 0
			default:
				return ch, badField("set", "%s=%s: %q is a boolean key: true or false", name, text, name)
			}
			continue
		}
		v, err := strconv.ParseInt(text, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return ch, badField("set", "%s=%s: out of range: %q holds a 64-bit whole number, from %d to %d", name, text, name, int64(math.MinInt64), int64(math.MaxInt64))
		}
		if err != nil {
			return ch, badField("set", "%s=%s: %q is an integer key: a whole number", name, text, name)
		}
		values[name] = v
	}
	for _, name := range q.Unset {
		k, ok := d.Key(name)
		if !ok {
			return ch, unknownKey("unset", name)
		}
		if d.Keys()[k].Kind != resolver.Bool {
			return ch, badField("unset", "%q is an integer key: give its value in set, as %s=N", name, name)
		}
		if given[name] {
			return ch, badField("unset", "key %q is both set and unset", name)
		}
		values[name] = 0
	}
	at := f.World.At
	if ef.At != nil {
		var err error
		if at, err = point("at", ef.At); err != nil {
			return ch, err
		}
	}
	targets := map[string]resolver.Point{}
	for k, v := range f.World.Targets {
		targets[k] = v
	}
	names := make([]string, 0, len(ef.Targets))
	for name := range ef.Targets {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := d.Target(name); !ok {
			e := badField("targets", "no action targets %q", name)
			if s := suggest.Closest(name, d.Targets()); s != "" {
				e.Message += fmt.Sprintf("; did you mean %q?", s)
			} else if len(d.Targets()) > 0 {
				e.Message += "; the domain's targets: " + strings.Join(d.Targets(), ", ")
			}
			return ch, e
		}
		if ef.Targets[name] == nil {
			delete(targets, name) // null: the sensor finds nothing
			continue
		}
		p, err := point("targets."+name, ef.Targets[name])
		if err != nil {
			return ch, err
		}
		targets[name] = p
	}
	snap, err := d.SnapshotOf(values, at, targets)
	if err != nil {
		return ch, badField("set", "%s", report.ErrorText(err))
	}
	pr.Snap = snap
	if len(ef.Capabilities) > 0 {
		prof, err := d.NewProfile(resolver.ProfileSpec{Capabilities: ef.Capabilities})
		if err != nil {
			// Each unknown name said, each saying what it is about.
			msg := report.ErrorText(err)
			var es resolver.SpecErrors
			if errors.As(err, &es) {
				var lines []string
				for _, se := range es {
					lines = append(lines, se.Msg)
				}
				msg = strings.Join(lines, "; ")
			}
			return ch, badField("capabilities", "%s", msg)
		}
		pr.Opt.Profile = prof
	}
	if as.agent != "" || as.personality != "" {
		field, name := "agent", as.agent
		switch {
		case as.agent != "" && as.personality != "":
			return ch, badField("personality", "give agent or personality, not both: agent also chooses the goal when none is given")
		case as.personality != "":
			field, name = "personality", as.personality
		}
		if len(ef.Capabilities) > 0 {
			return ch, badField("capabilities", "capabilities with %s: the agent's capabilities are its own (its agents: entry)", field)
		}
		k, err := f.EngineAgent(name)
		if err != nil {
			return ch, badField(field, "%s", report.ErrorText(err))
		}
		ch.kind, pr.Opt.Profile = k, k.Profile
		if goalName == "" && as.agent != "" {
			goal, _, ok := report.ChooseEngineGoal(k, *pr)
			if !ok {
				return ch, &errNoGoal{agent: k.Name, where: d.FormatSnapshot(pr.Snap)}
			}
			pr.Goal, ch.chosen = goal, true
			return ch, nil
		}
	}
	var goals []string
	for _, g := range d.Goals() {
		goals = append(goals, g.Name())
	}
	list := "; the domain's goals: " + strings.Join(goals, ", ")
	if len(goals) == 0 {
		list = fmt.Sprintf("; %s has no goals: add some under goals:, each with a name and conditions", f.Path)
	}
	switch {
	case goalName == "":
		return ch, badField("goal", "goal is required (or agent, which chooses)%s", list)
	case d.Goal(goalName) == nil:
		e := badField("goal", "unknown goal %q", goalName)
		if s := suggest.Closest(goalName, goals); s != "" {
			e.Message += fmt.Sprintf("; did you mean %q?", s)
		} else {
			e.Message += list
		}
		return ch, e
	}
	pr.Goal = d.Goal(goalName)
	return ch, nil
}

// engineModel loads an engine-model domain (keys:), the survivor when the
// request names none.
func (s *Server) engineModel(src source, endpoint string) (*domain.File, error) {
	if src.Domain == "" && src.Source == "" && s.only == nil {
		src.Domain = defaultEngineFile
	}
	f, err := s.load(src)
	if err != nil {
		return nil, err
	}
	if !f.EngineModel() {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: "domain", Message: fmt.Sprintf("%s is a state-space file (facts:): %s takes engine-model files (keys:)", f.Path, endpoint)}
	}
	return f, nil
}

func chainFailed(res resolver.Result) error {
	if res.Status == resolver.Found && (math.IsInf(res.Cost, 0) || math.IsNaN(res.Cost)) {
		return &apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("the chain's cost adds up past the float range (%s): make the domain's costs or distances smaller", report.FormatCost(res.Cost))}
	}
	return nil
}

// resolve answers `ploy resolve --json`.
func (s *Server) resolve(ctx context.Context, body []byte) ([]byte, error) {
	var q resolveRequest
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, err := s.engineModel(q.source, "resolve")
	if err != nil {
		return nil, err
	}
	ch, err := engineProblem(f, q.startRequest, q.engineFields, engineAgent{q.Agent, q.Personality}, q.Goal, q.Budget, q.MaxDepth)
	if ng := (*errNoGoal)(nil); errors.As(err, &ng) {
		return line(report.NoGoal(ng.agent)) // as the command's --json says it
	}
	if err != nil {
		return nil, err
	}
	pr := ch.EngineProblem
	pr.Opt.Context = ctx
	res, err := resolver.NewResolver(pr.D).Resolve(nil, pr.Snap, pr.Goal, pr.Opt)
	if err := chainFailed(res); err != nil {
		return nil, err
	}
	answer := report.ResolveAs{Resolve: report.ResolveOf(pr.D, res, err)}
	if q.Agent != "" {
		answer.Agent, answer.Goal = ch.kind.Name, pr.Goal.Name()
	}
	return s.answer(answer, "the chain", "max_depth", planTooLarge)
}

// graph answers `ploy graph --format json`.
func (s *Server) graph(body []byte) ([]byte, error) {
	var q source
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, err := s.engineModel(q, "graph")
	if err != nil {
		return nil, err
	}
	// The graph's JSON grows with its edges, up to a million of them from
	// a file of a few hundred kilobytes: its size is counted before a byte
	// of it is made, and a graph past the cap refused.
	size := report.GraphJSONSize(f.Resolver)
	if size > int64(s.cfg.MaxAnswer) {
		field := "domain"
		if q.Source != "" {
			field = "source"
		}
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Field: field, Message: fmt.Sprintf(
			"the action graph of %s has %d edges, %d bytes of JSON, more than the %d the server answers: give conditions fewer actions to serve them, or split the domain",
			f.Path, report.GraphEdges(f.Resolver), size, s.cfg.MaxAnswer)}
	}
	// json.Encoder's bytes, as the command writes them
	buf := bytes.NewBuffer(make([]byte, 0, size))
	if err := report.WriteGraphJSON(buf, f.Resolver); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// engineOnly refuses the state-space search's fields on an engine-model
// file, and the engine's on a state-space one, as the commands refuse
// their flags.
func engineCheck(f *domain.File, q *searchRequest, ef engineFields) error {
	if f.EngineModel() {
		if q.Search != "" {
			return badField("search", "search does not apply to an engine-model file (keys:), which %s is", f.Path)
		}
		if q.Heuristic != "" {
			return badField("heuristic", "heuristic does not apply to an engine-model file (keys:), which %s is", f.Path)
		}
		if q.Inputs != nil {
			return badField("inputs", "inputs does not apply to an engine-model file (keys:), which %s is: its agents' inputs are its keys, given in set", f.Path)
		}
		return nil
	}
	switch {
	case ef.At != nil:
		return badField("at", "at does not apply to a state-space file (facts:), which %s is", f.Path)
	case ef.Targets != nil:
		return badField("targets", "targets does not apply to a state-space file (facts:), which %s is", f.Path)
	case ef.Capabilities != nil:
		return badField("capabilities", "capabilities does not apply to a state-space file (facts:), which %s is", f.Path)
	}
	return nil
}

// tracedResolve is the resolve behind trace and explain on an engine-model
// file: the problem, its trace, the result and the resolver's error, or
// why the request is refused.
func tracedResolve(f *domain.File, q *traceRequest) (report.EngineProblem, *resolver.Trace, resolver.Result, error, error) {
	var tr resolver.Trace
	if q.MaxSteps != 0 {
		return report.EngineProblem{}, &tr, resolver.Result{}, nil, badField("max_steps", "max_steps bounds an HTN decomposition: give it with htn")
	}
	ch, err := engineProblem(f, q.startRequest, q.engineFields, engineAgent{q.Agent, q.Personality}, q.Goal, q.Budget, q.MaxDepth)
	pr := ch.EngineProblem
	if err != nil {
		return pr, &tr, resolver.Result{}, nil, err
	}
	pr.Opt.Trace = &tr
	pr.Opt.Context = q.ctx
	res, resolveErr := resolver.NewResolver(pr.D).Resolve(nil, pr.Snap, pr.Goal, pr.Opt)
	return pr, &tr, res, resolveErr, chainFailed(res)
}

// traceEngine answers `ploy trace --format json` on an engine-model file.
func (s *Server) traceEngine(f *domain.File, q *traceRequest) ([]byte, error) {
	pr, tr, res, _, err := tracedResolve(f, q)
	if err != nil {
		return nil, err
	}
	return s.traceAnswer(func(w *bufio.Writer) error {
		if err := report.WriteResolveTraceJSON(w, pr, tr, res); err != nil {
			return &apiError{Status: http.StatusUnprocessableEntity, Message: err.Error()}
		}
		return nil
	})
}

// explainEngine answers `ploy explain --json` on an engine-model file.
func (s *Server) explainEngine(f *domain.File, q *explainRequest, alternatives int) ([]byte, error) {
	pr, tr, res, resolveErr, err := tracedResolve(f, &q.traceRequest)
	if err != nil {
		return nil, err
	}
	return s.answer(report.ExplainResolve(pr, tr, res, resolveErr, alternatives), "the explanation of the chain", "max_depth", planTooLarge+" (or alternatives)")
}
