package replay_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/replay"
)

// TestWhySinceIsTheAgentsOwnPreviousDecision: what changed is measured
// from the same agent's previous decision, not another agent's nor an
// older one of its own; its first decision has nothing before it.
func TestWhySinceIsTheAgentsOwnPreviousDecision(t *testing.T) {
	r := replay.New(replay.Domain{GOAP: battlemageFile(t).GOAP})
	facts := func(f ...string) agent.DecisionSnapshot { return agent.DecisionSnapshot{Facts: f} }
	ds := []agent.Decision{
		{Agent: "ada", Tick: 1, Kind: "goap", Decided: "goal", Goal: "GetHealthy", Snapshot: facts("healthy")},
		{Agent: "ada", Tick: 3, Kind: "goap", Decided: "goal", Goal: "GetHealthy", Snapshot: facts("in_range")},
		{Agent: "bo", Tick: 4, Kind: "goap", Decided: "goal", Goal: "Kill", Snapshot: facts("enemy_dead")},
		{Agent: "ada", Tick: 9, Kind: "goap", Decided: "goal", Goal: "Kill", Snapshot: facts("staff_charged")},
	}
	if a := r.Why(ds, 0); a.Since != nil {
		t.Fatalf("first decision: since %+v, want none", a.Since)
	}
	a := r.Why(ds, 3)
	if s := a.Since; s == nil || s.Tick != 3 || s.Goal != "GetHealthy" || !slices.Equal(s.FactsTrue, []string{"staff_charged"}) || !slices.Equal(s.FactsFalse, []string{"in_range"}) {
		t.Fatalf("since %+v, want ada's tick 3: goal GetHealthy, staff_charged now true, in_range now false", a.Since)
	}
	if s := r.Why(ds, 1).Since; s == nil || s.Tick != 1 || !slices.Equal(s.FactsFalse, []string{"healthy"}) {
		t.Fatalf("ada's second decision: since %+v, want its first's, tick 1", s)
	}
	if s := r.Why(ds, 2).Since; s != nil {
		t.Fatalf("bo's first decision: since %+v, want none", s)
	}
}

// TestWhyShowsTheSnapshotInDomainOrder: a resolver decision read back
// from a file has its keys by name; ploy why shows them in the domain's
// order, as the game and the file list them.
func TestWhyShowsTheSnapshotInDomainOrder(t *testing.T) {
	sv := survivorFile(t, nil)
	d := agent.Decision{Agent: "ada", Kind: "resolver", Decided: "goal", Snapshot: agent.DecisionSnapshot{Resolver: true,
		Keys: []string{"fire_lit", "hunger", "warmth"}, Values: []int64{1, 80, 20}}}
	a := replay.New(replay.Domain{Resolver: sv.Resolver}).Why([]agent.Decision{d}, 0)
	if !slices.Equal(a.Snapshot.Keys, []string{"warmth", "hunger", "fire_lit"}) || !slices.Equal(a.Snapshot.Values, []int64{20, 80, 1}) {
		t.Fatalf("keys %v values %v, want warmth 20, hunger 80, fire_lit 1", a.Snapshot.Keys, a.Snapshot.Values)
	}
}

// TestWhyFindsWhatEachSearchTurnedDown: with no recorded trace, ploy why
// searches again: an HTN decision lists the methods turned down, a GOAP
// one the actions; a domain of the other model says it cannot.
func TestWhyFindsWhatEachSearchTurnedDown(t *testing.T) {
	bm := battlemageFile(t)
	r := replay.New(replay.Domain{GOAP: bm.GOAP, HTN: bm.HTN})
	start := agent.DecisionSnapshot{Facts: []string{"spare_crystals", "potion_at_shrine"}}
	htnD := agent.Decision{Agent: "ada", Kind: "htn", Decided: "plan", Task: "BeABattleMage", Snapshot: start}
	a := r.Why([]agent.Decision{htnD}, 0)
	if a.RejectedNote != "" || len(a.Rejected) == 0 || !strings.Contains(a.Rejected[0].Action, " of ") {
		t.Fatalf("HTN: rejected %+v, note %q; want methods turned down", a.Rejected, a.RejectedNote)
	}
	goapD := agent.Decision{Agent: "ada", Kind: "goap", Decided: "plan", Goal: "Kill", Snapshot: start}
	a = r.Why([]agent.Decision{goapD}, 0)
	if a.RejectedNote != "" || len(a.Rejected) == 0 || strings.Contains(a.Rejected[0].Action, " of ") {
		t.Fatalf("GOAP: rejected %+v, note %q; want actions turned down", a.Rejected, a.RejectedNote)
	}
	a = replay.New(replay.Domain{Resolver: survivorFile(t, nil).Resolver}).Why([]agent.Decision{goapD}, 0)
	if len(a.Rejected) != 0 || !strings.Contains(a.RejectedNote, "not a state-space one") {
		t.Fatalf("GOAP on an engine-model domain: rejected %+v, note %q", a.Rejected, a.RejectedNote)
	}
}

