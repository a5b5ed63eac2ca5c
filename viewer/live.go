package viewer

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/search"
)

// Figure 4, the live agent (the soldier lesson's tick and replan loop; see
// docs/background.md): an NPC runs its plan in a small simulated world
// while the user flips the world's facts, and replans when its plan breaks. POST /api/v1/live streams the run, one
// event per tick, as Server-Sent Events.
//
// The stream is a function of its request and nothing else: the seed
// draws how long each step takes, and the user's toggles come in the
// request as (tick, fact, value). A toggle flipped mid-run restarts the
// stream with the toggle appended; the server replays the ticks the page
// has already shown without pacing, identical by construction, and goes
// on from there. Nothing is held on the server between requests.

// Defaults of Config's stream limits.
const (
	DefaultMaxStreams    = 8
	DefaultMaxStreamTime = 3 * time.Minute
)

// The live run's shape and bounds.
const (
	maxLiveTicks          = 1000 // ticks a stream may run, the most a request may ask
	defaultLiveTicks      = 300
	maxLiveToggles        = 100
	defaultTicksPerSecond = 4
	maxTicksPerSecond     = 20
	// Each step takes from liveMinDuration to liveMaxDuration ticks,
	// drawn from the seed when it starts: long enough, at the default
	// pace, for a person to take the axe away on the way to it.
	liveMinDuration = 3
	liveMaxDuration = 8
	// liveLinger is how many ticks a settled run (the goal holds, or no
	// plan exists, and no toggle is still to come) goes on before its end.
	liveLinger = 4
	// liveRetryAfter is how many ticks the NPC waits, with no plan,
	// before it plans again.
	liveRetryAfter = 4
	// A live run's searches are held to a trace's budget, a 128th of
	// goap's default work each, and at most maxLiveSearches of them: a
	// pasted domain whose searches all run to their limits ends its
	// stream within a plan's work (100 searches of 2^21 units, under a
	// second of CPU; a sixteenth each took 4 s). A 24-toggle domain's
	// search reaches the state budget first.
	maxLiveBudget   = DefaultMaxTraceBudget
	maxLiveWork     = goap.DefaultMaxWork / 128
	maxLiveSearches = 100
	// liveSeedStream is the PCG stream the seed selects durations from.
	liveSeedStream = 0x6c697665 // "live"
)

// liveRequest is the body of POST /api/v1/live.
type liveRequest struct {
	// ctx is the stream's, done at its deadline or when the client goes,
	// for its searches.
	ctx context.Context
	source
	startRequest
	Goal    string       `json:"goal"`
	Seed    *uint64      `json:"seed"`
	Toggles []liveToggle `json:"toggles"`
	// Policy is when the NPC replans: on_break (the default: when the plan
	// breaks) or reactive (after every step too).
	Policy string `json:"policy"`
	// TicksPerSecond paces the stream; Fast sends it all at once.
	TicksPerSecond int  `json:"ticks_per_second"`
	Fast           bool `json:"fast"`
	// ReplayTo is the last tick sent without pacing: the ticks a page has
	// already shown, replayed after a toggle.
	ReplayTo int `json:"replay_to"`
	MaxTicks int `json:"max_ticks"`
}

// liveToggle sets a fact of the world at the start of a tick, before the
// NPC senses it.
type liveToggle struct {
	Tick  int    `json:"tick"`
	Fact  string `json:"fact"`
	Value *bool  `json:"value"`
}

// factValue is a fact and its value: one toggled, or a precondition a
// step needs that the world no longer gives.
type factValue struct {
	Fact  string `json:"fact"`
	Value bool   `json:"value"`
}

// liveTick is one tick of the run, as the stream sends it.
type liveTick struct {
	Tick int `json:"tick"`
	// Status: starting (tick 0), acting (a step is running),
	// between_steps (a step ended; the next starts next tick),
	// replanning (the plan broke; the NPC plans next tick), no_plan
	// (none found; it tries again later) or goal_reached.
	Status  string      `json:"status"`
	Facts   []string    `json:"facts"`   // true in the world after the tick
	Toggled []factValue `json:"toggled"` // set by the request at this tick
	Goal    string      `json:"goal"`    // the goal pursued; empty once it holds
	Plan    []string    `json:"plan"`
	Step    int         `json:"step"`   // index in plan of the running or next step
	Action  string      `json:"action"` // the running step's action
	// Progress is how many ticks the running step has worked, of
	// Duration.
	Progress int `json:"progress"`
	Duration int `json:"duration"`
	Replans  int `json:"replans"`
	// Events are the agent runtime's own, in order.
	Events []agent.Event `json:"events"`
	// Unmet are the preconditions of a step that failed or could not
	// start at this tick, which the world no longer gives.
	Unmet []factValue `json:"unmet"`
}

