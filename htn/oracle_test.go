package htn_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
	"github.com/ploy-ai/ploy/search"
)

// reference is the HTN lesson's recursive decompose, with Result's counting
// conventions: a step per task taken off the list and per method condition
// tested, a backtrack per method choice undone, and a step cap. It reads
// the specs, not the compiled domains: tasks, methods in the order written,
// conditions and the actions' preconditions and effects by name, over facts
// held by name. A compilation bug (methods reversed, a negative condition
// dropped, a subtask resolved to the wrong task) then makes the two
// disagree instead of fooling both.
type reference struct {
	tasks      map[string]htn.TaskSpec
	actions    map[string]goap.ActionSpec
	steps      int
	backtracks int
	max        int
	limited    bool
	plan       []string
	mtr        htn.MTR
}

func newReference(g goap.Spec, h htn.Spec, maxSteps int) *reference {
	r := &reference{tasks: map[string]htn.TaskSpec{}, actions: map[string]goap.ActionSpec{}, max: maxSteps}
	for _, ts := range h.Tasks {
		r.tasks[ts.Name] = ts
	}
	for _, as := range g.Actions {
		r.actions[as.Name] = as
	}
	return r
}

// holds reports whether every fact of cond has its value in s.
func holds(cond map[string]bool, s map[string]bool) bool {
	for f, v := range cond {
		if s[f] != v {
			return false
		}
	}
	return true
}

func (r *reference) decompose(todo []string, s map[string]bool) bool {
	if len(todo) == 0 {
		return true
	}
	if r.steps >= r.max {
		r.limited = true
		return false
	}
	r.steps++
	name, rest := todo[0], todo[1:]
	ts, compound := r.tasks[name]
	if !compound {
		a := r.actions[name]
		if !holds(a.Preconditions, s) {
			return false
		}
		r.plan = append(r.plan, name)
		next := maps.Clone(s)
		maps.Copy(next, a.Effects)
		if r.decompose(rest, next) {
			return true
		}
		r.plan = r.plan[:len(r.plan)-1]
		return false
	}
	for i, m := range ts.Methods {
		if r.steps >= r.max {
			r.limited = true
			return false
		}
		r.steps++
		if !holds(m.Conditions, s) {
			continue
		}
		next := append(slices.Clone(m.Subtasks), rest...)
		n := len(r.plan)
		r.mtr = append(r.mtr, int32(i+1))
		if r.decompose(next, s) {
			return true
		}
		if r.limited {
			return false
		}
		r.mtr = r.mtr[:len(r.mtr)-1]
		r.backtracks++
		r.plan = r.plan[:n]
	}
	return false
}

// factsByName reads s the way goap.State.Words documents it: fact i, as
// the spec lists it, is bit i%64 of word i/64.
func factsByName(spec goap.Spec, s goap.State) map[string]bool {
	out := map[string]bool{}
	for i, f := range spec.Facts {
		out[f] = s.Words()[i/64]>>(i%64)&1 == 1
	}
	return out
}

// randomHTN draws compound tasks over a random GOAP domain. Subtasks mostly
// name later tasks, so most domains terminate; some recurse, and the step
// cap stops those in both planners alike.
// randomHTNDomain returns a random GOAP domain of cfg and a random HTN
// over it, or nil if NewDomain refuses the HTN (it has no base case: a
// domain refused statically, as it should be).
func randomHTNDomain(t *testing.T, r *rand.Rand, cfg randdomain.Config) *htn.Domain {
	t.Helper()
	gspec := randdomain.Spec(r, cfg)
	g, err := goap.NewDomain(gspec)
	if err != nil {
		t.Fatal(err)
	}
	d, err := htn.NewDomain(g, randomHTN(r, gspec))
	if err != nil {
		return nil
	}
	return d
}

