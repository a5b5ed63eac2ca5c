package agent_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/resolver"
)

// countSensing wraps every target sensor of cfg to count its calls by
// target key.
func countSensing(cfg *agent.ResolverConfig) map[string]int {
	calls := map[string]int{}
	for name, sense := range cfg.Targets {
		cfg.Targets[name] = func(a *agent.ResolverAgent) agent.Where {
			calls[name]++
			return sense(a)
		}
	}
	return calls
}

// TestResolverTargetsSensedWhenNeeded: a resolve senses every target key
// once; a tick of a walk senses the walk's target once and no other; a
// tick that needs no target (a behaviour under way at its target) senses
// none. Before, every target was sensed every tick.
func TestResolverTargetsSensedWhenNeeded(t *testing.T) {
	c := newCamp(t)
	cfg := c.config(nil)
	c.ticks["GatherWoodSouth"] = 3
	calls := countSensing(&cfg)
	a := mustResolverAgent(t, cfg)

	// Tick 1 resolves GatherWoodSouth → LightFire → WarmUp, checks the
	// head and takes its first step south: each key sensed once, the
	// head's target (already sensed for the resolve) not again.
	a.Tick()
	for _, name := range []string{"wood_north", "wood_south", "fireplace", "berries", "deer"} {
		if calls[name] != 1 {
			t.Errorf("tick 1: %s sensed %d times, want 1 (the resolve)", name, calls[name])
		}
	}
	// Ticks 2 and 3 walk on (arriving on 3): the pile only, once a tick.
	tickResolver(a, 2)
	if calls["wood_south"] != 3 {
		t.Errorf("after the walk: wood_south sensed %d times, want 3 (once a tick)", calls["wood_south"])
	}
	for _, name := range []string{"wood_north", "fireplace", "berries", "deer"} {
		if calls[name] != 1 {
			t.Errorf("after the walk: %s sensed %d times, want 1: no step needed it", name, calls[name])
		}
	}
	// Tick 4: gathering, arrived; no target read.
	before := calls["wood_south"]
	a.Tick()
	if len(c.started) != 1 || !strings.HasPrefix(c.started[0], "GatherWoodSouth") {
		t.Fatalf("started %v", c.started)
	}
	if calls["wood_south"] != before {
		t.Errorf("at the pile, gathering: wood_south sensed again (%d → %d)", before, calls["wood_south"])
	}
}

// TestResolverTargetRefresh: a key kept for 3 ticks is sensed once in
// three ticks of a walk, and its kept answer is used as it is (the pile
// emptied on tick 2 is seen on tick 4, when it is sensed again); an
// UntilChanged key is sensed once over many resolves, and again after
// TargetChanged.
func TestResolverTargetRefresh(t *testing.T) {
	c := newCamp(t)
	c.piles["wood_south"].at = resolver.Point{Y: -6}
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.TargetRefresh = map[string]int{"wood_south": 3}
	calls := countSensing(&cfg)
	a := mustResolverAgent(t, cfg)
	a.Tick()
	c.piles["wood_south"].logs = 0 // emptied on tick 2, before the agent looks
	tickResolver(a, 2)
	if calls["wood_south"] != 1 {
		t.Errorf("3 ticks of a walk: wood_south sensed %d times, want 1 (kept 3 ticks)", calls["wood_south"])
	}
	if strings.Contains(kinds(&rec), "target_lost") {
		t.Fatalf("the kept answer was not used: %s", kinds(&rec))
	}
	a.Tick()
	if got := kinds(&rec); !strings.Contains(got, "target_lost(GatherWoodSouth: not found) action_failed(GatherWoodSouth: target lost)") {
		t.Fatalf("tick 4: %s", got)
	}
	if calls["wood_south"] != 2 {
		t.Errorf("tick 4: wood_south sensed %d times, want 2", calls["wood_south"])
	}

	c = newCamp(t)
	cfg = c.config(nil)
	cfg.Policy = agent.Policy{Kind: agent.Reactive} // a resolve after every step
	cfg.TargetRefresh = map[string]int{"fireplace": agent.UntilChanged}
	calls = countSensing(&cfg)
	a = mustResolverAgent(t, cfg)
	for range 20 {
		if a.Stats().Plans == 2 {
			break
		}
		a.Tick()
	}
	if s := a.Stats(); s.Plans != 2 || calls["fireplace"] != 1 {
		t.Fatalf("%d resolves, fireplace sensed %d times, want 1", s.Plans, calls["fireplace"])
	}
	if err := a.TargetChanged("fireplace"); err != nil {
		t.Fatal(err)
	}
	a.RequestReplan()
	a.Tick()
	if calls["fireplace"] != 2 {
		t.Errorf("after TargetChanged and a resolve: fireplace sensed %d times, want 2", calls["fireplace"])
	}
	if err := a.TargetChanged("firepalce"); err == nil || !strings.Contains(err.Error(), `TargetChanged("firepalce"): no such target key`) {
		t.Errorf("TargetChanged of an unknown key: %v", err)
	}

	for _, tc := range []struct {
		refresh map[string]int
		want    string
	}{
		{map[string]int{"dear": 2}, `TargetRefresh["dear"]: no target sensor for it in Targets`},
		{map[string]int{"deer": -2}, `TargetRefresh["deer"] is -2: want ticks (0 or 1: every tick) or agent.UntilChanged (-1)`},
	} {
		cfg := c.config(nil)
		cfg.TargetRefresh = tc.refresh
		if _, err := agent.NewResolverAgent(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("TargetRefresh %v: got %v, want %q", tc.refresh, err, tc.want)
		}
	}
}

