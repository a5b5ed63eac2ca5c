package main

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/inspect"
	"github.com/ploy-ai/ploy/resolver"
)

// domainFile is the shipped file the settlers are made from.
const domainFile = "colony.yaml"

// options are the game's flags.
type options struct {
	agents, ticks, workers int
	// minShare is the fewest requests a frame gives each of the queue's
	// workers (agent.Queue.SetMinShare; 0 or 1: every worker, any frame).
	minShare int
	seed     uint64
	record   string
	verbose  bool
	// inspect is the address the live inspector serves on ("": none),
	// and tickMS the pause between ticks, so that a person can watch.
	inspect string
	tickMS  int
	// noCommitment drops the kinds' commitment: (-commitment=false), for
	// the game as it played before goal choice had commitment.
	noCommitment bool
	// senseFixedEveryTick, for a test, senses the places that never move
	// as often as the others: the game must come out the same.
	senseFixedEveryTick bool
	// recordBound, for a benchmark, bounds the flight recorder to that
	// many decisions (0: the game's bound), so that a short warm-up fills
	// it and the timed ticks reuse its slots, as a long game's do.
	recordBound int
}

// The kinds, as the file names them, in the summary's order.
var kindNames = []string{"worker", "hunter", "guard"}

const (
	worker = iota
	hunter
	guard
)

// kindPattern deals the kinds out over every 20 settlers: 13 workers, 4
// hunters, 3 guards, interleaved so that any prefix of the colony has a
// mix (the first three settlers are one of each).
var kindPattern = [20]int{worker, hunter, guard, worker, worker, worker, hunter, worker, worker, guard, worker, hunter, worker, worker, guard, worker, hunter, worker, worker, worker}

// How the world runs, in ticks and metres. A settler walks a metre a tick
// (a hunter 1.3, a guard 1.2).
const (
	needRange   = 100 // hunger, thirst, fatigue and fear stay within 0..needRange
	fearRadius  = 25  // settlers this near the raiders grow afraid
	fearPerTick = 5
	burnPer     = 200 // the fire burns one wood a tick for every burnPer settlers
	woodLoad    = 5   // wood a chop takes from a grove
	berryLoad   = 4   // food a picking takes from a patch
	deerLoad    = 8   // food a deer brings
	mealEases   = 60  // hunger a meal takes away
	drinkEases  = 60
	sleepEases  = 70
	hideEases   = 40
	watchShift  = 80 // ticks a guard's watch lasts once it is on the tower
)

// site is a place a resource is taken from: a grove, a berry patch, a
// well. Amount runs down as settlers take from it and grows back by one
// every regrow ticks, up to capacity. It is a target while it has a load
// (what one settler takes) left.
type site struct {
	at                     resolver.Point
	amount, capacity, load int
	regrow                 int
}

// herd is the deer, an entity: it walks back and forth along a track, and
// its number runs down as hunters take deer and grows back slowly.
type herd struct {
	at, from, to resolver.Point
	count        int
}

// Position returns where the herd is now.
func (h *herd) Position() resolver.Point { return h.at }

// raid is the threat: raiders who come on a seeded schedule, walk to a
// grove and stay there until driven off (their strength beaten down to 0)
// or until their time is up.
type raid struct {
	present   bool
	at, goal  resolver.Point
	strength  int
	until     int // the tick they leave if not driven off
	next      int // the tick the next raid comes, when none is present
	raids     int
	drivenOff int
	ticks     int // ticks with raiders in the colony
}

// Position returns where the raiders are now.
func (r *raid) Position() resolver.Point { return r.at }

// settler is one agent and the world's part of it: where it is and the
// values of its own keys.
type settler struct {
	name  string
	kind  int
	agent *agent.ResolverAgent
	at    resolver.Point
	speed float64

	hunger, thirst, fatigue, fear int64
	carryingWood, carryingFood    bool
	hasMeal, armed                bool
	load                          int // what the settler carries
	seenWood, seenFood            int // the stocks as it last saw them
	// Its needs grow by one every so many ticks, each at its own seeded
	// rate and phase.
	every, phase [3]int
	watchUntil   int // its watch is on until this tick
	busy         int // ticks the running behaviour has run
	lastGoal     *resolver.Goal
	c            *colony
}

