package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/resolver"
)

// Limits of a world, so that a caller's loop cannot grow one without
// bound.
const (
	// MaxAgents is the most agents one world holds.
	MaxAgents = 100_000
	// MaxWorkers is the most queue workers a world may ask for.
	MaxWorkers = 64
	// PlansPerFrame is the most plans a world's queue resolves in a
	// frame; the others wait for the next, oldest first. A frame's
	// planning work is then at most PlansPerFrame searches, each bounded
	// by the planner's budget.
	PlansPerFrame = 256
	// MaxEvents is how many events an agent keeps until Events reads
	// them; older ones are dropped, and counted.
	MaxEvents = 256
	// DefaultRecordDecisions and DefaultRecordBytes bound a world's
	// flight recorder when Record is given zeros.
	DefaultRecordDecisions = 10_000
	DefaultRecordBytes     = 64 << 20
)

// Statuses an engine reports for the action it runs, as agent.Status
// numbers them (and ploy.h's PLOY_RUNNING, PLOY_SUCCESS, PLOY_FAILURE).
const (
	Running = int(agent.Running)
	Success = int(agent.Success)
	Failure = int(agent.Failure)
)

// World is agents of one domain file's kinds, planning on one queue,
// driven by the engine: it pushes what its sensors see, calls Frame once
// per frame and runs the actions the agents ask for.
type World struct {
	mu     sync.Mutex
	file   *domain.File
	queue  *agent.Queue
	agents []*Agent // ticked in the order they were added
	// added counts the agents ever added: a default name KIND-N takes
	// its N from it, so that no two agents share one after some left.
	added  int
	frames int
	// frameSlice is the slice the last Frame ran with, which FrameStats
	// reports: SetSlice since then changes the next frame, not that one.
	frameSlice int
	// recorder holds the agents' decisions once Record is called.
	recorder *agent.FlightRecorder
	// broken is set when a frame panicked: the agents may be half-way
	// through a tick, so the world refuses to go on.
	broken error
	// released is set by Release: a call that found the world just
	// before it was released finds it so once it holds the lock.
	released bool
}

// betweenLookupAndLock, when a test sets it, runs where a call has found
// its world or agent and not yet locked it: where a Release on another
// thread can come in between.
var betweenLookupAndLock func()

// lockWorld finds the world h names and locks it; unlock undoes it.
func lockWorld(h Handle) (w *World, unlock func(), err error) {
	w, err = lookup[*World](h, "world")
	if err != nil {
		return nil, nil, err
	}
	if betweenLookupAndLock != nil {
		betweenLookupAndLock()
	}
	w.mu.Lock()
	if w.released {
		w.mu.Unlock()
		return nil, nil, fmt.Errorf("%w %d (world): released", ErrNoHandle, h)
	}
	return w, w.mu.Unlock, nil
}

// NewWorld makes a world for domain d's agent kinds, planning on a
// queue of workers goroutines (the engine's thread that calls Frame is
// one of them) that resolves up to PlansPerFrame plans per frame.
func NewWorld(d Handle, workers int) (h Handle, err error) {
	defer protect(&err)
	dom, err := lookup[*Domain](d, "domain")
	if err != nil {
		return 0, err
	}
	if dom.file == nil {
		return 0, fmt.Errorf("domain %d is a PDDL problem: a world runs the agents of a YAML file's agents: section", d)
	}
	if workers < 1 || workers > MaxWorkers {
		return 0, fmt.Errorf("workers must be from 1 to %d, not %d", MaxWorkers, workers)
	}
	w := &World{file: dom.file, queue: agent.NewQueue(workers, PlansPerFrame)}
	return hold(w)
}

