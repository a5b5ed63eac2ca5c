package goap

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// wrapDomain is a domain of six facts (the dense search's) and four goals
// whose estimates differ.
func wrapDomain(t *testing.T) *Domain {
	spec := Spec{Name: "wrap", Initial: map[string]bool{}}
	for i := 0; i < 6; i++ {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	for i := 0; i < 6; i++ {
		spec.Actions = append(spec.Actions, ActionSpec{
			Name:          fmt.Sprintf("a%d", i),
			Preconditions: map[string]bool{fmt.Sprintf("f%d", (i+5)%6): i%2 == 0},
			Effects:       map[string]bool{fmt.Sprintf("f%d", i): true, fmt.Sprintf("f%d", (i+1)%6): false},
			Cost:          Const(float64(1 + 3*(i%3))),
		})
	}
	spec.Goals = []GoalSpec{
		{Name: "a", Conditions: map[string]bool{"f0": true, "f3": true}},
		{Name: "b", Conditions: map[string]bool{"f1": false, "f4": true, "f5": true}},
		{Name: "c", Conditions: map[string]bool{"f2": true}},
		{Name: "d", Conditions: map[string]bool{"f1": true, "f3": false}},
	}
	d, err := NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sameAsNew plans goal under heur from start on p and on a new planner, and
// fails unless the two agree on everything but Work (kept estimates cost
// none).
func sameAsNew(t *testing.T, p *Planner, start State, goal *Goal, heur Heuristic, what string) {
	t.Helper()
	opt := Options{Heuristic: heur}
	got, _ := p.Plan(nil, start, goal, opt)
	want, _ := NewPlanner(p.d).Plan(nil, start, goal, opt)
	got.Stats.Work, want.Stats.Work = 0, 0
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s, goal %s %v, search epoch %d, estimate epoch %d: %+v; a new planner %+v", what, goal.name, heur, p.dense.epoch, p.estEpoch, got, want)
	}
}

// TestEstimateCacheAcrossEpochWraps: the tables a planner keeps for other
// goals carry denseSearch.forward's table, whose slots are valid in a
// search epoch (g) and an estimate epoch (h). Both counters come round
// after 2^32 searches or sets of tables; the test moves them there, as
// that many searches of other goals would, while tables made under small
// epochs are put away, and checks that every search still gives what a
// new planner gives: a put-away slot read as current would prune a path
// or give a state another goal's estimate.
func TestEstimateCacheAcrossEpochWraps(t *testing.T) {
	d := wrapDomain(t)
	starts := []State{d.NewState(), d.NewState(), d.NewState()}
	starts[1].Set(1, true)
	starts[2].Set(3, true)
	starts[2].Set(4, true)
	heuristics := []Heuristic{GoalCost, GoalCount}
	r := rand.New(rand.NewPCG(26, 32))
	p := NewPlanner(d)
	for i := 0; i < 400; i++ {
		switch i {
		case 100:
			p.dense.epoch = math32 - 2 // a few searches before its wrap
		case 200:
			p.estimates.issued = math32 - 1 // the next set of tables wraps
		}
		g, s := d.Goals()[r.IntN(4)], starts[r.IntN(len(starts))]
		opt := Options{Heuristic: heuristics[r.IntN(2)]}
		got, _ := p.Plan(nil, s, g, opt)
		want, _ := NewPlanner(d).Plan(nil, s, g, opt)
		got.Stats.Work, want.Stats.Work = 0, 0 // kept estimates cost none
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("search %d, goal %s %v, search epoch %d, estimate epoch %d: %+v; a new planner %+v", i, g.name, opt.Heuristic, p.dense.epoch, p.estEpoch, got, want)
		}
	}
	if p.dense.epoch > 400 || p.estimates.issued > 400 {
		t.Errorf("search epoch %d, estimates issued %d: the counters did not come round", p.dense.epoch, p.estimates.issued)
	}
}

// TestEstimateCacheSearchEpochWrap: a table put away holds g values of
// past search epochs. Goal a is searched in epoch 2 (a's goal count in 1)
// and its tables put away; the search epoch wraps (denseSearch.forward
// clears only the table in use, b's) and a's tables come back in epoch 2
// again, where a's old g values would read as found in this search and
// prune its paths, unless the planner clears a table that comes back
// after a wrap.
func TestEstimateCacheSearchEpochWrap(t *testing.T) {
	d := wrapDomain(t)
	a, b := d.Goal("a"), d.Goal("b")
	s := d.NewState()
	p := NewPlanner(d)
	sameAsNew(t, p, s, a, GoalCount, "epoch 1")
	sameAsNew(t, p, s, a, GoalCost, "epoch 2")
	sameAsNew(t, p, s, b, GoalCost, "epoch 3")
	if p.dense.epoch != 3 {
		t.Fatalf("search epoch %d after three searches, want 3", p.dense.epoch)
	}
	p.dense.epoch = math32 // as after 2^32 searches of b
	sameAsNew(t, p, s, b, GoalCost, "epoch 1, after the wrap")
	sameAsNew(t, p, s, a, GoalCost, "epoch 2 again")
}

// TestEstimateCacheEstimateEpochWrap: a table put away holds estimates of
// past estimate epochs. Goals a, b, c are given tables in epochs 2, 3
// and 4; the epochs wrap at d's (1), and e's tables, made in epoch 2,
// get the least recently used storage, a's, whose slots were made in
// epoch 2 and would read as e's, unless the wrap forgets every table's
// estimates.
func TestEstimateCacheEstimateEpochWrap(t *testing.T) {
	d := wrapDomain(t)
	s := d.NewState()
	p := NewPlanner(d)
	p.estimates.issued = 1
	for _, g := range []string{"a", "b", "c"} {
		sameAsNew(t, p, s, d.Goal(g), GoalCost, "before the wrap")
	}
	p.estimates.issued = math32 // as after 2^32 sets of tables
	sameAsNew(t, p, s, d.Goal("d"), GoalCost, "epoch 1, after the wrap")
	sameAsNew(t, p, s, d.Goal("b"), GoalCount, "epoch 2")
	sameAsNew(t, p, s, d.Goal("c"), GoalCount, "epoch 3")
}
