// Command survivor is the engine model's survivor in the runtime: several
// survivors share one domain (domains.Survivor) and one plan queue, each
// with its own capabilities and costs, in a tiny deterministic world (a
// fixed-step clock, a seeded drift of hunger).
//
//   - ada hunts: foraging is dear to her, so her chain to Fed is Hunt → Eat,
//     and Hunt is done while walking up to the deer (perform while moving).
//   - bo cannot hunt; he is cold and nearest the south pile, which has one
//     log left: he takes it and lights the fire.
//   - cy is cold too and heads for the south pile, which runs out while she
//     walks: her step ends (target lost) and she resolves again, from the
//     world as it then is, to the north pile.
//   - dov is wounded: he cannot gather wood, so he finds no chain to warmth
//     until someone has lit the fire; then his chain is WarmUp alone.
//   - eli stands near the north pile, which wins for him on distance; the
//     fire is lit while he walks back with the wood, so LightFire cannot
//     start and he warms up at the fire bo lit.
//
// The mover walks a metre a tick in a straight line and stops within each
// action's stopping distance.
package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// speed is how far a survivor walks in a tick, in metres.
const speed = 1.0

// Survivor is one character: its own key values and position.
type Survivor struct {
	Name    string
	About   string
	Agent   *agent.ResolverAgent
	At      resolver.Point
	Warmth  int64
	Hunger  int64
	HasWood bool
	HasFood bool
	busy    int // ticks the running behaviour has run
	camp    *Camp
}

// Pile is a wood pile.
type Pile struct {
	At   resolver.Point
	Logs int
}

// Deer is the hunters' quarry: an entity that walks while it is hunted.
type Deer struct{ At resolver.Point }

// Position returns where the deer is now.
func (d *Deer) Position() resolver.Point { return d.At }

// Camp is the world: one fire, two wood piles, berry bushes, a deer, the
// survivors, and the queue their chains are resolved through.
type Camp struct {
	Domain    *resolver.Domain
	Survivors []*Survivor
	Fireplace resolver.Point
	Berries   resolver.Point
	Piles     map[string]*Pile // by target key
	Deer      *Deer
	FireLit   bool
	Tick      int
	Events    agent.Recorder
	queue     *agent.Queue
	decisions agent.DecisionSink
	rng       *rand.Rand
	out       io.Writer
}

// survivorSpec is how a survivor starts.
type survivorSpec struct {
	name, about    string
	at             resolver.Point
	warmth, hunger int64
	profile        resolver.ProfileSpec
	policy         agent.Policy
}

// everyoneBut returns the names of d's actions but the ones given: a
// capabilities list.
func everyoneBut(d *resolver.Domain, not ...string) []string {
	var out []string
	for id := range d.NumActions() {
		name := d.ActionName(resolver.ActionID(id))
		if !strings.Contains(" "+strings.Join(not, " ")+" ", " "+name+" ") {
			out = append(out, name)
		}
	}
	return out
}

// NewCamp builds the world, writing what happens to out.
func NewCamp(seed uint64, out io.Writer) (*Camp, error) {
	return NewCampWith(seed, out, Setup{})
}

// Setup changes how the camp runs its survivors, for the tests: the queue
// their chains are resolved through (nil: two resolves a frame on two
// workers), or none (NoQueue: each resolves on its own tick), and a sink
// for their decision records.
type Setup struct {
	Queue     *agent.Queue
	NoQueue   bool
	Decisions agent.DecisionSink
}

