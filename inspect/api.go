package inspect

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/internal/webguard"
	"github.com/ploy-ai/ploy/resolver"
)

func itoa(n int) string { return strconv.Itoa(n) }

// apiError is an error answer: {"error": MESSAGE, "field": FIELD}, as
// `ploy serve` answers.
type apiError struct {
	Status  int    `json:"-"`
	Message string `json:"error"`
	Field   string `json:"field,omitempty"`
}

func (e *apiError) Error() string { return e.Message }

func badField(field, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Field: field, Message: fmt.Sprintf(format, args...)}
}

// maxMessage cuts what an error message echoes of a request.
const maxMessage = 200

func cut(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	for i := maxMessage; i > 0; i-- {
		if i < len(s) && (s[i]&0xC0) != 0x80 {
			return s[:i] + "…"
		}
	}
	return ""
}

func fail(w http.ResponseWriter, e *apiError) {
	e.Message, e.Field = cut(e.Message), cut(e.Field)
	b, _ := json.Marshal(e)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	if e.Status == http.StatusServiceUnavailable {
		h.Set("Retry-After", "1")
	}
	w.WriteHeader(e.Status)
	w.Write(append(b, '\n'))
}

// admitted refuses, with 403, a request addressed to a host name that is
// not the loopback (unless allowRemote: a rebound DNS name must not reach
// the server through a browser) and one from another site's page; who
// and how name the server and the option that allows remote hosts.
func admitted(w http.ResponseWriter, r *http.Request, allowRemote bool, who, how string) bool {
	if !allowRemote && !webguard.LoopbackHost(r.Host) {
		fail(w, &apiError{Status: http.StatusForbidden, Message: fmt.Sprintf("%s answers requests to the loopback only, not to host %q%s", who, r.Host, how)})
		return false
	}
	if why := webguard.CrossSite(r); why != "" {
		fail(w, &apiError{Status: http.StatusForbidden, Message: why})
		return false
	}
	return true
}

// ServeHTTP answers the inspector's API: an unknown path is 404 and a
// wrong method 405, both as JSON errors.
func (in *Inspector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !admitted(w, r, in.opt.AllowRemote, "the inspector", " (Options.AllowRemote)") {
		return
	}
	path := r.URL.Path
	rt, ok := in.routes[path]
	if !ok && strings.HasPrefix(path, "/api/v1/agents/") {
		rt, ok = route{http.MethodGet, (*Inspector).serveAgent}, true
	}
	if !ok {
		fail(w, &apiError{Status: http.StatusNotFound, Message: fmt.Sprintf("no such endpoint: %s", path)})
		return
	}
	if r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", rt.method)
		fail(w, &apiError{Status: http.StatusMethodNotAllowed, Message: fmt.Sprintf("%s takes %s, not %s", path, rt.method, r.Method)})
		return
	}
	rt.serve(in, w, r)
}

// cappedBuffer refuses to grow past max bytes.
type cappedBuffer struct {
	bytes.Buffer
	max int
}

var errTooLarge = errors.New("answer too large")

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		return 0, errTooLarge
	}
	return b.Buffer.Write(p)
}

// answer writes v as JSON, refusing one past Options.MaxAnswer before it
// is all made.
func (in *Inspector) answer(w http.ResponseWriter, v any) {
	buf := &cappedBuffer{max: in.opt.MaxAnswer}
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		in.answerErr(w, err)
		return
	}
	writeBody(w, "application/json", buf.Bytes())
}

func (in *Inspector) answerErr(w http.ResponseWriter, err error) {
	if errors.Is(err, errTooLarge) {
		fail(w, &apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("the answer is larger than %d bytes, the most the inspector answers: filter the list, or ask for fewer (limit)", in.opt.MaxAnswer)})
		return
	}
	fail(w, &apiError{Status: http.StatusInternalServerError, Message: "internal error: " + err.Error()})
}

