package strips

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/race"
)

// Both heuristics are estimators.
var (
	_ estimator = (*lmCut)(nil)
	_ estimator = (*hMax)(nil)
)

// oracleTasks is how many random tasks the oracle tests check, every state
// of each: fewer under the race detector and -short.
func oracleTasks() int {
	if race.Enabled || testing.Short() {
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

// TestEstimatorsRadix checks both heuristics where the costs are too
// large for a bucket queue, so that h_max's queue is a radix heap: the
// tasks of the oracle test with every cost times a large odd number,
// against the true costs times the same.
func TestEstimatorsRadix(t *testing.T) {
	const scale = 1_000_003
	rng := rand.New(rand.NewPCG(7, 8))
	radix := 0
	for i := range oracleTasks() / 3 {
		task := randomTask(rng, 6+rng.IntN(5), 5+rng.IntN(16))
		opt := optimalCosts(task)
		plain := newHMax(task)
		for j := range task.Ops {
			task.Ops[j].Cost *= scale
		}
		lm, hm := newLMCut(task), newHMax(task)
		if hm.e.dial || lm.dial {
			continue // every operator free: 0 times the scale
		}
		radix++
		s := make([]uint64, 1)
		for x := range opt {
			s[0] = uint64(x)
			hl, dl := lm.estimate(s)
			hh, dh := hm.estimate(s)
			hp, dp := plain.estimate(s)
			switch {
			case dl != dh || dh != dp:
				t.Fatalf("task %d state %b: dead %v %v %v", i, x, dl, dh, dp)
			case dl && opt[x] >= 0:
				t.Fatalf("task %d state %b: dead, but the goal is %d away", i, x, opt[x])
			case dl:
			case hh != scale*hp:
				t.Fatalf("task %d state %b: h_max %d, unscaled %d", i, x, hh, hp)
			case hl > scale*opt[x] && opt[x] >= 0:
				t.Fatalf("task %d state %b: LM-cut %d > h* %d", i, x, hl, scale*opt[x])
			case hl < hh:
				t.Fatalf("task %d state %b: LM-cut %d < h_max %d", i, x, hl, hh)
			}
		}
	}
	if radix < oracleTasks()/4 {
		t.Fatalf("only %d tasks with a radix heap", radix)
	}
}

// TestEstimatorsAllocate checks that an estimate allocates nothing.
func TestEstimatorsAllocate(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	task := benchTask(rng, 300, 1500, 30, 1)
	states := randomWalk(task, rng, 50)
	lm, hm := newLMCut(task), newHMax(task)
	for name, e := range map[string]estimator{"LM-cut": lm, "h_max": hm} {
		i := 0
		if a := testing.AllocsPerRun(100, func() {
			e.estimate(states[i%len(states)])
			i++
		}); a != 0 {
			t.Errorf("%s: %v allocations an estimate", name, a)
		}
	}
}

// TestEstimatorsClone checks that clones and fresh estimators agree with
// the original, whatever it estimated before, and that the work counted
// is the same for the same states.
func TestEstimatorsClone(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 20 {
		task := benchTask(rng, 60+rng.IntN(60), 100+rng.IntN(300), 3+rng.IntN(10), 1+int64(rng.IntN(5)))
		states := randomWalk(task, rng, 40)
		lm, hm := newLMCut(task), newHMax(task)
		for _, s := range states[len(states)/2:] {
			lm.estimate(s)
			hm.estimate(s)
		}
		lm.takeWork()
		hm.takeWork()
		lc, hc, lf := lm.clone(), hm.clone(), newLMCut(task)
		for _, s := range states {
			a, ad := lm.estimate(s)
			b, bd := lc.estimate(s)
			c, cd := lf.estimate(s)
			if a != b || a != c || ad != bd || ad != cd {
				t.Fatalf("LM-cut %d %v, clone %d %v, fresh %d %v", a, ad, b, bd, c, cd)
			}
			x, xd := hm.estimate(s)
			y, yd := hc.estimate(s)
			if x != y || xd != yd {
				t.Fatalf("h_max %d %v, clone %d %v", x, xd, y, yd)
			}
		}
		// The original kept what was left over from its last units.
		if a, b := lm.takeWork(), lc.takeWork(); a < b || a > b+1 || a <= 0 && len(states) > 1 {
			t.Fatalf("LM-cut work %d, the clone's %d", a, b)
		}
	}
}

// benchTask returns a random task with more structure than randomTask's,
// for benchmarks and the larger tests: nfacts facts, a tenth of them
// true initially, a goal of ngoal facts, and nops operators of one to
// three preconditions, one to three adds and up to two deletes, costing 1
// to maxCost.
func benchTask(rng *rand.Rand, nfacts, nops, ngoal int, maxCost int64) *Task {
	t := &Task{Name: "bench"}
	for i := range nfacts {
		t.Facts = append(t.Facts, fmt.Sprintf("f%d", i))
	}
	pick := func(n int, not []Fact) []Fact {
		var l []Fact
		for len(l) < n {
			f := Fact(rng.IntN(nfacts))
			if !slices.Contains(l, f) && !slices.Contains(not, f) {
				l = append(l, f)
			}
		}
		slices.Sort(l)
		return l
	}
	t.Init = pick(max(1, nfacts/10), nil)
	t.Goal = pick(ngoal, t.Init)
	for i := range nops {
		o := Op{Name: fmt.Sprintf("(op%d)", i), Cost: 1 + rng.Int64N(maxCost)}
		o.Pre = pick(1+rng.IntN(3), nil)
		o.Add = pick(1+rng.IntN(3), nil)
		o.Del = pick(rng.IntN(3), o.Add)
		t.Ops = append(t.Ops, o)
	}
	if err := t.Validate(); err != nil {
		panic(err)
	}
	return t
}

// BenchmarkEstimate measures LM-cut's and h_max's estimates a second on
// the states of random walks in larger random tasks.
func BenchmarkEstimate(b *testing.B) {
	for _, c := range []struct {
		name                string
		nfacts, nops, ngoal int
		maxCost             int64
	}{
		{"unit-200x1000", 200, 1000, 20, 1},
		{"cost10-200x1000", 200, 1000, 20, 10},
		{"unit-500x5000", 500, 5000, 40, 1},
	} {
		rng := rand.New(rand.NewPCG(13, 14))
		task := benchTask(rng, c.nfacts, c.nops, c.ngoal, c.maxCost)
		var states [][]uint64
		for range 10 {
			states = append(states, randomWalk(task, rng, 30)...)
		}
		for _, h := range []struct {
			name string
			e    estimator
		}{{"lmcut", newLMCut(task)}, {"hmax", newHMax(task)}} {
			b.Run(c.name+"/"+h.name, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					h.e.estimate(states[i%len(states)])
					i++
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "estimates/s")
			})
		}
	}
}
