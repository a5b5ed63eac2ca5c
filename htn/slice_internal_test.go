package htn

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/ploy-ai/ploy/goap"
)

// grown grows s's backing array by at least n elements and returns the
// bytes that added, at capacity.
func grown[S ~[]E, E any](s *S, n int) int64 {
	var e E
	before := int64(cap(*s)) * int64(unsafe.Sizeof(e))
	*s = slices.Grow(*s, cap(*s)+n)
	return int64(cap(*s))*int64(unsafe.Sizeof(e)) - before
}

// TestSlicedPlannerBytesCountEveryPart checks that Bytes, what a planner
// kept across frames holds, counts each part of its storage at its
// capacity: growing any one part, while a decomposition is paused and
// once it has ended, makes Bytes grow by exactly what that part grew by.
// Steps is 0 before any Begin.
func TestSlicedPlannerBytesCountEveryPart(t *testing.T) {
	g, err := goap.NewDomain(goap.Spec{
		Name:  "guard",
		Facts: []string{"heard_noise", "alarm_raised"},
		Actions: []goap.ActionSpec{
			{Name: "Investigate", Preconditions: map[string]bool{"heard_noise": true}, Effects: map[string]bool{"heard_noise": false}, Cost: goap.Const(1)},
			{Name: "RaiseAlarm", Effects: map[string]bool{"alarm_raised": true}, Cost: goap.Const(1)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDomain(g, Spec{Root: "Guard", Tasks: []TaskSpec{{Name: "Guard", Methods: []MethodSpec{
		{Name: "Respond", Subtasks: []string{"Investigate", "RaiseAlarm"}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlanner(d)
	if n := p.Steps(); n != 0 {
		t.Fatalf("Steps before any Begin: %d, want 0", n)
	}
	s := g.NewState()
	noise, _ := g.Fact("heard_noise")
	s.Set(noise, true)

	// Each part's grow grows it and returns what Bytes should grow by.
	check := func(when string, parts []struct {
		name string
		grow func() int64
	}) {
		t.Helper()
		for _, part := range parts {
			before := p.Bytes()
			want := part.grow()
			if got := p.Bytes() - before; got != want {
				t.Errorf("%s, %s: Bytes grew by %d, want %d", when, part.name, got, want)
			}
		}
	}

	p.Begin(s, Options{})
	if p.Continue(1) {
		t.Fatal("a three-step decomposition ended in a slice of one step")
	}
	if n := p.Steps(); n != 1 {
		t.Fatalf("Steps after a slice of one: %d", n)
	}
	sl := p.slicing
	check("paused", []struct {
		name string
		grow func() int64
	}{
		{"facts", func() int64 { return grown(&p.facts, 100) }},
		{"task stack", func() int64 { return grown(&p.stack, 100) }},
		{"undo log", func() int64 { return grown(&p.log, 100) }},
		{"saved facts", func() int64 { return grown(&p.saved, 100) }},
		{"choice points", func() int64 { return grown(&p.choices, 100) }},
		{"open counts", func() int64 { return grown(&p.openCount, 100) }},
		{"in chain", func() int64 { return grown(&p.inChain, 100) }},
		{"chain", func() int64 { return grown(&p.chain, 100) }},
		{"start state", func() int64 { return grown(&sl.start, 100) }},
		{"paused plan, MTR and tasks", func() int64 { sl.held += 1000; return 1000 }},
		// A paused decomposition's result lists are its loop's, which
		// held counts: the ended result's are not counted twice.
		{"(not) the ended result", func() int64 {
			grown(&sl.res.Plan, 100)
			return 0
		}},
	})
	p.Abandon()

	// What a pause counts as held is the loop's own lists, which start on
	// the slicer's result lists: given lists of known capacities, and a
	// decomposition too short to outgrow them, held is their bytes.
	sl.res.Plan, sl.res.MTR, sl.res.Tasks = make([]goap.ActionID, 0, 1000), make(MTR, 0, 900), make([]Task, 0, 800)
	want := sliceBytes(sl.res.Plan) + sliceBytes(sl.res.MTR) + sliceBytes(sl.res.Tasks)
	p.Begin(s, Options{})
	if p.Continue(1) {
		t.Fatal("a three-step decomposition ended in a slice of one step")
	}
	if sl.held != want {
		t.Errorf("a paused decomposition holds %d bytes of plan, MTR and tasks; want %d", sl.held, want)
	}
	p.Abandon()

	p.Begin(s, Options{})
	for !p.Continue(1) {
	}
	check("ended", []struct {
		name string
		grow func() int64
	}{
		{"plan", func() int64 { return grown(&sl.res.Plan, 100) }},
		{"MTR", func() int64 { return grown(&sl.res.MTR, 100) }},
		{"tasks", func() int64 { return grown(&sl.res.Tasks, 100) }},
		{"start state", func() int64 { return grown(&sl.start, 100) }},
		{"(not) the paused plan's held bytes", func() int64 { sl.held += 1000; return 0 }},
	})
}