// liveEnd closes the stream.
type liveEnd struct {
	Tick int `json:"tick"`
	// End: goal_reached or no_plan (settled, nothing left to toggle),
	// ticks_out (max_ticks), search_limit (maxLiveSearches), size_limit
	// (Config.MaxAnswer bytes sent, or the next tick would pass them) or
	// time_out (Config.MaxStreamTime).
	End           string         `json:"end"`
	Replans       int            `json:"replans"`
	ReplanReasons map[string]int `json:"replan_reasons"`
	Plans         int            `json:"plans"`
	StepsDone     int            `json:"steps_done"`
	Expanded      int            `json:"expanded"`
}

// liveSim is the world, the NPC in it, and the run's clock.
type liveSim struct {
	d        *goap.Domain
	goal     *goap.Goal
	world    goap.State
	npc      *agent.Agent
	rng      *rand.Rand
	toggles  []liveToggle // by tick
	facts    []goap.Fact  // each toggle's
	next     int          // the first toggle not yet applied
	tick     int
	maxTicks int
	// progress and duration of the running step.
	progress, duration int
	events             []agent.Event
	unmet              []factValue
	noPlan             bool // the last search found no plan
	settledAt          int  // the tick the run settled at; -1 while not settled
}

// liveProblem checks a live request and builds its run, or says what is
// wrong with it.
func (s *Server) liveProblem(q *liveRequest) (*liveSim, error) {
	switch {
	case q.TicksPerSecond < 0 || q.TicksPerSecond > maxTicksPerSecond:
		return nil, badField("ticks_per_second", "ticks_per_second must be from 1 to %d, not %d", maxTicksPerSecond, q.TicksPerSecond)
	case q.MaxTicks < 0 || q.MaxTicks > maxLiveTicks:
		return nil, badField("max_ticks", "max_ticks must be from 1 to %d, the server's cap, not %d", maxLiveTicks, q.MaxTicks)
	case q.ReplayTo < 0:
		return nil, badField("replay_to", "replay_to must not be negative, not %d", q.ReplayTo)
	case len(q.Toggles) > maxLiveToggles:
		return nil, badField("toggles", "%d toggles: at most %d; restart the run", len(q.Toggles), maxLiveToggles)
	}
	policy := agent.Policy{Kind: agent.OnBreak}
	switch q.Policy {
	case "", "on_break":
	case "reactive":
		policy.Kind = agent.Reactive
	default:
		return nil, badField("policy", "policy must be on_break or reactive, not %q", q.Policy)
	}
	maxTicks := q.MaxTicks
	if maxTicks == 0 {
		maxTicks = defaultLiveTicks
	}
	f, err := s.stateSpace(q.source, "live")
	if err != nil {
		return nil, err
	}
	// The goal and start state as plan reads them, with plan's messages.
	sq := searchRequest{source: q.source, startRequest: q.startRequest, Goal: q.Goal}
	pr, err := sq.problem(f, min(s.cfg.MaxBudget, maxLiveBudget), s.cfg.MaxSearchBytes)
	if err != nil {
		return nil, err
	}
	d := pr.d
	sim := &liveSim{d: d, goal: pr.goal, world: pr.start, maxTicks: maxTicks, settledAt: -1}
	sim.toggles = slices.Clone(q.Toggles)
	slices.SortStableFunc(sim.toggles, func(a, b liveToggle) int { return a.Tick - b.Tick })
	for _, t := range sim.toggles {
		fact, ok := d.Fact(t.Fact)
		switch {
		case t.Tick < 1 || t.Tick > maxTicks:
			return nil, badField("toggles", "toggle of %q at tick %d: a toggle's tick must be from 1 to max_ticks (%d)", t.Fact, t.Tick, maxTicks)
		case !ok:
			e := badField("toggles", "unknown fact %q", t.Fact)
			if sg := suggest.Closest(t.Fact, d.Facts()); sg != "" {
				e.Message += fmt.Sprintf("; did you mean %q?", sg)
			}
			return nil, e
		case t.Value == nil:
			return nil, badField("toggles", "toggle of %q at tick %d has no value: give true or false", t.Fact, t.Tick)
		}
		sim.facts = append(sim.facts, fact)
	}
	seed := uint64(1)
	if q.Seed != nil {
		seed = *q.Seed
	}
	sim.rng = rand.New(rand.NewPCG(seed, liveSeedStream))
	behaviours := map[string]agent.Behaviour{}
	for id := goap.ActionID(0); int(id) < d.NumActions(); id++ {
		behaviours[d.ActionName(id)] = sim.behaviour(id)
	}
	sim.npc, err = agent.New(agent.Config{
		Name:       "npc",
		Domain:     d,
		Goals:      []agent.GoalOption{{Goal: pr.goal, Priority: 1}},
		Behaviours: behaviours,
		Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(sim.world) },
		Policy:     policy,
		RetryAfter: liveRetryAfter,
		Limits:     search.Limits{Budget: pr.opt.Limits.Budget, MaxBytes: int64(s.cfg.MaxSearchBytes), MaxWork: int64(maxLiveWork)},
		Context:    q.ctx,
		OnEvent:    sim.record,
	})
	if err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Message: err.Error()}
	}
	return sim, nil
}

