// Package inspect is the live inspector: it shows a running game's agents,
// their reasons and their recent decisions to a browser or a program
// through a JSON API, and pauses the game loop on breakpoints.
//
// A game adds it in two lines, besides naming it the agents' decision sink:
//
//	ins := inspect.New(inspect.Options{Sink: recorder}) // agents: Decisions: ins; ins.Watch(a) for each
//	go ins.ListenAndServe("localhost:6060")
//	...
//	ins.Frame(tick) // once per frame, where no agent is being ticked
//
// Frame is where the inspector reads the agents, on the game's goroutine:
// it copies what changed since the last frame into its own memory, under
// its own lock, and the HTTP handlers answer from that copy alone, so that
// nothing they do touches a live agent. With no client about (no open
// event stream, no request within Options.HeartbeatTimeout), Frame copies
// nothing: an atomic load and a counter. What a client asks of the agents
// (breakpoints, tracing their decisions) is applied at Frame too.
//
// The inspector is an agent.DecisionSink: it keeps each watched agent's
// last Options.Decisions decisions, copied, and passes every decision on to
// Options.Sink (the game's own FlightRecorder, say).
//
// A breakpoint (on an agent: it plans, its goal changes, or it starts a
// given action) makes Frame block until a client steps or resumes; a
// client that sends nothing (no request, no open event stream) for
// Options.HeartbeatTimeout loses its breakpoints and its pause, so that a
// closed tab never freezes the game.
//
// The handler has `ploy serve`'s hardening: requests to a non-loopback
// host name are refused unless Options.AllowRemote, and so are other
// sites' pages' requests and POSTs that are not JSON; bodies, answers,
// streams, breakpoints and clients are bounded. docs/inspector.md
// documents the API and every limit.
package inspect

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/webguard"
	"github.com/ploy-ai/ploy/resolver"
)

// Defaults of Options' limits, used where a field is zero.
const (
	DefaultDecisions        = 32
	MaxDecisions            = 1024 // the most Options.Decisions may be
	DefaultHeartbeatTimeout = 10 * time.Second
	DefaultMaxStreams       = 8
	DefaultStreamBuffer     = 64
	DefaultMaxBody          = 64 << 10
	DefaultMaxAnswer        = 8 << 20
	DefaultMaxRecording     = 64 << 20
	DefaultMaxBreakpoints   = 256
	DefaultMaxClients       = 64
	// DefaultStaleWait is how long a request waits for the next frame
	// when the inspector's copy is stale (no client was about, so frames
	// copied nothing) before it answers from the stale copy.
	DefaultStaleWait = time.Second
	// MaxClientID is the longest client id, in bytes.
	MaxClientID = 64
)

// Options configure an Inspector. Every limit's zero value means its
// default.
type Options struct {
	// Sink, if not nil, receives every decision the inspector is given,
	// after the inspector keeps its copy: the game's own recorder.
	Sink agent.DecisionSink
	// Decisions is how many recent decisions are kept per watched agent
	// (at most MaxDecisions).
	Decisions int
	// Position gives a GOAP, HTN or tree agent's position for the map, on
	// the game's goroutine at Frame; ok false: it has none. A resolver
	// agent's is its snapshot's.
	Position func(a *agent.Agent) (at resolver.Point, ok bool)
	// HeartbeatTimeout is how long a client may send nothing (no request,
	// no open event stream) before its breakpoints and pause are released.
	HeartbeatTimeout time.Duration
	// StaleWait: see DefaultStaleWait.
	StaleWait time.Duration
	// AllowRemote lets ListenAndServe listen on an address that is not
	// the loopback, and the handler answer requests to any host name.
	// Anyone who can reach the address can then pause the game.
	AllowRemote bool
	// MaxStreams is how many event streams may be open at once; more get
	// 503.
	MaxStreams int
	// StreamBuffer is how many events wait for a slow stream before new
	// ones are dropped (and the stream told so): Frame never waits for a
	// client.
	StreamBuffer int
	// MaxBody is the most bytes a request body may have.
	MaxBody int64
	// MaxAnswer is the most bytes an answer may have; a larger one is
	// refused with 422 (filter the list, or ask for fewer).
	MaxAnswer int
	// MaxRecording is the most bytes GET /api/v1/recording answers.
	MaxRecording int
	// Domain and DomainHash name the domain file the agents run, for the
	// header of a recording downloaded from the inspector (see
	// agent.RecordHeader and agent.DomainHash).
	Domain, DomainHash string
	// MaxBreakpoints is how many breakpoints may be set at once.
	MaxBreakpoints int
	// MaxClients is how many clients (distinct client ids heard from
	// within the heartbeat timeout) are kept track of; more get 503.
	MaxClients int
}

