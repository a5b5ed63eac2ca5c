package walkthrough_test

import (
	"fmt"
	"io/fs"
	"math"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// camp is the walkthrough's game: the world the agents live in, which the
// game owns and changes, and the agents made from the file's kinds.
type camp struct {
	file      *domain.File
	source    []byte
	fireLit   bool
	places    map[string]resolver.Point // where the file's targets are
	survivors []*survivor
	agents    []*agent.ResolverAgent
}

// survivor is one agent's body in the world: what the game knows of it.
type survivor struct {
	at               resolver.Point
	warmth, hunger   int64
	hasWood, hasFood bool
	busy             int // ticks spent on the running action
}

// load reads the shipped survivor.yaml: step 1.
func load() (*domain.File, []byte, error) {
	src, err := fs.ReadFile(domains.Files, "survivor.yaml")
	if err != nil {
		return nil, nil, err
	}
	f, err := domain.Parse("survivor.yaml", src)
	return f, src, err
}

// newCamp makes n survivors of the file's kinds (alternately), each
// configured from its kind, with the game's sensors, behaviours and mover;
// setup adds what a step of the walkthrough adds (a queue, a decision
// sink).
func newCamp(n int, setup func(cfg *agent.ResolverConfig)) (*camp, error) {
	f, src, err := load()
	if err != nil {
		return nil, err
	}
	c := &camp{file: f, source: src, places: map[string]resolver.Point{
		"fireplace": {Y: 2}, "wood_north": {Y: 10}, "wood_south": {Y: -4}, "berries": {X: 5}, "deer": {X: 2}}}
	for i := range n {
		s := &survivor{at: resolver.Point{X: float64(i)}, warmth: int64(20 + 10*i), hunger: int64(60 - 10*i)}
		cfg := c.config(fmt.Sprintf("s%d", i), s)
		kind := f.EngineAgents[i%len(f.EngineAgents)]
		// Step 2: the kind gives the goals, utilities, capabilities and
		// costs the file says.
		if err := agentfile.ConfigureResolver(&cfg, kind); err != nil {
			return nil, err
		}
		if setup != nil {
			setup(&cfg)
		}
		a, err := agent.NewResolverAgent(cfg)
		if err != nil {
			return nil, err
		}
		c.survivors, c.agents = append(c.survivors, s), append(c.agents, a)
	}
	return c, nil
}

// config is step 3: what only the game knows. The sensor reads the world
// into the agent's snapshot of the file's keys; a target sensor says where
// each target is; a behaviour runs an action in the world, a tick at a
// time; the mover walks the agent to a target.
func (c *camp) config(name string, s *survivor) agent.ResolverConfig {
	d := c.file.Resolver
	key := func(n string) resolver.KeyID { k, _ := d.Key(n); return k }
	warmth, hunger, hasWood, lit, hasFood := key("warmth"), key("hunger"), key("has_wood"), key("fire_lit"), key("has_food")
	bit := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	takes := func(ticks int, done func()) agent.ResolverBehaviour {
		return agent.ResolverFuncs{
			StartFunc: func(*agent.ResolverAgent) { s.busy = 0 },
			TickFunc: func(*agent.ResolverAgent) agent.Status {
				if s.busy++; s.busy < ticks {
					return agent.Running
				}
				done()
				return agent.Success
			},
		}
	}
	cfg := agent.ResolverConfig{
		Name:   name,
		Domain: d,
		Sensor: func(_ *agent.ResolverAgent, snap *resolver.Snapshot) {
			snap.Values[warmth], snap.Values[hunger] = s.warmth, s.hunger
			snap.Values[hasWood], snap.Values[lit], snap.Values[hasFood] = bit(s.hasWood), bit(c.fireLit), bit(s.hasFood)
			snap.At = s.at
		},
		Targets: map[string]agent.TargetSensor{},
		Behaviours: map[string]agent.ResolverBehaviour{
			"GatherWoodNorth": takes(2, func() { s.hasWood = true }),
			"GatherWoodSouth": takes(2, func() { s.hasWood = true }),
			"LightFire":       takes(1, func() { s.hasWood, c.fireLit = false, true }),
			"WarmUp":          takes(2, func() { s.warmth += 40 }),
			"Forage":          takes(2, func() { s.hasFood = true }),
			"Hunt":            takes(3, func() { s.hasFood = true }),
			"Eat":             takes(1, func() { s.hunger, s.hasFood = max(s.hunger-50, 0), false }),
		},
		Mover: agent.MoverFunc(func(to resolver.Point, stop float64) agent.MoveStatus {
			dx, dy := to.X-s.at.X, to.Y-s.at.Y
			dist := math.Hypot(dx, dy)
			if dist <= stop {
				return agent.Arrived
			}
			step := min(1, dist-stop) // a metre a tick
			s.at.X, s.at.Y = s.at.X+dx/dist*step, s.at.Y+dy/dist*step
			if dist-step <= stop {
				return agent.Arrived
			}
			return agent.Moving
		}),
		RetryAfter: 3,
	}
	// The camp's places never move: each target is sensed once and kept
	// (a place that did move would be told with a.TargetChanged).
	cfg.TargetRefresh = map[string]int{}
	for target, at := range c.places {
		cfg.Targets[target] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(at) }
		cfg.TargetRefresh[target] = agent.UntilChanged
	}
	return cfg
}

// drift is the world's own change each tick: colder and hungrier.
func (c *camp) drift() {
	for _, s := range c.survivors {
		s.warmth, s.hunger = max(s.warmth-1, 0), min(s.hunger+1, 100)
	}
}