// behaviour is the world's code for action id: it takes the ticks the
// seed draws for it, fails as soon as the world no longer gives what it
// needs (the axe taken away on the way to it), and applies its effects to
// the world when its time is up.
func (sim *liveSim) behaviour(id goap.ActionID) agent.Behaviour {
	return agent.Funcs{
		StartFunc: func(*agent.Agent) {
			sim.progress = 0
			sim.duration = liveMinDuration + sim.rng.IntN(liveMaxDuration-liveMinDuration+1)
		},
		TickFunc: func(*agent.Agent) agent.Status {
			if !sim.d.Applicable(id, sim.world) {
				return agent.Failure
			}
			if sim.progress++; sim.progress < sim.duration {
				return agent.Running
			}
			sim.d.Apply(id, sim.world)
			return agent.Success
		},
	}
}

// record keeps the agent's events for the tick, and notes what a step
// that failed needed.
func (sim *liveSim) record(e agent.Event) {
	sim.events = append(sim.events, e)
	switch e.Kind {
	case agent.PlanMade:
		sim.noPlan = false
	case agent.NoPlanFound:
		sim.noPlan = true
	case agent.ActionFailed:
		id, _ := sim.d.ActionByName(e.Action)
		for f, v := range sim.d.Preconditions(id).Facts {
			if sim.world.Has(f) != v {
				sim.unmet = append(sim.unmet, factValue{sim.d.FactName(f), v})
			}
		}
	}
}

// snapshot is the run as it stands after the current tick.
func (sim *liveSim) snapshot(toggled []factValue) liveTick {
	t := liveTick{Tick: sim.tick, Facts: []string{}, Toggled: toggled, Plan: []string{}, Step: sim.npc.Step(),
		Replans: sim.npc.Stats().Replans, Events: sim.events, Unmet: sim.unmet}
	if t.Toggled == nil {
		t.Toggled = []factValue{}
	}
	if t.Events == nil {
		t.Events = []agent.Event{}
	}
	if t.Unmet == nil {
		t.Unmet = []factValue{}
	}
	for i, name := range sim.d.Facts() {
		if sim.world.Has(goap.Fact(i)) {
			t.Facts = append(t.Facts, name)
		}
	}
	if g := sim.npc.Goal(); g != nil {
		t.Goal = g.Name()
	}
	for _, id := range sim.npc.Plan() {
		t.Plan = append(t.Plan, sim.d.ActionName(id))
	}
	act, running := sim.npc.Current()
	if running {
		t.Action, t.Progress, t.Duration = sim.d.ActionName(act), sim.progress, sim.duration
	}
	switch {
	case sim.tick == 0:
		t.Status = "starting"
	case sim.goal.Holds(sim.world):
		t.Status = "goal_reached"
	case running:
		t.Status = "acting"
	case sim.noPlan:
		t.Status = "no_plan"
	case len(t.Plan) > 0:
		t.Status = "between_steps"
	default:
		t.Status = "replanning"
	}
	return t
}

// advance runs one tick: the request's toggles for it, then the NPC's
// tick. It returns the tick, and the run's end if it ends there.
func (sim *liveSim) advance() (liveTick, *liveEnd) {
	sim.tick++
	sim.events, sim.unmet = nil, nil
	var toggled []factValue
	for ; sim.next < len(sim.toggles) && sim.toggles[sim.next].Tick == sim.tick; sim.next++ {
		t := sim.toggles[sim.next]
		sim.world.Set(sim.facts[sim.next], *t.Value)
		toggled = append(toggled, factValue{t.Fact, *t.Value})
	}
	sim.npc.Tick()
	t := sim.snapshot(toggled)
	// Settled: the goal holds or no plan exists, and nothing the request
	// toggles is still to come, so nothing will change any more.
	goalHolds := sim.goal.Holds(sim.world)
	if (goalHolds || sim.noPlan) && sim.next == len(sim.toggles) {
		if sim.settledAt < 0 {
			sim.settledAt = sim.tick
		}
	} else {
		sim.settledAt = -1
	}
	switch {
	case sim.settledAt >= 0 && sim.tick-sim.settledAt >= liveLinger && goalHolds:
		return t, sim.end("goal_reached")
	case sim.settledAt >= 0 && sim.tick-sim.settledAt >= liveLinger:
		return t, sim.end("no_plan")
	case sim.tick >= sim.maxTicks:
		return t, sim.end("ticks_out")
	case sim.npc.Stats().Plans >= maxLiveSearches:
		return t, sim.end("search_limit")
	}
	return t, nil
}