// Inspector watches a game's agents and answers the inspector's JSON API.
// It is an http.Handler and an agent.DecisionSink. Watch, Frame and
// RecordDecision are called on the game's goroutine (where its agents are
// ticked); everything else may be called on any.
type Inspector struct {
	opt    Options
	routes map[string]route

	// active: a client is about, so Frame copies. Read by Frame without
	// a lock, the one thing a frame with no client does besides counting.
	active atomic.Bool
	// frames counts Frame calls; copiedAt is frames at the last copy, so
	// that a request can tell a stale copy (frames went by uncopied).
	frames atomic.Int64
	tick   atomic.Int64 // the last Frame's tick

	// mu guards the copy of the agents and everything the API changes:
	// breakpoints, the pause, traces. Handlers hold it to read; Frame and
	// RecordDecision to write. Never held while Frame waits on a pause.
	mu        sync.RWMutex
	agents    []*watched
	byName    map[string]*watched
	copiedAt  int64
	copiedTk  int
	fresh     chan struct{} // closed at the next copy, for stale requests
	bps       []breakpoint
	nextBP    int
	pause     pauseState
	traceWant map[string]string // agent name → the client that wants its trace
	traceDirt bool
	changed   []string  // the names of the agents a frame changed
	quietSent time.Time // when a frame event that named no change was last sent
	closed    bool
	wake      chan struct{} // pokes a waiting Frame (buffered 1)

	// cmu guards the client table and the streams; taken after mu when
	// both are.
	cmu     sync.Mutex
	clients map[string]*client
	streams map[*stream]struct{}

	server atomic.Pointer[http.Server]
}

// pauseState is whether Frame blocks, and why.
type pauseState struct {
	paused bool // Frame is (or is about to be) blocked
	next   bool // the next Frame pauses (pause, or a step)
	holder string
	at     int   // the tick Frame is paused at
	hits   []Hit // the breakpoints that paused it, if any
	reason string
}

// Hit is a breakpoint that paused the game.
type Hit struct {
	Breakpoint int    `json:"breakpoint"`
	Agent      string `json:"agent"`
	On         string `json:"on"`
	Action     string `json:"action,omitempty"`
	Tick       int    `json:"tick"`
	// What says what happened: the goal it changed from and to, the
	// action started, the plan count.
	What string `json:"what"`
}

// breakpoint pauses the game when its agent plans, changes goal, or
// starts an action.
type breakpoint struct {
	ID     int    `json:"id"`
	Client string `json:"client"`
	Agent  string `json:"agent"`
	On     string `json:"on"` // "plan", "goal" or "action"
	Action string `json:"action,omitempty"`
	Hits   int    `json:"hits"`
}

// client is a page or program the inspector has heard from.
type client struct {
	seen    time.Time
	streams int
}

type route struct {
	method string
	serve  func(in *Inspector, w http.ResponseWriter, r *http.Request)
}

// New returns an inspector watching no agent yet.
func New(opt Options) *Inspector {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&opt.Decisions, DefaultDecisions)
	opt.Decisions = min(opt.Decisions, MaxDecisions)
	def(&opt.MaxStreams, DefaultMaxStreams)
	def(&opt.StreamBuffer, DefaultStreamBuffer)
	def(&opt.MaxAnswer, DefaultMaxAnswer)
	def(&opt.MaxRecording, DefaultMaxRecording)
	def(&opt.MaxBreakpoints, DefaultMaxBreakpoints)
	def(&opt.MaxClients, DefaultMaxClients)
	if opt.MaxBody <= 0 {
		opt.MaxBody = DefaultMaxBody
	}
	if opt.HeartbeatTimeout <= 0 {
		opt.HeartbeatTimeout = DefaultHeartbeatTimeout
	}
	if opt.StaleWait <= 0 {
		opt.StaleWait = DefaultStaleWait
	}
	in := &Inspector{
		opt:       opt,
		byName:    map[string]*watched{},
		fresh:     make(chan struct{}),
		traceWant: map[string]string{},
		wake:      make(chan struct{}, 1),
		clients:   map[string]*client{},
		streams:   map[*stream]struct{}{},
	}
	in.routes = map[string]route{
		"/api/v1/agents":            {http.MethodGet, (*Inspector).serveAgents},
		"/api/v1/state":             {http.MethodGet, (*Inspector).serveState},
		"/api/v1/recording":         {http.MethodGet, (*Inspector).serveRecording},
		"/api/v1/events":            {http.MethodGet, (*Inspector).serveEvents},
		"/api/v1/breakpoints":       {http.MethodPost, (*Inspector).setBreakpoint},
		"/api/v1/breakpoints/clear": {http.MethodPost, (*Inspector).clearBreakpoints},
		"/api/v1/pause":             {http.MethodPost, (*Inspector).postPause},
		"/api/v1/step":              {http.MethodPost, (*Inspector).postStep},
		"/api/v1/resume":            {http.MethodPost, (*Inspector).postResume},
		"/api/v1/heartbeat":         {http.MethodPost, (*Inspector).postHeartbeat},
		"/api/v1/trace":             {http.MethodPost, (*Inspector).postTrace},
	}
	return in
}