func writeBody(w http.ResponseWriter, contentType string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// clientOf reads a GET's client id (?client=), heard from.
func (in *Inspector) hearGET(w http.ResponseWriter, r *http.Request) bool {
	id := r.URL.Query().Get("client")
	if len(id) > MaxClientID {
		fail(w, badField("client", "the client id is %d bytes, more than %d", len(id), MaxClientID))
		return false
	}
	if e := in.touch(id, 0); e != nil {
		fail(w, e)
		return false
	}
	return true
}

// waitFresh waits, at most Options.StaleWait, for a frame to copy the
// agents when the copy is stale (frames went by while no client was
// about, copying nothing). It returns with mu held for reading.
func (in *Inspector) waitFresh(ctx context.Context) {
	in.mu.RLock()
	if in.copiedAt == in.frames.Load() || in.closed {
		return
	}
	fresh := in.fresh
	in.mu.RUnlock()
	timer := time.NewTimer(in.opt.StaleWait)
	defer timer.Stop()
	select {
	case <-fresh:
	case <-timer.C:
	case <-ctx.Done():
	}
	in.mu.RLock()
}

// agentJSON is one agent in the list.
type agentJSON struct {
	Name    string          `json:"name"`
	Kind    string          `json:"kind"`
	Goal    string          `json:"goal"`
	Status  string          `json:"status"`
	Plan    []string        `json:"plan"`
	Step    int             `json:"step"`
	Action  string          `json:"action,omitempty"`
	Plans   int             `json:"plans"`
	Replans int             `json:"replans"`
	At      *resolver.Point `json:"at,omitempty"`
	Changed int             `json:"changed"`
	Version int64           `json:"version"`
}

func (w *watched) summary() agentJSON {
	j := agentJSON{Name: w.name, Kind: w.kind, Goal: w.goal, Status: w.status(), Plan: make([]string, len(w.plan)), Step: w.step,
		Plans: w.stats.Plans, Replans: w.stats.Replans, Changed: w.changed, Version: w.version}
	for i, id := range w.plan {
		j.Plan[i] = w.actionName(id)
	}
	if w.running {
		j.Action = w.actionName(w.current)
	}
	if w.hasAt {
		at := w.at
		j.At = &at
	}
	return j
}

// serveAgents answers GET /api/v1/agents: every watched agent, filtered
// by kind, goal and status, in watch order or sorted by replans.
func (in *Inspector) serveAgents(w http.ResponseWriter, r *http.Request) {
	if !in.hearGET(w, r) {
		return
	}
	q := r.URL.Query()
	limit, err := queryInt(q, "limit", -1)
	if err != nil {
		fail(w, err)
		return
	}
	sortBy := q.Get("sort")
	if sortBy != "" && sortBy != "name" && sortBy != "replans" {
		fail(w, badField("sort", "sort must be name or replans, not %q", sortBy))
		return
	}
	in.waitFresh(r.Context())
	list := make([]agentJSON, 0, len(in.agents))
	for _, a := range in.agents {
		if f := q.Get("kind"); f != "" && f != a.kind {
			continue
		}
		if f := q.Get("goal"); q.Has("goal") && f != a.goal {
			continue
		}
		if f := q.Get("status"); f != "" && f != a.status() {
			continue
		}
		list = append(list, a.summary())
	}
	in.mu.RUnlock()
	switch sortBy {
	case "name":
		slices.SortStableFunc(list, func(a, b agentJSON) int { return strings.Compare(a.Name, b.Name) })
	case "replans":
		slices.SortStableFunc(list, func(a, b agentJSON) int { return cmp.Compare(b.Replans, a.Replans) })
	}
	if limit >= 0 && limit < len(list) {
		list = list[:limit]
	}
	in.answer(w, list)
}

func queryInt(q url.Values, name string, def int) (int, *apiError) {
	if !q.Has(name) {
		return def, nil
	}
	n, err := strconv.Atoi(q.Get(name))
	if err != nil || n < 0 {
		return 0, badField(name, "%s must be a whole number from 0, not %q", name, q.Get(name))
	}
	return n, nil
}

// detailJSON is everything the panel shows of one agent.
type detailJSON struct {
	agentJSON
	Tick     int                       `json:"tick"`
	Frame    int                       `json:"frame"`
	Steps    []stepJSON                `json:"steps"`
	PlanCost *float64                  `json:"plan_cost,omitempty"`
	Facts    []string                  `json:"facts,omitempty"`
	Values   map[string]int64          `json:"values,omitempty"`
	Targets  map[string]resolver.Point `json:"targets,omitempty"`
	Options  []agent.GoalScore         `json:"options"`
	// OptionsTick is the tick the options were weighed (the decision
	// they come from).
	OptionsTick int                      `json:"options_tick,omitempty"`
	MTR         []int32                  `json:"mtr,omitempty"`
	Stats       statsJSON                `json:"stats"`
	Traced      bool                     `json:"traced"`
	Decisions   decisionsJSON            `json:"decisions"`
	Breakpoints []breakpoint             `json:"breakpoints"`
	Rejected    []agent.DecisionRejected `json:"rejected,omitempty"`
}

// stepJSON is a plan step: its action, its cost when the agent's last
// recorded plan is this one (null otherwise), and whether it is done,
// running or to come.
type stepJSON struct {
	Action string   `json:"action"`
	Cost   *float64 `json:"cost"`
	State  string   `json:"state"` // "done", "running", "next" or "later"
}

type statsJSON struct {
	Plans             int            `json:"plans"`
	Replans           int            `json:"replans"`
	ReplanReasons     map[string]int `json:"replan_reasons"`
	NoPlan            int            `json:"no_plan"`
	StepsDone         int            `json:"steps_done"`
	ActionsFailed     int            `json:"actions_failed"`
	Interruptions     int            `json:"interruptions"`
	InterruptsRefused int            `json:"interrupts_refused"`
	Expanded          int            `json:"expanded"`
}

type decisionsJSON struct {
	Kept     int                   `json:"kept"`
	Recorded int64                 `json:"recorded"`
	Recent   []decisionSummaryJSON `json:"recent"`
}

type decisionSummaryJSON struct {
	Tick    int      `json:"tick"`
	Decided string   `json:"decided"`
	Reason  string   `json:"reason"`
	Goal    string   `json:"goal,omitempty"`
	Task    string   `json:"task,omitempty"`
	Status  string   `json:"status"`
	Cost    float64  `json:"cost"`
	Plan    []string `json:"plan"`
}

// recentDecisions is how many decisions the agent's panel sums up.
const recentDecisions = 10

// serveAgent answers GET /api/v1/agents/NAME and
// /api/v1/agents/NAME/decisions.
func (in *Inspector) serveAgent(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.EscapedPath(), "/api/v1/agents/")
	escaped, sub, _ := strings.Cut(rest, "/")
	name, err := url.PathUnescape(escaped)
	if err != nil || (sub != "" && sub != "decisions") {
		fail(w, &apiError{Status: http.StatusNotFound, Message: fmt.Sprintf("no such endpoint: %s", r.URL.Path)})
		return
	}
	if !in.hearGET(w, r) {
		return
	}
	q := r.URL.Query()
	limit, aerr := queryInt(q, "limit", -1)
	if aerr != nil {
		fail(w, aerr)
		return
	}
	format := q.Get("format")
	if format != "" && format != "json" && format != "jsonl" {
		fail(w, badField("format", "format must be json or jsonl, not %q", format))
		return
	}
	in.waitFresh(r.Context())
	a := in.byName[name]
	if a == nil {
		in.mu.RUnlock()
		fail(w, &apiError{Status: http.StatusNotFound, Field: "agent", Message: fmt.Sprintf("no agent named %q is watched", name)})
		return
	}
	if sub == "decisions" {
		in.serveDecisions(w, a, limit, format == "jsonl") // unlocks
		return
	}
	d := in.detail(a)
	in.mu.RUnlock()
	in.answer(w, d)
}

