package agent_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// TestResolverQueueResolvesFromTheSubmitSnapshot: the world is read at
// submit; what changes before the frame does not reach the resolve, which
// plans from the snapshot. The live world then decides at the head: the
// pile the chain walks to has run out, so the agent resolves again.
func TestResolverQueueResolvesFromTheSubmitSnapshot(t *testing.T) {
	c := newCamp(t)
	q := agent.NewQueue(2, 4)
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Queue = q
	a := mustResolverAgent(t, cfg)
	a.Tick() // submits, the south pile 4 m away with logs
	if q.Len() != 1 || a.Chain() != nil {
		t.Fatalf("%d waiting, chain %v: want the request waiting", q.Len(), a.Chain())
	}
	c.piles["wood_south"].logs = 0
	c.values["warmth"] = 10 // colder still: the same goal
	q.Frame()
	south, _ := c.d.ActionByName("GatherWoodSouth")
	if ch := a.Chain(); len(ch) != 3 || ch[0] != south {
		t.Fatalf("chain %s, want the one planned from the submit snapshot, from the south pile", c.d.FormatChain(ch))
	}
	a.Tick() // the head's target is gone in the live world
	a.Tick() // asks again
	q.Frame()
	a.Tick()
	if got := kinds(&rec); !strings.HasSuffix(got, "action_failed(GatherWoodSouth: target lost) replan(target lost) plan_made move_started(GatherWoodNorth)") {
		t.Fatalf("events: %s", got)
	}
}

// resolverCrowd makes n survivors in n camps, with three profiles, all
// resolving through q; the camps differ by a seeded random draw. Each of
// with, if any, may change survivor i's configuration last.
func resolverCrowd(t testing.TB, n int, q *agent.Queue, rec *agent.Recorder, seed uint64, with ...func(i int, cfg *agent.ResolverConfig)) ([]*agent.ResolverAgent, []*camp) {
	rng := rand.New(rand.NewPCG(seed, 3))
	base := newCamp(t)
	profiles := []resolver.ProfileSpec{
		{},
		{Costs: map[string]float64{"Forage": 20}},
		{Capabilities: []string{"LightFire", "WarmUp", "Forage", "Hunt", "Eat"}},
	}
	var agents []*agent.ResolverAgent
	var camps []*camp
	for i := range n {
		c := newCamp(t)
		c.d = base.d // one domain for every agent
		c.values["warmth"] = int64(rng.IntN(80))
		c.values["hunger"] = int64(rng.IntN(80))
		c.at = resolver.Point{X: float64(rng.IntN(11) - 5), Y: float64(rng.IntN(11) - 5)}
		c.piles["wood_north"].logs = rng.IntN(3)
		c.ticks["Hunt"] = 2
		cfg := c.config(rec)
		if rec == nil {
			cfg.OnEvent = nil
		}
		prof, err := c.d.NewProfile(profiles[i%len(profiles)])
		if err != nil {
			t.Fatal(err)
		}
		cfg.Profile = prof
		cfg.Name = "survivor" + string(rune('A'+i%26)) + string(rune('a'+i/26))
		cfg.Policy = agent.Policy{Kind: agent.Reactive}
		cfg.Queue = q
		for _, f := range with {
			f(i, &cfg)
		}
		agents = append(agents, mustResolverAgent(t, cfg))
		camps = append(camps, c)
	}
	return agents, camps
}

// TestResolverQueueIsDeterministic runs survivors and battle mages through
// one queue, workers racing, and compares the event logs byte for byte.
// Run it with -race.
func TestResolverQueueIsDeterministic(t *testing.T) {
	log := func() string {
		var rec agent.Recorder
		q := agent.NewQueue(4, 5)
		survivors, camps := resolverCrowd(t, 12, q, &rec, 1)
		mages, _ := crowd(t, 4, q, &rec)
		for tick := 0; tick < 40; tick++ {
			if tick == 9 {
				camps[2].piles["wood_south"].logs = 0
				q.Cancel(survivors[5])
			}
			if tick == 15 {
				q.Remove(survivors[7])
			}
			for _, a := range survivors {
				a.Tick()
			}
			for _, m := range mages {
				m.Tick()
			}
			q.Frame()
		}
		var sb strings.Builder
		rec.WriteJSONL(&sb)
		return sb.String()
	}
	first := log()
	for _, want := range []string{`"agent":"survivorA`, `"agent":"mageA`, `"kind":"target_reached"`, `"kind":"step_done"`} {
		if !strings.Contains(first, want) {
			t.Fatalf("the log has no %s:\n%s", want, first)
		}
	}
	for i := 0; i < 3; i++ {
		if log() != first {
			t.Fatalf("run %d differs", i)
		}
	}
}

