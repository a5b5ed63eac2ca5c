package strips

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Both heuristics are estimators.
var (
	_ estimator = (*lmCut)(nil)
	_ estimator = (*hMax)(nil)
)

// oracleTasks is how many random tasks the oracle tests check, every state
// of each: fewer under the race detector and -short.
func oracleTasks() int {
	if raceEnabled || testing.Short() {
		return 300
	}
	return 3000
}

// TestEstimatorsOracle checks h_max and LM-cut on every state of thousands
// of small random tasks against the true costs: both admissible, 0 on goal
// states, dead only where no goal state is reachable and then both dead,
// h_max ≤ LM-cut, and the same h again for the same state.
func TestEstimatorsOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var states, dead, strict, exact, reached int
	for i := range oracleTasks() {
		task := randomTask(rng, 6+rng.IntN(5), 5+rng.IntN(16))
		if err := task.Validate(); err != nil {
			t.Fatal(err)
		}
		opt := optimalCosts(task)
		lm, hm := newLMCut(task), newHMax(task)
		ref := newRefHMax(task)
		s := make([]uint64, 1)
		for x := range opt {
			s[0] = uint64(x)
			hl, dl := lm.estimate(s)
			hh, dh := hm.estimate(s)
			href := ref.estimate(s)
			where := func() string { return fmt.Sprintf("task %d state %b:\n%s", i, x, dump(task)) }
			switch {
			case dl != dh:
				t.Fatalf("%s LM-cut dead %v, h_max dead %v", where(), dl, dh)
			case dh != (href < 0):
				t.Fatalf("%s h_max dead %v, reference h_max %d", where(), dh, href)
			case !dh && hh != href:
				t.Fatalf("%s h_max %d, reference %d", where(), hh, href)
			case dl && opt[x] >= 0:
				t.Fatalf("%s dead, but the goal is %d away", where(), opt[x])
			case !dl && opt[x] >= 0 && hl > opt[x]:
				t.Fatalf("%s LM-cut %d > h* %d", where(), hl, opt[x])
			case !dl && hh > hl:
				t.Fatalf("%s h_max %d > LM-cut %d", where(), hh, hl)
			case task.IsGoal(s) && (hl != 0 || dl):
				t.Fatalf("%s goal state: LM-cut %d dead %v", where(), hl, dl)
			}
			if h2, d2 := lm.estimate(s); h2 != hl || d2 != dl {
				t.Fatalf("%s LM-cut %d %v, then %d %v", where(), hl, dl, h2, d2)
			}
			states++
			switch {
			case dl:
				dead++
			case opt[x] >= 0:
				reached++
				if hl > hh {
					strict++
				}
				if hl == opt[x] {
					exact++
				}
			}
		}
	}
	t.Logf("%d states, %d dead; of %d that reach the goal LM-cut is above h_max on %d and exact on %d",
		states, dead, reached, strict, exact)
}

// dump writes a task out for a failure message.
func dump(t *Task) string {
	name := func(l []Fact) string {
		s := ""
		for _, f := range l {
			s += " " + t.Facts[f]
		}
		return s
	}
	out := fmt.Sprintf("init%s\ngoal%s not%s\n", name(t.Init), name(t.Goal), name(t.GoalNot))
	for _, o := range t.Ops {
		out += fmt.Sprintf("%s cost %d pre%s not%s add%s del%s\n", o.Name, o.Cost, name(o.Pre), name(o.PreNot), name(o.Add), name(o.Del))
	}
	return out
}

// refHMax is h_max computed the plain way, a fixpoint over the task's
// operators on literals, with no relevance analysis and no queue: the
// oracle for the relaxation and the fast exploration.
type refHMax struct {
	t *Task
}

func newRefHMax(t *Task) *refHMax { return &refHMax{t} }

// estimate returns h_max of the goal from s, -1 if unreached.
func (r *refHMax) estimate(s []uint64) int64 {
	t := r.t
	n := len(t.Facts)
	h := make([]int64, 2*n) // 2f: f, 2f+1: not f
	for f := range n {
		h[2*f], h[2*f+1] = inf, inf
		if Has(s, Fact(f)) {
			h[2*f] = 0
		} else {
			h[2*f+1] = 0
		}
	}
	cond := func(pos, neg []Fact) int64 {
		var c int64
		for _, f := range pos {
			c = max(c, h[2*f])
		}
		for _, f := range neg {
			c = max(c, h[2*f+1])
		}
		return c
	}
	for changed := true; changed; {
		changed = false
		for _, o := range t.Ops {
			c := cond(o.Pre, o.PreNot)
			if c == inf {
				continue
			}
			c += o.Cost
			for _, f := range o.Add {
				if c < h[2*f] {
					h[2*f], changed = c, true
				}
			}
			for _, f := range o.Del {
				if c < h[2*f+1] {
					h[2*f+1], changed = c, true
				}
			}
		}
	}
	if c := cond(t.Goal, t.GoalNot); c != inf {
		return c
	}
	return -1
}
