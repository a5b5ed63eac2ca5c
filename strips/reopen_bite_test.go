package strips

import (
	"math"
	"slices"
	"testing"
)

// byFact is an admissible but inconsistent estimate for reopenTask: it
// reads the state's one true fact.
type byFact map[Fact]int64

func (e byFact) estimate(s []uint64) (int64, bool) {
	for f, h := range e {
		if Has(s, f) {
			return h, false
		}
	}
	return 0, false
}

// TestSearchReopensAStateFoundCheaper: the path s→a→c→g costs 5, and s→c
// costs 3 at once. With h(a) = 4 (admissible: a is 4 from the goal) and 0
// elsewhere, A* expands c first at g 3, then finds it at g 2 through a: it
// must expand c again, and the plan through a is the cheapest. A search
// that never reopened a closed state would answer s→c→g, cost 6.
func TestSearchReopensAStateFoundCheaper(t *testing.T) {
	task := handTask(fields("s a c g"), fields("s"), fields("g"),
		"SA 1 | s | a | s",
		"AC 1 | a | c | a",
		"SC 3 | s | c | s",
		"CG 3 | c | g | c",
	)
	s, err := NewSearcher(task)
	if err != nil {
		t.Fatal(err)
	}
	var expanded []string
	var reopened []bool
	opt := Options{Heuristic: Blind, OnExpand: func(e Expansion) {
		for f, name := range task.Facts {
			if Has(e.State, Fact(f)) {
				expanded = append(expanded, name)
			}
		}
		reopened = append(reopened, e.Reopened)
	}}
	if err := s.begin(opt); err != nil {
		t.Fatal(err)
	}
	// The start was estimated by blind search (1, admissible); every
	// later state by the inconsistent estimate.
	s.est = byFact{1: 4}
	for !s.advance(math.MaxInt64) {
	}
	res, err := s.result()
	if err != nil || res.Status != Found || res.Cost != 5 {
		t.Fatalf("got %s, cost %d, %v; want found, cost 5", res.Status, res.Cost, err)
	}
	var plan []string
	for _, o := range res.Plan {
		plan = append(plan, task.Ops[o].Name)
	}
	if !slices.Equal(plan, []string{"(SA)", "(AC)", "(CG)"}) {
		t.Errorf("plan %v, want SA, AC, CG", plan)
	}
	if res.Reopened != 1 || res.Expanded != 4 {
		t.Errorf("%d expanded, %d reopened; want 4 and 1", res.Expanded, res.Reopened)
	}
	if !slices.Equal(expanded, []string{"s", "c", "a", "c"}) || !slices.Equal(reopened, []bool{false, false, false, true}) {
		t.Errorf("expanded %v (reopened %v); want s, c, a, c again", expanded, reopened)
	}
}