// detail builds the agent's panel (mu held for reading). It shares no
// memory with the copy, which the next Frame or decision rewrites in
// place: the answer is encoded after mu is let go.
func (in *Inspector) detail(a *watched) detailJSON {
	d := detailJSON{agentJSON: a.summary(), Tick: a.now, Frame: in.copiedTk, Traced: a.traced, Options: []agent.GoalScore{}, Breakpoints: []breakpoint{}}
	lastPlan := a.lastWith(func(x *agent.Decision) bool { return x.Decided == "plan" && x.Status == "found" })
	var costs []agent.DecisionStep
	if lastPlan != nil && len(lastPlan.Plan) == len(a.plan) {
		costs = lastPlan.Plan
		for i, id := range a.plan {
			if costs[i].Action != a.actionName(id) {
				costs = nil
				break
			}
		}
	}
	d.Steps = make([]stepJSON, len(a.plan))
	for i, id := range a.plan {
		s := stepJSON{Action: a.actionName(id), State: "later"}
		switch {
		case i < a.step:
			s.State = "done"
		case i == a.step && a.running:
			s.State = "running"
		case i == a.step:
			s.State = "next"
		}
		if costs != nil {
			c := costs[i].Cost
			s.Cost = &c
		}
		d.Steps[i] = s
	}
	if costs != nil {
		c := lastPlan.Cost
		d.PlanCost = &c
		d.Rejected = slices.Clone(lastPlan.Rejected)
	}
	switch {
	case a.rd != nil:
		keys := a.rd.Keys()
		d.Values = make(map[string]int64, len(keys))
		for i, k := range keys {
			if i < len(a.values) {
				d.Values[k.Name] = a.values[i]
			}
		}
		names := a.rd.Targets()
		for i, t := range a.targets {
			if t.Found && i < len(names) {
				if d.Targets == nil {
					d.Targets = map[string]resolver.Point{}
				}
				d.Targets[names[i]] = t.At
			}
		}
	case a.facts.Words() != nil:
		d.Facts = factNames(a.gd, a.facts)
	}
	if withOptions := a.lastWith(func(x *agent.Decision) bool { return len(x.Options) > 0 }); withOptions != nil {
		d.Options, d.OptionsTick = slices.Clone(withOptions.Options), withOptions.Tick
	}
	d.MTR = slices.Clone(a.mtr)
	s := a.stats
	d.Stats = statsJSON{Plans: s.Plans, Replans: s.Replans, ReplanReasons: maps.Clone(s.ReplanReasons), NoPlan: s.NoPlan, StepsDone: s.StepsDone,
		ActionsFailed: s.ActionsFailed, Interruptions: s.Interruptions, InterruptsRefused: s.InterruptsRefused, Expanded: s.Expanded}
	if d.Stats.ReplanReasons == nil {
		d.Stats.ReplanReasons = map[string]int{}
	}
	d.Decisions = decisionsJSON{Kept: a.n, Recorded: a.recorded, Recent: []decisionSummaryJSON{}}
	all := a.decisions()
	for _, x := range all[max(0, len(all)-recentDecisions):] {
		sum := decisionSummaryJSON{Tick: x.Tick, Decided: x.Decided, Reason: x.Reason, Goal: x.Goal, Task: x.Task, Status: x.Status, Cost: x.Cost, Plan: make([]string, len(x.Plan))}
		for i, st := range x.Plan {
			sum.Plan[i] = st.Action
		}
		d.Decisions.Recent = append(d.Decisions.Recent, sum)
	}
	for _, b := range in.bps {
		if b.Agent == a.name {
			d.Breakpoints = append(d.Breakpoints, b)
		}
	}
	return d
}

