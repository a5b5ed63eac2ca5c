package agent_test

import (
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// TestCommitmentTieGoesToTheEarlierOption: with a commitment in force and
// no current goal, two options at an equal, highest score go to the
// earlier one, as without a commitment.
func TestCommitmentTieGoesToTheEarlierOption(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 0.5, MinTicks: 5})
			w.score["A"], w.score["B"] = 3, 3
			w.tick()
			if g := w.goal(); g != "A" {
				t.Errorf("goal %q, want A: tied with B, it is the earlier option", g)
			}
		})
	}
}

// TestCommitmentDoesNotHoldAnEqualScore: an option that only equals the
// current goal's score is not held off by the commitment (the current
// goal is kept at an equal score anyway): no "commitment kept the
// current goal" decision, and a plan's record says "equal score".
func TestCommitmentDoesNotHoldAnEqualScore(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 0.5, MinTicks: 100, FinishAction: true})
			w.run(3)
			if g := w.goal(); g != "A" {
				t.Fatalf("goal %q, want A", g)
			}
			w.dur, w.left = 1, 1
			w.sink.d = nil
			w.score["B"] = 2 // A's score
			for range 10 {
				w.facts["a1"], w.facts["a"] = false, false // A stays unmet: plans asked for
				w.tick()
			}
			if g := w.goal(); g != "A" {
				t.Errorf("goal %q, want A kept at an equal score", g)
			}
			whys := map[string]bool{}
			for _, d := range w.sink.d {
				if d.Reason == agent.ReasonCommitment {
					t.Errorf("tick %d: decision %q, but B only equalled A's score", d.Tick, d.Reason)
				}
				for _, o := range d.Options {
					if o.Goal == "B" {
						whys[o.Why] = true
					}
				}
			}
			if len(whys) != 1 || !whys["equal score: the current goal kept"] {
				t.Errorf("whys of B %v, want only %q", whys, "equal score: the current goal kept")
			}
		})
	}
}