// Record makes the world keep its agents' decisions in a flight recorder
// of at most maxDecisions decisions and maxBytes bytes (0: the defaults),
// the oldest dropped first: Decisions writes them. Call it before adding
// agents: an agent records from its start or not at all.
func Record(w Handle, maxDecisions int, maxBytes int64) (err error) {
	defer protect(&err)
	world, unlock, err := lockWorld(w)
	if err != nil {
		return err
	}
	defer unlock()
	if len(world.agents) > 0 {
		return fmt.Errorf("world %d has %d agents already: call Record before adding agents, which record from their start or not at all", w, len(world.agents))
	}
	if maxDecisions <= 0 {
		maxDecisions = DefaultRecordDecisions
	}
	if maxBytes <= 0 {
		maxBytes = DefaultRecordBytes
	}
	world.recorder = agent.NewFlightRecorder(min(maxDecisions, DefaultRecordDecisions*10), min(maxBytes, 1<<30))
	return nil
}

// Decisions writes the world's recorded decisions as a decision recording
// (JSON Lines: a header, then one decision per line; docs/records.md),
// which `ploy why`, `ploy replay` and the inspector read.
func Decisions(w Handle) (out []byte, err error) {
	defer protect(&err)
	world, unlock, err := lockWorld(w)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if world.recorder == nil {
		return nil, fmt.Errorf("world %d records no decisions: call Record before adding agents", w)
	}
	var buf bytes.Buffer
	h := agent.RecordHeader{Domain: world.file.Path, DomainHash: agent.DomainHash(world.file.Source)}
	if err := world.recorder.WriteJSONL(&buf, h); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SetSlice makes each resolver agent's search of world w expand at most
// expansions chains a frame, and each GOAP search (a GOAP agent's, or a
// tree's GOAP leaf's) at most expansions states, from the next Frame on:
// a search that reaches its slice is suspended and goes on in the next
// frame, ending with exactly the plan it would have found whole, maybe
// some frames later. A frame's searches then expand at most PlansPerFrame
// × expansions chains and states between them (FrameStats counts them).
// An HTN agent's decomposition takes at most expansions steps a frame in
// the same way, its steps counted beside the chains and states. 0, the
// default, runs each search whole within its budget; a slice larger than
// any budget does the same. A negative slice is an error.
func SetSlice(w Handle, expansions int64) (err error) {
	defer protect(&err)
	world, unlock, err := lockWorld(w)
	if err != nil {
		return err
	}
	defer unlock()
	if expansions < 0 {
		return fmt.Errorf("slice %d: a slice is 0 (none) or a number of chain expansions a search may make per frame", expansions)
	}
	// Where an int has 32 bits (GOARCH=386, arm) a slice past the
	// largest int is as good as none.
	world.queue.SetSlice(int(min(expansions, math.MaxInt)))
	return nil
}

// SetMinShare makes world w's frames wake a queue worker only for at
// least share plans each, from the next Frame on: a frame of n plans runs
// on at most n / share of the world's workers, at least the engine's
// thread that calls Frame (agent.Queue.SetMinShare). Waking a worker
// thread costs about as much as a few dozen plain plans, so a world
// whose frames are small runs them faster on fewer workers; the agents
// get the same plans whichever the share. 1, the default, wakes every
// worker for a frame of as many plans. A share below 1 is an error.
func SetMinShare(w Handle, share int64) (err error) {
	defer protect(&err)
	world, unlock, err := lockWorld(w)
	if err != nil {
		return err
	}
	defer unlock()
	if share < 1 {
		return fmt.Errorf("share %d: a share is at least 1 plan a worker", share)
	}
	// Where an int has 32 bits, a share past the largest int keeps every
	// frame on one worker, as that share does.
	world.queue.SetMinShare(int(min(share, math.MaxInt)))
	return nil
}

// FrameStatsJSON is FrameStats' answer: what the last Frame did (the
// runtime's agent.FrameStats), and the slice it ran with.
type FrameStatsJSON struct {
	// Slice is the slice (SetSlice) the last Frame ran with, 0 for none.
	Slice int `json:"slice"`
	// Taken is the requests the frame searched for, suspended searches it
	// went on with included; Ended the searches that ended and Suspended
	// those that reached their slice and go on next frame.
	Taken     int `json:"taken"`
	Ended     int `json:"ended"`
	Suspended int `json:"suspended"`
	// Chains is the chains the frame's resolver searches expanded, States
	// the states its GOAP searches expanded, and Steps the steps its HTN
	// decompositions took: with a slice, together at most PlansPerFrame ×
	// Slice.
	Chains int `json:"chains"`
	States int `json:"states"`
	Steps  int `json:"steps"`
	// Workers is how many of the world's workers the frame ran on (see
	// SetMinShare); 0 before the first frame.
	Workers int `json:"workers"`
}

// FrameStats says what world w's last Frame did, as JSON
// (FrameStatsJSON): all zeros before the first.
func FrameStats(w Handle) (out []byte, err error) {
	defer protect(&err)
	world, unlock, err := lockWorld(w)
	if err != nil {
		return nil, err
	}
	defer unlock()
	st := world.queue.LastFrame()
	return json.Marshal(FrameStatsJSON{
		Slice: world.frameSlice, Taken: st.Taken, Ended: st.Ended, Suspended: st.Suspended,
		Chains: st.Chains, States: st.States, Steps: st.Steps, Workers: st.Workers,
	})
}

// Frame runs one frame: every agent ticks, in the order they were added
// (each senses what the engine pushed, checks its step, starts or goes on
// with its action, or asks for a plan), then the queue resolves the plans
// asked for, on its workers, and hands them to their agents. It returns
// how many plans it resolved.
func Frame(w Handle) (resolved int, err error) {
	world, unlock, err := lockWorld(w)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if world.broken != nil {
		return 0, world.broken
	}
	defer func() {
		if p := recover(); p != nil {
			world.broken = fmt.Errorf("world %d stopped at frame %d on an internal error: %v; release it", w, world.frames, p)
			err = world.broken
		}
	}()
	for _, a := range world.agents {
		a.tick()
	}
	world.frameSlice = world.queue.Slice()
	resolved = world.queue.Frame()
	world.frames++
	return resolved, nil
}

func (w *World) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.released = true
	agents := w.agents
	w.agents = nil
	for _, a := range agents {
		a.cancel()
		a.left = true
		table.Lock()
		delete(table.objects, a.handle)
		table.Unlock()
	}
}