// Watch adds an agent of any kind (a resolver agent by its Agent()): the
// inspector reads it at every Frame a client is about, and keeps the
// decisions it records into the inspector. Call it on the game's
// goroutine, between frames. An agent whose name another watched agent
// has is an error, as is a nil agent.
func (in *Inspector) Watch(a *agent.Agent) error {
	if a == nil {
		return errors.New("inspect: Watch(nil)")
	}
	kind := a.Kind() // panics, saying why, on an agent not made by agent.New
	in.mu.Lock()
	defer in.mu.Unlock()
	if _, dup := in.byName[a.Name()]; dup {
		return fmt.Errorf("inspect: two agents named %q: the API names agents by name", a.Name())
	}
	w := &watched{a: a, name: a.Name(), kind: kind}
	if kind == "resolver" {
		w.res = (*agent.ResolverAgent)(a)
		w.rd = w.res.Domain()
	} else {
		w.gd = a.Domain()
	}
	w.copyFrom(in, in.tickNow())
	in.agents = append(in.agents, w)
	in.byName[w.name] = w
	return nil
}

// WatchResolver is Watch for a resolver agent.
func (in *Inspector) WatchResolver(a *agent.ResolverAgent) error {
	if a == nil {
		return errors.New("inspect: WatchResolver(nil)")
	}
	return in.Watch(a.Agent())
}

func (in *Inspector) tickNow() int { return int(in.tick.Load()) }

// RecordDecision keeps a copy of d if its agent is watched, then passes d
// on to Options.Sink.
func (in *Inspector) RecordDecision(d *agent.Decision) {
	in.mu.Lock()
	if w := in.byName[d.Agent]; w != nil {
		w.keep(d, in.opt.Decisions)
	}
	in.mu.Unlock()
	if in.opt.Sink != nil {
		in.opt.Sink.RecordDecision(d)
	}
}

// Frame is the game's frame boundary: call it once per frame, on the
// game's goroutine, where no agent is being ticked (after the queue's
// Frame). With a client about, it copies what changed of every watched
// agent, applies the clients' requests (traces), tells the event streams,
// and checks the breakpoints; if one is hit, or a client paused or
// stepped, it blocks until a client steps or resumes, or the client
// holding the pause goes quiet for Options.HeartbeatTimeout.
func (in *Inspector) Frame(tick int) {
	in.frames.Add(1)
	in.tick.Store(int64(tick))
	if !in.active.Load() {
		return
	}
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return
	}
	now := time.Now()
	in.expire(now)
	in.applyTraces()
	changed := in.copyAgents(tick)
	p := &in.pause
	if len(p.hits) > 0 || p.next {
		p.paused, p.next, p.at = true, false, tick
		if len(p.hits) == 0 && p.reason == "" {
			p.reason = "step"
		}
	}
	in.publishFrame(tick, changed, now)
	if !p.paused {
		in.mu.Unlock()
		return
	}
	in.publishPause()
	// Paused: wait to be poked (step, resume, close), looking at the
	// clock often enough to release a pause whose holder went quiet.
	check := max(in.opt.HeartbeatTimeout/4, 5*time.Millisecond)
	timer := time.NewTimer(check)
	defer timer.Stop()
	for p.paused {
		in.mu.Unlock()
		select {
		case <-in.wake:
		case <-timer.C:
			timer.Reset(check)
		}
		in.mu.Lock()
		in.expire(time.Now())
		in.applyTraces()
	}
	in.publishResume()
	in.mu.Unlock()
}

// release ends a pause (mu held): the waiting Frame returns.
func (in *Inspector) release(stepping bool) {
	p := &in.pause
	p.paused, p.next, p.hits, p.reason = false, stepping, nil, ""
	if !stepping {
		p.holder = "" // a step's holder stays: it pauses again at the next frame
	}
	select {
	case in.wake <- struct{}{}:
	default:
	}
}

// expire forgets the clients not heard from within the heartbeat timeout
// (mu held), releasing their breakpoints, traces and pause, and marks
// the inspector inactive when none is left.
func (in *Inspector) expire(now time.Time) {
	in.cmu.Lock()
	var gone []string
	for id, c := range in.clients {
		if c.streams == 0 && now.Sub(c.seen) > in.opt.HeartbeatTimeout {
			delete(in.clients, id)
			gone = append(gone, id)
		}
	}
	if len(in.clients) == 0 {
		// Under cmu, as touch sets it: a client heard from meanwhile
		// is not lost.
		in.active.Store(false)
	}
	in.cmu.Unlock()
	for _, id := range gone {
		in.dropClient(id)
	}
}

