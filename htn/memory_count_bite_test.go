package htn

import (
	"errors"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/search"
)

// Tests for the mutants of the memory cap's count and Result.Stats.PeakBytes
// that lived in the issue-21 mutation sample (docs/testing.md).

// twoStepDomain: root R has one method, always applicable, whose subtasks
// are the GOAP actions A and B.
func twoStepDomain(t *testing.T, cond map[string]bool) *Domain {
	t.Helper()
	g, err := goap.NewDomain(goap.Spec{Name: "two", Facts: []string{"a", "b"}, Actions: []goap.ActionSpec{
		{Name: "A", Effects: map[string]bool{"a": true}, Cost: goap.Const(1)},
		{Name: "B", Effects: map[string]bool{"b": true}, Cost: goap.Const(1)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDomain(g, Spec{Root: "R", Tasks: []TaskSpec{{Name: "R", Methods: []MethodSpec{{Name: "m", Conditions: cond, Subtasks: []string{"A", "B"}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestMemoryCapCountsEachCheck works the two-step decomposition through
// by hand: what the cap counts at each of its three checks (the method's
// push, then each primitive's), from the lengths the task stack, undo log,
// saved facts, choice points and plan have there and what the step adds.
// The smallest cap that passes each check is exactly its count, and
// PeakBytes is the largest count.
func TestMemoryCapCountsEachCheck(t *testing.T) {
	d := twoStepDomain(t, nil)
	const w = 1 // the state's words
	// R taken (one undo entry); its method pushes two tasks, an undo entry
	// and a choice point.
	method := 1*undoBytes + (2*taskBytes + undoBytes + choiceBytes)
	// A taken (B on the stack, three undo entries, the choice point): the
	// plan's first action, two undo entries and the saved facts.
	first := 1*taskBytes + 3*undoBytes + choiceBytes + (1*planBytes + 2*undoBytes + w*wordBytes)
	// B taken (five undo entries, A's saved facts, the choice, A planned).
	second := 5*undoBytes + w*wordBytes + choiceBytes + (2*planBytes + 2*undoBytes + w*wordBytes)
	p := NewPlanner(d)
	plan := func(limit int) Result {
		var res Result
		_ = p.Plan(&res, d.GOAP().Initial(), Options{Limits: search.Limits{MaxBytes: int64(limit)}})
		return res
	}
	res := plan(1 << 20)
	if res.Status != Found || len(res.Plan) != 2 {
		t.Fatalf("%v, plan %v; want A, B", res.Status, res.Plan)
	}
	if want := max(method, first, second); res.Stats.PeakBytes != int64(want) {
		t.Errorf("PeakBytes %d; the checks count %d, %d and %d", res.Stats.PeakBytes, method, first, second)
	}
	// Each check, at exactly its count and one byte short: taken tasks
	// (Stats.Expanded) say how far the decomposition got.
	for _, c := range []struct {
		name          string
		count         int
		before, after int64 // tasks taken when stopped short, and when let through (the next check is larger)
	}{
		{"the method's push", method, 1, 2},
		{"A", first, 2, 3},
	} {
		if c.count >= second {
			t.Fatalf("%s counts %d, not less than B's %d: the test's premise is wrong", c.name, c.count, second)
		}
		if r := plan(c.count - 1); r.Status != LimitReached || r.Bound != search.Bytes || r.Stats.Expanded != c.before {
			t.Errorf("cap %d, one short of %s's count: %v/%v after %d tasks; want the memory cap after %d", c.count-1, c.name, r.Status, r.Bound, r.Stats.Expanded, c.before)
		}
		if r := plan(c.count); r.Stats.Expanded < c.after {
			t.Errorf("cap %d, %s's count: %v/%v after %d tasks; want past it (%d tasks)", c.count, c.name, r.Status, r.Bound, r.Stats.Expanded, c.after)
		}
	}
	if r := plan(second); r.Status != Found {
		t.Errorf("cap %d, B's count: %v/%v; want the plan", second, r.Status, r.Bound)
	}
	if r := plan(second - 1); r.Status != LimitReached || r.Bound != search.Bytes {
		t.Errorf("cap %d, one short of B's count: %v/%v; want the memory cap", second-1, r.Status, r.Bound)
	}
}

// TestPeakBytesNothingCounted: a decomposition whose only method never
// holds makes no memory check, and reports a peak of 0.
func TestPeakBytesNothingCounted(t *testing.T) {
	d := twoStepDomain(t, map[string]bool{"a": true})
	var res Result
	if err := NewPlanner(d).Plan(&res, d.GOAP().Initial(), Options{}); err != nil || res.Status != NoPlan {
		t.Fatalf("%v %v; want no plan", res.Status, err)
	}
	if res.Stats.PeakBytes != 0 || res.Stats.Generated != 1 {
		t.Errorf("Stats %+v; want one method tested and a peak of 0", res.Stats)
	}
}

// TestOneByteCapIsACap: only zero or less means the default; a cap of one
// byte stops the decomposition at its first check.
func TestOneByteCapIsACap(t *testing.T) {
	d := twoStepDomain(t, nil)
	var res Result
	err := NewPlanner(d).Plan(&res, d.GOAP().Initial(), Options{Limits: search.Limits{MaxBytes: 1}})
	var ml *MemoryLimitError
	if !errors.As(err, &ml) || ml.Limit != 1 || res.Status != LimitReached || res.Stats.Expanded != 1 {
		t.Errorf("a one-byte cap: %v/%v after %d tasks, %v; want the memory cap of 1 at the first check", res.Status, res.Bound, res.Stats.Expanded, err)
	}
}
