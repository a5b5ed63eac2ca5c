package goap_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// FuzzPlan builds states from raw words, goals from raw bits and Options
// from raw numbers, and plans on a one-word domain (the battle mage) and a
// two-word one (70 random facts). Plan must never panic but for the
// documented misuse, which the target works out for itself from the input:
// a state of the wrong width or with a bit past the last fact, a Search or
// Heuristic that is not a constant, a negative limit. Then the panic must
// be goap's message, not a runtime error. A plan found must be valid,
// reach the goal and cost a finite, correct total.
func FuzzPlan(f *testing.F) {
	mage := mustDomain(f, domains.BattleMage())
	wide := mustDomain(f, randdomain.Spec(rand.New(rand.NewPCG(70, 1)), func() randdomain.Config {
		c := randdomain.Small
		c.Facts = 70
		return c
	}()))
	f.Add(false, uint8(1), uint64(0b10000100), uint64(0), uint64(1<<7), uint64(1<<7), uint8(0), uint8(0), 0, 0, 0, 0, false)
	f.Add(true, uint8(2), uint64(5), uint64(1<<5), uint64(3), uint64(1), uint8(1), uint8(1), 10, 3, 1<<20, 1000, true)
	f.Add(false, uint8(1), uint64(1<<63), uint64(0), uint64(1), uint64(1), uint8(7), uint8(99), -1, -1, -1, -1, false)
	f.Add(false, uint8(2), uint64(0), uint64(0), uint64(1), uint64(1), uint8(0), uint8(2), math.MaxInt, 0, 64, 0, true)
	f.Fuzz(func(t *testing.T, useWide bool, nWords uint8, w0, w1, goalMask, goalValue uint64, search, heuristic uint8, budget, maxDepth, maxBytes, maxWork int, traced bool) {
		d := mage
		if useWide {
			d = wide
		}
		words := []uint64{w0, w1, 0}[:nWords%4]
		start := goap.StateFromWords(words)
		cond := map[string]bool{}
		for i := 0; i < min(d.NumFacts(), 64); i++ {
			if goalMask>>i&1 == 1 {
				cond[d.FactName(goap.Fact(i))] = goalValue>>i&1 == 1
			}
		}
		goal, err := d.NewGoal("fuzz", cond)
		if err != nil {
			t.Fatalf("NewGoal: %v", err)
		}
		// Keep each run short: the limits' size behaviour has its own tests.
		if budget > 1<<16 {
			budget = 1 << 16
		}
		if maxWork > 1<<22 || maxWork == 0 {
			maxWork = 1 << 22
		}
		opt := goap.Options{Search: goap.Search(search), Heuristic: goap.Heuristic(heuristic), Budget: budget, MaxDepth: maxDepth, MaxBytes: maxBytes, MaxWork: maxWork}
		if traced {
			opt.Trace = &goap.Trace{}
		}
		misuse := len(words) != (d.NumFacts()+63)/64 ||
			search > 1 || heuristic > 3 || budget < 0 || maxDepth < 0 || maxBytes < 0 || maxWork < 0
		if !misuse {
			for i := d.NumFacts(); i < 64*len(words); i++ {
				if words[i/64]>>(i%64)&1 == 1 {
					misuse = true
				}
			}
		}
		if !misuse && d.CheckState(start) != nil {
			t.Fatalf("CheckState refuses a state the target thinks valid: %v", d.CheckState(start))
		}
		defer func() {
			r := recover()
			if misuse {
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "goap: ") {
					t.Fatalf("misuse: recovered %v (%T), want a goap panic", r, r)
				}
				return
			}
			if r != nil {
				t.Fatalf("panic on valid input: %v", r)
			}
		}()
		res, err := goap.NewPlanner(d).Plan(nil, start, goal, opt)
		if misuse {
			t.Fatalf("misuse accepted: %+v, %v", res, err)
		}
		if res.Status != goap.Found {
			return
		}
		s := start.Clone()
		total := 0.0
		for _, a := range res.Plan {
			if !d.Applicable(a, s) {
				t.Fatalf("plan step %s does not apply", d.ActionName(a))
			}
			total += d.CostIn(a, s)
			d.Apply(a, s)
		}
		if !goal.Holds(s) || total != res.Cost || math.IsInf(res.Cost, 0) || (maxDepth > 0 && len(res.Plan) > maxDepth) {
			t.Fatalf("plan %v: goal %v, cost %g reported %g", res.Plan, goal.Holds(s), total, res.Cost)
		}
	})
}
