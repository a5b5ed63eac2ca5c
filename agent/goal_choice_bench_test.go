package agent_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
)

// BenchmarkAgentTickGoalChoice is the tick of a GOAP agent whose goal
// choice weighs six options by utility every tick while a step that never
// ends runs: choose, tick the behaviour; the goal stays and no plan is
// made in the timed ticks.
// It measures what goal choice costs a crowd's every tick, with no
// commitment (the default; compared with benchstat before and after
// commitment was added) and with one that holds the goal. The agent
// records no decisions, so this is the goal choice compiled without
// notes (chooseUncommitted and chooseCommitted with notNoting); the
// recording benchmarks, BenchmarkCrowdTick600Decisions and the colony's,
// time the one with them.
func BenchmarkAgentTickGoalChoice(b *testing.B) {
	for _, name := range []string{"commitment=off", "commitment=on"} {
		b.Run(name, func(b *testing.B) {
			spec := goap.Spec{Name: "bench"}
			var goals []string
			for i := range 6 {
				f := fmt.Sprintf("g%d", i)
				goals = append(goals, f)
				spec.Facts = append(spec.Facts, f)
				spec.Actions = append(spec.Actions, goap.ActionSpec{Name: "Do" + f, Effects: map[string]bool{f: true}, Cost: goap.Const(1)})
				spec.Goals = append(spec.Goals, goap.GoalSpec{Name: f, Conditions: map[string]bool{f: true}})
			}
			d, err := goap.NewDomain(spec)
			if err != nil {
				b.Fatal(err)
			}
			cfg := agent.Config{Domain: d, Behaviours: map[string]agent.Behaviour{}}
			for i, g := range goals {
				cfg.Goals = append(cfg.Goals, agent.GoalOption{Goal: d.Goal(g), Utility: func(*agent.Agent) float64 { return float64(i) }})
				cfg.Behaviours["Do"+g] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { return agent.Running }}
			}
			if name == "commitment=on" {
				cfg.Commitment = &agent.Commitment{Margin: 0.5, MinTicks: 30, FinishAction: true}
			}
			a, err := agent.New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			a.Tick() // the goal chosen, its plan made and its step started
			b.ReportAllocs()
			for b.Loop() {
				a.Tick()
			}
			if g := a.Goal(); g == nil || g.Name() != "g5" {
				b.Fatalf("goal %v, want g5, which scores most", g)
			}
		})
	}
}
