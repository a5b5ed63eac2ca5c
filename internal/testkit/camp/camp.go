// Package camp is a small game for the tests of decision records: a camp
// of survivor.yaml's agent kinds (survivors and wounded ones, configured
// from the file) whose needs drift, on a queue or not, recorded.
package camp

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// Options say how big a camp is and how it runs: its agents, its ticks,
// the queue's workers (0: no queue), and which agents trace their
// decisions (Trace(i) for agent i; nil: none).
type Options struct {
	Agents, Ticks, Workers int
	Trace                  func(i int) bool
	// Configure, if set, changes agent i's configuration after its kind's
	// (limits, say); Between, if set, runs before each tick's agents
	// tick, with the crowd and the queue (nil without one): what a game
	// does between ticks (SetProfile, RequestReplan, Cancel).
	Configure func(i int, cfg *agent.ResolverConfig)
	Between   func(tick int, crowd []*agent.ResolverAgent, q *agent.Queue)
	// Slice, with a queue, is its slice (agent.Queue.SetSlice): the most
	// chains a search expands per frame; 0: none.
	Slice int
}

// Record runs a camp and returns its decision recording as a file holds
// it. The south wood pile runs out at tick 40, so that chains change
// with the world.
func Record(t testing.TB, o Options) []byte {
	agents, ticks, workers := o.Agents, o.Ticks, o.Workers
	t.Helper()
	src, err := fs.ReadFile(domains.Files, "survivor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := domain.Parse("survivor.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	d := f.Resolver
	var q *agent.Queue
	if workers > 0 {
		q = agent.NewQueue(workers, 4)
		q.SetSlice(o.Slice)
	}
	fr := agent.NewFlightRecorder(100_000, 64<<20)
	fireLit := false
	tick := 0
	places := map[string]resolver.Point{"fireplace": {Y: 2}, "wood_north": {Y: 10}, "wood_south": {Y: -4}, "berries": {X: 5}, "deer": {X: 2}}
	type survivor struct {
		at               resolver.Point
		warmth, hunger   int64
		hasWood, hasFood bool
		busy             int
	}
	key := func(name string) resolver.KeyID {
		k, _ := d.Key(name)
		return k
	}
	warmth, hunger, hasWood, lit, hasFood := key("warmth"), key("hunger"), key("has_wood"), key("fire_lit"), key("has_food")
	var crowd []*agent.ResolverAgent
	var survivors []*survivor
	bit := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	for i := range agents {
		s := &survivor{at: resolver.Point{X: float64(i % 5), Y: float64(i % 3)}, warmth: int64(10 + 7*i%40), hunger: int64(40 + 11*i%50)}
		kind := f.EngineAgents[i%len(f.EngineAgents)]
		timed := func(n int, done func()) agent.ResolverBehaviour {
			return agent.ResolverFuncs{
				StartFunc: func(*agent.ResolverAgent) { s.busy = 0 },
				TickFunc: func(*agent.ResolverAgent) agent.Status {
					if s.busy++; s.busy < n {
						return agent.Running
					}
					done()
					return agent.Success
				},
			}
		}
		cfg := agent.ResolverConfig{
			Name:   fmt.Sprintf("s%02d", i),
			Domain: d,
			Behaviours: map[string]agent.ResolverBehaviour{
				"GatherWoodNorth": timed(2, func() { s.hasWood = true }),
				"GatherWoodSouth": timed(2, func() { s.hasWood = true }),
				"LightFire":       timed(1, func() { s.hasWood, fireLit = false, true }),
				"WarmUp":          timed(2, func() { s.warmth += 40 }),
				"Forage":          timed(2, func() { s.hasFood = true }),
				"Hunt":            timed(3, func() { s.hasFood = true }),
				"Eat":             timed(1, func() { s.hunger, s.hasFood = max(s.hunger-50, 0), false }),
			},
			Sensor: func(_ *agent.ResolverAgent, snap *resolver.Snapshot) {
				snap.Values[warmth], snap.Values[hunger] = s.warmth, s.hunger
				snap.Values[hasWood], snap.Values[lit], snap.Values[hasFood] = bit(s.hasWood), bit(fireLit), bit(s.hasFood)
				snap.At = s.at
			},
			Targets: map[string]agent.TargetSensor{},
			Mover: agent.MoverFunc(func(to resolver.Point, stop float64) agent.MoveStatus {
				dx, dy := to.X-s.at.X, to.Y-s.at.Y
				dist := math.Hypot(dx, dy)
				if dist <= stop {
					return agent.Arrived
				}
				step := min(1, dist-stop)
				s.at.X, s.at.Y = s.at.X+dx/dist*step, s.at.Y+dy/dist*step
				if dist-step <= stop {
					return agent.Arrived
				}
				return agent.Moving
			}),
			Policy:     agent.Policy{Kind: agent.Reactive},
			RetryAfter: 3,
			Queue:      q,
			Decisions:  fr,
		}
		if o.Trace != nil {
			cfg.TraceDecisions = o.Trace(i)
		}
		for name, p := range places {
			cfg.Targets[name] = func(*agent.ResolverAgent) agent.Where {
				if name == "wood_south" && tick >= 40 {
					return agent.Where{}
				}
				return agent.AtPoint(p)
			}
		}
		if err := agentfile.ConfigureResolver(&cfg, kind); err != nil {
			t.Fatal(err)
		}
		if o.Configure != nil {
			o.Configure(i, &cfg)
		}
		a, err := agent.NewResolverAgent(cfg)
		if err != nil {
			t.Fatal(err)
		}
		crowd, survivors = append(crowd, a), append(survivors, s)
	}
	// Needs drift: colder and hungrier every tick.
	for tick = 1; tick <= ticks; tick++ {
		for _, s := range survivors {
			s.warmth, s.hunger = max(s.warmth-1, 0), min(s.hunger+1, 100)
		}
		if o.Between != nil {
			o.Between(tick, crowd, q)
		}
		for _, a := range crowd {
			a.Tick()
		}
		if q != nil {
			q.Frame()
		}
	}
	var buf bytes.Buffer
	if err := fr.WriteJSONL(&buf, agent.RecordHeader{Domain: "survivor.yaml", DomainHash: agent.DomainHash(src)}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
