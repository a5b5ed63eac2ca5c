package replay_test

import (
	"bytes"
	"io"
	"io/fs"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/internal/testkit/camp"
	"github.com/ploy-ai/ploy/replay"
)

func survivorFile(t *testing.T, edit func(string) string) *domain.File {
	t.Helper()
	src, err := fs.ReadFile(domains.Files, "survivor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	if edit != nil {
		if text = edit(text); text == string(src) {
			t.Fatal("the edit changed nothing: survivor.yaml has changed")
		}
	}
	f, err := domain.Parse("survivor.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func recording(t *testing.T, o camp.Options) *agent.Recording {
	t.Helper()
	rec, err := agent.ReadRecording(bytes.NewReader(camp.Record(t, o)), "camp.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestReplayReproducesEveryDecision: a camp's recording, decided again
// against its own file, comes out the same, decision by decision.
func TestReplayReproducesEveryDecision(t *testing.T) {
	rec := recording(t, camp.Options{Agents: 10, Ticks: 200, Workers: 2})
	rep := replay.New(replay.FromFile(survivorFile(t, nil))).Run(rec.Decisions, -1)
	if rep.Decisions != len(rec.Decisions) || rep.Decisions < 100 {
		t.Fatalf("%d decisions decided, %d recorded", rep.Decisions, len(rec.Decisions))
	}
	for _, c := range rep.Changes {
		t.Errorf("decision %d changed: %v %+v → %+v", c.Index, c.What, c.Before, c.After)
	}
}

// TestWhatIfSeesEachKindOfEdit: an edit to an action's cost, to a goal
// option's utility, and to an agent kind's capabilities each change the
// decisions they should, and only those.
func TestWhatIfSeesEachKindOfEdit(t *testing.T) {
	rec := recording(t, camp.Options{Agents: 10, Ticks: 200, Workers: 1})
	for _, tc := range []struct {
		name  string
		edit  func(string) string
		check func(t *testing.T, c replay.Change)
	}{
		{"cost", func(s string) string {
			return strings.Replace(s, "    cost: 3\n    target: berries", "    cost: 30\n    target: berries", 1)
		}, func(t *testing.T, c replay.Change) {
			if !slices.Contains(c.Before.Plan, "Forage") {
				t.Errorf("decision %d changed, and its plan %v did not forage", c.Index, c.Before.Plan)
			}
		}},
		{"utility", func(s string) string {
			// Survivors (not the wounded) want food from any hunger: Fed
			// outscores Warm where it did not.
			return strings.Replace(s, "      - {goal: Fed, utility: {input: hunger, points: [[30, 0], [100, 10]]}}\n  - name: wounded",
				"      - {goal: Fed, utility: {input: hunger, points: [[0, 20], [100, 30]]}}\n  - name: wounded", 1)
		}, func(t *testing.T, c replay.Change) {
			if c.Before.Goal == c.After.Goal || c.After.Goal != "Fed" {
				t.Errorf("decision %d changed %v, not its goal to Fed: %+v → %+v", c.Index, c.What, c.Before, c.After)
			}
		}},
		{"capabilities", func(s string) string {
			return strings.Replace(s, "capabilities: [LightFire, WarmUp, Forage, Eat]", "capabilities: [LightFire, WarmUp, Eat]", 1)
		}, func(t *testing.T, c replay.Change) {
			if !slices.Contains(c.Before.Plan, "Forage") {
				t.Errorf("decision %d changed, and its plan %v did not forage", c.Index, c.Before.Plan)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := replay.New(replay.FromFile(survivorFile(t, tc.edit))).Run(rec.Decisions, -1)
			if rep.Changed == 0 {
				t.Fatal("the edit changed no decision")
			}
			for _, c := range rep.Changes {
				tc.check(t, c)
			}
			t.Logf("%d of %d changed", rep.Changed, rep.Decisions)
		})
	}
}

// TestTracedDecisionsRecordWhatWhyFinds: an agent that traces its
// decisions records, as the game runs, the very alternatives ploy why
// finds by searching again from the record; one that does not records
// none.
func TestTracedDecisionsRecordWhatWhyFinds(t *testing.T) {
	rec := recording(t, camp.Options{Agents: 6, Ticks: 150, Workers: 2, Trace: func(i int) bool { return i%2 == 0 }})
	r := replay.New(replay.FromFile(survivorFile(t, nil)))
	traced, withRejected := 0, 0
	for i := range rec.Decisions {
		d := &rec.Decisions[i]
		isTraced := d.Agent == "s00" || d.Agent == "s02" || d.Agent == "s04"
		if !isTraced {
			if len(d.Rejected) > 0 {
				t.Fatalf("decision %d of untraced %s records %d rejected", i, d.Agent, len(d.Rejected))
			}
			continue
		}
		traced++
		if len(d.Rejected) > 0 {
			withRejected++
		}
		stripped := *d
		stripped.Rejected = nil
		again := r.Why([]agent.Decision{stripped}, 0)
		if !slices.EqualFunc(again.Rejected, d.Rejected, func(a, b agent.DecisionRejected) bool {
			return a.Action == b.Action && a.Reason == b.Reason && slices.Equal(a.Plan, b.Plan) && a.Cost == b.Cost
		}) {
			t.Fatalf("decision %d of %s: recorded rejected %+v, ploy why finds %+v", i, d.Agent, d.Rejected, again.Rejected)
		}
	}
	if traced == 0 || withRejected == 0 {
		t.Fatalf("%d traced decisions, %d with something rejected: the test covers less than it says", traced, withRejected)
	}
}

// TestFind: the decision at a tick or the last before it; an unknown
// agent is named with a suggestion; a tick before the first decision says
// where the first is.
func TestFind(t *testing.T) {
	ds := []agent.Decision{{Agent: "ada", Tick: 3}, {Agent: "bo", Tick: 4}, {Agent: "ada", Tick: 9}, {Agent: "ada", Tick: 12}}
	for tick, want := range map[int]int{3: 0, 8: 0, 9: 2, 11: 2, 12: 3, 400: 3} {
		if got, err := replay.Find(ds, "ada", tick); err != nil || got != want {
			t.Errorf("Find(ada, %d) = %d, %v; want %d", tick, got, err, want)
		}
	}
	if _, err := replay.Find(ds, "ad", 5); err == nil || !strings.Contains(err.Error(), `did you mean "ada"`) {
		t.Errorf("Find(ad) = %v, want a suggestion", err)
	}
	if _, err := replay.Find(ds, "ada", 2); err == nil || !strings.Contains(err.Error(), "first in the recording is at tick 3") {
		t.Errorf("Find(ada, 2) = %v, want where its first decision is", err)
	}
}

// TestDifferences names every field that differs, costs exactly.
func TestDifferences(t *testing.T) {
	base := replay.Outcome{Goal: "Fed", Plan: []string{"Forage", "Eat"}, Cost: 4, Status: "found"}
	for _, tc := range []struct {
		change func(o *replay.Outcome)
		want   string
	}{
		{func(o *replay.Outcome) {}, ""},
		{func(o *replay.Outcome) { o.Goal = "Warm" }, "goal"},
		{func(o *replay.Outcome) { o.Plan = []string{"Hunt", "Eat"} }, "plan"},
		{func(o *replay.Outcome) { o.Cost = math.Nextafter(4, 5) }, "cost"},
		{func(o *replay.Outcome) { o.Status = "no_plan" }, "status"},
		{func(o *replay.Outcome) { o.Taken = true }, "taken"},
		{func(o *replay.Outcome) { o.Error = "gone" }, "error"},
	} {
		after := base
		after.Plan = slices.Clone(base.Plan)
		tc.change(&after)
		if got := strings.Join(replay.Differences(base, after), ","); got != tc.want {
			t.Errorf("Differences = %q, want %q", got, tc.want)
		}
	}
}

// TestFindOutOfOrder: in a recording out of tick order (two joined), the
// decision found is the agent's latest at or before the tick, and its
// previous the one before it by tick, wherever they are in the file.
func TestFindOutOfOrder(t *testing.T) {
	ds := []agent.Decision{{Agent: "ada", Tick: 10}, {Agent: "bo", Tick: 1}, {Agent: "ada", Tick: 5}, {Agent: "ada", Tick: 8}, {Agent: "ada", Tick: 2}, {Agent: "ada", Tick: 8, Goal: "later"}}
	i := 0
	next := func(d *agent.Decision) error {
		if i == len(ds) {
			return io.EOF
		}
		*d = ds[i]
		i++
		return nil
	}
	f, _, err := replay.FindFrom(next, "ada", 9)
	if err != nil || f.Index != 5 || f.Decision.Goal != "later" || f.Previous == nil || f.Previous.Tick != 8 || f.Previous.Goal != "" {
		t.Fatalf("FindFrom(ada, 9) = %+v, %v; want the later tick-8 decision, after the earlier one", f, err)
	}
	i = 0
	f, _, err = replay.FindFrom(next, "ada", 5)
	if err != nil || f.Index != 2 || f.Previous == nil || f.Previous.Tick != 2 {
		t.Fatalf("FindFrom(ada, 5) = %+v, %v; want tick 5 after tick 2", f, err)
	}
	i = 0
	if _, _, err := replay.FindFrom(next, "ada", 1); err == nil || !strings.Contains(err.Error(), "its first in the recording is at tick 2") {
		t.Fatalf("FindFrom(ada, 1): %v", err)
	}
}
