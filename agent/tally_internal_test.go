package agent

import "testing"

// TestNoGoalTally: each state's count is its own, saturates rather than
// spilling into the next, and the satisfied bit touches no count; why
// says each count in words.
func TestNoGoalTally(t *testing.T) {
	var tally noGoalTally
	for range tallyMax + 5 {
		tally.add(optionHolds)
	}
	tally.add(optionWhenFalse)
	tally.add(optionBlocked)
	tally.add(optionBlocked)
	tally |= tallySatisfied
	if h, w, b := tally.count(optionHolds), tally.count(optionWhenFalse), tally.count(optionBlocked); h != tallyMax || w != 1 || b != 2 || !tally.satisfied() {
		t.Fatalf("counts %d, %d, %d, satisfied %v; want %d, 1, 2, true", h, w, b, tally.satisfied(), tallyMax)
	}
	if got, want := tally.why(), "no goal option applies: 1048575 goals hold, 1 option's when is false, 2 options found no plan and wait to plan again"; got != want {
		t.Errorf("why %q, want %q", got, want)
	}
	var one noGoalTally
	one.add(optionBlocked)
	if got, want := one.why(), "no goal option applies: 1 option found no plan and waits to plan again"; got != want || one.satisfied() {
		t.Errorf("why %q (satisfied %v), want %q", got, one.satisfied(), want)
	}
}