func (w *World) remove(a *Agent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	a.left = true
	if i := slices.Index(w.agents, a); i >= 0 {
		a.cancel()
		w.agents = slices.Delete(w.agents, i, i+1)
	}
}

// Agent is one agent of a world, of a kind of the file's agents: section:
// a GOAP, HTN, behaviour-tree or utility agent on a state-space file, a
// resolver agent on an engine-model file.
type Agent struct {
	world  *World
	handle Handle
	name   string
	kind   string
	goap   *agent.Agent         // a state-space file's agent
	res    *agent.ResolverAgent // an engine-model file's

	// A GOAP agent's facts are model: the file's initial facts, the
	// facts the engine pushed (pushed marks them), and, for the facts it
	// never pushed, the effects of the steps that succeeded, as an agent
	// with no sensor of its own sees the world.
	model, pushed goap.State
	before        goap.State // applyEffects' copy of model, kept to reuse
	inputs        []float64

	// A resolver agent's snapshot: the file's world until the engine
	// pushes keys, a position and targets.
	values  []int64
	at      resolver.Point
	targets []resolver.Target

	// The action the engine runs, and what it last reported.
	action   string
	actionID int
	reported agent.Status
	// restarted: the action was started again before its Stop (end).
	restarted bool
	// A resolver agent's walk to its step's target.
	walking, arrived, moveFailed bool
	to                           resolver.Point

	// events is a ring of at most MaxEvents, the oldest at first once
	// it is full, so that an engine that never reads them pays nothing
	// more per event than one that does.
	events  []agent.Event
	first   int
	dropped int
	// left is set when the agent is released or its world is: a call
	// that found it just before finds it so once it holds the lock.
	left bool
}

