package replay_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/replay"
)

// opt is a recorded goal option that applied, at score.
func opt(goal string, score float64) agent.GoalScore {
	return agent.GoalScore{Goal: goal, Priority: score, Score: score, Why: "lower score"}
}

// TestGoalChoiceDecidedAsTheRuntime: a recorded goal choice, decided again
// from its recorded options (no agent kind in a file to weigh them
// anew), follows the runtime's rules: the highest score, ties to the
// earlier option, the current goal kept while none scores strictly more;
// an option that did not apply, or whose score was not a number, is
// passed over; one whose goal holds in the snapshot is passed over, and
// one recorded as holding that no longer does applies at its priority.
// Both a state-space (GOAP) and an engine-model (resolver) decision.
func TestGoalChoiceDecidedAsTheRuntime(t *testing.T) {
	bm := replay.New(replay.Domain{GOAP: battlemageFile(t).GOAP})
	sv := replay.New(replay.Domain{Resolver: survivorFile(t, nil).Resolver})
	holds := func(o agent.GoalScore) agent.GoalScore { o.Score, o.Why = 0, "goal holds"; return o }
	nan := func(o agent.GoalScore) agent.GoalScore { o.Score, o.Why = 0, "score is not a number"; return o }
	why := func(o agent.GoalScore, why string) agent.GoalScore { o.Score, o.Why = 0, why; return o }
	util := func(o agent.GoalScore) agent.GoalScore { o.Utility = true; return o }
	goapSnap := func(facts ...string) agent.DecisionSnapshot { return agent.DecisionSnapshot{Facts: facts} }
	// Warm holds from warmth 50, Fed up to hunger 30.
	resSnap := func(warmth, hunger int64) agent.DecisionSnapshot {
		return agent.DecisionSnapshot{Resolver: true, Keys: []string{"warmth", "hunger"}, Values: []int64{warmth, hunger}}
	}
	for _, tc := range []struct {
		name    string
		r       *replay.Replayer
		kind    string
		snap    agent.DecisionSnapshot
		current string
		options []agent.GoalScore
		want    string
	}{
		{"goap: highest", bm, "goap", goapSnap(), "", []agent.GoalScore{opt("Kill", 3), opt("GetHealthy", 5)}, "GetHealthy"},
		{"goap: tie to the earlier", bm, "goap", goapSnap(), "", []agent.GoalScore{opt("Kill", 5), opt("GetHealthy", 5)}, "Kill"},
		{"goap: tie keeps the current", bm, "goap", goapSnap(), "GetHealthy", []agent.GoalScore{opt("Kill", 5), opt("GetHealthy", 5)}, "GetHealthy"},
		{"goap: current outscored", bm, "goap", goapSnap(), "Kill", []agent.GoalScore{opt("Kill", 5), opt("GetHealthy", 6)}, "GetHealthy"},
		{"goap: negative beats not a number", bm, "goap", goapSnap(), "", []agent.GoalScore{opt("Kill", -1), nan(opt("GetHealthy", 0))}, "Kill"},
		{"goap: when false", bm, "goap", goapSnap(), "", []agent.GoalScore{why(opt("Kill", 9), "when is false"), opt("GetHealthy", 1)}, "GetHealthy"},
		{"goap: blocked", bm, "goap", goapSnap(), "", []agent.GoalScore{why(opt("Kill", 9), "no plan until a later tick"), opt("GetHealthy", 1)}, "GetHealthy"},
		{"goap: goal holds now", bm, "goap", goapSnap("enemy_dead"), "", []agent.GoalScore{opt("Kill", 9), opt("GetHealthy", 1)}, "GetHealthy"},
		{"goap: only option holds now", bm, "goap", goapSnap("enemy_dead"), "", []agent.GoalScore{opt("Kill", 9)}, ""},
		{"goap: held, no longer", bm, "goap", goapSnap(), "", []agent.GoalScore{holds(opt("Kill", 9)), opt("GetHealthy", 1)}, "Kill"},
		{"goap: held, by utility", bm, "goap", goapSnap(), "", []agent.GoalScore{util(holds(opt("Kill", 9))), opt("GetHealthy", 1)}, "GetHealthy"},
		{"resolver: highest", sv, "resolver", resSnap(10, 90), "", []agent.GoalScore{opt("Warm", 3), opt("Fed", 5)}, "Fed"},
		{"resolver: tie to the earlier", sv, "resolver", resSnap(10, 90), "", []agent.GoalScore{opt("Warm", 5), opt("Fed", 5)}, "Warm"},
		{"resolver: goal holds now", sv, "resolver", resSnap(60, 90), "", []agent.GoalScore{opt("Warm", 9), opt("Fed", 1)}, "Fed"},
		{"resolver: only option holds now", sv, "resolver", resSnap(60, 90), "", []agent.GoalScore{opt("Warm", 9)}, ""},
		{"resolver: held, no longer", sv, "resolver", resSnap(10, 90), "", []agent.GoalScore{holds(opt("Warm", 9)), opt("Fed", 1)}, "Warm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := agent.Decision{Kind: tc.kind, Decided: "goal", Status: "no_plan", Snapshot: tc.snap, Current: tc.current, Options: tc.options}
			got := tc.r.Decide(&d)
			if got.Error != "" || got.Goal != tc.want {
				t.Fatalf("goal %q (error %q), want %q", got.Goal, got.Error, tc.want)
			}
			// As a plan, the same goal is planned for, whatever goal was
			// recorded (an edit may change it); no goal is an error.
			d.Decided, d.Goal = "plan", tc.options[0].Goal
			got = tc.r.Decide(&d)
			if tc.want == "" {
				if !strings.Contains(got.Error, "no goal option applies") {
					t.Fatalf("as a plan: %+v, want the error that no goal option applies", got)
				}
				return
			}
			if got.Error != "" || got.Goal != tc.want {
				t.Fatalf("as a plan: %+v, want one for %s", got, tc.want)
			}
		})
	}
}