func randomHTN(r *rand.Rand, g goap.Spec) htn.Spec {
	n := 2 + r.IntN(5)
	spec := htn.Spec{Root: "T0"}
	for i := 0; i < n; i++ {
		ts := htn.TaskSpec{Name: fmt.Sprintf("T%d", i)}
		for m := 1 + r.IntN(3); m > 0; m-- {
			ms := htn.MethodSpec{Name: fmt.Sprintf("m%d", len(ts.Methods)), Conditions: map[string]bool{}}
			for c := r.IntN(3); c > 0; c-- {
				ms.Conditions[g.Facts[r.IntN(len(g.Facts))]] = r.IntN(2) == 0
			}
			for k := r.IntN(5); k > 0; k-- {
				switch {
				case r.IntN(10) == 0:
					ms.Subtasks = append(ms.Subtasks, fmt.Sprintf("T%d", r.IntN(n)))
				case i+1 < n && r.IntN(3) == 0:
					ms.Subtasks = append(ms.Subtasks, fmt.Sprintf("T%d", i+1+r.IntN(n-i-1)))
				default:
					ms.Subtasks = append(ms.Subtasks, g.Actions[r.IntN(len(g.Actions))].Name)
				}
			}
			ts.Methods = append(ts.Methods, ms)
		}
		spec.Tasks = append(spec.Tasks, ts)
	}
	return spec
}

func TestAgainstRecursiveReference(t *testing.T) {
	r := rand.New(rand.NewPCG(55, 5))
	cfg := randdomain.Config{Facts: 6, Actions: 8, MaxPre: 2, MaxEff: 2, MaxCost: 3, Goals: 1, GoalFacts: 1}
	checked, found, backtracked, limited := 0, 0, 0, 0
	var res htn.Result
	for i := 0; i < 2000; i++ {
		gspec := randdomain.Spec(r, cfg)
		g, err := goap.NewDomain(gspec)
		if err != nil {
			t.Fatal(err)
		}
		hspec := randomHTN(r, gspec)
		d, err := htn.NewDomain(g, hspec)
		if err != nil {
			continue // no base case: rejected statically, as it should be
		}
		p := htn.NewPlanner(d)
		for trial := 0; trial < 4; trial++ {
			s := g.NewState()
			s.Words()[0] = uint64(r.IntN(1 << cfg.Facts))
			maxSteps := 400
			ref := newReference(gspec, hspec, maxSteps)
			ok := ref.decompose([]string{hspec.Root}, factsByName(gspec, s))
			err := p.Plan(&res, s, htn.Options{MaxSteps: maxSteps})
			want := htn.NoPlan
			switch {
			case ok:
				want = htn.Found
				found++
			case ref.limited:
				want = htn.LimitReached
				limited++
			}
			if ref.backtracks > 0 {
				backtracked++
			}
			name := fmt.Sprintf("domain %d state %s", i, g.FormatState(s))
			if res.Status != want || want == htn.LimitReached && res.Bound != search.Steps || (err != nil) != (want == htn.LimitReached) {
				t.Fatalf("%s: status %v err %v, reference %v", name, res.Status, err, want)
			}
			if res.Steps != ref.steps || res.Backtracks != ref.backtracks {
				t.Fatalf("%s: %d steps %d backtracks, reference %d and %d", name, res.Steps, res.Backtracks, ref.steps, ref.backtracks)
			}
			if plan := fixture.Names(g, res.Plan); want == htn.Found && (!slices.Equal(plan, ref.plan) || !slices.Equal(res.MTR, ref.mtr)) {
				t.Fatalf("%s: plan %v MTR %v, reference %v and %v", name, plan, res.MTR, ref.plan, ref.mtr)
			}
			checked++
		}
	}
	t.Logf("%d decompositions: %d found, %d backtracked, %d hit the step cap", checked, found, backtracked, limited)
	if found == 0 || backtracked == 0 || limited == 0 {
		t.Errorf("the random domains do not exercise every outcome")
	}
}