// NewAgent adds an agent of kind (a name of the file's agents: section)
// to world w, named name ("" names it KIND-N, N counting the agents the
// world has had, this one included).
func NewAgent(w Handle, kind, name string) (h Handle, err error) {
	defer protect(&err)
	world, unlock, err := lockWorld(w)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if err := checkName("the kind", kind); err != nil {
		return 0, err
	}
	if err := checkName("the agent's name", name); err != nil {
		return 0, err
	}
	if len(world.agents) >= MaxAgents {
		return 0, fmt.Errorf("world %d has %d agents, the most a world holds", w, MaxAgents)
	}
	if name == "" {
		name = fmt.Sprintf("%s-%d", kind, world.added+1)
	}
	a := &Agent{world: world, name: name, kind: kind}
	f := world.file
	if f.EngineModel() {
		err = a.makeResolver(f)
	} else {
		err = a.makeGOAP(f)
	}
	if err != nil {
		return 0, err
	}
	if a.handle, err = hold(a); err != nil {
		return 0, err
	}
	world.agents = append(world.agents, a)
	world.added++
	return a.handle, nil
}

func (a *Agent) makeGOAP(f *domain.File) error {
	k, err := f.Agent(a.kind)
	if err != nil {
		return err
	}
	d := f.GOAP
	a.model, a.pushed, a.before = d.Initial().Clone(), d.NewState(), d.NewState()
	a.inputs = f.InputDefaults()
	cfg := agent.Config{
		Name:       a.name,
		Domain:     d,
		Behaviours: map[string]agent.Behaviour{},
		Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(a.model) },
		Queue:      a.world.queue,
		OnEvent:    a.note,
		Data:       a,
	}
	for i := range d.NumActions() {
		name := d.ActionName(goap.ActionID(i))
		cfg.Behaviours[name] = &goapBehaviour{a: a, id: goap.ActionID(i)}
	}
	if a.world.recorder != nil {
		cfg.Decisions = a.world.recorder
	}
	if err := agentfile.Configure(&cfg, k, func(*agent.Agent) []float64 { return a.inputs }); err != nil {
		return err
	}
	a.goap, err = agent.New(cfg)
	return err
}

func (a *Agent) makeResolver(f *domain.File) error {
	k, err := f.EngineAgent(a.kind)
	if err != nil {
		return err
	}
	d := f.Resolver
	start, err := d.SnapshotOf(f.World.Values, f.World.At, f.World.Targets)
	if err != nil {
		return err
	}
	a.values, a.at, a.targets = start.Values, start.At, start.Targets
	cfg := agent.ResolverConfig{
		Name:       a.name,
		Domain:     d,
		Behaviours: map[string]agent.ResolverBehaviour{},
		Sensor: func(_ *agent.ResolverAgent, s *resolver.Snapshot) {
			copy(s.Values, a.values)
			s.At = a.at
		},
		Targets: map[string]agent.TargetSensor{},
		Mover:   agent.MoverFunc(a.moveToward),
		Queue:   a.world.queue,
		OnEvent: a.note,
		Data:    a,
	}
	for i := range d.NumActions() {
		cfg.Behaviours[d.ActionName(resolver.ActionID(i))] = &resolverBehaviour{a: a, id: resolver.ActionID(i)}
	}
	for i, key := range d.Targets() {
		cfg.Targets[key] = func(*agent.ResolverAgent) agent.Where {
			if t := a.targets[i]; t.Found {
				return agent.AtPoint(t.At)
			}
			return agent.Where{}
		}
	}
	if a.world.recorder != nil {
		cfg.Decisions = a.world.recorder
	}
	if err := agentfile.ConfigureResolver(&cfg, k); err != nil {
		return err
	}
	a.res, err = agent.NewResolverAgent(cfg)
	return err
}