// TestResolverQueueCancelAndRemove: a cancelled resolver agent asks again
// on its next tick; a removed one resolves inline.
func TestResolverQueueCancelAndRemove(t *testing.T) {
	q := agent.NewQueue(1, 10)
	agents, _ := resolverCrowd(t, 3, q, nil, 2)
	for _, a := range agents {
		a.Tick()
	}
	if !q.Cancel(agents[1]) || q.Cancel(agents[1]) || q.Len() != 2 {
		t.Fatalf("cancel: %d waiting", q.Len())
	}
	if q.Frame() != 2 || agents[1].Stats().Plans != 0 {
		t.Fatalf("the cancelled request was resolved: %+v", agents[1].Stats())
	}
	agents[1].Tick()
	if q.Len() != 1 || q.Frame() != 1 || agents[1].Stats().Plans != 1 {
		t.Fatalf("the cancelled agent did not ask again: %+v", agents[1].Stats())
	}
	agents[2].RequestReplan()
	agents[2].Tick()
	q.Remove(agents[2])
	if q.Len() != 0 {
		t.Fatalf("Remove left %d waiting", q.Len())
	}
	plans := agents[2].Stats().Plans
	agents[2].RequestReplan()
	agents[2].Tick()
	if q.Len() != 0 || agents[2].Stats().Plans != plans+1 {
		t.Errorf("a removed agent did not resolve inline: %d waiting, %+v", q.Len(), agents[2].Stats())
	}
}

// TestWarmResolverAgentsAllocateNothing: once warm, a resolver agent that
// nobody observes senses, resolves and ticks without allocating, inline
// and through a one-worker queue.
func TestWarmResolverAgentsAllocateNothing(t *testing.T) {
	c := newCamp(t)
	cfg := c.config(nil)
	for name := range cfg.Behaviours {
		cfg.Behaviours[name] = agent.ResolverFuncs{TickFunc: func(*agent.ResolverAgent) agent.Status { return agent.Running }}
	}
	inline := mustResolverAgent(t, cfg)
	q := agent.NewQueue(1, 1)
	cfg.Queue = q
	queued := mustResolverAgent(t, cfg)
	for range 3 {
		inline.RequestReplan()
		inline.Tick()
		queued.RequestReplan()
		queued.Tick()
		q.Frame()
	}
	if n := testing.AllocsPerRun(100, func() { inline.RequestReplan(); inline.Tick() }); n != 0 {
		t.Errorf("an inline resolve allocates %.0f times", n)
	}
	if n := testing.AllocsPerRun(100, func() { queued.RequestReplan(); queued.Tick(); q.Frame() }); n != 0 {
		t.Errorf("a queued resolve allocates %.0f times", n)
	}
}

// frameCrowd is the benchmark's crowd: n survivors over one survival
// domain in three profiles, each in its own few numbers of world (no
// maps), standing still: every behaviour runs for ever, so each frame is
// a resolve per agent from the same kind of snapshot.
type frameCrowd struct {
	agents []*agent.ResolverAgent
	q      *agent.Queue
}

type still struct {
	values []int64
	at     resolver.Point
}

