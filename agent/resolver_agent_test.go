package agent_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// camp is a small survivor world for resolver agents: one survivor, key
// values by name, places and wood piles, a deer that walks east, and a
// mover that walks a metre a tick in a straight line.
type camp struct {
	d       *resolver.Domain
	values  map[string]int64
	at      resolver.Point
	piles   map[string]*pile
	places  map[string]resolver.Point
	deer    *deer
	blocked bool           // the mover cannot move
	ticks   map[string]int // ticks each behaviour runs, default 1
	left    int
	started []string // behaviours started, with the tick and position
	moves   int      // MoveToward calls
}

type pile struct {
	at   resolver.Point
	logs int
}

type deer struct{ at resolver.Point }

func (d *deer) Position() resolver.Point { return d.at }

func newCamp(t testing.TB) *camp {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	return &camp{
		d:      d,
		values: map[string]int64{"warmth": 20, "hunger": 10},
		piles:  map[string]*pile{"wood_north": {at: resolver.Point{Y: 10}, logs: 3}, "wood_south": {at: resolver.Point{Y: -4}, logs: 3}},
		places: map[string]resolver.Point{"fireplace": {Y: 2}, "berries": {X: 5}},
		deer:   &deer{at: resolver.Point{X: 20}},
		ticks:  map[string]int{},
	}
}

func (c *camp) sensor(_ *agent.ResolverAgent, s *resolver.Snapshot) {
	for name, v := range c.values {
		k, _ := c.d.Key(name)
		s.Values[k] = v
	}
	s.At = c.at
}

func (c *camp) targets() map[string]agent.TargetSensor {
	out := map[string]agent.TargetSensor{}
	for name, p := range c.piles {
		out[name] = func(*agent.ResolverAgent) agent.Where {
			if p.logs == 0 {
				return agent.Where{}
			}
			return agent.AtPoint(p.at)
		}
	}
	for name, at := range c.places {
		out[name] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(at) }
	}
	out["deer"] = func(*agent.ResolverAgent) agent.Where { return agent.OnEntity(c.deer) }
	return out
}

// MoveToward walks a metre toward target, stopping at stop from it.
func (c *camp) MoveToward(target resolver.Point, stop float64) agent.MoveStatus {
	c.moves++
	dist := math.Hypot(target.X-c.at.X, target.Y-c.at.Y)
	if dist <= stop+1e-9 {
		return agent.Arrived
	}
	if c.blocked {
		return agent.MoveFailed
	}
	step := math.Min(1, dist-stop)
	c.at.X += (target.X - c.at.X) / dist * step
	c.at.Y += (target.Y - c.at.Y) / dist * step
	if dist-step <= stop+1e-9 {
		return agent.Arrived
	}
	return agent.Moving
}

// behaviours run for their ticks, then do what the action says to the
// world.
func (c *camp) behaviours() map[string]agent.ResolverBehaviour {
	effect := map[string]func(){
		"GatherWoodNorth": func() { c.piles["wood_north"].logs--; c.values["has_wood"] = 1 },
		"GatherWoodSouth": func() { c.piles["wood_south"].logs--; c.values["has_wood"] = 1 },
		"LightFire":       func() { c.values["has_wood"], c.values["fire_lit"] = 0, 1 },
		"WarmUp":          func() { c.values["warmth"] += 40 },
		"Forage":          func() { c.values["has_food"] = 1 },
		"Hunt":            func() { c.values["has_food"] = 1 },
		"Eat":             func() { c.values["hunger"] -= 60; c.values["has_food"] = 0 },
	}
	out := map[string]agent.ResolverBehaviour{}
	for name, apply := range effect {
		out[name] = agent.ResolverFuncs{
			StartFunc: func(a *agent.ResolverAgent) {
				c.started = append(c.started, fmt.Sprintf("%s@%d(%g,%g)", name, a.Now(), c.at.X, c.at.Y))
				c.left = max(c.ticks[name], 1)
			},
			TickFunc: func(*agent.ResolverAgent) agent.Status {
				if c.left--; c.left > 0 {
					return agent.Running
				}
				apply()
				return agent.Success
			},
		}
	}
	return out
}

