package agentfile_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// camp is the survivor file's world at its smallest: key values by name,
// every target where the survivor stands, and behaviours that take one
// tick and then do what their action says.
type camp struct {
	d      *resolver.Domain
	values map[string]int64
}

func (c *camp) sensor(_ *agent.ResolverAgent, s *resolver.Snapshot) {
	for name, v := range c.values {
		k, _ := c.d.Key(name)
		s.Values[k] = v
	}
}

// MoveToward is never needed: every target is where the survivor stands.
func (c *camp) MoveToward(resolver.Point, float64) agent.MoveStatus { return agent.Arrived }

func (c *camp) config(rec *agent.Recorder) agent.ResolverConfig {
	effect := map[string]func(){
		"GatherWoodNorth": func() { c.values["has_wood"] = 1 },
		"GatherWoodSouth": func() { c.values["has_wood"] = 1 },
		"LightFire":       func() { c.values["has_wood"], c.values["fire_lit"] = 0, 1 },
		"WarmUp":          func() { c.values["warmth"] += 40 },
		"Forage":          func() { c.values["has_food"] = 1 },
		"Hunt":            func() { c.values["has_food"] = 1 },
		"Eat":             func() { c.values["hunger"] -= 60; c.values["has_food"] = 0 },
	}
	behaviours := map[string]agent.ResolverBehaviour{}
	for name, apply := range effect {
		behaviours[name] = agent.ResolverFuncs{TickFunc: func(*agent.ResolverAgent) agent.Status {
			apply()
			return agent.Success
		}}
	}
	here := func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(resolver.Point{}) }
	targets := map[string]agent.TargetSensor{}
	for _, name := range []string{"fireplace", "wood_north", "wood_south", "berries", "deer"} {
		targets[name] = here
	}
	return agent.ResolverConfig{
		Name:       "survivor",
		Domain:     c.d,
		Behaviours: behaviours,
		Sensor:     c.sensor,
		Targets:    targets,
		Mover:      c,
		RetryAfter: 3,
		OnEvent:    rec.Record,
	}
}

// goalsChosen lists the goals an agent's events say it chose, in order.
func goalsChosen(rec *agent.Recorder) string {
	var out []string
	for _, e := range rec.Events {
		if e.Kind == agent.GoalChosen {
			out = append(out, e.Goal)
		}
	}
	return strings.Join(out, " ")
}

// TestResolverKindsFromTheFile runs the survivor file's agent kinds in the
// camp: the survivor, weighing its needs by utility over the keys, warms
// up first (warmth 20 scores 6, hunger 70 scores 5.7), then eats; the
// wounded one, who cannot gather wood, finds no chain to warmth and eats.
func TestResolverKindsFromTheFile(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "survivor.yaml")
	f, err := domain.Parse("survivor.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind, want     string
		start          int64 // warmth at the start
		warmth, hunger int64 // the world after 40 ticks
	}{
		{"survivor", "Warm Fed ", 20, 60, 10},
		// Less cold (warmth 40 scores 2): food first.
		{"survivor", "Fed Warm ", 40, 80, 10},
		// No chain to warmth: the runtime tries Fed instead, then Warm
		// again now and then, for ever in vain.
		{"wounded", "Warm Fed Warm", 20, 20, 10},
	} {
		world := &camp{d: f.Resolver, values: map[string]int64{"hunger": 70, "warmth": c.start}}
		var rec agent.Recorder
		cfg := world.config(&rec)
		k, err := f.EngineAgent(c.kind)
		if err != nil {
			t.Fatal(err)
		}
		if err := agentfile.ConfigureResolver(&cfg, k); err != nil {
			t.Fatal(err)
		}
		a, err := agent.NewResolverAgent(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for range 40 {
			a.Tick()
		}
		if got := goalsChosen(&rec); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s chose %q, want it to start %q", c.kind, got, c.want)
		}
		if world.values["warmth"] != c.warmth || world.values["hunger"] != c.hunger {
			t.Errorf("%s: the world's warmth %d, hunger %d; want %d, %d", c.kind, world.values["warmth"], world.values["hunger"], c.warmth, c.hunger)
		}
	}
}

// TestResolverKindOfAnotherDomain: a kind whose goals belong to another
// domain than the config's is refused, naming the kind and the goal.
func TestResolverKindOfAnotherDomain(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "survivor.yaml")
	f, err := domain.Parse("survivor.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	other, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	k, err := f.EngineAgent("survivor")
	if err != nil {
		t.Fatal(err)
	}
	cfg := agent.ResolverConfig{Domain: other}
	err = agentfile.ConfigureResolver(&cfg, k)
	if err == nil || !strings.Contains(err.Error(), `kind "survivor": its goal "Warm" is of another domain`) {
		t.Errorf("a kind over another domain: got %v", err)
	}
}

// TestConfigureReplacesTheKind sets a config from an HTN kind with its own
// root, then from a GOAP kind: nothing of the first is left, and the
// agent builds.
func TestConfigureReplacesTheKind(t *testing.T) {
	f, err := domain.Parse("k.yaml", []byte(`name: k
facts: [a, b]
actions:
  - {name: A, effects: {a: true}, cost: 1}
  - {name: B, effects: {b: true}, cost: 1}
goals: [{name: G, conditions: {a: true}}]
htn:
  root: Top
  tasks:
    - {name: Top, methods: [{name: m, subtasks: [Side]}]}
    - {name: Side, methods: [{name: n, subtasks: [B]}]}
agents:
  - {name: side, htn: {root: Side, mode: interrupt}}
  - {name: plain, goals: [{goal: G, priority: 1}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	d := f.GOAP
	cfg := agent.Config{Domain: d, Behaviours: map[string]agent.Behaviour{}}
	for a := range d.NumActions() {
		cfg.Behaviours[d.ActionName(goap.ActionID(a))] = agent.Funcs{}
	}
	side, _ := f.Agent("side")
	plain, _ := f.Agent("plain")
	if err := agentfile.Configure(&cfg, side, nil); err != nil {
		t.Fatal(err)
	}
	if cfg.HTNRoot != "Side" || cfg.HTNMode != agent.Interrupt {
		t.Fatalf("HTN kind: root %q, mode %v", cfg.HTNRoot, cfg.HTNMode)
	}
	if err := agentfile.Configure(&cfg, plain, nil); err != nil {
		t.Fatal(err)
	}
	if cfg.HTNRoot != "" || cfg.HTNMode != agent.ReplanOnBreak {
		t.Errorf("GOAP kind after an HTN one: root %q, mode %v left over", cfg.HTNRoot, cfg.HTNMode)
	}
	if _, err := agent.New(cfg); err != nil {
		t.Errorf("GOAP kind after an HTN one: %v", err)
	}
}