// newFrameCrowd makes n survivors resolving through a queue of workers;
// each of with, if any, may change every agent's configuration.
func newFrameCrowd(t testing.TB, n, workers int, with ...func(*agent.ResolverConfig)) *frameCrowd {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var profiles []*resolver.Profile
	for _, spec := range []resolver.ProfileSpec{{}, {Costs: map[string]float64{"Forage": 20}}, {Capabilities: []string{"LightFire", "WarmUp", "Forage", "Hunt", "Eat"}}} {
		p, err := d.NewProfile(spec)
		if err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, p)
	}
	places := map[string]resolver.Point{"fireplace": {Y: 2}, "wood_north": {Y: 10}, "wood_south": {Y: -4}, "berries": {X: 5}, "deer": {X: 2}}
	targets := map[string]agent.TargetSensor{}
	for name, at := range places {
		targets[name] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(at) }
	}
	behaviours := map[string]agent.ResolverBehaviour{}
	for id := range d.NumActions() {
		behaviours[d.ActionName(resolver.ActionID(id))] = agent.ResolverFuncs{TickFunc: func(*agent.ResolverAgent) agent.Status { return agent.Running }}
	}
	warmth, _ := d.Key("warmth")
	hunger, _ := d.Key("hunger")
	fc := &frameCrowd{q: agent.NewQueue(workers, n)}
	for i := range n {
		w := &still{values: make([]int64, len(d.Keys())), at: resolver.Point{X: float64(rng.IntN(21) - 10), Y: float64(rng.IntN(21) - 10)}}
		w.values[warmth] = int64(rng.IntN(49))
		w.values[hunger] = int64(31 + rng.IntN(60))
		cfg := agent.ResolverConfig{
			Name:       "s",
			Domain:     d,
			Profile:    profiles[i%len(profiles)],
			Goals:      []agent.ResolverGoal{{Goal: d.Goal("Warm"), Priority: float64(i % 2)}, {Goal: d.Goal("Fed"), Priority: 0.5}},
			Behaviours: behaviours,
			Sensor: func(_ *agent.ResolverAgent, s *resolver.Snapshot) {
				copy(s.Values, w.values)
				s.At = w.at
			},
			Targets: targets,
			Mover:   agent.MoverFunc(func(resolver.Point, float64) agent.MoveStatus { return agent.Moving }),
			Queue:   fc.q,
		}
		for _, f := range with {
			f(&cfg)
		}
		a, err := agent.NewResolverAgent(cfg)
		if err != nil {
			t.Fatal(err)
		}
		fc.agents = append(fc.agents, a)
	}
	return fc
}

// submit has every agent ask for a chain: sense and copy its snapshot into
// the queue, on this goroutine.
func (fc *frameCrowd) submit() {
	for _, a := range fc.agents {
		a.RequestReplan()
		a.Tick()
	}
}

// TestTenThousandResolverAgentsInOneFrame: one Frame resolves every one of
// 10 000 waiting requests and delivers a chain to each agent (how long it
// takes is the benchmark's business, not the test's).
func TestTenThousandResolverAgentsInOneFrame(t *testing.T) {
	fc := newFrameCrowd(t, 10000, 2)
	fc.submit()
	if got := fc.q.Frame(); got != 10000 {
		t.Fatalf("frame resolved %d, want 10000", got)
	}
	chains := map[string]int{}
	for _, a := range fc.agents {
		if s := a.Stats(); s.Plans != 1 {
			t.Fatalf("%s was not resolved once: %+v", a.Name(), s)
		}
		chains[a.Domain().FormatChain(a.Chain())]++
	}
	// The three profiles and two goal orders give several chains; one who
	// cannot gather wood finds none to warmth while the fire is out.
	if len(chains) < 5 || chains["(nothing to do)"] == 0 {
		t.Errorf("chains %v: want the profiles to differ", chains)
	}
}

// BenchmarkResolverFrame10k measures the target "10 000 agents resolving
// within one 16 ms frame on this 2-core machine through the queue": each
// iteration submits 10 000 requests (untimed: the agents' sensing and
// copying, on the game's goroutine) and times one Frame that resolves all
// of them and delivers the chains, on one worker and on two. frame-ms is
// the mean frame; submit-ms the untimed submitting, for the whole picture.
func BenchmarkResolverFrame10k(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			fc := newFrameCrowd(b, 10000, workers)
			for range 4 { // warm the buffers and the workers' resolvers
				fc.submit()
				fc.q.Frame()
			}
			var submit time.Duration
			frames := 0
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				start := time.Now()
				fc.submit()
				submit += time.Since(start)
				b.StartTimer()
				fc.q.Frame()
				frames++
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(frames), "frame-ms")
			b.ReportMetric(float64(submit.Microseconds())/1000/float64(frames), "submit-ms")
		})
	}
}