// serveDecisions answers the agent's kept decisions, oldest first, as a
// JSON array of records or (jsonl) as a decision recording: a header line
// and one decision per line. It unlocks mu.
func (in *Inspector) serveDecisions(w http.ResponseWriter, a *watched, limit int, jsonl bool) {
	all := a.decisions()
	if limit >= 0 && limit < len(all) {
		all = all[len(all)-limit:]
	}
	all, dropped := detached(all), a.recorded-int64(len(all))
	in.mu.RUnlock()
	buf := &cappedBuffer{max: in.opt.MaxAnswer}
	var err error
	if jsonl {
		err = in.writeRecording(buf, all, dropped)
	} else {
		err = json.NewEncoder(buf).Encode(all)
	}
	if err != nil {
		in.answerErr(w, err)
		return
	}
	if jsonl {
		writeBody(w, "application/x-ndjson", buf.Bytes())
		return
	}
	writeBody(w, "application/json", buf.Bytes())
}

// detached copies decisions out of the rings (mu held), so that they are
// encoded after mu is let go: a large answer then never holds up the
// game's Frame or its decisions.
func detached(ds []*agent.Decision) []*agent.Decision {
	copies := make([]agent.Decision, len(ds))
	out := make([]*agent.Decision, len(ds))
	for i, d := range ds {
		copyDecision(&copies[i], d)
		out[i] = &copies[i]
	}
	return out
}

