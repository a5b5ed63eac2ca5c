package agent_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/search"
)

// firstOutcome is what an agent's first plan request came to, from its
// events: plan_made or no_plan(reason).
func firstOutcome(rec *agent.Recorder) string {
	for _, e := range rec.Events {
		switch e.Kind {
		case agent.PlanMade:
			return "plan_made"
		case agent.NoPlanFound:
			return "no_plan(" + e.Reason + ")"
		}
	}
	return "none"
}

// TestConfigLimits: Config.Limits reaches a GOAP agent's searches and an
// HTN agent's decompositions, and a non-zero field of it wins over the
// deprecated field of the same name; a deprecated field alone still
// applies.
func TestConfigLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		htn  bool
		set  func(*agent.Config)
		want string
	}{
		{"GOAP defaults", false, func(*agent.Config) {}, "plan_made"},
		{"GOAP Limits.MaxWork 1", false, func(c *agent.Config) { c.Limits.MaxWork = 1 }, "no_plan(search limit)"},
		{"GOAP Limits.MaxBytes 1", false, func(c *agent.Config) { c.Limits.MaxBytes = 1 }, "no_plan(search limit)"},
		{"GOAP Limits.Budget 1", false, func(c *agent.Config) { c.Limits.Budget = 1 }, "no_plan(search limit)"},
		{"GOAP Limits.MaxWork wins over MaxWork", false, func(c *agent.Config) { c.MaxWork, c.Limits.MaxWork = 1, 1<<40 }, "plan_made"},
		{"GOAP deprecated MaxWork alone", false, func(c *agent.Config) { c.MaxWork = 1 }, "no_plan(search limit)"},
		{"HTN defaults", true, func(*agent.Config) {}, "plan_made"},
		{"HTN Limits.MaxSteps 1", true, func(c *agent.Config) { c.Limits.MaxSteps = 1 }, "no_plan(search limit)"},
		{"HTN Limits.MaxBytes 1", true, func(c *agent.Config) { c.Limits.MaxBytes = 1 }, "no_plan(search limit)"},
		{"HTN Limits.MaxSteps wins over MaxSteps", true, func(c *agent.Config) { c.MaxSteps, c.Limits.MaxSteps = 1, 1<<20 }, "plan_made"},
		{"HTN deprecated MaxSteps alone", true, func(c *agent.Config) { c.MaxSteps = 1 }, "no_plan(search limit)"},
	} {
		w, d, h := newToy(t)
		var rec agent.Recorder
		cfg := goapConfig(w, d, &rec)
		if tc.htn {
			cfg = agent.Config{Name: "htn", Domain: d, HTN: h, Behaviours: w.behaviours(), Sensor: w.sensor, OnEvent: rec.Record, RetryAfter: 3}
		}
		tc.set(&cfg)
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		a.Tick()
		if got := firstOutcome(&rec); got != tc.want {
			t.Errorf("%s: the first request gives %s, want %s (events %s)", tc.name, got, tc.want, kinds(&rec))
		}
	}
}

// TestResolverConfigLimits: ResolverConfig.Limits reaches a resolver
// agent's resolves, winning over the deprecated Budget.
func TestResolverConfigLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*agent.ResolverConfig)
		want string
	}{
		{"defaults", func(*agent.ResolverConfig) {}, "plan_made"},
		{"Limits.Budget 1", func(c *agent.ResolverConfig) { c.Limits.Budget = 1 }, "no_plan(search limit)"},
		{"Limits.MaxWork 1", func(c *agent.ResolverConfig) { c.Limits.MaxWork = 1 }, "no_plan(search limit)"},
		{"Limits.Budget wins over Budget", func(c *agent.ResolverConfig) { c.Budget, c.Limits.Budget = 1, 1<<20 }, "plan_made"},
		{"deprecated Budget alone", func(c *agent.ResolverConfig) { c.Budget = 1 }, "no_plan(search limit)"},
	} {
		c := newCamp(t)
		c.values["hunger"] = 80
		var rec agent.Recorder
		cfg := c.config(&rec)
		tc.set(&cfg)
		a := mustResolverAgent(t, cfg)
		a.Tick()
		if got := firstOutcome(&rec); got != tc.want {
			t.Errorf("%s: the first resolve gives %s, want %s (events %s)", tc.name, got, tc.want, kinds(&rec))
		}
	}
}

// TestNegativeLimitsRefused: a negative limit is refused at construction,
// named by its field, for both kinds of agent.
func TestNegativeLimitsRefused(t *testing.T) {
	w, d, _ := newToy(t)
	cfg := goapConfig(w, d, nil)
	cfg.Limits = search.Limits{MaxSteps: -2}
	if _, err := agent.New(cfg); err == nil || !strings.Contains(err.Error(), "Limits.MaxSteps is -2") {
		t.Errorf("New with Limits.MaxSteps -2: %v", err)
	}
	c := newCamp(t)
	rcfg := c.config(nil)
	rcfg.Limits = search.Limits{Budget: -1}
	if _, err := agent.NewResolverAgent(rcfg); err == nil || !strings.Contains(err.Error(), "Limits.Budget is -1") {
		t.Errorf("NewResolverAgent with Limits.Budget -1: %v", err)
	}
}
