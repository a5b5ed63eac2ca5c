package agentfile_test

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/agent/agentfile"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
)

// TestConfigureSetsCommitment: a kind's commitment: becomes its agents'
// Commitment, for a GOAP agent and a resolver agent; a kind without one
// gives none (nil: goal choice as without), and configuring again from
// such a kind clears the one before.
func TestConfigureSetsCommitment(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "battlemage.yaml")
	src = src[:strings.Index(string(src), "\ninputs:")]
	src = append(src, []byte(`
agents:
  - name: steady
    goals: [{goal: Kill, priority: 5}, {goal: GetHealthy, priority: 10, when: {healthy: false}}]
    commitment: {margin: 0.5, min_ticks: 30, exempt: [GetHealthy], finish_action: true}
  - name: fickle
    goals: [{goal: Kill, priority: 5}]
`)...)
	f, err := domain.Parse("mage.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	cfg := agent.Config{Domain: f.GOAP}
	steady, _ := f.Agent("steady")
	if err := agentfile.Configure(&cfg, steady, nil); err != nil {
		t.Fatal(err)
	}
	if c := cfg.Commitment; c == nil || fmt.Sprint(*c) != "{0.5 30 [GetHealthy] true []}" {
		t.Errorf("steady: commitment %+v", c)
	}
	fickle, _ := f.Agent("fickle")
	if err := agentfile.Configure(&cfg, fickle, nil); err != nil {
		t.Fatal(err)
	}
	if cfg.Commitment != nil {
		t.Errorf("fickle: commitment %+v, want none", *cfg.Commitment)
	}

	colony := uncommitted(t)
	engine := strings.Replace(colony, "    capabilities: [ArmUp, Fight, KeepWatch", "    commitment: {min_ticks: 7, exempt: [RaidersGone]}\n    capabilities: [ArmUp, Fight, KeepWatch", 1)
	ef, err := domain.Parse("colony.yaml", []byte(engine))
	if err != nil {
		t.Fatal(err)
	}
	guard, _ := ef.EngineAgent("guard")
	rcfg := agent.ResolverConfig{Domain: ef.Resolver}
	if err := agentfile.ConfigureResolver(&rcfg, guard); err != nil {
		t.Fatal(err)
	}
	if c := rcfg.Commitment; c == nil || fmt.Sprint(*c) != "{0 7 [RaidersGone] false []}" {
		t.Errorf("guard: commitment %+v", c)
	}
}

// uncommitted is colony.yaml with its kinds' commitment: lines left out,
// for a test to give one its own.
func uncommitted(t *testing.T) string {
	src, err := fs.ReadFile(domains.Files, "colony.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := regexp.MustCompile(`(?m)^    commitment: .*\n`).ReplaceAllString(string(src), "")
	if out == string(src) {
		t.Fatal("colony.yaml's kinds have no commitment: lines")
	}
	return out
}
