package strips

import (
	"math/rand/v2"
	"testing"
)

// TestProgressReportsEachLayerOnce: a search reports every new f layer it
// expands, in increasing order, with counts that grow, and the last
// report's f is at most the plan's cost (A* expands no state beyond it);
// a Portfolio's two searches both report. The same search reports the
// same way every time.
func TestProgressReportsEachLayerOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for round := range 60 {
		task := randomTask(rng, 10, 24)
		for _, h := range []Heuristic{Blind, LMCut, Portfolio} {
			var got []Progress
			res, err := Search(task, Options{Heuristic: h, Progress: func(p Progress) { got = append(got, p) }})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Found || res.Expanded == 0 {
				if h != Portfolio && res.Expanded == 0 && len(got) > 0 { // a Portfolio's loser may report
					t.Fatalf("round %d %v: %d reports without an expansion", round, h, len(got))
				}
				continue
			}
			checked++
			last := map[Heuristic]Progress{}
			for _, p := range got {
				prev, seen := last[p.Heuristic]
				if !p.NewLayer {
					t.Fatalf("round %d %v: a report within a layer after %d expansions, fewer than ProgressEvery", round, h, p.Expanded)
				}
				if seen && (p.F <= prev.F || p.Expanded <= prev.Expanded || p.Generated < prev.Generated) {
					t.Fatalf("round %d %v: report %+v after %+v: f and counts must grow", round, h, p, prev)
				}
				if p.Bytes <= 0 {
					t.Fatalf("round %d %v: %d bytes held", round, h, p.Bytes)
				}
				last[p.Heuristic] = p
			}
			if h != Portfolio {
				if len(last) != 1 || last[h].F > res.Cost || last[h].Expanded > res.Expanded {
					t.Fatalf("round %d %v: last report %+v, plan cost %d after %d expansions", round, h, last[h], res.Cost, res.Expanded)
				}
				if got[0].F != res.InitialH {
					t.Fatalf("round %d %v: first layer %d, the start's estimate %d", round, h, got[0].F, res.InitialH)
				}
			}
			var again []Progress
			Search(task, Options{Heuristic: h, Progress: func(p Progress) { again = append(again, p) }})
			// A Portfolio's two searches run side by side: their reports
			// interleave as the goroutines run, and the one that loses may
			// go on a little further, until it learns it lost. Each
			// search's own reports are the same up to where both runs got.
			for _, of := range []Heuristic{LMCut, Blind, HMax} {
				a, b := only(got, of), only(again, of)
				if h != Portfolio && len(a) != len(b) {
					t.Fatalf("round %d %v: %d reports, then %d", round, h, len(a), len(b))
				}
				for i := range min(len(a), len(b)) {
					if a[i] != b[i] {
						t.Fatalf("round %d %v: %v's report %d: %+v, then %+v", round, h, of, i, a[i], b[i])
					}
				}
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d searches found plans", checked)
	}
}

// TestProgressWithinALayer: a search that expands more than ProgressEvery
// states at one f reports within the layer, every ProgressEvery.
func TestProgressWithinALayer(t *testing.T) {
	// 18 independent facts, each set by a free operator: blind search
	// expands all 2^18 states at f = 0 before it finds the goal... the
	// goal is unreachable, so it expands them all.
	task := &Task{Name: "wide"}
	for i := range 18 {
		task.Facts = append(task.Facts, string(rune('a'+i)))
		task.Ops = append(task.Ops, Op{Name: "(set " + task.Facts[i] + ")", Add: []Fact{Fact(i)}})
	}
	task.Facts = append(task.Facts, "never")
	task.Goal = []Fact{18}
	var within []int64
	res, err := Search(task, Options{Heuristic: Blind, Progress: func(p Progress) {
		if !p.NewLayer {
			within = append(within, p.Expanded)
		}
	}})
	if err != nil || res.Status != NoPlan || res.Expanded != 1<<18 {
		t.Fatalf("status %v, %d expanded, %v; want no plan after all 2^18 states", res.Status, res.Expanded, err)
	}
	want := []int64{ProgressEvery, 2 * ProgressEvery, 3 * ProgressEvery, 4 * ProgressEvery}
	if len(within) != len(want) {
		t.Fatalf("reports within the layer at %v, want %v", within, want)
	}
	for i := range want {
		if within[i] != want[i] {
			t.Fatalf("reports within the layer at %v, want %v", within, want)
		}
	}
}

// only returns the reports of the search with heuristic h.
func only(ps []Progress, h Heuristic) []Progress {
	var out []Progress
	for _, p := range ps {
		if p.Heuristic == h {
			out = append(out, p)
		}
	}
	return out
}