// NewCampWith builds the world as NewCamp does, set up as setup says.
func NewCampWith(seed uint64, out io.Writer, setup Setup) (*Camp, error) {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		return nil, err
	}
	c := &Camp{
		Domain:    d,
		Fireplace: resolver.Point{},
		Berries:   resolver.Point{X: 8},
		Piles:     map[string]*Pile{"wood_north": {At: resolver.Point{Y: 12}, Logs: 5}, "wood_south": {At: resolver.Point{Y: -6}, Logs: 1}},
		Deer:      &Deer{At: resolver.Point{X: -16, Y: 6}},
		queue:     setup.Queue,
		decisions: setup.Decisions,
		rng:       rand.New(rand.NewPCG(seed, seed^0x5eed)),
		out:       out,
	}
	if c.queue == nil && !setup.NoQueue {
		c.queue = agent.NewQueue(2, 2) // two resolves a frame: some wait a tick
	}
	reactive := agent.Policy{Kind: agent.Reactive}
	for _, s := range []survivorSpec{
		{"ada", "a hunter: foraging costs her 12", resolver.Point{X: -4, Y: 2}, 60, 70, resolver.ProfileSpec{Costs: map[string]float64{"Forage": 12}}, reactive},
		{"bo", "a forager: cannot hunt", resolver.Point{X: 2, Y: -2}, 20, 20, resolver.ProfileSpec{Capabilities: everyoneBut(d, "Hunt")}, reactive},
		{"cy", "cannot hunt", resolver.Point{X: 3, Y: 1}, 25, 10, resolver.ProfileSpec{Capabilities: everyoneBut(d, "Hunt")}, reactive},
		{"dov", "wounded: cannot gather wood or hunt", resolver.Point{X: -1, Y: 1}, 10, 20, resolver.ProfileSpec{Capabilities: everyoneBut(d, "GatherWoodNorth", "GatherWoodSouth", "Hunt")}, agent.Policy{Kind: agent.Manual}},
		{"eli", "follows his chains to the end", resolver.Point{X: 1, Y: 9}, 30, 15, resolver.ProfileSpec{}, agent.Policy{Kind: agent.OnBreak}},
	} {
		if err := c.add(s); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *Camp) add(spec survivorSpec) error {
	d := c.Domain
	s := &Survivor{Name: spec.name, About: spec.about, At: spec.at, Warmth: spec.warmth, Hunger: spec.hunger, camp: c}
	prof, err := d.NewProfile(spec.profile)
	if err != nil {
		return err
	}
	targets := map[string]agent.TargetSensor{
		"fireplace": func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(c.Fireplace) },
		"berries":   func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(c.Berries) },
		"deer":      func(*agent.ResolverAgent) agent.Where { return agent.OnEntity(c.Deer) },
	}
	for name, p := range c.Piles {
		targets[name] = func(*agent.ResolverAgent) agent.Where {
			if p.Logs == 0 {
				return agent.Where{} // an empty pile is no target
			}
			return agent.AtPoint(p.At)
		}
	}
	a, err := agent.NewResolverAgent(agent.ResolverConfig{
		Name:    spec.name,
		Domain:  d,
		Profile: prof,
		Goals: []agent.ResolverGoal{
			{Goal: d.Goal("Warm"), Priority: 2},
			{Goal: d.Goal("Fed"), Priority: 1},
		},
		Behaviours: s.behaviours(),
		Sensor:     s.sense,
		Targets:    targets,
		Mover:      s,
		Policy:     spec.policy,
		RetryAfter: 3,
		Queue:      c.queue,
		Decisions:  c.decisions,
		OnEvent: func(e agent.Event) {
			c.Events.Record(e)
			c.narrate(s, e)
		},
	})
	if err != nil {
		return err
	}
	s.Agent = a
	c.Survivors = append(c.Survivors, s)
	return nil
}

// sense is the survivor's world sensor: its own values, the camp's fire.
func (s *Survivor) sense(_ *agent.ResolverAgent, snap *resolver.Snapshot) {
	d := s.camp.Domain
	set := func(key string, v int64) {
		k, _ := d.Key(key)
		snap.Values[k] = v
	}
	set("warmth", s.Warmth)
	set("hunger", s.Hunger)
	set("has_wood", b(s.HasWood))
	set("has_food", b(s.HasFood))
	set("fire_lit", b(s.camp.FireLit))
	snap.At = s.At
}