func (c *camp) config(rec *agent.Recorder) agent.ResolverConfig {
	cfg := agent.ResolverConfig{
		Name:   "survivor",
		Domain: c.d,
		Goals: []agent.ResolverGoal{
			{Goal: c.d.Goal("Warm"), Priority: 2},
			{Goal: c.d.Goal("Fed"), Priority: 1},
		},
		Behaviours: c.behaviours(),
		Sensor:     c.sensor,
		Targets:    c.targets(),
		Mover:      c,
		RetryAfter: 3,
	}
	if rec != nil {
		cfg.OnEvent = rec.Record
	}
	return cfg
}

func mustResolverAgent(t testing.TB, cfg agent.ResolverConfig) *agent.ResolverAgent {
	t.Helper()
	a, err := agent.NewResolverAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func tickResolver(a *agent.ResolverAgent, ticks int) {
	for range ticks {
		a.Tick()
	}
}

// TestResolverAgentWalksAndWarmsUp: a cold survivor resolves GatherWoodSouth
// → LightFire → WarmUp (the south pile is nearer), walks to each target
// through the mover before performing, and is warm at the end.
func TestResolverAgentWalksAndWarmsUp(t *testing.T) {
	c := newCamp(t)
	var rec agent.Recorder
	a := mustResolverAgent(t, c.config(&rec))
	tickResolver(a, 30)
	want := "goal_chosen(Warm) plan_made move_started(GatherWoodSouth) target_reached(GatherWoodSouth) step_started(GatherWoodSouth) step_done(GatherWoodSouth) " +
		"move_started(LightFire) target_reached(LightFire) step_started(LightFire) step_done(LightFire) " +
		"move_started(WarmUp) target_reached(WarmUp) step_started(WarmUp) step_done(WarmUp) plan_done goal_chosen()"
	if got := kinds(&agent.Recorder{Events: rec.Events}); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	if rec.Events[1].Cost != 9 || strings.Join(rec.Events[1].Plan, " ") != "GatherWoodSouth LightFire WarmUp" {
		t.Errorf("plan %v cost %g, want the south pile's chain at 9", rec.Events[1].Plan, rec.Events[1].Cost)
	}
	// Within a metre of the pile (3 m south) and of the fireplace; WarmUp's
	// stopping distance is 2 m, so it starts where LightFire left it.
	if got := strings.Join(c.started, " "); got != "GatherWoodSouth@3(0,-3) LightFire@7(0,1) WarmUp@8(0,1)" {
		t.Errorf("behaviours started %s", got)
	}
	if c.values["warmth"] != 60 || c.values["fire_lit"] != 1 || a.Goal() != nil {
		t.Errorf("world %v, goal %v", c.values, a.Goal())
	}
}

// TestResolverHeadCheckedBeforeItStarts: under OnBreak the agent follows
// its chain's tail, but each step's conditions are checked on the live
// snapshot before it starts. Someone else lights the fire while the
// survivor gathers wood: LightFire (which needs the fire out) does not
// start, and the next resolve plans from the world as it then is: WarmUp
// alone.
func TestResolverHeadCheckedBeforeItStarts(t *testing.T) {
	c := newCamp(t)
	c.ticks["GatherWoodSouth"] = 2
	var rec agent.Recorder
	a := mustResolverAgent(t, c.config(&rec))
	tickResolver(a, 4) // walking, then gathering
	c.values["fire_lit"] = 1
	tickResolver(a, 10)
	got := kinds(&rec)
	if !strings.Contains(got, "step_done(GatherWoodSouth) action_failed(LightFire: preconditions failed) replan(preconditions failed) plan_made") {
		t.Fatalf("events: %s", got)
	}
	last := rec.Events[0]
	for _, e := range rec.Events {
		if e.Kind == agent.PlanMade {
			last = e
		}
	}
	if strings.Join(last.Plan, " ") != "WarmUp" {
		t.Errorf("replanned %v, want WarmUp alone", last.Plan)
	}
	for _, s := range c.started {
		if strings.HasPrefix(s, "LightFire") {
			t.Errorf("LightFire started although the fire was lit: %v", c.started)
		}
	}
	if s := a.Stats(); s.ActionsFailed != 0 || s.ReplanReasons[agent.ReasonPrecondition] != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestResolverPolicies: OnBreak follows the tail without resolving again;
// Reactive resolves after every step; Proactive also on its interval;
// Manual only when asked, and still when there is nothing left to do.
func TestResolverPolicies(t *testing.T) {
	var rec agent.Recorder
	stats := func(p agent.Policy, setup func(*camp), ticks int, request int) agent.Stats {
		c := newCamp(t)
		if setup != nil {
			setup(c)
		}
		rec = agent.Recorder{}
		cfg := c.config(&rec)
		cfg.Policy = p
		a := mustResolverAgent(t, cfg)
		for tick := 1; tick <= ticks; tick++ {
			if tick == request {
				a.RequestReplan()
			}
			a.Tick()
		}
		return a.Stats()
	}
	if s := stats(agent.Policy{Kind: agent.OnBreak}, nil, 30, 0); s.Replans != 0 || s.StepsDone != 3 {
		t.Errorf("on-break: %+v, want 3 steps and no replan", s)
	}
	if s := stats(agent.Policy{Kind: agent.Reactive}, nil, 30, 0); s.ReplanReasons[agent.ReasonStepEnded] != 2 || s.Replans != 2 || s.StepsDone != 3 {
		t.Errorf("reactive: %+v, want a resolve after each of the first two steps", s)
	}
	// The walk to the north pile (only one with logs) is long: the
	// proactive resolves come during it, and keep the walk going.
	north := func(c *camp) { c.piles["wood_south"].logs = 0 }
	if s := stats(agent.Policy{Kind: agent.Proactive, Interval: 3}, north, 8, 0); s.ReplanReasons[agent.ReasonProactive] != 2 || s.StepsDone != 0 {
		t.Errorf("proactive: %+v, want 2 interval resolves during the walk", s)
	}
	if got := kinds(&rec); strings.Count(got, "move_started") != 1 || strings.Count(got, "plan_made") != 3 {
		t.Errorf("proactive: %s; want the walk kept through the resolves", got)
	}
	if s := stats(agent.Policy{Kind: agent.Manual}, nil, 30, 6); s.ReplanReasons[agent.ReasonRequested] != 1 || s.Replans != 1 {
		t.Errorf("manual: %+v, want exactly the requested resolve", s)
	}
	// WarmUp raises warmth by 40 a time: from -30 the chain leaves the
	// survivor at 10, and Manual resolves again with nothing to do.
	cold := func(c *camp) { c.values["warmth"] = -30 }
	if s := stats(agent.Policy{Kind: agent.Manual}, cold, 30, 0); s.ReplanReasons[agent.ReasonPlanDone] != 1 {
		t.Errorf("manual: %+v, want a resolve when the chain ran out", s)
	}
}

// TestResolverMoveModes defines both modes by what a behaviour sees:
// MoveThenPerform starts the behaviour only on arrival; PerformWhileMoving
// starts it at once, and the step completes only once the agent is within
// the stopping distance of the target, though the behaviour succeeded
// earlier. The deer is an entity: the mover follows where it is now.
func TestResolverMoveModes(t *testing.T) {
	c := newCamp(t)
	c.values = map[string]int64{"warmth": 60, "hunger": 70}
	var rec agent.Recorder
	cfg := c.config(&rec)
	// No berries to be found: the survivor hunts.
	cfg.Targets["berries"] = func(*agent.ResolverAgent) agent.Where { return agent.Where{} }
	a := mustResolverAgent(t, cfg)
	var huntDone int
	for tick := 1; tick <= 20; tick++ {
		c.deer.at.X += 0.25 // the deer ambles east
		a.Tick()
		for _, e := range rec.Events {
			if e.Kind == agent.StepDone && e.Action == "Hunt" && huntDone == 0 {
				huntDone = e.Tick
			}
		}
	}
	// Hunt starts at once, at the origin; the behaviour succeeds on the
	// first tick but the deer is 20 m away: the step is done on the first
	// tick the survivor is within 10 m of where the deer then is, closing
	// 0.75 m a tick.
	if !strings.HasPrefix(strings.Join(c.started, " "), "Hunt@1(0,0)") {
		t.Fatalf("started %v, want Hunt at once, where the survivor stands", c.started)
	}
	want := 0
	for tick, gap := 1, 20.0; ; tick++ {
		gap += 0.25 - 1
		if gap <= 10+1e-9 {
			want = tick
			break
		}
	}
	if huntDone != want {
		t.Errorf("Hunt done at tick %d, want %d (within 10 m of the moving deer)", huntDone, want)
	}
	// The other mode, step by step: GatherWoodSouth's behaviour does not
	// start until the survivor is within a metre of the pile.
	c = newCamp(t)
	a = mustResolverAgent(t, c.config(nil))
	for tick := 1; tick <= 2; tick++ {
		a.Tick()
		if len(c.started) != 0 || !a.Moving() {
			t.Fatalf("tick %d: started %v, moving %v, at %v", tick, c.started, a.Moving(), c.at)
		}
	}
	a.Tick()
	if len(c.started) != 1 || c.at.Y != -3 || a.Moving() {
		t.Fatalf("on arrival: started %v at %v", c.started, c.at)
	}
}

// TestResolverTargetLostAndMoveFailed: the pile the survivor walks to runs
// out on the way, so the step ends and the next resolve picks the other
// pile; a mover that cannot get there fails the step.
func TestResolverTargetLostAndMoveFailed(t *testing.T) {
	c := newCamp(t)
	var rec agent.Recorder
	a := mustResolverAgent(t, c.config(&rec))
	tickResolver(a, 2)
	c.piles["wood_south"].logs = 0 // someone took the last logs
	tickResolver(a, 2)
	got := kinds(&rec)
	if !strings.Contains(got, "target_lost(GatherWoodSouth: not found) action_failed(GatherWoodSouth: target lost) replan(target lost) plan_made move_started(GatherWoodNorth)") {
		t.Fatalf("events: %s", got)
	}
	if s := a.Stats(); s.ActionsFailed != 0 || s.ReplanReasons[agent.ReasonTargetLost] != 1 {
		t.Errorf("stats %+v", s)
	}

	// A walk that takes longer than the step's timeout.
	c = newCamp(t)
	c.piles["wood_south"].logs = 0
	rec = agent.Recorder{}
	cfg := c.config(&rec)
	cfg.Timeouts = map[string]int{"GatherWoodNorth": 4}
	a = mustResolverAgent(t, cfg)
	tickResolver(a, 5)
	if got := kinds(&rec); !strings.Contains(got, "move_started(GatherWoodNorth) action_failed(GatherWoodNorth: timeout)") || a.Stats().ActionsFailed != 1 {
		t.Fatalf("timeout: %s, %+v", got, a.Stats())
	}

	c = newCamp(t)
	c.blocked = true
	rec = agent.Recorder{}
	a = mustResolverAgent(t, c.config(&rec))
	a.Tick()
	if got := kinds(&rec); !strings.Contains(got, "move_started(GatherWoodSouth) action_failed(GatherWoodSouth: move failed)") || a.Stats().ActionsFailed != 1 {
		t.Fatalf("blocked: %s, %+v", got, a.Stats())
	}
}

// TestResolverCapabilities: agents with different profiles over one
// domain choose differently: one who cannot gather wood finds no chain to
// warmth (and waits) until another has lit the fire; a hunter who prices
// foraging dear hunts.
func TestResolverCapabilities(t *testing.T) {
	c := newCamp(t)
	wounded, err := c.d.NewProfile(resolver.ProfileSpec{Capabilities: []string{"LightFire", "WarmUp", "Forage", "Eat"}})
	if err != nil {
		t.Fatal(err)
	}
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Profile = wounded
	a := mustResolverAgent(t, cfg)
	tickResolver(a, 2)
	if got := kinds(&rec); got != "goal_chosen(Warm) no_plan(no plan)" {
		t.Fatalf("wounded: %s", got)
	}
	c.values["fire_lit"] = 1
	tickResolver(a, 10)
	if c.values["warmth"] != 60 || c.piles["wood_south"].logs != 3 {
		t.Errorf("wounded: world %v, south logs %d", c.values, c.piles["wood_south"].logs)
	}

	c = newCamp(t)
	c.values = map[string]int64{"warmth": 60, "hunger": 70}
	hunter, _ := c.d.NewProfile(resolver.ProfileSpec{Costs: map[string]float64{"Forage": 20}})
	rec = agent.Recorder{}
	cfg = c.config(&rec)
	cfg.Profile = hunter
	mustResolverAgent(t, cfg).Tick()
	if p := rec.Events[1].Plan; strings.Join(p, " ") != "Hunt Eat" {
		t.Errorf("hunter: %v", p)
	}
}

func TestResolverConfigErrors(t *testing.T) {
	c := newCamp(t)
	other, _ := resolver.NewDomain(domains.Shopkeeper())
	for _, tc := range []struct {
		change func(*agent.ResolverConfig)
		want   string
	}{
		{func(cfg *agent.ResolverConfig) { cfg.Domain = nil }, `agent "survivor": no domain`},
		{func(cfg *agent.ResolverConfig) { cfg.Sensor = nil }, "no sensor"},
		{func(cfg *agent.ResolverConfig) { delete(cfg.Behaviours, "Eat") }, `no behaviour for action "Eat"`},
		{func(cfg *agent.ResolverConfig) { cfg.Behaviours["Eats"] = agent.ResolverFuncs{} }, `behaviour for unknown action "Eats"; did you mean "Eat"?`},
		{func(cfg *agent.ResolverConfig) { delete(cfg.Targets, "deer") }, `no target sensor for "deer", the target of action "Hunt"`},
		{func(cfg *agent.ResolverConfig) { cfg.Targets["dear"] = cfg.Targets["deer"] }, `target sensor for "dear", which no action targets`},
		{func(cfg *agent.ResolverConfig) { cfg.Mover = nil }, `no mover, and action "GatherWoodNorth" happens at target "wood_north"`},
		{func(cfg *agent.ResolverConfig) { cfg.Goals = nil }, "needs goals"},
		{func(cfg *agent.ResolverConfig) { cfg.Goals[1].Goal = other.Goal("ServeCustomer") }, `Goals[1] ("ServeCustomer") was made for another domain`},
		{func(cfg *agent.ResolverConfig) { cfg.Policy = agent.Policy{Kind: agent.Proactive} }, "needs an Interval"},
		{func(cfg *agent.ResolverConfig) { cfg.Budget = -1 }, "Budget is -1"},
		{func(cfg *agent.ResolverConfig) { cfg.Timeouts = map[string]int{"Hunt": -2} }, `Timeouts["Hunt"] is -2`},
		{func(cfg *agent.ResolverConfig) {
			p, _ := other.NewProfile(resolver.ProfileSpec{})
			cfg.Profile = p
		}, "profile was made for another domain"},
	} {
		cfg := c.config(nil)
		tc.change(&cfg)
		_, err := agent.NewResolverAgent(cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
	// A profile that cannot hunt needs neither a Hunt behaviour nor a deer.
	cfg := c.config(nil)
	cfg.Profile, _ = c.d.NewProfile(resolver.ProfileSpec{Capabilities: []string{"GatherWoodNorth", "GatherWoodSouth", "LightFire", "WarmUp", "Forage", "Eat"}})
	delete(cfg.Behaviours, "Hunt")
	delete(cfg.Targets, "deer")
	if _, err := agent.NewResolverAgent(cfg); err != nil {
		t.Errorf("incapable of hunting: %v", err)
	}
}

// TestResolverSensorMistakesPanicClearly: a sensor that writes 2 into a
// boolean key is a bug in the game, caught on the agent's goroutine with
// the agent's name rather than on a worker.
func TestResolverSensorMistakesPanicClearly(t *testing.T) {
	c := newCamp(t)
	c.values["fire_lit"] = 2
	a := mustResolverAgent(t, c.config(nil))
	defer func() {
		if msg, _ := recover().(string); !strings.Contains(msg, `agent "survivor": after sensing: resolver: boolean key "fire_lit" has value 2`) {
			t.Errorf("panic %q", msg)
		}
	}()
	a.Tick()
	t.Error("no panic")
}

// TestResolverSetProfileChecksWhatItEnables: a profile that makes the
// agent capable of an action it has no behaviour, target sensor or mover
// for is refused at SetProfile, naming what is missing, and not met later
// as a nil behaviour in the middle of a chain.
func TestResolverSetProfileChecksWhatItEnables(t *testing.T) {
	c := newCamp(t)
	cfg := c.config(nil)
	cfg.Profile, _ = c.d.NewProfile(resolver.ProfileSpec{Capabilities: []string{"GatherWoodNorth", "GatherWoodSouth", "LightFire", "WarmUp", "Forage", "Eat"}})
	delete(cfg.Behaviours, "Hunt")
	delete(cfg.Targets, "deer")
	a := mustResolverAgent(t, cfg)
	a.SetProfile(cfg.Profile) // the same capabilities: fine
	hunter, _ := c.d.NewProfile(resolver.ProfileSpec{Capabilities: []string{"Hunt", "Eat"}})
	for _, p := range []*resolver.Profile{nil, hunter} {
		func() {
			defer func() {
				if msg, _ := recover().(string); msg != `agent "survivor": SetProfile: no behaviour for action "Hunt"` {
					t.Errorf("panic %q", msg)
				}
			}()
			a.SetProfile(p)
			t.Error("no panic")
		}()
	}
}

// TestResolverEffectsChecked: a step whose behaviour succeeds but leaves
// its boolean effect unmet (the pile gave no wood) breaks the chain with
// effects did not hold, counted as a failed action, and the agent
// resolves again.
func TestResolverEffectsChecked(t *testing.T) {
	c := newCamp(t)
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Behaviours["GatherWoodSouth"] = agent.ResolverFuncs{} // succeeds, changes nothing
	a := mustResolverAgent(t, cfg)
	tickResolver(a, 5)
	got := kinds(&rec)
	if !strings.Contains(got, "step_started(GatherWoodSouth) action_failed(GatherWoodSouth: "+agent.ReasonNoEffect+") replan("+agent.ReasonNoEffect+") plan_made") {
		t.Fatalf("events: %s", got)
	}
	if s := a.Stats(); s.ActionsFailed == 0 || s.StepsDone != 0 || s.ReplanReasons[agent.ReasonNoEffect] == 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestResolverGoalKeptOnATie: the current goal is kept while no other
// scores strictly more, as a GOAP agent's is, even when the other is the
// earlier option.
func TestResolverGoalKeptOnATie(t *testing.T) {
	c := newCamp(t)
	c.values["hunger"] = 70
	var rec agent.Recorder
	cfg := c.config(&rec)
	fed := 2.0
	cfg.Goals[0].Utility = func(*agent.ResolverAgent) float64 { return 1 }
	cfg.Goals[1].Utility = func(*agent.ResolverAgent) float64 { return fed }
	a := mustResolverAgent(t, cfg)
	a.Tick()
	if a.Goal() == nil || a.Goal().Name() != "Fed" {
		t.Fatalf("goal %v, want Fed, which scores more", a.Goal())
	}
	fed = 1 // a tie with Warm, the earlier option: Fed is kept
	tickResolver(a, 3)
	if a.Goal() == nil || a.Goal().Name() != "Fed" {
		t.Errorf("goal %v after a tie, want Fed kept", a.Goal())
	}
	fed = 0.5
	a.Tick()
	if a.Goal() == nil || a.Goal().Name() != "Warm" {
		t.Errorf("goal %v, want Warm, which now scores more", a.Goal())
	}
}