// TestResolverTargetPositionChecked: a target sensor that answers a
// position that is not finite panics on the agent's goroutine, naming
// the agent and the target, now that targets are sensed apart from the
// snapshot's keys.
func TestResolverTargetPositionChecked(t *testing.T) {
	c := newCamp(t)
	cfg := c.config(nil)
	cfg.Targets["berries"] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(resolver.Point{X: math.NaN()}) }
	a := mustResolverAgent(t, cfg)
	defer func() {
		if msg, _ := recover().(string); !strings.Contains(msg, `agent "survivor": after sensing: resolver: target "berries"'s position`) {
			t.Errorf("panic %q", msg)
		}
	}()
	a.Tick()
	t.Error("no panic")
}

// TestResolverTargetVanishesOnTheWay: the survivor walks to the nearest
// southern pile; the sensor answers the nearest pile with logs, and that
// pile is emptied under its feet, so the sensor answers another pile.
// Before, the walk silently turned toward the other pile, on the cost of
// a chain resolved for the first; now the agent says target_lost (another
// target), its step ends, and it resolves again for "target lost", from
// where the targets are.
func TestResolverTargetVanishesOnTheWay(t *testing.T) {
	c := newCamp(t)
	near, far := &pile{at: resolver.Point{Y: -4}, logs: 3}, &pile{at: resolver.Point{X: 3, Y: -5}, logs: 3}
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Targets["wood_south"] = func(*agent.ResolverAgent) agent.Where {
		for _, p := range []*pile{near, far} {
			if p.logs > 0 {
				return agent.AtPoint(p.at)
			}
		}
		return agent.Where{}
	}
	a := mustResolverAgent(t, cfg)
	tickResolver(a, 2)
	near.logs = 0
	a.Tick()
	got := kinds(&rec)
	if !strings.Contains(got, "move_started(GatherWoodSouth) target_lost(GatherWoodSouth: another target) action_failed(GatherWoodSouth: target lost)") {
		t.Fatalf("events: %s", got)
	}
	for _, e := range rec.Events {
		if e.Kind == agent.TargetLost {
			if e.Tick != 3 || e.Target != "wood_south" || e.Reason != agent.LostAnotherTarget {
				t.Errorf("target_lost %+v, want tick 3, target wood_south, reason %q", e, agent.LostAnotherTarget)
			}
			line, _ := json.Marshal(e)
			if want := `{"tick":3,"agent":"survivor","kind":"target_lost","goal":"Warm","action":"GatherWoodSouth","target":"wood_south","reason":"another target"}`; string(line) != want {
				t.Errorf("JSON %s, want %s", line, want)
			}
		}
	}
	if c.at.Y != -2 {
		t.Errorf("at %v: the walk went on after the target was lost", c.at)
	}
	a.Tick()
	if got := kinds(&rec); !strings.Contains(got, "action_failed(GatherWoodSouth: target lost) replan(target lost) plan_made") {
		t.Fatalf("no replan for the lost target: %s", got)
	}
	if s := a.Stats(); s.ReplanReasons[agent.ReasonTargetLost] != 1 || s.ActionsFailed != 0 {
		t.Errorf("stats %+v", s)
	}
	// The new chain is priced from the far pile: the walk there from
	// (0,-2), not the 2 m left to the near one.
	var last agent.Event
	for _, e := range rec.Events {
		if e.Kind == agent.PlanMade {
			last = e
		}
	}
	if first := rec.Events[1]; last.Cost <= first.Cost {
		t.Errorf("replanned cost %g, first chain %g: the new chain is not priced from the far pile", last.Cost, first.Cost)
	}
	for range 8 {
		if len(c.started) > 0 {
			break
		}
		a.Tick()
	}
	if len(c.started) != 1 || !strings.HasPrefix(c.started[0], "GatherWoodSouth") || math.Hypot(c.at.X-far.at.X, c.at.Y-far.at.Y) > 1+1e-9 {
		t.Errorf("started %v at %v: the survivor did not gather at the far pile %v", c.started, c.at, far.at)
	}
}