// dropClient releases what client id held (mu held).
func (in *Inspector) dropClient(id string) {
	kept := in.bps[:0]
	for _, b := range in.bps {
		if b.Client != id {
			kept = append(kept, b)
		}
	}
	clear(in.bps[len(kept):])
	in.bps = kept
	for name, c := range in.traceWant {
		if c == id {
			delete(in.traceWant, name)
			in.traceDirt = true
		}
	}
	p := &in.pause
	if (p.paused || p.next) && p.holder == id {
		in.release(false)
	}
}

// touch records that client id was heard from, making the inspector
// active; it refuses a new client past Options.MaxClients. stream counts
// an event stream opening (+1) or closing (-1).
func (in *Inspector) touch(id string, stream int) *apiError {
	now := time.Now()
	in.cmu.Lock()
	defer in.cmu.Unlock()
	c := in.clients[id]
	if c == nil {
		if len(in.clients) >= in.opt.MaxClients {
			// Forget the quiet ones first: Frame may not have run.
			for k, old := range in.clients {
				if old.streams == 0 && now.Sub(old.seen) > in.opt.HeartbeatTimeout {
					delete(in.clients, k)
				}
			}
		}
		if len(in.clients) >= in.opt.MaxClients {
			return &apiError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("busy: %d clients are already inspecting; retry when one has gone", in.opt.MaxClients)}
		}
		c = &client{}
		in.clients[id] = c
	}
	c.seen = now
	c.streams += stream
	in.active.Store(true)
	return nil
}

// applyTraces turns agents' decision traces on or off as the clients
// want them (mu held, on the game's goroutine).
func (in *Inspector) applyTraces() {
	if !in.traceDirt {
		return
	}
	in.traceDirt = false
	for _, w := range in.agents {
		_, want := in.traceWant[w.name]
		if want != w.traced {
			w.a.SetTraceDecisions(want)
			w.traced = want
		}
	}
}

// Close releases any pause for good (Frame no longer blocks nor copies),
// ends the event streams, and closes the server ListenAndServe started.
func (in *Inspector) Close() error {
	in.let()
	if hs := in.server.Load(); hs != nil {
		return hs.Close()
	}
	return nil
}

// let lets the game go for good: no pause, no breakpoint, no stream.
func (in *Inspector) let() {
	in.mu.Lock()
	in.closed = true
	in.bps = nil
	in.release(false)
	in.mu.Unlock()
	in.cmu.Lock()
	for s := range in.streams {
		s.end()
	}
	in.cmu.Unlock()
}

// ListenAndServe serves the inspector on addr (host:port) until Close. An
// address that is not the loopback is refused unless Options.AllowRemote.
// The server has `ploy serve`'s timeouts; an event stream's writes have
// their own deadline.
func (in *Inspector) ListenAndServe(addr string) error {
	ln, err := in.Listen(addr)
	if err != nil {
		return err
	}
	return in.Serve(ln)
}

// Listen listens on addr as ListenAndServe does, for a game that wants
// the address (a port chosen by the system, ":0") before it serves.
func (in *Inspector) Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if err := in.checkAddr(ln); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

func (in *Inspector) checkAddr(ln net.Listener) error {
	if !webguard.ListensOnLoopback(ln.Addr()) && !in.opt.AllowRemote {
		return fmt.Errorf("inspect: %s is not a loopback address: anyone who could reach it could pause the game; listen on localhost, or set Options.AllowRemote", ln.Addr())
	}
	return nil
}

// Serve is ListenAndServe on a listener the caller made.
func (in *Inspector) Serve(ln net.Listener) error {
	if err := in.checkAddr(ln); err != nil {
		ln.Close()
		return err
	}
	hs := &http.Server{
		Handler:           in,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		// An event stream sets a deadline per write past this one.
		WriteTimeout:   15 * time.Second,
		IdleTimeout:    time.Minute,
		MaxHeaderBytes: 64 << 10,
	}
	if !in.server.CompareAndSwap(nil, hs) {
		ln.Close()
		return errors.New("inspect: already serving")
	}
	in.mu.RLock()
	closed := in.closed
	in.mu.RUnlock()
	if closed {
		ln.Close()
		return http.ErrServerClosed
	}
	return hs.Serve(ln)
}

// Shutdown stops the server gracefully, as http.Server.Shutdown does,
// after Close's release of the game.
func (in *Inspector) Shutdown(ctx context.Context) error {
	in.let()
	if hs := in.server.Load(); hs != nil {
		return hs.Shutdown(ctx)
	}
	return nil
}

// factNames names the facts that hold in s.
func factNames(d *goap.Domain, s goap.State) []string {
	names := []string{}
	for f := range d.NumFacts() {
		if s.Has(goap.Fact(f)) {
			names = append(names, d.FactName(goap.Fact(f)))
		}
	}
	return names
}