// writeRecording writes decisions as a decision recording
// (docs/records.md), dropped of them not kept.
func (in *Inspector) writeRecording(buf *cappedBuffer, ds []*agent.Decision, dropped int64) error {
	head, _ := json.Marshal(agent.RecordHeader{Format: agent.RecordFormat, Version: agent.RecordVersion, Domain: in.opt.Domain,
		DomainHash: in.opt.DomainHash, Decisions: len(ds), Dropped: dropped})
	if _, err := buf.Write(append(head, '\n')); err != nil {
		return err
	}
	enc := json.NewEncoder(buf)
	for _, d := range ds {
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	return nil
}

// serveRecording answers GET /api/v1/recording: the decisions the
// inspector keeps, of every watched agent, as one decision recording
// (application/x-ndjson, to download and open with ploy why or replay):
// ordered by tick, agents in watch order within a tick. ?agent=NAME keeps
// one agent's. Its header counts the decisions made but no longer kept as
// dropped.
func (in *Inspector) serveRecording(w http.ResponseWriter, r *http.Request) {
	if !in.hearGET(w, r) {
		return
	}
	only := r.URL.Query().Get("agent")
	in.mu.RLock()
	var all []*agent.Decision
	var dropped int64
	for _, a := range in.agents {
		if only != "" && a.name != only {
			continue
		}
		all = append(all, a.decisions()...)
		dropped += a.recorded - int64(a.n)
	}
	if only != "" && in.byName[only] == nil {
		in.mu.RUnlock()
		fail(w, &apiError{Status: http.StatusNotFound, Field: "agent", Message: fmt.Sprintf("no agent named %q is watched", only)})
		return
	}
	all = detached(all)
	in.mu.RUnlock()
	// Stable: each agent's decisions are in order already.
	slices.SortStableFunc(all, func(a, b *agent.Decision) int { return cmp.Compare(a.Tick, b.Tick) })
	buf := &cappedBuffer{max: in.opt.MaxRecording}
	err := in.writeRecording(buf, all, dropped)
	if errors.Is(err, errTooLarge) {
		fail(w, &apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("the recording is larger than %d bytes, the most the inspector answers (Options.MaxRecording): ask for one agent's", in.opt.MaxRecording)})
		return
	}
	if err != nil {
		in.answerErr(w, err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="recording.jsonl"`)
	writeBody(w, "application/x-ndjson", buf.Bytes())
}

// stateJSON is the game loop's state as the inspector sees it.
type stateJSON struct {
	Frame int `json:"frame"`
	// Copied is the tick of the last frame that copied the agents.
	Copied      int          `json:"copied"`
	Paused      bool         `json:"paused"`
	PauseNext   bool         `json:"pause_next"`
	Reason      string       `json:"reason,omitempty"` // "breakpoint", "step" or "pause"
	Holder      string       `json:"holder,omitempty"`
	Hits        []Hit        `json:"hits"`
	Breakpoints []breakpoint `json:"breakpoints"`
	Traced      []string     `json:"traced"`
	Agents      int          `json:"agents"`
	// HeartbeatMS is Options.HeartbeatTimeout: a page sends a heartbeat
	// (or keeps its event stream open) more often than this.
	HeartbeatMS int64 `json:"heartbeat_ms"`
}

// state (mu held for reading).
func (in *Inspector) state() stateJSON {
	p := in.pause
	s := stateJSON{Frame: in.tickNow(), Copied: in.copiedTk, Paused: p.paused, PauseNext: p.next, Holder: p.holder, Reason: p.reason,
		Hits: append([]Hit{}, p.hits...), Breakpoints: append([]breakpoint{}, in.bps...), Traced: []string{}, Agents: len(in.agents),
		HeartbeatMS: in.opt.HeartbeatTimeout.Milliseconds()}
	if p.paused {
		s.Frame = p.at
	}
	for _, w := range in.agents {
		if _, ok := in.traceWant[w.name]; ok {
			s.Traced = append(s.Traced, w.name)
		}
	}
	return s
}

func (in *Inspector) serveState(w http.ResponseWriter, r *http.Request) {
	if !in.hearGET(w, r) {
		return
	}
	in.mu.RLock()
	s := in.state()
	in.mu.RUnlock()
	in.answer(w, s)
}

// readPost reads a POST's JSON body into v (no unknown field, nothing
// after it), and hears from its client.
func (in *Inspector) readPost(w http.ResponseWriter, r *http.Request, v interface{ clientID() string }) bool {
	if why := webguard.JSONBody(r.Header.Get("Content-Type")); why != "" {
		fail(w, &apiError{Status: http.StatusUnsupportedMediaType, Message: why})
		return false
	}
	var body bytes.Buffer
	if _, err := body.ReadFrom(http.MaxBytesReader(w, r.Body, in.opt.MaxBody)); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			fail(w, &apiError{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("the request body is larger than %d bytes, the most the inspector takes", tooLarge.Limit)})
		} else {
			fail(w, &apiError{Status: http.StatusBadRequest, Message: "cannot read the request body: " + err.Error()})
		}
		return false
	}
	b := bytes.TrimSpace(body.Bytes())
	if len(b) == 0 {
		b = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		fail(w, &apiError{Status: http.StatusBadRequest, Message: "malformed JSON: " + err.Error()})
		return false
	}
	if dec.More() {
		fail(w, &apiError{Status: http.StatusBadRequest, Message: "malformed JSON: more after the request object"})
		return false
	}
	id := v.clientID()
	if len(id) > MaxClientID {
		fail(w, badField("client", "the client id is %d bytes, more than %d", len(id), MaxClientID))
		return false
	}
	if e := in.touch(id, 0); e != nil {
		fail(w, e)
		return false
	}
	return true
}

// clientRequest is what every POST carries: the id of the page or
// program sending it, which its breakpoints and pause belong to.
type clientRequest struct {
	Client string `json:"client"`
}

func (c *clientRequest) clientID() string { return c.Client }

type breakpointRequest struct {
	clientRequest
	Agent  string `json:"agent"`
	On     string `json:"on"`
	Action string `json:"action"`
}

func (in *Inspector) setBreakpoint(w http.ResponseWriter, r *http.Request) {
	var q breakpointRequest
	if !in.readPost(w, r, &q) {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	a := in.byName[q.Agent]
	switch {
	case a == nil:
		fail(w, &apiError{Status: http.StatusNotFound, Field: "agent", Message: fmt.Sprintf("no agent named %q is watched", q.Agent)})
		return
	case q.On != "plan" && q.On != "goal" && q.On != "action":
		fail(w, badField("on", "on must be plan, goal or action, not %q", q.On))
		return
	case q.On == "action" && q.Action == "":
		fail(w, badField("action", "a breakpoint on an action names it: action"))
		return
	case q.On != "action" && q.Action != "":
		fail(w, badField("action", "only a breakpoint on an action names one (on is %q)", q.On))
		return
	}
	if q.On == "action" {
		if _, ok := a.actionID(q.Action); !ok {
			fail(w, badField("action", "agent %q's domain has no action %q", q.Agent, q.Action))
			return
		}
	}
	if len(in.bps) >= in.opt.MaxBreakpoints {
		fail(w, &apiError{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("%d breakpoints are set, the most the inspector keeps: clear some", len(in.bps))})
		return
	}
	in.nextBP++
	b := breakpoint{ID: in.nextBP, Client: q.Client, Agent: q.Agent, On: q.On, Action: q.Action}
	in.bps = append(in.bps, b)
	in.answer(w, b)
}

type clearRequest struct {
	clientRequest
	ID    int    `json:"id"`
	Agent string `json:"agent"`
	All   bool   `json:"all"`
}

func (in *Inspector) clearBreakpoints(w http.ResponseWriter, r *http.Request) {
	var q clearRequest
	if !in.readPost(w, r, &q) {
		return
	}
	if q.ID == 0 && q.Agent == "" && !q.All {
		fail(w, badField("id", "say which breakpoints to clear: id, agent, or all"))
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	kept := in.bps[:0]
	cleared := 0
	for _, b := range in.bps {
		if q.All || (q.ID != 0 && b.ID == q.ID) || (q.Agent != "" && b.Agent == q.Agent) {
			cleared++
			continue
		}
		kept = append(kept, b)
	}
	clear(in.bps[len(kept):])
	in.bps = kept
	in.answer(w, map[string]int{"cleared": cleared})
}

// postPause pauses the game at its next frame.
func (in *Inspector) postPause(w http.ResponseWriter, r *http.Request) {
	var q clientRequest
	if !in.readPost(w, r, &q) {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.pause.paused && !in.closed {
		in.pause.next, in.pause.holder = true, q.Client
		in.pause.reason = "pause"
	}
	in.answer(w, in.state())
}

// postStep lets a paused game run one frame and pause again at the next;
// a running game pauses at its next frame.
func (in *Inspector) postStep(w http.ResponseWriter, r *http.Request) {
	var q clientRequest
	if !in.readPost(w, r, &q) {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.closed {
		if in.pause.paused {
			in.release(true)
		}
		in.pause.next, in.pause.holder = true, q.Client
	}
	in.answer(w, in.state())
}

// postResume lets the game run until a breakpoint.
func (in *Inspector) postResume(w http.ResponseWriter, r *http.Request) {
	var q clientRequest
	if !in.readPost(w, r, &q) {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.release(false)
	in.answer(w, in.state())
}

// postHeartbeat says the client is still there.
func (in *Inspector) postHeartbeat(w http.ResponseWriter, r *http.Request) {
	var q clientRequest
	if !in.readPost(w, r, &q) {
		return
	}
	in.mu.RLock()
	defer in.mu.RUnlock()
	in.answer(w, in.state())
}

type traceRequest struct {
	clientRequest
	Agent string `json:"agent"`
	On    bool   `json:"on"`
}

// postTrace turns the recording of what an agent's searches turned down
// on or off, at the next frame (agent.Agent.SetTraceDecisions).
func (in *Inspector) postTrace(w http.ResponseWriter, r *http.Request) {
	var q traceRequest
	if !in.readPost(w, r, &q) {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.byName[q.Agent] == nil {
		fail(w, &apiError{Status: http.StatusNotFound, Field: "agent", Message: fmt.Sprintf("no agent named %q is watched", q.Agent)})
		return
	}
	if q.On {
		in.traceWant[q.Agent] = q.Client
	} else {
		delete(in.traceWant, q.Agent)
	}
	in.traceDirt = true
	select { // a paused Frame applies it at once
	case in.wake <- struct{}{}:
	default:
	}
	in.answer(w, map[string]any{"agent": q.Agent, "on": q.On})
}
