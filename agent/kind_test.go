package agent_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

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
		camp := newCamp(t)
		camp.d = f.Resolver
		camp.values["hunger"], camp.values["warmth"] = 70, c.start
		var rec agent.Recorder
		cfg := camp.config(&rec)
		k, err := f.EngineAgent(c.kind)
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.FromFile(k); err != nil {
			t.Fatal(err)
		}
		a := mustResolverAgent(t, cfg)
		tickResolver(a, 40)
		if got := goalsChosen(&rec); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s chose %q, want it to start %q", c.kind, got, c.want)
		}
		if camp.values["warmth"] != c.warmth || camp.values["hunger"] != c.hunger {
			t.Errorf("%s: the world's warmth %d, hunger %d; want %d, %d", c.kind, camp.values["warmth"], camp.values["hunger"], c.warmth, c.hunger)
		}
	}
}

// TestFromFileReplacesTheKind sets a config from an HTN kind with its own
// root, then from a GOAP kind: nothing of the first is left, and the
// agent builds.
func TestFromFileReplacesTheKind(t *testing.T) {
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
	if err := cfg.FromFile(side, nil); err != nil {
		t.Fatal(err)
	}
	if cfg.HTNRoot != "Side" || cfg.HTNMode != agent.Interrupt {
		t.Fatalf("HTN kind: root %q, mode %v", cfg.HTNRoot, cfg.HTNMode)
	}
	if err := cfg.FromFile(plain, nil); err != nil {
		t.Fatal(err)
	}
	if cfg.HTNRoot != "" || cfg.HTNMode != agent.ReplanOnBreak {
		t.Errorf("GOAP kind after an HTN one: root %q, mode %v left over", cfg.HTNRoot, cfg.HTNMode)
	}
	if _, err := agent.New(cfg); err != nil {
		t.Errorf("GOAP kind after an HTN one: %v", err)
	}
}