func (sim *liveSim) end(why string) *liveEnd {
	st := sim.npc.Stats()
	return &liveEnd{Tick: sim.tick, End: why, Replans: st.Replans, ReplanReasons: st.ReplanReasons, Plans: st.Plans, StepsDone: st.StepsDone, Expanded: st.Expanded}
}

// live answers POST /api/v1/live: the run as Server-Sent Events, "tick"
// events then one "end" (docs/api.md). It takes a stream slot, not a work
// slot, for as long as the stream runs; the stream ends at its end, at
// Config.MaxStreamTime, or when the client goes.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	body, aerr := readJSONBody(w, r, s.cfg.MaxBody)
	if aerr != nil {
		fail(w, aerr)
		return
	}
	select {
	case s.streams <- struct{}{}:
		defer func() { <-s.streams }()
	default:
		fail(w, &apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("busy: %d live-agent streams are already running; retry in a second", cap(s.streams))})
		return
	}
	// The stream's context, which its searches share: done when the
	// client goes or the stream's time is up (stream sets the timer), so
	// that a search running then stops there.
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	var q liveRequest
	sim, err := func() (sim *liveSim, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = &apiError{Status: http.StatusInternalServerError, Message: fmt.Sprintf("internal error: %v", p)}
			}
		}()
		if err := decode(body, &q); err != nil {
			return nil, err
		}
		q.ctx = ctx
		return s.liveProblem(&q)
	}()
	if err != nil {
		fail(w, asAPIError(err))
		return
	}
	tps := q.TicksPerSecond
	if tps == 0 {
		tps = defaultTicksPerSecond
	}
	s.stream(w, ctx, cancel, sim, time.Second/time.Duration(tps), q.Fast, q.ReplayTo)
}

// stream sends the run: tick 0, then a tick every interval (at once up to
// replayTo, or throughout when fast) until its end, Config.MaxStreamTime
// (when it calls stop, ctx's cancel) or ctx's end (the client gone).
func (s *Server) stream(w http.ResponseWriter, ctx context.Context, stop context.CancelFunc, sim *liveSim, interval time.Duration, fast bool, replayTo int) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	sent := 0
	send := func(event string, v any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			b, _ = json.Marshal(map[string]string{"error": err.Error()})
			event = "error"
		}
		// Each write gets the request timeout, the server's WriteTimeout
		// being too short for a stream: a client that stops reading is cut
		// off, one that reads is served to the end. A recorder in a test
		// has no deadlines, and says so.
		_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.Timeout))
		n, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		sent += n
		return err == nil && rc.Flush() == nil
	}
	deadline := time.Now().Add(s.cfg.MaxStreamTime)
	timeUp := time.AfterFunc(s.cfg.MaxStreamTime, stop)
	defer timeUp.Stop()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var due time.Time
	defer func() {
		// A bug in a step: the stream says so rather than stopping mute.
		if p := recover(); p != nil {
			send("error", map[string]string{"error": fmt.Sprintf("internal error: %v", p)})
		}
	}()
	// A tick lists the NPC's plan: one of tens of thousands of long
	// names would be gigabytes, so its size is counted before it is made,
	// and a tick that would pass Config.MaxAnswer ends the stream instead.
	tick := func(t liveTick) bool {
		if report.JSONSize(t, s.cfg.MaxAnswer-sent) > s.cfg.MaxAnswer-sent {
			send("end", sim.end("size_limit"))
			return false
		}
		return send("tick", t)
	}
	if !tick(sim.snapshot(nil)) {
		return
	}
	for {
		if !fast && sim.tick+1 > replayTo {
			now := time.Now()
			if due.IsZero() {
				due = now
			}
			due = due.Add(interval)
			if due.After(deadline) {
				send("end", sim.end("time_out"))
				return
			}
			timer.Reset(due.Sub(now))
			select {
			case <-ctx.Done():
				if !time.Now().Before(deadline) {
					send("end", sim.end("time_out"))
				}
				return
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			// Ticks sent at once (fast, or replayed) are held to the
			// stream's time as paced ones are.
			if !time.Now().Before(deadline) {
				send("end", sim.end("time_out"))
			}
			return
		}
		t, end := sim.advance()
		if !tick(t) {
			return
		}
		if end == nil && sent >= s.cfg.MaxAnswer {
			end = sim.end("size_limit")
		}
		if end != nil {
			send("end", end)
			return
		}
	}
}