func (a *Agent) tick() {
	if a.goap != nil {
		a.goap.Tick()
		return
	}
	// The agent walks this frame only if its tick asks the mover to:
	// one that dropped its chain mid-walk stops.
	wasWalking := a.walking
	a.walking = false
	a.res.Tick()
	if !a.walking && wasWalking {
		a.arrived, a.moveFailed = false, false
	}
}

// cancel takes the agent's request off the queue, if it has one waiting:
// a removed agent must not be handed a plan.
func (a *Agent) cancel() {
	if a.goap != nil {
		a.world.queue.Remove(a.goap)
	} else {
		a.world.queue.Remove(a.res)
	}
}

// note keeps an event until Events reads it, the oldest dropped past
// MaxEvents.
func (a *Agent) note(e agent.Event) {
	e.Plan = slices.Clone(e.Plan) // the runtime reuses its slices
	e.MTR = slices.Clone(e.MTR)
	if len(a.events) == MaxEvents {
		a.events[a.first] = e
		a.first = (a.first + 1) % MaxEvents
		a.dropped++
		return
	}
	a.events = append(a.events, e)
}

// withAgent runs f on the agent h names, under its world's lock.
func withAgent(h Handle, f func(a *Agent) error) (err error) {
	defer protect(&err)
	a, err := lookup[*Agent](h, "agent")
	if err != nil {
		return err
	}
	if betweenLookupAndLock != nil {
		betweenLookupAndLock()
	}
	a.world.mu.Lock()
	defer a.world.mu.Unlock()
	if a.left {
		return fmt.Errorf("%w %d (agent): released", ErrNoHandle, h)
	}
	return f(a)
}

// Set is what the engine's sensors push: on a state-space file, a fact
// (true when value is not 0) or an input (a number its goal choice
// weighs); on an engine-model file, a key (an integer; 0 or 1 for a
// boolean). The agent reads it at its next tick.
func Set(h Handle, name string, value float64) error {
	return withAgent(h, func(a *Agent) error {
		if err := checkName("the name", name); err != nil {
			return err
		}
		if math.IsNaN(value) || math.IsInf(value, 0) {
			return fmt.Errorf("%s = %v: a value must be a finite number", name, value)
		}
		if a.goap != nil {
			return a.setGOAP(name, value)
		}
		return a.setKey(name, value)
	})
}

func (a *Agent) setGOAP(name string, value float64) error {
	f := a.world.file
	if fact, ok := f.GOAP.Fact(name); ok {
		a.model.Set(fact, value != 0)
		a.pushed.Set(fact, true)
		return nil
	}
	for i, in := range f.Inputs {
		if in.Name == name {
			a.inputs[i] = value
			return nil
		}
	}
	return fmt.Errorf("%s has no fact or input %q%s", f.Path, name, suggestion(name, append(f.GOAP.Facts(), inputNames(f)...)))
}

func (a *Agent) setKey(name string, value float64) error {
	d := a.world.file.Resolver
	k, ok := d.Key(name)
	if !ok {
		names := make([]string, 0, len(d.Keys()))
		for _, s := range d.Keys() {
			names = append(names, s.Name)
		}
		return fmt.Errorf("%s has no key %q%s", a.world.file.Path, name, suggestion(name, names))
	}
	if value != math.Trunc(value) || value < -(1<<53) || value > 1<<53 {
		return fmt.Errorf("key %s = %v: a key holds an integer", name, value)
	}
	old := a.values[k]
	a.values[k] = int64(value)
	if err := d.CheckSnapshot(&resolver.Snapshot{Values: a.values, At: a.at, Targets: a.targets}); err != nil {
		a.values[k] = old
		return err
	}
	return nil
}

// SetPosition is where the engine says a resolver agent stands: the
// position its walks and distance costs start from.
func SetPosition(h Handle, x, y float64) error {
	return withAgent(h, func(a *Agent) error {
		if a.res == nil {
			return fmt.Errorf("agent %q is a state-space agent: positions are for an engine-model file's agents", a.name)
		}
		p := resolver.Point{X: x, Y: y}
		if err := finite(p); err != nil {
			return err
		}
		a.at = p
		return nil
	})
}

