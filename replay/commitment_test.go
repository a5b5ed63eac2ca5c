package replay_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/replay"
)

// TestGoalChoiceWithCommitmentDecidedAsTheRuntime: a recorded goal
// choice of an agent with a commitment, decided again, keeps the current
// goal as the runtime did: against an option within the margin, before
// min_ticks on the goal, while a step was under way with finish_action;
// an exempt goal replaces it anyway, and a current goal that holds in the
// snapshot is kept by nothing.
func TestGoalChoiceWithCommitmentDecidedAsTheRuntime(t *testing.T) {
	bm := replay.New(replay.Domain{GOAP: battlemageFile(t).GOAP})
	sv := replay.New(replay.Domain{Resolver: survivorFile(t, nil).Resolver})
	type commit = agent.DecisionCommitment
	for _, k := range []struct {
		name, kind, current, rival string
		r                          *replay.Replayer
		snap, holds                agent.DecisionSnapshot
	}{
		{"goap", "goap", "Kill", "GetHealthy", bm, agent.DecisionSnapshot{}, agent.DecisionSnapshot{Facts: []string{"enemy_dead"}}},
		{"resolver", "resolver", "Warm", "Fed", sv,
			agent.DecisionSnapshot{Resolver: true, Keys: []string{"warmth", "hunger"}, Values: []int64{10, 90}},
			agent.DecisionSnapshot{Resolver: true, Keys: []string{"warmth", "hunger"}, Values: []int64{60, 90}}},
	} {
		for _, tc := range []struct {
			name   string
			c      commit
			rival  float64
			holds  bool
			wantUs bool // the current goal kept
		}{
			{"within the margin", commit{Margin: 0.5}, 5.4, false, true},
			{"at the margin", commit{Margin: 0.5}, 5.5, false, true},
			{"past the margin", commit{Margin: 0.5}, 5.6, false, false},
			{"before min_ticks", commit{MinTicks: 10, OnGoal: 9}, 9, false, true},
			{"at min_ticks", commit{MinTicks: 10, OnGoal: 10}, 9, false, false},
			{"step under way", commit{FinishAction: true, Acting: true}, 9, false, true},
			{"no step under way", commit{FinishAction: true}, 9, false, false},
			{"exempt", commit{Margin: 9, MinTicks: 10, FinishAction: true, Acting: true, Exempt: []string{k.rival}}, 5.1, false, false},
			{"exempt, not outscoring", commit{Exempt: []string{k.rival}, MinTicks: 3}, 5, false, true},
			{"another exempt", commit{MinTicks: 10, Exempt: []string{"Other"}}, 9, false, true},
			{"current holds", commit{Margin: 9, MinTicks: 10, FinishAction: true, Acting: true}, 9, true, false},
		} {
			t.Run(k.name+": "+tc.name, func(t *testing.T) {
				snap := k.snap
				if tc.holds {
					snap = k.holds
				}
				cur := opt(k.current, 5)
				cur.Current = true
				d := agent.Decision{Kind: k.kind, Decided: "goal", Status: "not_searched", Snapshot: snap, Current: k.current,
					Options: []agent.GoalScore{cur, opt(k.rival, tc.rival)}, Commitment: tc.c}
				want := k.rival
				if tc.wantUs {
					want = k.current
				}
				if got := k.r.Decide(&d); got.Error != "" || got.Goal != want {
					t.Fatalf("goal %q (error %q), want %q", got.Goal, got.Error, want)
				}
				// Without the commitment recorded, the rival wins
				// whenever it outscores the current goal.
				d.Commitment = commit{}
				if got := k.r.Decide(&d); got.Goal != k.rival && tc.rival > 5 {
					t.Fatalf("without commitment: goal %q, want %q", got.Goal, k.rival)
				}
			})
		}
	}
}

// TestWhySaysCommitmentKeptTheGoal: `ploy why` on a goal decision that
// commitment recorded says that it kept the goal, the rule that held each
// rival off, and the commitment with what it was applied to.
func TestWhySaysCommitmentKeptTheGoal(t *testing.T) {
	a := replay.Answer{Agent: "guard-135", Kind: "resolver", AgentKind: "guard", Tick: 5, Asked: 5, Decided: "goal", Reason: agent.ReasonCommitment,
		Goal: "Watching", Current: "Watching", Status: "not_searched",
		Options: []agent.GoalScore{
			{Goal: "Quenched", Score: 2.5, Utility: true, Why: agent.WhyHeldFinishAction},
			{Goal: "Watching", Priority: 2, Score: 2, Chosen: true, Current: true, Why: "kept: committed to the current goal"},
		},
		Commitment: agent.DecisionCommitment{Margin: 1, MinTicks: 60, Exempt: []string{"RaidersGone"}, FinishAction: true, OnGoal: 4, Acting: true}}
	var sb strings.Builder
	if err := a.WriteText(&sb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"guard-135 (resolver, kind guard), tick 5: a goal choice, on which commitment kept Watching against an option that outscored it\n",
		"Quenched  utility 2.5        " + agent.WhyHeldFinishAction + "\n",
		"* Watching  priority 2         kept: committed to the current goal\n",
		"commitment: margin 1, min_ticks 60 (4 ticks on the goal), exempt RaidersGone, finish_action (a step under way)\n",
	} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("no %q in:\n%s", want, sb.String())
		}
	}
	a.Commitment = agent.DecisionCommitment{}
	sb.Reset()
	a.WriteText(&sb)
	if strings.Contains(sb.String(), "\ncommitment:") {
		t.Errorf("a decision without commitment prints one:\n%s", sb.String())
	}
}