// kindStats is what the settlers of one kind did.
type kindStats struct {
	agents      int
	goalChanges int
	dropped     int   // goal changes away from a goal that did not hold
	chosen      []int // per domain goal: how often it became the goal
	chosenRaid  []int // of those, while raiders were in the colony
	done        []int // per domain action: behaviours that succeeded
}

// keyIDs are the indices of the file's keys in a snapshot.
type keyIDs struct {
	hunger, thirst, fatigue, fear, woodStock, foodStock, carryingWood, carryingFood, hasMeal, armed, onWatch, threat resolver.KeyID
}

// colony is the world: the sites, the herd, the raiders, the stocks, the
// settlers and the queue their chains are resolved on.
type colony struct {
	opts     options
	source   []byte
	domain   *resolver.Domain
	keys     keyIDs
	goalIdx  map[*resolver.Goal]int
	settlers []*settler
	queue    *agent.Queue
	flight   *agent.FlightRecorder
	ins      *inspect.Inspector // with -inspect
	out      io.Writer

	groves, patches, wells, towers []*site
	stockpile, beds, refuge        resolver.Point
	armory                         resolver.Point
	deer                           herd
	raiders                        raid

	tick                  int
	woodStock, foodStock  int
	burnt                 int // the fire's progress toward the next wood, in settler-ticks
	woodIn, foodIn, eaten int // wood and food hauled in, meals taken
	woodBurnt             int
	coldTicks             int // ticks the fire had no wood
	emptySiteTicks        int // site-ticks a grove, patch or well was empty
	stats                 [3]kindStats
	world, setupRng       *rand.Rand
}