// SetTarget is what the engine's target sensor found for a target key
// of a resolver agent: a position, or, with found false, nothing (the
// agent then cannot do the actions that need it, and one walking to it
// replans with a target_lost event).
func SetTarget(h Handle, key string, x, y float64, found bool) error {
	return withAgent(h, func(a *Agent) error {
		if a.res == nil {
			return fmt.Errorf("agent %q is a state-space agent: targets are for an engine-model file's agents", a.name)
		}
		if err := checkName("the target key", key); err != nil {
			return err
		}
		d := a.world.file.Resolver
		t, ok := d.Target(key)
		if !ok {
			return fmt.Errorf("%s has no target key %q%s", a.world.file.Path, key, suggestion(key, d.Targets()))
		}
		p := resolver.Point{X: x, Y: y}
		if !found {
			p = resolver.Point{}
		}
		if err := finite(p); err != nil {
			return err
		}
		a.targets[t] = resolver.Target{At: p, Found: found}
		return nil
	})
}

func finite(p resolver.Point) error {
	for _, v := range []float64{p.X, p.Y} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("position (%v, %v): coordinates must be finite numbers", p.X, p.Y)
		}
	}
	return nil
}

// Doing says what an agent does now.
type Doing int

const (
	Idle    Doing = iota // no action: planning, waiting, or nothing to do
	Acting               // run the action named, and report how it goes
	Walking              // walk to the action's target (Destination); it starts on arrival
)

// Action returns the action the engine should run for the agent now, and
// whether it runs it or first walks to its target. An action performed
// while moving (move: perform_while_moving, the hunt) is Acting, and
// Destination says where to walk meanwhile.
//
// What it says changes only in Frame. After a Report, Action names the
// same action until the next Frame reads the report: run an action once
// per frame, not once per call. A step takes one frame at least, and the
// agent ticks one step at most per frame: the Frame that reads a step's
// success leaves it Idle, and the next step starts at the Frame after
// (a plan of four instant steps runs over eight frames).
func Action(h Handle) (name string, doing Doing, err error) {
	err = withAgent(h, func(a *Agent) error {
		name, doing = a.action, Idle
		switch {
		case a.action != "":
			doing = Acting
		case a.walking:
			doing = Walking
			if id, ok := a.res.Current(); ok {
				name = a.res.Domain().ActionName(id)
			}
		}
		return nil
	})
	return name, doing, err
}

// Destination is where a walking agent is headed.
func Destination(h Handle) (x, y float64, walking bool, err error) {
	err = withAgent(h, func(a *Agent) error {
		x, y, walking = a.to.X, a.to.Y, a.walking
		return nil
	})
	return x, y, walking, err
}

// Report is how the engine's behaviour says the action it runs went:
// Running, Success or Failure. The agent reads it at its next tick. For
// an agent walking to its target (Action says Walking), Success says it
// arrived (it also arrives when SetPosition puts it within reach) and
// Failure that it cannot get there. An action performed while moving is
// Acting: the report is the action's, and the agent arrives when
// SetPosition puts it within reach.
//
// A step is done when its effects hold. The effects on what the engine
// pushes (every key of an engine-model file; the facts it ever Set) are
// the engine's to push, no later than the success: a success whose
// effects do not hold at the next tick fails the step ("effects did not
// hold"), and the agent plans again.
func Report(h Handle, status int) error {
	return withAgent(h, func(a *Agent) error {
		if status != Running && status != Success && status != Failure {
			return fmt.Errorf("status %d: report %d (running), %d (success) or %d (failure)", status, Running, Success, Failure)
		}
		// The action first: an action performed while moving walks too,
		// and its success is not an arrival.
		switch {
		case a.action != "":
			a.reported = agent.Status(status)
		case a.walking:
			a.arrived = status == Success
			a.moveFailed = status == Failure
		default:
			return fmt.Errorf("agent %q runs no action: report the action Action names", a.name)
		}
		return nil
	})
}

