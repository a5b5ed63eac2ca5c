package goap_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/goap"
)

// A test for the mutant of Result.Stats.PeakBytes that lived in the
// issue-21 mutation sample (docs/testing.md).

// TestPeakBytesCountSuccessorRoom: the general forward search keeps room
// for one expansion's successors, one per action, and its memory ceiling
// counts it; so does PeakBytes. The same search in the same domain with
// more actions, none of which ever applies, expands and generates the same
// states and holds more.
func TestPeakBytesCountSuccessorRoom(t *testing.T) {
	peak := func(extra int) goap.Result {
		spec := toggles(6, 0, 1)
		for i := range extra {
			spec.Actions = append(spec.Actions, goap.ActionSpec{
				Name: fmt.Sprintf("stuck_%d", i), Preconditions: map[string]bool{"locked": true},
				Effects: map[string]bool{"blocked": true}, Cost: goap.Const(1),
			})
		}
		d := mustDomain(t, spec)
		// MaxDepth picks the general forward search, the one whose meter
		// has a fixed part.
		res, err := goap.NewPlanner(d).Plan(nil, d.NewState(), d.Goal("Never"), goap.Options{MaxDepth: 1000})
		if err != nil || res.Status != goap.NoPlan {
			t.Fatalf("%d extra actions: %v %v; want NoPlan", extra, res.Status, err)
		}
		return res
	}
	few, many := peak(0), peak(40)
	if few.Expanded != many.Expanded || few.Generated != many.Generated {
		t.Fatalf("the never-applicable actions changed the search: %d/%d expanded, %d/%d generated", few.Expanded, many.Expanded, few.Generated, many.Generated)
	}
	if many.Stats.PeakBytes <= few.Stats.PeakBytes {
		t.Errorf("PeakBytes %d with 40 more actions, %d without; want more (their successors' room)", many.Stats.PeakBytes, few.Stats.PeakBytes)
	}
}
