package agent_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// TestCommittedRecordOfAWithdrawnCurrentGoal: with a commitment, the
// record of the plan asked for when the current goal is withdrawn (its
// When turns false) shows that goal as goal choice found it on that tick:
// "when is false", score 0, current and not chosen; not as it was noted
// the tick before.
func TestCommittedRecordOfAWithdrawnCurrentGoal(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{MinTicks: 40, Margin: 100})
			w.run(3) // A chosen on tick 1, PrepA running
			w.off["A"] = true
			before := len(w.sink.d)
			w.run(1) // B replaces the withdrawn A and asks for a plan
			if w.goal() != "B" {
				t.Fatalf("goal %q after A was withdrawn, want B", w.goal())
			}
			if len(w.sink.d) == before {
				t.Fatal("no decision recorded when B replaced A")
			}
			d := w.sink.d[len(w.sink.d)-1]
			if d.Goal != "B" || d.Current != "A" {
				t.Fatalf("record: goal %q, current %q; want B, A", d.Goal, d.Current)
			}
			want := map[string]agent.GoalScore{
				"A":    {Goal: "A", Score: 0, Current: true, Why: "when is false"},
				"B":    {Goal: "B", Score: 1, Chosen: true, Why: "highest score"},
				"Heal": {Goal: "Heal", Score: 0, Why: "lower score"},
			}
			if len(d.Options) != len(want) {
				t.Fatalf("%d options recorded, want %d: %+v", len(d.Options), len(want), d.Options)
			}
			for _, o := range d.Options {
				w := want[o.Goal]
				if o.Score != w.Score || o.Chosen != w.Chosen || o.Current != w.Current || o.Why != w.Why {
					t.Errorf("option %s: %+v; want score %g, chosen %v, current %v, why %q", o.Goal, o, w.Score, w.Chosen, w.Current, w.Why)
				}
			}
		})
	}
}

// TestCommitmentActingIsFalseBeforeAStepRuns: the record of the first
// plan, asked for on the tick the first goal was chosen (no step under
// way), says the commitment was not applied to a running step; the record
// of a choice made while PrepA runs says it was.
func TestCommitmentActingIsFalseBeforeAStepRuns(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 0.5})
			w.run(1)
			if len(w.sink.d) != 1 {
				t.Fatalf("%d decisions on the first tick, want 1", len(w.sink.d))
			}
			want := agent.DecisionCommitment{Margin: 0.5, OnGoal: 0, Acting: false}
			if got := w.sink.d[0].Commitment; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("first record's commitment %+v, want %+v", got, want)
			}
			w.run(2)
			w.score["B"] = 9 // outscores A by more than the margin: replaces it mid-step
			w.run(1)
			if d := w.sink.d[len(w.sink.d)-1]; !d.Commitment.Acting {
				t.Errorf("record of the choice made while PrepA ran: commitment %+v, want Acting", d.Commitment)
			}
		})
	}
}

// TestHTNAndTreeRecordsListNoGoalOptions: an HTN or tree agent never
// weighs goal options, even when its Config lists some: its records have
// none.
func TestHTNAndTreeRecordsListNoGoalOptions(t *testing.T) {
	for _, c := range []struct {
		kind string
		cfg  func(*agent.Config, *goap.Domain, *htn.Domain)
	}{
		{"htn", func(c *agent.Config, _ *goap.Domain, h *htn.Domain) { c.HTN = h }},
		{"tree", func(c *agent.Config, d *goap.Domain, _ *htn.Domain) { c.Tree = agent.Plan(d.Goal("Kill")) }},
	} {
		t.Run(c.kind, func(t *testing.T) {
			w, d, h := newToy(t)
			cfg := goapConfig(w, d, nil)
			if len(cfg.Goals) == 0 {
				t.Fatal("the config lists no goal options: nothing to test")
			}
			sink := &keptDecisions{}
			cfg.Decisions = sink
			c.cfg(&cfg, d, h)
			a, err := agent.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			run(a, 5)
			if len(sink.d) == 0 {
				t.Fatal("no decision recorded")
			}
			for _, dec := range sink.d {
				if dec.Kind != c.kind {
					t.Fatalf("record of kind %q, want %q", dec.Kind, c.kind)
				}
				if len(dec.Options) != 0 {
					t.Errorf("%s record (%s, %q) lists goal options %+v, want none", c.kind, dec.Decided, dec.Reason, dec.Options)
				}
			}
		})
	}
}