// newColony loads the file, lays out the world from the seed and makes the
// settlers.
func newColony(o options, out io.Writer) (*colony, error) {
	src, err := fs.ReadFile(domains.Files, domainFile)
	if err != nil {
		return nil, err
	}
	f, err := domain.Parse(domainFile, src)
	if err != nil {
		return nil, err
	}
	if !f.EngineModel() {
		return nil, fmt.Errorf("%s: not an engine-model file", domainFile)
	}
	d := f.Resolver
	c := &colony{
		opts:      o,
		source:    src,
		domain:    d,
		goalIdx:   map[*resolver.Goal]int{},
		queue:     newQueue(o),
		out:       out,
		stockpile: resolver.Point{},
		beds:      resolver.Point{X: -8, Y: 6},
		refuge:    resolver.Point{X: -4, Y: -10},
		armory:    resolver.Point{X: 6, Y: -4},
		woodStock: 40,
		foodStock: 40,
		// Two streams, so that when the raids come does not depend on
		// how many settlers were made.
		setupRng: rand.New(rand.NewPCG(o.seed, 1)),
		world:    rand.New(rand.NewPCG(o.seed, 2)),
	}
	if err := c.findKeys(); err != nil {
		return nil, err
	}
	for i, g := range d.Goals() {
		c.goalIdx[g] = i
	}
	c.layOut()
	if o.record != "" {
		// Bounds far above a default game's decisions (25 755 of them, a
		// 39 MB file), so that a recording of one holds them all; a game
		// some three times longer keeps its latest 128 MiB of them and
		// says how many were dropped.
		c.flight = agent.NewFlightRecorder(1<<18, 128<<20)
		if o.recordBound > 0 {
			c.flight = agent.NewFlightRecorder(o.recordBound, 128<<20)
		}
	}
	if o.inspect != "" {
		// The inspector keeps each settler's recent decisions and passes
		// them on to the recording, if one is made.
		opt := inspect.Options{Domain: domainFile, DomainHash: agent.DomainHash(src)}
		if c.flight != nil {
			opt.Sink = c.flight
		}
		c.ins = inspect.New(opt)
	}
	kinds := make([]*domain.EngineAgent, len(kindNames))
	for i, name := range kindNames {
		for _, k := range f.EngineAgents {
			if k.Name == name {
				kinds[i] = k
			}
		}
		if kinds[i] == nil {
			return nil, fmt.Errorf("%s has no agent kind %q", domainFile, name)
		}
		c.stats[i] = kindStats{chosen: make([]int, len(d.Goals())), chosenRaid: make([]int, len(d.Goals())), done: make([]int, d.NumActions())}
	}
	width := len(fmt.Sprint(o.agents))
	for i := range o.agents {
		kind := kindPattern[i%len(kindPattern)]
		if err := c.add(fmt.Sprintf("%s-%0*d", kindNames[kind], width, i+1), kind, kinds[kind]); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// findKeys looks the file's keys up once, so that the sensors index
// snapshots directly.
func (c *colony) findKeys() error {
	k := &c.keys
	for _, key := range []struct {
		name string
		id   *resolver.KeyID
	}{{"hunger", &k.hunger}, {"thirst", &k.thirst}, {"fatigue", &k.fatigue}, {"fear", &k.fear}, {"wood_stock", &k.woodStock}, {"food_stock", &k.foodStock},
		{"carrying_wood", &k.carryingWood}, {"carrying_food", &k.carryingFood}, {"has_meal", &k.hasMeal}, {"armed", &k.armed}, {"on_watch", &k.onWatch}, {"threat", &k.threat}} {
		id, ok := c.domain.Key(key.name)
		if !ok {
			return fmt.Errorf("%s has no key %q, which the game senses", domainFile, key.name)
		}
		*key.id = id
	}
	return nil
}

// layOut places the sites around the stockpile, as many as the colony's
// size needs, at seeded distances and directions.
func (c *colony) layOut() {
	r := c.setupRng
	ring := func(n int, near, far float64, amount, load, regrow int) []*site {
		out := make([]*site, n)
		for i := range out {
			// Spread evenly around the ring, each turned and pushed out
			// by a seeded amount; sin and cos only here, once.
			angle := 2*math.Pi*float64(i)/float64(n) + r.Float64()*math.Pi/float64(n)
			dist := near + r.Float64()*(far-near)
			at := resolver.Point{X: math.Round(dist*math.Cos(angle)*10) / 10, Y: math.Round(dist*math.Sin(angle)*10) / 10}
			out[i] = &site{at: at, amount: amount, capacity: amount, load: load, regrow: regrow}
		}
		return out
	}
	// At most 64 of a kind, so that a sensor's look at the sites stays
	// cheap in a huge colony (which then goes short).
	n := c.opts.agents
	c.groves = ring(min(3+n/40, 64), 25, 45, 40, woodLoad, 8)
	c.patches = ring(min(2+n/60, 64), 15, 35, 30, berryLoad, 4)
	c.wells = ring(min(1+n/100, 64), 8, 16, 60, 1, 1)
	c.towers = ring(4, 38, 42, 0, 0, 0)
	c.deer = herd{from: resolver.Point{X: -45, Y: 30}, to: resolver.Point{X: -20, Y: 45}, count: 6}
	c.deer.at = c.deer.from
	c.raiders.next = 200 + c.world.IntN(300)
}

// add makes one settler of a kind from the file.
func (c *colony) add(name string, kind int, k *domain.EngineAgent) error {
	r := c.setupRng
	s := &settler{
		name:    name,
		kind:    kind,
		at:      resolver.Point{X: float64(r.IntN(21) - 10), Y: float64(r.IntN(21) - 10)},
		speed:   []float64{1, 1.3, 1.2}[kind],
		hunger:  int64(r.IntN(50)),
		thirst:  int64(r.IntN(50)),
		fatigue: int64(r.IntN(50)),
		// Each starts knowing the stocks as they are at the start.
		seenWood: c.woodStock,
		seenFood: c.foodStock,
		c:        c,
	}
	// Hunger grows every 4 to 6 ticks, thirst every 3 to 5, fatigue every
	// 5 to 7.
	for i, base := range []int{4, 3, 5} {
		s.every[i] = base + r.IntN(3)
		s.phase[i] = r.IntN(s.every[i])
	}
	cfg := agent.ResolverConfig{
		Name:           name,
		Domain:         c.domain,
		Behaviours:     s.behaviours(),
		Sensor:         s.sense,
		Mover:          s,
		Policy:         agent.Policy{Kind: agent.OnBreak},
		RetryAfter:     10,
		DefaultTimeout: 200,
		Queue:          c.queue,
	}
	if err := agentfile.ConfigureResolver(&cfg, k); err != nil {
		return err
	}
	if c.opts.noCommitment {
		cfg.Commitment = nil
	}
	cfg.Targets = c.targetSensors(s, cfg.Profile)
	// The stockpile, the beds, the refuge and the armory never move: each
	// is sensed once, not at every resolve.
	cfg.TargetRefresh = map[string]int{}
	for _, fixed := range []string{"stockpile", "beds", "refuge", "armory"} {
		if cfg.Targets[fixed] != nil && !c.opts.senseFixedEveryTick {
			cfg.TargetRefresh[fixed] = agent.UntilChanged
		}
	}
	switch {
	case c.ins != nil:
		cfg.Decisions = c.ins
	case c.flight != nil:
		cfg.Decisions = c.flight
	}
	if c.opts.verbose {
		cfg.OnEvent = func(e agent.Event) { c.narrate(e) }
	}
	a, err := agent.NewResolverAgent(cfg)
	if err != nil {
		return err
	}
	s.agent = a
	if c.ins != nil {
		if err := c.ins.WatchResolver(a); err != nil {
			return err
		}
	}
	c.stats[kind].agents++
	c.settlers = append(c.settlers, s)
	return nil
}

// targetSensors returns the sensors for the targets of the actions the
// profile lets a settler do (every action's with no profile): the nearest
// site that has something left, or the herd or the raiders while they are
// there. A site with nothing left is no target.
func (c *colony) targetSensors(s *settler, p *resolver.Profile) map[string]agent.TargetSensor {
	fixed := func(at resolver.Point) agent.TargetSensor {
		return func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(at) }
	}
	// nearest answers the nearest site with a load left; but while the
	// settler walks to a site for this key, that site, as long as it has
	// anything left. A nearer site that grows back meanwhile is another
	// target, which would end the walk (target_lost) for a site that is
	// still there; a site emptied under the settler's feet does end it.
	nearest := func(key string, sites []*site) agent.TargetSensor {
		t, _ := c.domain.Target(key)
		var last *site
		return func(a *agent.ResolverAgent) agent.Where {
			if act, ok := a.Current(); ok && last != nil && last.amount > 0 && c.domain.ActionTarget(act) == t {
				return agent.AtPoint(last.at)
			}
			if last = s.nearest(sites, math.Inf(1), true); last != nil {
				return agent.AtPoint(last.at)
			}
			return agent.Where{}
		}
	}
	all := map[string]agent.TargetSensor{
		"stockpile": fixed(c.stockpile),
		"beds":      fixed(c.beds),
		"refuge":    fixed(c.refuge),
		"armory":    fixed(c.armory),
		"trees":     nearest("trees", c.groves),
		"berries":   nearest("berries", c.patches),
		"well":      nearest("well", c.wells),
		"tower":     nearest("tower", c.towers),
		"game": func(*agent.ResolverAgent) agent.Where {
			if c.deer.count == 0 {
				return agent.Where{}
			}
			return agent.OnEntity(&c.deer)
		},
		"raiders": func(*agent.ResolverAgent) agent.Where {
			if !c.raiders.present {
				return agent.Where{}
			}
			return agent.OnEntity(&c.raiders)
		},
	}
	d := c.domain
	out := map[string]agent.TargetSensor{}
	for id := range d.NumActions() {
		act := resolver.ActionID(id)
		t := d.ActionTarget(act)
		if t == resolver.NoTarget || p != nil && !p.Capable(act) {
			continue
		}
		name := d.Targets()[t]
		if all[name] == nil {
			continue // NewResolverAgent says which sensor is missing
		}
		out[name] = all[name]
	}
	return out
}

// nearest returns the site nearest s, within reach, that has a load left
// (with full) or anything left; a site of no capacity always has. Nil if
// none has.
func (s *settler) nearest(sites []*site, reach float64, full bool) *site {
	var best *site
	bestDist := reach * reach
	for _, st := range sites {
		if st.capacity > 0 && (st.amount == 0 || full && st.amount < st.load) {
			continue
		}
		dx, dy := st.at.X-s.at.X, st.at.Y-s.at.Y
		if d := dx*dx + dy*dy; d <= bestDist {
			if best == nil || d < bestDist {
				best, bestDist = st, d
			}
		}
	}
	return best
}

// sense is the settler's world sensor: its own keys, the colony's stocks
// as it last saw them, and whether raiders are in it (the alarm is heard
// everywhere).
//
// A settler learns the stocks when it puts something in or takes a meal
// out: were every settler to know them at every tick, all would change
// their minds on the same tick whenever a stock crossed a score, and a
// colony of like settlers would lurch from one goal to another as one.
func (s *settler) sense(_ *agent.ResolverAgent, snap *resolver.Snapshot) {
	c, k, v := s.c, &s.c.keys, snap.Values
	v[k.hunger], v[k.thirst], v[k.fatigue], v[k.fear] = s.hunger, s.thirst, s.fatigue, s.fear
	v[k.woodStock], v[k.foodStock] = int64(s.seenWood), int64(s.seenFood)
	v[k.carryingWood], v[k.carryingFood] = b(s.carryingWood), b(s.carryingFood)
	v[k.hasMeal], v[k.armed] = b(s.hasMeal), b(s.armed)
	v[k.onWatch], v[k.threat] = b(c.tick < s.watchUntil), b(c.raiders.present)
	snap.At = s.at
}

func b(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

// MoveToward is the settler's mover: its speed in metres a tick, in a
// straight line, stopping within stop of the target.
func (s *settler) MoveToward(target resolver.Point, stop float64) agent.MoveStatus {
	dist := math.Hypot(target.X-s.at.X, target.Y-s.at.Y)
	if dist <= stop+1e-9 {
		return agent.Arrived
	}
	step := math.Min(s.speed, dist-stop)
	s.at.X += (target.X - s.at.X) / dist * step
	s.at.Y += (target.Y - s.at.Y) / dist * step
	if dist-step <= stop+1e-9 {
		return agent.Arrived
	}
	return agent.Moving
}

// behaviours are the settler's actions: each runs for some ticks and then
// changes the world as its action says, or fails when what it needed is
// gone.
func (s *settler) behaviours() map[string]agent.ResolverBehaviour {
	c := s.c
	succeed := func(action string) agent.Status {
		id, _ := c.domain.ActionByName(action)
		c.stats[s.kind].done[id]++
		return agent.Success
	}
	timed := func(action string, ticks int, done func() bool) agent.ResolverBehaviour {
		return agent.ResolverFuncs{
			StartFunc: func(*agent.ResolverAgent) { s.busy = 0 },
			TickFunc: func(*agent.ResolverAgent) agent.Status {
				if s.busy++; s.busy < ticks {
					return agent.Running
				}
				if !done() {
					return agent.Failure
				}
				return succeed(action)
			},
		}
	}
	// gather takes up to load from the site the settler stands at as soon
	// as it starts (it fails if others took the last while it walked up),
	// works for ticks, and then has it.
	gather := func(action string, ticks int, sites []*site, load int, got func(n int)) agent.ResolverBehaviour {
		n := 0
		return agent.ResolverFuncs{
			StartFunc: func(*agent.ResolverAgent) { s.busy, n = 0, 0 },
			TickFunc: func(*agent.ResolverAgent) agent.Status {
				if s.busy == 0 {
					st := s.nearest(sites, 2.5, false)
					if st == nil {
						return agent.Failure
					}
					n = min(load, st.amount)
					st.amount -= n
				}
				if s.busy++; s.busy < ticks {
					return agent.Running
				}
				got(n)
				return succeed(action)
			},
		}
	}
	return map[string]agent.ResolverBehaviour{
		"ChopWood": gather("ChopWood", 5, c.groves, woodLoad, func(n int) {
			s.carryingWood, s.load = true, n
		}),
		"PickBerries": gather("PickBerries", 4, c.patches, berryLoad, func(n int) {
			s.carryingFood, s.load = true, n
		}),
		"HaulWood": timed("HaulWood", 2, func() bool {
			c.woodStock += s.load
			c.woodIn += s.load
			s.carryingWood, s.load = false, 0
			s.look()
			return true
		}),
		"HaulFood": timed("HaulFood", 2, func() bool {
			c.foodStock += s.load
			c.foodIn += s.load
			s.carryingFood, s.load = false, 0
			s.look()
			return true
		}),
		"TakeMeal": timed("TakeMeal", 1, func() bool {
			defer s.look()
			if c.foodStock == 0 {
				return false
			}
			c.foodStock--
			c.eaten++
			s.hasMeal = true
			return true
		}),
		"Eat": timed("Eat", 3, func() bool {
			s.hunger = max(s.hunger-mealEases, 0)
			s.hasMeal = false
			return true
		}),
		"Drink": gather("Drink", 2, c.wells, 1, func(int) {
			s.thirst = max(s.thirst-drinkEases, 0)
		}),
		"Sleep": timed("Sleep", 30, func() bool {
			s.fatigue = max(s.fatigue-sleepEases, 0)
			return true
		}),
		"Hide": timed("Hide", 10, func() bool {
			s.fear = max(s.fear-hideEases, 0)
			return true
		}),
		"ArmUp": timed("ArmUp", 3, func() bool {
			s.armed = true
			return true
		}),
		"KeepWatch": timed("KeepWatch", 20, func() bool {
			s.watchUntil = c.tick + watchShift
			return true
		}),
		// Hunt is done on the way (perform while moving): it succeeds once
		// the herd is within bow range and fails if the herd is gone.
		"Hunt": agent.ResolverFuncs{
			TickFunc: func(*agent.ResolverAgent) agent.Status {
				if c.deer.count == 0 {
					return agent.Failure
				}
				if math.Hypot(c.deer.at.X-s.at.X, c.deer.at.Y-s.at.Y) > 8+1e-9 {
					return agent.Running
				}
				c.deer.count--
				s.carryingFood, s.load = true, deerLoad
				return succeed("Hunt")
			},
		},
		// Fight strikes every fourth tick while the raiders are within
		// reach, until they are beaten or gone: the action's effect is
		// that no raiders are left.
		"Fight": agent.ResolverFuncs{
			StartFunc: func(*agent.ResolverAgent) { s.busy = 0 },
			TickFunc: func(*agent.ResolverAgent) agent.Status {
				r := &c.raiders
				if !r.present {
					return succeed("Fight")
				}
				if math.Hypot(r.at.X-s.at.X, r.at.Y-s.at.Y) > 6 {
					return agent.Failure // they moved off: resolve again
				}
				if s.busy++; s.busy%4 == 0 {
					if r.strength--; r.strength == 0 {
						c.endRaid(true)
						return succeed("Fight")
					}
				}
				return agent.Running
			},
		},
	}
}

// look updates what the settler knows of the stocks: it is at the
// stockpile.
func (s *settler) look() { s.seenWood, s.seenFood = s.c.woodStock, s.c.foodStock }

// step advances the world by one tick: the raiders and the deer move,
// sites grow back, the fire burns, needs drift, every settler ticks, and
// the queue resolves its frame.
func (c *colony) step() {
	c.tick++
	c.moveRaiders()
	c.moveDeer()
	for _, group := range [][]*site{c.groves, c.patches, c.wells} {
		for _, st := range group {
			if st.amount < st.capacity && c.tick%st.regrow == 0 {
				st.amount++
			}
			if st.amount == 0 {
				c.emptySiteTicks++
			}
		}
	}
	if c.tick%30 == 0 && c.deer.count < 6 {
		c.deer.count++
	}
	c.burnt += len(c.settlers)
	for c.burnt >= burnPer {
		c.burnt -= burnPer
		if c.woodStock > 0 {
			c.woodStock--
			c.woodBurnt++
		} else {
			c.coldTicks++
		}
	}
	for _, s := range c.settlers {
		c.drift(s)
	}
	for _, s := range c.settlers {
		s.agent.Tick()
		if g := s.agent.Goal(); g != s.lastGoal {
			st := &c.stats[s.kind]
			if s.lastGoal != nil && !s.lastGoal.HoldsIn(s.agent.Snapshot().Values) {
				st.dropped++ // left unmet: thrashing, unless it was worth it
			}
			s.lastGoal = g
			st.goalChanges++
			if g != nil {
				st.chosen[c.goalIdx[g]]++
				if c.raiders.present {
					st.chosenRaid[c.goalIdx[g]]++
				}
			}
		}
	}
	c.queue.Frame()
	if c.ins != nil {
		c.ins.Frame(c.tick)
	}
}

// drift moves a settler's needs: hunger, thirst and fatigue grow at its
// own steady rates (steady, so that two needs close in score cross once,
// not back and forth), fear grows near the raiders (not in the refuge) and
// fades away from them.
func (c *colony) drift(s *settler) {
	for i, need := range []*int64{&s.hunger, &s.thirst, &s.fatigue} {
		if (c.tick+s.phase[i])%s.every[i] == 0 {
			*need = min(*need+1, needRange)
		}
	}
	near := c.raiders.present && math.Hypot(c.raiders.at.X-s.at.X, c.raiders.at.Y-s.at.Y) <= fearRadius
	safe := math.Hypot(c.refuge.X-s.at.X, c.refuge.Y-s.at.Y) <= 3
	switch {
	case near && !safe:
		s.fear = min(s.fear+fearPerTick, needRange)
	case s.fear > 0:
		s.fear--
	}
}

// moveRaiders brings a raid when it is due, walks the raiders to their
// grove, and sends them off when their time is up.
func (c *colony) moveRaiders() {
	r, w := &c.raiders, c.world
	if !r.present {
		if c.tick < r.next {
			return
		}
		// They come from a seeded direction, 70 m out, and make for a
		// seeded grove.
		from := c.groves[w.IntN(len(c.groves))].at
		dist := math.Hypot(from.X, from.Y)
		*r = raid{present: true, at: resolver.Point{X: from.X / dist * 70, Y: from.Y / dist * 70}, goal: from,
			strength: 10 + w.IntN(10), until: c.tick + 150 + w.IntN(150), raids: r.raids + 1, drivenOff: r.drivenOff, ticks: r.ticks}
		if c.opts.verbose { // at's string is made only to be said
			c.say("raiders come, %d strong, making for the grove at %s", r.strength, at(r.goal))
		}
	}
	r.ticks++
	if c.tick >= r.until {
		c.endRaid(false)
		return
	}
	dist := math.Hypot(r.goal.X-r.at.X, r.goal.Y-r.at.Y)
	if step := math.Min(0.6, dist); step > 0 {
		r.at.X += (r.goal.X - r.at.X) / dist * step
		r.at.Y += (r.goal.Y - r.at.Y) / dist * step
	}
}

// endRaid sends the raiders off, driven off or leaving, and schedules the
// next raid.
func (c *colony) endRaid(driven bool) {
	r := &c.raiders
	r.present = false
	if driven {
		r.drivenOff++
		c.say("raiders driven off")
	} else {
		c.say("raiders leave")
	}
	r.next = c.tick + 300 + c.world.IntN(400)
}

// moveDeer walks the herd a third of a metre a tick along its track,
// turning at each end.
func (c *colony) moveDeer() {
	h := &c.deer
	dist := math.Hypot(h.to.X-h.at.X, h.to.Y-h.at.Y)
	if dist < 0.34 {
		h.from, h.to = h.to, h.from
		return
	}
	h.at.X += (h.to.X - h.at.X) / dist / 3
	h.at.Y += (h.to.Y - h.at.Y) / dist / 3
}

// play runs the game for its ticks.
func (c *colony) play() {
	pace := time.Duration(c.opts.tickMS) * time.Millisecond
	for range c.opts.ticks {
		c.step()
		if pace > 0 {
			time.Sleep(pace)
		}
	}
}

// say writes a line about the world, with -v.
func (c *colony) say(format string, args ...any) {
	if c.opts.verbose {
		fmt.Fprintf(c.out, "%5d   %s\n", c.tick, fmt.Sprintf(format, args...))
	}
}

// narrate writes one event, with -v.
func (c *colony) narrate(e agent.Event) {
	var what string
	switch {
	case e.Kind == agent.PlanMade:
		what = fmt.Sprintf(" %s, cost %.1f", strings.Join(e.Plan, " → "), e.Cost)
	case e.Action != "":
		what = " " + e.Action
	case e.Goal != "":
		what = " " + e.Goal
	}
	if e.Reason != "" {
		what += " (" + e.Reason + ")"
	}
	fmt.Fprintf(c.out, "%5d %s %s%s\n", c.tick, e.Agent, e.Kind, what)
}

func at(p resolver.Point) string { return fmt.Sprintf("(%.1f,%.1f)", p.X, p.Y) }

// summary writes what each kind did and what became of the world.
func (c *colony) summary(w io.Writer) {
	o, d := c.opts, c.domain
	// Not the number of workers: the game is the same with any.
	fmt.Fprintf(w, "colony: %d settlers, %d ticks, seed %d\n", o.agents, c.tick, o.seed)
	fmt.Fprintf(w, "%-7s %6s %9s %8s %12s %10s %7s\n", "kind", "agents", "resolves", "no chain", "goal changes", "steps done", "failed")
	var plans [3]totals
	for _, s := range c.settlers {
		st := s.agent.Stats()
		t := &plans[s.kind]
		t.resolves += st.Plans
		t.noChain += st.NoPlan
		t.steps += st.StepsDone
		t.failed += st.ActionsFailed
	}
	for k, name := range kindNames {
		st, t := &c.stats[k], plans[k]
		fmt.Fprintf(w, "%-7s %6d %9d %8d %12d %10d %7d\n", name, st.agents, t.resolves, t.noChain, st.goalChanges, t.steps, t.failed)
	}
	// Per settler and 1 000 ticks, the measure of thrashing: how often a
	// settler changed its goal, and how often it left one unmet.
	var changes, dropped []string
	for k, name := range kindNames {
		st := &c.stats[k]
		if st.agents == 0 || c.tick == 0 {
			continue
		}
		per := func(n int) string { return fmt.Sprintf("%s %.1f", name, float64(n)*1000/float64(st.agents*c.tick)) }
		changes, dropped = append(changes, per(st.goalChanges)), append(dropped, per(st.dropped))
	}
	commitment := "each kind's commitment: in " + domainFile
	if o.noCommitment {
		commitment = "none (-commitment=false)"
	}
	fmt.Fprintf(w, "per settler and 1000 ticks, goal changes: %s; goals left unmet: %s; commitment: %s\n", strings.Join(changes, ", "), strings.Join(dropped, ", "), commitment)
	for k, name := range kindNames {
		st := &c.stats[k]
		if st.agents == 0 {
			continue
		}
		var goals, acts []string
		for i, g := range d.Goals() {
			if st.chosen[i] > 0 {
				goals = append(goals, fmt.Sprintf("%s %d", g.Name(), st.chosen[i]))
			}
		}
		for i, n := range st.done {
			if n > 0 {
				acts = append(acts, fmt.Sprintf("%s %d", d.ActionName(resolver.ActionID(i)), n))
			}
		}
		fmt.Fprintf(w, "%s goals chosen: %s\n", name, strings.Join(goals, ", "))
		fmt.Fprintf(w, "%s actions done: %s\n", name, strings.Join(acts, ", "))
	}
	fmt.Fprintf(w, "wood: %d in stock, %d hauled, %d burnt, fire out %d ticks\n", c.woodStock, c.woodIn, c.woodBurnt, c.coldTicks)
	fmt.Fprintf(w, "food: %d in stock, %d hauled, %d meals; deer %d\n", c.foodStock, c.foodIn, c.eaten, c.deer.count)
	fmt.Fprintf(w, "sites: %d groves, %d berry patches, %d wells; %d site-ticks empty\n", len(c.groves), len(c.patches), len(c.wells), c.emptySiteTicks)
	r := &c.raiders
	fmt.Fprintf(w, "raids: %d, %d driven off, raiders in the colony %d ticks\n", r.raids, r.drivenOff, r.ticks)
}

// totals are one kind's runtime statistics, summed.
type totals struct{ resolves, noChain, steps, failed int }

// writeRecording writes the flight recorder's decisions to path, with a
// header naming the file and its hash.
func (c *colony) writeRecording(path string, stdout io.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = c.flight.WriteJSONL(bw, agent.RecordHeader{Domain: domainFile, DomainHash: agent.DomainHash(c.source)})
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	held, dropped := c.flight.Len()
	fmt.Fprintf(stdout, "recording: %d decisions (%d dropped) in %s\n", held, dropped, path)
	return nil
}

// newQueue is the colony's queue: o.workers workers, a quarter of the
// settlers a frame (at least 16), and o.minShare requests a worker.
func newQueue(o options) *agent.Queue {
	q := agent.NewQueue(o.workers, max(16, o.agents/4))
	if o.minShare > 1 {
		q.SetMinShare(o.minShare)
	}
	return q
}