func b(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

// MoveToward is the survivor's mover: a metre a tick in a straight line,
// stopping within stop of the target.
func (s *Survivor) MoveToward(target resolver.Point, stop float64) agent.MoveStatus {
	dist := math.Hypot(target.X-s.At.X, target.Y-s.At.Y)
	if dist <= stop+1e-9 {
		return agent.Arrived
	}
	step := math.Min(speed, dist-stop)
	s.At.X += (target.X - s.At.X) / dist * step
	s.At.Y += (target.Y - s.At.Y) / dist * step
	if dist-step <= stop+1e-9 {
		return agent.Arrived
	}
	return agent.Moving
}

// behaviours are the survivor's actions: each runs for a few ticks and
// then changes the world as its action says.
func (s *Survivor) behaviours() map[string]agent.ResolverBehaviour {
	c := s.camp
	timed := func(ticks int, done func() agent.Status) agent.ResolverBehaviour {
		return agent.ResolverFuncs{
			StartFunc: func(*agent.ResolverAgent) { s.busy = 0 },
			TickFunc: func(*agent.ResolverAgent) agent.Status {
				if s.busy++; s.busy < ticks {
					return agent.Running
				}
				return done()
			},
		}
	}
	gather := func(key string) agent.ResolverBehaviour {
		return timed(2, func() agent.Status {
			p := c.Piles[key]
			if p.Logs == 0 {
				return agent.Failure
			}
			p.Logs--
			s.HasWood = true
			if p.Logs == 0 {
				c.say("the %s pile is empty", strings.TrimPrefix(key, "wood_"))
			}
			return agent.Success
		})
	}
	return map[string]agent.ResolverBehaviour{
		"GatherWoodNorth": gather("wood_north"),
		"GatherWoodSouth": gather("wood_south"),
		"LightFire": timed(2, func() agent.Status {
			s.HasWood, c.FireLit = false, true
			c.say("%s lights the fire", s.Name)
			return agent.Success
		}),
		"WarmUp": timed(3, func() agent.Status { s.Warmth += 30; return agent.Success }),
		"Forage": timed(2, func() agent.Status { s.HasFood = true; return agent.Success }),
		"Hunt":   timed(3, func() agent.Status { s.HasFood = true; return agent.Success }),
		"Eat":    timed(1, func() agent.Status { s.Hunger = max(s.Hunger-50, 0); s.HasFood = false; return agent.Success }),
	}
}

// Step advances the world by one tick: the deer walks, hunger grows now
// and then (by a seeded amount), every survivor ticks, and the queue
// resolves its frame.
func (c *Camp) Step() {
	c.Tick++
	c.Deer.At.X -= 0.25
	if c.Tick%8 == 0 {
		for _, s := range c.Survivors {
			s.Hunger += int64(2 + c.rng.IntN(5))
		}
	}
	for _, s := range c.Survivors {
		s.Agent.Tick()
	}
	if c.queue != nil {
		c.queue.Frame()
	}
}

func (c *Camp) say(format string, args ...any) {
	fmt.Fprintf(c.out, "%3d   %s\n", c.Tick, fmt.Sprintf(format, args...))
}

// narrate writes one line per event a person wants to read.
func (c *Camp) narrate(s *Survivor, e agent.Event) {
	d := c.Domain
	var line string
	switch e.Kind {
	case agent.GoalChosen:
		if e.Goal == "" {
			line = "has nothing to pursue"
		} else {
			line = "wants " + e.Goal
		}
	case agent.PlanMade:
		line = fmt.Sprintf("chain %s, cost %.1f", strings.Join(e.Plan, " → "), e.Cost)
	case agent.NoPlanFound:
		line = fmt.Sprintf("finds no chain to %s (%s)", e.Goal, e.Reason)
	case agent.Replanned:
		line = "resolves again: " + e.Reason
	case agent.MoveStarted:
		id, _ := d.ActionByName(e.Action)
		line = fmt.Sprintf("walks from %s toward %s for %s", at(s.At), d.Targets()[d.ActionTarget(id)], e.Action)
	case agent.TargetReached:
		line = fmt.Sprintf("reaches %s for %s", at(s.At), e.Action)
	case agent.StepStarted:
		line = fmt.Sprintf("starts %s at %s", e.Action, at(s.At))
	case agent.StepDone:
		line = fmt.Sprintf("finishes %s (warmth %d, hunger %d)", e.Action, s.Warmth, s.Hunger)
	case agent.ActionFailed:
		line = fmt.Sprintf("drops %s: %s", e.Action, e.Reason)
	case agent.PlanDone:
		line = "chain done"
	default:
		return
	}
	fmt.Fprintf(c.out, "%3d %-3s %s\n", c.Tick, s.Name, line)
}

func at(p resolver.Point) string { return fmt.Sprintf("(%.1f,%.1f)", p.X, p.Y) }

// Run writes the camp's first ticks to out, then each survivor's state
// and statistics.
func Run(seed uint64, ticks int, out io.Writer) (*Camp, error) {
	c, err := NewCamp(seed, out)
	if err != nil {
		return nil, err
	}
	for _, s := range c.Survivors {
		fmt.Fprintf(out, "%-3s at %s, warmth %d, hunger %d: %s\n", s.Name, at(s.At), s.Warmth, s.Hunger, s.About)
	}
	for range ticks {
		c.Step()
	}
	fmt.Fprintf(out, "after %d ticks (fire lit: %v; north pile %d logs, south %d):\n", c.Tick, c.FireLit, c.Piles["wood_north"].Logs, c.Piles["wood_south"].Logs)
	for _, s := range c.Survivors {
		st := s.Agent.Stats()
		fmt.Fprintf(out, "%-3s warmth %d, hunger %d; %d resolves, %d steps, %d times no chain, replans %v\n",
			s.Name, s.Warmth, s.Hunger, st.Plans, st.StepsDone, st.NoPlan, reasons(st.ReplanReasons))
	}
	return c, nil
}

// reasons prints a replan-reason map in a fixed order.
func reasons(m map[string]int) string {
	var parts []string
	for _, r := range []string{agent.ReasonStepEnded, agent.ReasonPlanDone, agent.ReasonNoPlan, agent.ReasonGoalChanged, agent.ReasonPrecondition, agent.ReasonTargetLost, agent.ReasonActionFailed, agent.ReasonNoEffect} {
		if m[r] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r, m[r]))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func main() {
	if _, err := Run(3, 40, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
