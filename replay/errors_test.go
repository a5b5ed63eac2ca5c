package replay_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/internal/testkit/camp"
	"github.com/ploy-ai/ploy/replay"
)

// TestUndecidableDecisionsSayWhy: a decision the domain cannot decide
// again (an edit removed a fact or a key it read, its recorded profile
// names an action the domain lacks or a cost that was the game's
// function, its walks were priced by the game's distance model) comes
// out as an error saying which, never as a silent other outcome; and
// ploy why says so in place of what the search turned down.
func TestUndecidableDecisionsSayWhy(t *testing.T) {
	bm := battlemageFile(t)
	sv := survivorFile(t, nil)
	goapDom := replay.Domain{GOAP: bm.GOAP, HTN: bm.HTN}
	resDom := replay.Domain{Resolver: sv.Resolver}
	kill := []agent.DecisionStep{{Action: "CastBolt", Cost: 4}}
	res := agent.DecisionSnapshot{Resolver: true, Keys: []string{"hunger"}, Values: []int64{90}}
	for _, tc := range []struct {
		name string
		dom  replay.Domain
		d    agent.Decision
		want string
	}{
		{"a fact gone", goapDom, agent.Decision{Kind: "goap", Goal: "Kill", Plan: kill, Snapshot: agent.DecisionSnapshot{Facts: []string{"in_range", "flying"}}},
			`the snapshot's fact "flying" is not in domain battlemage`},
		{"an HTN decision, a fact gone", goapDom, agent.Decision{Kind: "htn", Task: "BeABattleMage", Snapshot: agent.DecisionSnapshot{Facts: []string{"flying"}}},
			`the snapshot's fact "flying" is not in domain battlemage`},
		{"an incapable action gone", goapDom, agent.Decision{Kind: "goap", Goal: "Kill", Plan: kill, Profile: agent.DecisionProfile{Incapable: []string{"Fly"}}},
			"the recorded profile does not fit the domain"},
		{"a cost that was a function", goapDom, agent.Decision{Kind: "goap", Goal: "Kill", Plan: kill, Profile: agent.DecisionProfile{Costs: map[string]agent.DecisionCost{"CastBolt": {Function: true}}}},
			`the cost of "CastBolt" is the game's Go function`},
		{"a key gone", resDom, agent.Decision{Kind: "resolver", Goal: "Fed", Snapshot: agent.DecisionSnapshot{Resolver: true, Keys: []string{"mana"}, Values: []int64{3}}},
			"the recorded snapshot does not fit the domain"},
		{"a capability gone", resDom, agent.Decision{Kind: "resolver", Goal: "Fed", Snapshot: res, Profile: agent.DecisionProfile{Capabilities: []string{"Eat", "Fly"}}},
			"the recorded profile does not fit the domain"},
		{"the game's distance model", resDom, agent.Decision{Kind: "resolver", Goal: "Fed", Snapshot: res, Distance: "game"},
			"priced by the game's distance model"},
		{"an unknown distance model", resDom, agent.Decision{Kind: "resolver", Goal: "Fed", Snapshot: res, Distance: "manhattan"},
			`unknown distance model "manhattan"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.d.Agent, tc.d.Decided, tc.d.Status = "ada", "plan", "found"
			got := replay.New(tc.dom).Decide(&tc.d)
			if got.Status != "error" || !strings.Contains(got.Error, tc.want) {
				t.Fatalf("replay: %+v, want an error containing %q", got, tc.want)
			}
			a := replay.New(tc.dom).Why([]agent.Decision{tc.d}, 0)
			if len(a.Rejected) != 0 || !strings.Contains(a.RejectedNote, tc.want) {
				t.Fatalf("why: rejected %+v, note %q; want a note containing %q", a.Rejected, a.RejectedNote, tc.want)
			}
		})
	}
}

// TestRunCountsEveryChangeAndKeepsAtMostTheLimit: Report.Changed counts
// every decision an edit changed, whatever the limit on the changes
// listed; a limit of 0 lists none, a negative one all.
func TestRunCountsEveryChangeAndKeepsAtMostTheLimit(t *testing.T) {
	rec := recording(t, camp.Options{Agents: 10, Ticks: 200, Workers: 1})
	edited := survivorFile(t, func(s string) string {
		return strings.Replace(s, "    cost: 3\n    target: berries", "    cost: 30\n    target: berries", 1)
	})
	all := replay.New(replay.FromFile(edited)).Run(rec.Decisions, -1)
	if all.Changed < 3 || len(all.Changes) != all.Changed {
		t.Fatalf("all: %d changed, %d listed; want at least 3, all listed", all.Changed, len(all.Changes))
	}
	for _, limit := range []int{0, 1, 2} {
		rep := replay.New(replay.FromFile(edited)).Run(rec.Decisions, limit)
		if rep.Changed != all.Changed || rep.Decisions != all.Decisions || len(rep.Changes) != limit {
			t.Errorf("limit %d: %d of %d changed, %d listed; want %d of %d, %d listed", limit, rep.Changed, rep.Decisions, len(rep.Changes), all.Changed, all.Decisions, limit)
			continue
		}
		if !slices.EqualFunc(rep.Changes, all.Changes[:limit], func(a, b replay.Change) bool { return a.Index == b.Index }) {
			t.Errorf("limit %d: lists other changes than the first", limit)
		}
	}
}

// TestHTNSearchStoppedTakesNothing: an HTN interruption check whose
// search a limit stopped, or that found no decomposition, has no plan:
// it replaces nothing, and its outcome has no plan and no cost, as the
// runtime records it.
func TestHTNSearchStoppedTakesNothing(t *testing.T) {
	bm := battlemageFile(t)
	r := replay.New(replay.Domain{GOAP: bm.GOAP, HTN: bm.HTN})
	start := agent.DecisionSnapshot{Facts: []string{"spare_crystals", "potion_at_shrine"}}
	for _, limits := range []agent.DecisionLimits{{MaxSteps: 1}, {MaxBytes: 1}} {
		d := agent.Decision{Agent: "ada", Kind: "htn", Decided: "interruption", Task: "BeABattleMage", Snapshot: start, Running: []int32{4, 0}, Limits: limits}
		got := r.Decide(&d)
		if got.Status == "found" || got.Taken || len(got.Plan) != 0 || got.Cost != 0 {
			t.Errorf("limits %+v: %+v, want no plan, nothing taken", limits, got)
		}
	}
	// No potion anywhere: Heal has no decomposition.
	d := agent.Decision{Agent: "ada", Kind: "htn", Decided: "interruption", Task: "Heal", Running: []int32{1, 0}}
	if got := r.Decide(&d); got.Status != "no_plan" || got.Taken || len(got.Plan) != 0 || got.Cost != 0 {
		t.Errorf("no decomposition: %+v, want no_plan, nothing taken", got)
	}
}