// otherDeer is a second herd: an entity other than the camp's deer.
type otherDeer struct{ at resolver.Point }

func (d *otherDeer) Position() resolver.Point { return d.at }

// herdOf is an entity of a type Go cannot compare (it holds a slice).
type herdOf struct{ at []resolver.Point }

func (h herdOf) Position() resolver.Point { return h.at[0] }

// TestResolverEntityTargetLost: the hunter follows its deer while it
// moves (the same entity, not lost); when the sensor answers another
// herd, the hunt's target is lost; when it answers nothing, lost too. An
// entity of a type that cannot be compared is never taken for another
// (and never panics).
func TestResolverEntityTargetLost(t *testing.T) {
	for _, tc := range []struct {
		name string
		swap func(c *camp, current *agent.Entity)
		want string // the target_lost event, "" for none
	}{
		{"moves", func(c *camp, _ *agent.Entity) { c.deer.at.X += 0.5 }, ""},
		{"another herd", func(_ *camp, current *agent.Entity) { *current = &otherDeer{at: resolver.Point{X: 21}} }, "target_lost(Hunt: another target)"},
		{"gone", func(_ *camp, current *agent.Entity) { *current = nil }, "target_lost(Hunt: not found)"},
		{"incomparable", func(_ *camp, current *agent.Entity) { *current = herdOf{at: []resolver.Point{{X: 19}}} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCamp(t)
			c.values = map[string]int64{"warmth": 60, "hunger": 70}
			var rec agent.Recorder
			cfg := c.config(&rec)
			cfg.Targets["berries"] = func(*agent.ResolverAgent) agent.Where { return agent.Where{} }
			var current agent.Entity = c.deer
			if tc.name == "incomparable" {
				current = herdOf{at: []resolver.Point{{X: 20}}}
			}
			cfg.Targets["deer"] = func(*agent.ResolverAgent) agent.Where { return agent.OnEntity(current) }
			a := mustResolverAgent(t, cfg)
			tickResolver(a, 2)
			tc.swap(c, &current)
			a.Tick()
			got := kinds(&rec)
			if !strings.Contains(got, "step_started(Hunt)") {
				t.Fatalf("no hunt: %s", got)
			}
			lost := strings.Contains(got, "target_lost")
			if tc.want == "" && lost || tc.want != "" && !strings.Contains(got, tc.want+" action_failed(Hunt: target lost)") {
				t.Errorf("events: %s, want %q", got, tc.want)
			}
		})
	}
}

// TestResolverRecordingSensesNoKeptTarget: a decision recording does not
// change what the agent senses or does. A record of a goal choice writes
// the targets sensed every tick as they are now, but a kept answer as it
// stands: sensing it for the record would restart its time, and the agent
// with a recording would see the world at other ticks than the one
// without.
func TestResolverRecordingSensesNoKeptTarget(t *testing.T) {
	run := func(record bool) (string, map[string]int) {
		c := newCamp(t)
		var rec agent.Recorder
		cfg := c.config(&rec)
		cfg.TargetRefresh = map[string]int{"wood_north": 6, "deer": agent.UntilChanged}
		if record {
			cfg.Decisions = agent.NewFlightRecorder(100, 1<<20)
		}
		calls := countSensing(&cfg)
		a := mustResolverAgent(t, cfg)
		for tick := 1; tick <= 30; tick++ {
			if tick == 20 {
				c.values["warmth"] = 10 // cold again: a second resolve
			}
			a.Tick()
		}
		return kinds(&rec), calls
	}
	plain, plainCalls := run(false)
	recorded, recordedCalls := run(true)
	if plain != recorded {
		t.Errorf("events differ with a recording:\n without %s\n    with %s", plain, recorded)
	}
	if !strings.Contains(plain, "plan_done goal_chosen()") {
		t.Fatalf("no goal choice left the survivor without a goal, so nothing was recorded of one: %s", plain)
	}
	for _, key := range []string{"wood_north", "deer"} {
		if plainCalls[key] != recordedCalls[key] {
			t.Errorf("%s sensed %d times with a recording, %d without", key, recordedCalls[key], plainCalls[key])
		}
	}
}
