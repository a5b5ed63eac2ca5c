package agent_test

import (
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// TestAgentKind: Kind names each kind of agent as its decision records do.
func TestAgentKind(t *testing.T) {
	w, d, h := newToy(t)
	for _, c := range []struct {
		want string
		cfg  func(*agent.Config)
	}{
		{"goap", func(*agent.Config) {}},
		{"htn", func(c *agent.Config) { c.HTN, c.Goals = h, nil }},
		{"tree", func(c *agent.Config) { c.Tree, c.Goals = agent.Action(d, "Recharge"), nil }},
	} {
		cfg := goapConfig(w, d, nil)
		c.cfg(&cfg)
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Kind(); got != c.want {
			t.Errorf("Kind() = %q, want %q", got, c.want)
		}
	}
	camp := newCamp(t)
	r := mustResolverAgent(t, camp.config(nil))
	if got := r.Agent().Kind(); got != "resolver" {
		t.Errorf("a resolver agent's Kind() = %q", got)
	}
}