// TestWhyText: the text a person reads says what was decided, the goal
// and what it replaced, the plan or the action with its cost, or why
// there was none (the bound that stopped the search), what was turned
// down (only where a search ran), what changed, and what it read.
func TestWhyText(t *testing.T) {
	text := func(a replay.Answer) string {
		var buf bytes.Buffer
		if err := a.WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for _, tc := range []struct {
		name      string
		a         replay.Answer
		want, not []string
	}{
		{"a plan for a new goal", replay.Answer{Agent: "ada", Kind: "goap", Tick: 9, Asked: 9, Decided: "plan", Reason: "goal_changed", Goal: "Kill", Current: "GetHealthy",
			Plan: []agent.DecisionStep{{Action: "Approach", Cost: 2}, {Action: "CastBolt", Cost: 4}}, Cost: 6, Status: "found",
			Since: &replay.Since{Tick: 3, Goal: "GetHealthy", FactsTrue: []string{"staff_charged"}, FactsFalse: []string{"in_range"}}},
			[]string{"goal: Kill (was GetHealthy)\n", "plan, cost 6 (found; 0 expanded):\n  1. Approach  2\n  2. CastBolt  4\n", "turned down:\n  nothing\n",
				"since its previous decision (tick 3):\n  its goal was GetHealthy\n  now true: staff_charged\n  now false: in_range\n", "what it read: no fact true\n"},
			[]string{"no plan"}},
		{"the same goal, stopped by a bound", replay.Answer{Agent: "ada", Kind: "goap", Tick: 9, Asked: 9, Decided: "plan", Reason: "plan_done", Goal: "Kill", Current: "Kill",
			Status: "limit_reached", Bound: "budget", Stats: agent.DecisionStats{Expanded: 12}, Snapshot: agent.DecisionSnapshot{Facts: []string{"in_range"}},
			Since: &replay.Since{Tick: 3}},
			[]string{"goal: Kill\n", "no plan: limit_reached (budget); 12 expanded\n", "turned down:\n", "nothing it reads changed\n", "what it read: in_range\n"},
			[]string{"(was", "plan, cost"}},
		{"a utility choice", replay.Answer{Agent: "ada", Kind: "tree", Tick: 9, Asked: 9, Decided: "choice", Reason: "utility", Current: "FetchPotion",
			Options: []agent.GoalScore{{Goal: "CastBolt", Score: 8, Utility: true, Chosen: true, Why: "highest score"}},
			Plan:    []agent.DecisionStep{{Action: "CastBolt", Cost: 4}}, Cost: 4, Status: "found"},
			[]string{"a utility selector's choice of what to do (it was doing FetchPotion)\n", "* CastBolt  utility 8", "action: CastBolt, cost 4\n", "its first decision in the recording\n"},
			[]string{"turned down:", "no plan", "plan, cost"}},
		{"a choice with no action (a record edited by hand)", replay.Answer{Agent: "ada", Kind: "tree", Tick: 9, Asked: 9, Decided: "choice", Status: "no_plan", Plan: []agent.DecisionStep{}},
			[]string{"a utility selector's choice of what to do\n", "no plan: no_plan; 0 expanded\n"},
			[]string{"action:", "turned down:"}},
		{"a goal choice with nothing to pursue", replay.Answer{Agent: "ada", Kind: "goap", Tick: 9, Asked: 9, Decided: "goal", Current: "Kill", Status: "no_plan",
			Since: &replay.Since{Tick: 3, Values: map[string][2]int64{"hunger": {80, 90}}}},
			[]string{"a goal choice, and no goal option applies (it pursued Kill)\n", "  hunger 80 → 90\n"},
			[]string{"turned down:", "no plan", "goal: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := text(tc.a)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("has %q, should not:\n%s", n, got)
				}
			}
		})
	}
}