// moveToward is the resolver agent's Mover: the engine walks the agent
// (Destination) and reports where it is (SetPosition) or that it arrived
// or cannot (Report).
func (a *Agent) moveToward(target resolver.Point, stop float64) agent.MoveStatus {
	a.walking, a.to = true, target
	switch {
	case a.moveFailed:
		a.walking, a.moveFailed = false, false
		return agent.MoveFailed
	case a.arrived || math.Hypot(target.X-a.at.X, target.Y-a.at.Y) <= stop:
		a.walking, a.arrived = false, false
		return agent.Arrived
	}
	return agent.Moving
}

// goapBehaviour is every action of a GOAP agent: it runs in the engine,
// which reports how it went.
type goapBehaviour struct {
	a  *Agent
	id goap.ActionID
}

func (b *goapBehaviour) Start(*agent.Agent) { b.a.begin(b.a.goap.Domain().ActionName(b.id), int(b.id)) }
func (b *goapBehaviour) Tick(*agent.Agent) agent.Status {
	st := b.a.take()
	if st == agent.Success {
		b.a.applyEffects(b.id)
	}
	return st
}

// Stop ends the step. One the engine reported a success for, and that the
// agent drops before its tick reads the report (a fact the engine pushed
// in the same frame changed its goal), still did what it says.
func (b *goapBehaviour) Stop(*agent.Agent) {
	if b.a.action != "" && b.a.actionID == int(b.id) && b.a.reported == agent.Success {
		b.a.applyEffects(b.id)
	}
	b.a.end(int(b.id))
}

// applyEffects makes the facts the engine never pushed change as action
// act says, when the engine reports it succeeded; those it pushed stay
// as it said.
func (a *Agent) applyEffects(act goap.ActionID) {
	a.before.CopyFrom(a.model)
	a.goap.Domain().Apply(act, a.model)
	// Word by word: the applied facts where nothing was pushed, the
	// facts as they were where the engine pushed them.
	model, pushed, before := a.model.Words(), a.pushed.Words(), a.before.Words()
	for i := range model {
		model[i] = model[i]&^pushed[i] | before[i]&pushed[i]
	}
}

type resolverBehaviour struct {
	a  *Agent
	id resolver.ActionID
}

func (b *resolverBehaviour) Start(*agent.ResolverAgent) {
	b.a.begin(b.a.res.Domain().ActionName(b.id), int(b.id))
}
func (b *resolverBehaviour) Stop(*agent.ResolverAgent)              { b.a.end(int(b.id)) }
func (b *resolverBehaviour) Tick(*agent.ResolverAgent) agent.Status { return b.a.take() }

// begin and end are an action's Start and Stop. A tree that switches
// branches starts the new branch's action before it stops the old one's
// (agent.Selector), so end stops only the action the agent runs now, and
// an action started again before it was stopped (the same action in two
// branches) stays started through its one Stop.
func (a *Agent) begin(name string, id int) {
	// The action this one takes over from is stopped after it: a success
	// the engine reported for it, unread, still did what it says.
	if a.goap != nil && a.action != "" && a.reported == agent.Success {
		a.applyEffects(goap.ActionID(a.actionID))
	}
	a.restarted = a.action != "" && a.actionID == id
	a.action, a.actionID, a.reported = name, id, agent.Running
	a.walking = false
}

func (a *Agent) end(id int) {
	switch {
	case a.action == "" || a.actionID != id:
	case a.restarted:
		a.restarted = false
	default:
		a.action, a.reported = "", agent.Running
	}
}

// take returns what the engine reported, once.
func (a *Agent) take() agent.Status {
	st := a.reported
	a.reported = agent.Running
	return st
}

