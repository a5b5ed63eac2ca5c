package agent_test

import (
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// TestGoalChoiceWeighsTheOptionsInOrder: goal choice calls the options'
// When and Utility in the options' order, the current goal's in its
// place too (an agent with a commitment once weighed it first): When for
// an option whose goal does not hold, Utility for one whose When does
// (GoalOptionFor's promise, which a game whose scoring keeps state
// relies on).
func TestGoalChoiceWeighsTheOptionsInOrder(t *testing.T) {
	for _, kind := range []string{"goap", "resolver"} {
		for _, c := range []*agent.Commitment{nil, {MinTicks: 5}} {
			w := newCommitWorld(t)
			w.score = map[string]float64{"A": 1, "B": 2, "Heal": 3}
			if kind == "goap" {
				w.goapAgent(c)
			} else {
				w.resolverAgent(c)
			}
			w.run(1)
			if got := w.goal(); got != "Heal" {
				t.Fatalf("%s, commitment %v: goal %q after the first tick, want Heal", kind, c != nil, got)
			}
			// A's goal holds (no call), B is withdrawn (When only), Heal,
			// the current goal and last, applies (When, then Utility).
			w.facts["a"], w.off["B"] = true, true
			var calls []string
			w.calls = &calls
			w.run(1)
			want := []string{"when B", "when Heal", "utility Heal"}
			if !slices.Equal(calls, want) {
				t.Errorf("%s, commitment %v: calls %q, want %q", kind, c != nil, calls, want)
			}
			w.facts["a"], w.off["B"] = false, false
			calls = calls[:0]
			w.run(1)
			want = []string{"when A", "utility A", "when B", "utility B", "when Heal", "utility Heal"}
			if !slices.Equal(calls, want) {
				t.Errorf("%s, commitment %v: calls %q, want %q", kind, c != nil, calls, want)
			}
		}
	}
}
