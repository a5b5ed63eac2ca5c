package agent_test

import (
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// TestCommitmentActingIsFalseBetweenSteps: a goal choice made while the
// agent has a goal but no step under way (its plan done, the next goal
// chosen) records that the commitment was not applied to a running step.
func TestCommitmentActingIsFalseBetweenSteps(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 0.5})
			w.dur = 1 // each step succeeds on its first tick
			// Tick 1: A chosen, PrepA done; tick 2: DoA done, the plan
			// with it; tick 3: A holds, B is chosen with no step running.
			if n := w.switchTick("B", 10); n != 3 {
				t.Fatalf("B chosen after %d ticks, want 3", n)
			}
			d := w.sink.d[len(w.sink.d)-1]
			if d.Goal != "B" || d.Current != "A" {
				t.Fatalf("last record: goal %q, current %q; want B, A", d.Goal, d.Current)
			}
			if d.Commitment.Acting {
				t.Errorf("record of the choice made after A's plan was done: commitment %+v, want not Acting", d.Commitment)
			}
		})
	}
}