// Events returns the agent's events since the last call, as JSON:
// {"events": [...], "dropped": N}, each event as the runtime's Event
// encodes it (docs/agents.md), dropped counting those lost past
// MaxEvents.
func Events(h Handle) (out []byte, err error) {
	err = withAgent(h, func(a *Agent) error {
		var jerr error
		out, jerr = json.Marshal(struct {
			Events  []agent.Event `json:"events"`
			Dropped int           `json:"dropped"`
		}{append(append([]agent.Event{}, a.events[a.first:]...), a.events[:a.first]...), a.dropped})
		clear(a.events) // the plans they hold
		a.events, a.first, a.dropped = a.events[:0], 0, 0
		return jerr
	})
	return out, err
}

// stateJSON is State's answer.
type stateJSON struct {
	Name   string             `json:"name"`
	Kind   string             `json:"kind"`
	Goal   string             `json:"goal"`
	Plan   []string           `json:"plan"`
	Step   int                `json:"step"`
	Action string             `json:"action"`
	Doing  string             `json:"doing"`
	To     *[2]float64        `json:"to,omitempty"`
	Facts  []string           `json:"facts,omitempty"`
	Inputs map[string]float64 `json:"inputs,omitempty"`
	Keys   map[string]int64   `json:"keys,omitempty"`
	At     *[2]float64        `json:"at,omitempty"`
}

// State describes the agent as JSON: its goal, plan and step, the action
// it runs, and what it believes (facts and inputs, or keys and position).
func State(h Handle) (out []byte, err error) {
	err = withAgent(h, func(a *Agent) error {
		s := stateJSON{Name: a.name, Kind: a.kind, Action: a.action, Plan: []string{}, Doing: "idle"}
		switch {
		case a.action != "":
			s.Doing = "acting"
		case a.walking:
			s.Doing = "walking"
		}
		if a.walking {
			s.To = &[2]float64{a.to.X, a.to.Y}
		}
		if g := a.goap; g != nil {
			d := g.Domain()
			if goal := g.Goal(); goal != nil {
				s.Goal = goal.Name()
			}
			for _, act := range g.Plan() {
				s.Plan = append(s.Plan, d.ActionName(act))
			}
			s.Step = g.Step()
			s.Facts = []string{}
			for f := range d.NumFacts() {
				if a.model.Has(goap.Fact(f)) {
					s.Facts = append(s.Facts, d.FactName(goap.Fact(f)))
				}
			}
			if ins := a.world.file.Inputs; len(ins) > 0 {
				s.Inputs = map[string]float64{}
				for i, in := range ins {
					s.Inputs[in.Name] = a.inputs[i]
				}
			}
		} else {
			r := a.res
			d := r.Domain()
			if goal := r.Goal(); goal != nil {
				s.Goal = goal.Name()
			}
			for _, act := range r.Chain() {
				s.Plan = append(s.Plan, d.ActionName(act))
			}
			s.Step = r.Step()
			s.Keys = map[string]int64{}
			for i, k := range d.Keys() {
				s.Keys[k.Name] = a.values[i]
			}
			s.At = &[2]float64{a.at.X, a.at.Y}
		}
		var jerr error
		out, jerr = json.Marshal(s)
		return jerr
	})
	return out, err
}

// TraceDecisions turns on or off, for one agent, the trace level of its
// world's recording: what each of its searches turned down, and why. A
// world that records nothing (no Record) is an error, not a silent no-op.
func TraceDecisions(h Handle, on bool) error {
	return withAgent(h, func(a *Agent) error {
		if a.world.recorder == nil {
			return fmt.Errorf("agent %q: its world records no decisions to trace: call Record before adding agents", a.name)
		}
		if a.goap != nil {
			a.goap.SetTraceDecisions(on)
		} else {
			a.res.Agent().SetTraceDecisions(on)
		}
		return nil
	})
}

func inputNames(f *domain.File) []string {
	names := make([]string, 0, len(f.Inputs))
	for _, in := range f.Inputs {
		names = append(names, in.Name)
	}
	return names
}

// suggestion is a "; did you mean" hint, or nothing.
func suggestion(name string, candidates []string) string {
	if s := suggest.Closest(name, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}