// TestGoalChoiceNamesAGoneGoal: an option whose goal an edited domain no
// longer has makes the decision undecidable, named, not a silent choice
// of another goal.
func TestGoalChoiceNamesAGoneGoal(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *replay.Replayer
		d    agent.Decision
	}{
		{"goap", replay.New(replay.Domain{GOAP: battlemageFile(t).GOAP}),
			agent.Decision{Kind: "goap", Decided: "plan", Options: []agent.GoalScore{opt("Dance", 9), opt("Kill", 1)}}},
		{"resolver", replay.New(replay.Domain{Resolver: survivorFile(t, nil).Resolver}),
			agent.Decision{Kind: "resolver", Decided: "plan", Snapshot: agent.DecisionSnapshot{Resolver: true}, Options: []agent.GoalScore{opt("Dance", 9), opt("Fed", 1)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.r.Decide(&tc.d)
			if got.Status != "error" || !strings.Contains(got.Error, `goal "Dance" is not in domain`) {
				t.Fatalf("%+v, want an error naming goal Dance", got)
			}
		})
	}
}

// TestUtilityChoiceDecidedAsTheRuntime: a utility selector's recorded
// choice, decided again, takes the applicable option of the highest
// recorded score (ties to the earlier) and keeps the running action
// unless another outscores it by more than the margin; an option whose
// action does not apply in the snapshot is passed over.
func TestUtilityChoiceDecidedAsTheRuntime(t *testing.T) {
	r := replay.New(replay.Domain{GOAP: battlemageFile(t).GOAP})
	// In range with the staff charged: CastBolt and FetchPotion apply,
	// Approach does not (in_range).
	snap := agent.DecisionSnapshot{Facts: []string{"in_range", "staff_charged", "potion_at_shrine"}}
	unmet := func(o agent.GoalScore) agent.GoalScore { o.Score, o.Why = 0, "preconditions unmet"; return o }
	for _, tc := range []struct {
		name    string
		current string
		margin  float64
		options []agent.GoalScore
		want    string
	}{
		{"highest", "", 0, []agent.GoalScore{opt("FetchPotion", 1), opt("CastBolt", 8)}, "CastBolt"},
		{"tie to the earlier", "", 0, []agent.GoalScore{opt("FetchPotion", 8), opt("CastBolt", 8)}, "FetchPotion"},
		{"negative scores", "", 0, []agent.GoalScore{opt("FetchPotion", -3), opt("CastBolt", -1)}, "CastBolt"},
		{"not applicable now", "", 0, []agent.GoalScore{opt("Approach", 9), opt("CastBolt", 1)}, "CastBolt"},
		{"recorded unmet", "", 0, []agent.GoalScore{unmet(opt("FetchPotion", 9)), opt("CastBolt", 1)}, "CastBolt"},
		{"running kept within the margin", "FetchPotion", 0.5, []agent.GoalScore{opt("FetchPotion", 7.75), opt("CastBolt", 8)}, "FetchPotion"},
		{"running kept at the margin", "FetchPotion", 0.5, []agent.GoalScore{opt("FetchPotion", 7.5), opt("CastBolt", 8)}, "FetchPotion"},
		{"running outscored past the margin", "FetchPotion", 0.5, []agent.GoalScore{opt("FetchPotion", 7.25), opt("CastBolt", 8)}, "CastBolt"},
		{"running kept though it does not apply", "Approach", 0.5, []agent.GoalScore{opt("Approach", 8), opt("CastBolt", 8.25)}, "Approach"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := agent.Decision{Kind: "tree", Decided: "choice", Status: "found", Snapshot: snap, Current: tc.current, Margin: tc.margin, Options: tc.options}
			got := r.Decide(&d)
			if got.Error != "" || len(got.Plan) != 1 || got.Plan[0] != tc.want || got.Status != "found" {
				t.Fatalf("%+v, want %s", got, tc.want)
			}
		})
	}
	d := agent.Decision{Kind: "tree", Decided: "choice", Status: "found", Snapshot: snap, Options: []agent.GoalScore{opt("Approach", 9)}}
	if got := r.Decide(&d); got.Status != "no_plan" || len(got.Plan) != 0 {
		t.Fatalf("no option applies: %+v, want no_plan and no action", got)
	}
}
