package goap_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// ruleToggles is n toggles whose set actions cost by rule lists of
// 1 to 4 rules (set_i has i%4+1), the clear actions a constant, and
// unused facts beside them to widen the state; goal "All" sets every
// toggle. Costs are whole when whole is true (a bucketed search), else
// fractional.
func ruleToggles(n, unused int, whole bool) (goap.Spec, []int) {
	s := goap.Spec{Name: "rule-toggles"}
	for i := 0; i < n+unused; i++ {
		s.Facts = append(s.Facts, randdomain.FactName(i))
	}
	frac := 0.0
	if !whole {
		frac = 0.3
	}
	var rules []int // per action, in the spec's order
	all := map[string]bool{}
	for i := 0; i < n; i++ {
		f := randdomain.FactName(i)
		var list []goap.CostRule
		for r := 0; r <= i%4; r++ {
			list = append(list, goap.CostRule{
				When: map[string]bool{randdomain.FactName((i + r + 1) % n): r%2 == 0, randdomain.FactName((i + r + 2) % n): true},
				Cost: float64(r+1) + frac,
			})
		}
		s.Actions = append(s.Actions,
			goap.ActionSpec{Name: "set_" + f, Preconditions: map[string]bool{f: false}, Effects: map[string]bool{f: true}, Cost: goap.Rules(3+frac, list...)},
			goap.ActionSpec{Name: "clear_" + f, Preconditions: map[string]bool{f: true}, Effects: map[string]bool{f: false}, Cost: goap.Const(1 + frac)})
		rules = append(rules, len(list), 0)
		all[f] = true
	}
	s.Goals = []goap.GoalSpec{{Name: "All", Conditions: all}}
	return s, rules
}

// workSteps replays a traced forward search with a path's units of work
// (per expansion and per successor; a rule-list cost adds a unit per rule
// per word of state) and returns the work counted before each expansion
// and after the last, the count the search must report.
func workSteps(tr *goap.Trace, rules []int, words, perExpansion, perSuccessor int) (before []int, total int) {
	for _, e := range tr.Expansions {
		before = append(before, total)
		total += perExpansion
		for _, edge := range tr.Edges[e.FirstEdge:e.EndEdge] {
			if edge.Reason == goap.Generated || edge.Reason == goap.NotCheaper {
				total += perSuccessor + rules[edge.Action]*words
			}
		}
	}
	return before, total
}

// TestWorkCountsRuleListCosts: the work a forward search counts is its
// actions tested, its successors written and every rule of every rule-list
// cost it evaluated, counted independently here from the search's trace;
// and MaxWork set to the least that lets the search expand what it
// needs (the work before its last expansion plus the worst an expansion
// can take) finds the plan, and one unit less stops it with the work
// bound, one expansion short, on every forward path: the general one
// (traced) and the one-word ones, which make the same expansions.
func TestWorkCountsRuleListCosts(t *testing.T) {
	cases := []struct {
		name          string
		n, unused     int
		whole, traced bool
		// The path's units: per expansion (times the actions) and per
		// successor (plus the words, for the general path).
		perAction, perSuccessorExtra int
	}{
		{"general, one word", 9, 0, false, true, 1, 1},
		{"general, two words", 9, 60, false, true, 1, 1},
		{"wordSearch.forward", 9, 0, false, false, 1, 1},
		{"denseSearch.forward", 9, 0, true, false, 1, 1},
	}
	for _, c := range cases {
		for _, withContext := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/context=%v", c.name, withContext), func(t *testing.T) {
				spec, rules := ruleToggles(c.n, c.unused, c.whole)
				d := mustDomain(t, spec)
				words := (c.n + c.unused + 63) / 64
				nActions := d.NumActions()
				maxRules := 0
				for _, r := range rules {
					maxRules = max(maxRules, r)
				}
				goal := d.Goal("All")
				// The expansions, from the general search's trace.
				var tr goap.Trace
				ref, err := goap.NewPlanner(d).Plan(nil, d.NewState(), goal, goap.Options{Heuristic: goap.GoalCount, Trace: &tr, Budget: math.MaxInt})
				if err != nil || ref.Status != goap.Found {
					t.Fatalf("reference search: %+v, %v", ref, err)
				}
				perExpansion, perSuccessor := nActions*words, words+1
				if !c.traced {
					// The one-word paths count an action tested and a
					// successor made as one unit each, its node another.
					perExpansion, perSuccessor = nActions, 2
				}
				before, total := workSteps(&tr, rules, words, perExpansion, perSuccessor)
				worst := perExpansion + nActions*(perSuccessor+maxRules*words)
				least := before[len(before)-1] + worst

				plan := func(maxWork int) (goap.Result, int, error) {
					p := goap.NewPlanner(d)
					opt := goap.Options{Heuristic: goap.GoalCount, Budget: math.MaxInt, MaxWork: maxWork}
					if c.traced {
						opt.Trace = &goap.Trace{}
					}
					if withContext {
						opt.Context = context.Background()
					}
					res, err := p.Plan(nil, d.NewState(), goal, opt)
					return res, p.Work(), err
				}
				res, work, err := plan(least)
				if err != nil || res.Status != goap.Found || res.Cost != ref.Cost || res.Expanded != ref.Expanded || res.Generated != ref.Generated {
					t.Fatalf("MaxWork %d (the least): %+v, %v; want %+v", least, res, err, ref)
				}
				if work != total {
					t.Errorf("counted %d units of work; replaying the trace counts %d", work, total)
				}
				res, work, err = plan(least - 1)
				var se *goap.SearchError
				if !errors.As(err, &se) || se.Bound != goap.BoundWork || se.Limit != least-1 || res.Expanded != ref.Expanded-1 {
					t.Fatalf("MaxWork %d (one short): %+v, %v; want the work bound after %d expansions", least-1, res, err, ref.Expanded-1)
				}
				if work != before[len(before)-1] || work > least-1 {
					t.Errorf("one short: counted %d units; want %d, the work before the last expansion", work, before[len(before)-1])
				}
			})
		}
	}
}

// TestContextStopsEverySearchPath: a search given a context that is done
// stops before its first expansion, with the bound saying why; one whose
// context is canceled while it runs stops soon after, on each search
// path, having done far less than its work limit allows.
func TestContextStopsEverySearchPath(t *testing.T) {
	// Each runs for minutes under an unbounded budget, but denseSearch.forward,
	// whose domain is at most 2^12 states (short says so).
	cases := []struct {
		name  string
		spec  goap.Spec
		goal  string
		opt   goap.Options
		short bool
	}{
		{"wordSearch.forward", toggles(40, 0, 1.3), "Never", goap.Options{}, false},
		{"delayedSearch.forward", toggles(40, 0, 1), "Never", goap.Options{}, false},
		{"denseSearch.forward", toggles(9, 0, 1), "Never", goap.Options{}, true},
		{"forward", toggles(40, 30, 1.3), "Never", goap.Options{}, false},
		{"delayedSearch.forwardWide", toggles(40, 30, 1), "Never", goap.Options{}, false},
		{"forward HMax", exclusive(toggles(30, 0, 1)), "Both", goap.Options{Heuristic: goap.HMax}, false},
		{"forward traced", toggles(40, 0, 1), "Never", goap.Options{Trace: &goap.Trace{}, MaxBytes: 1 << 30}, false},
		{"backward", toggles(40, 0, 1.3), "All", goap.Options{Search: goap.Backward, Heuristic: goap.Blind}, false},
		{"delayedSearch.backward", toggles(40, 0, 1), "All", goap.Options{Search: goap.Backward, Heuristic: goap.Blind}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustDomain(t, c.spec)
			goal := d.Goal(c.goal)
			opt := c.opt
			opt.Budget = math.MaxInt
			opt.MaxWork = math.MaxInt / 4

			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			opt.Context = ctx
			res, err := goap.NewPlanner(d).Plan(nil, d.NewState(), goal, opt)
			var se *goap.SearchError
			if !errors.As(err, &se) || se.Bound != goap.BoundCanceled || res.Expanded != 0 || !errors.Is(err, goap.ErrBudgetExhausted) {
				t.Fatalf("a canceled context: %+v, %v; want BoundCanceled before any expansion", res, err)
			}
			dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
			defer dcancel()
			opt.Context = dctx
			res, err = goap.NewPlanner(d).Plan(nil, d.NewState(), goal, opt)
			if !errors.As(err, &se) || se.Bound != goap.BoundDeadline || res.Bound.String() != "deadline" {
				t.Fatalf("a passed deadline: %+v, %v; want BoundDeadline", res, err)
			}

			if c.short {
				return
			}
			// Canceled after 20 ms: the search (which would run for
			// minutes under this work limit) ends with BoundCanceled, and
			// soon: the work it counted is far below the limit.
			ctx, cancel = context.WithCancel(context.Background())
			opt.Context = ctx
			timer := time.AfterFunc(20*time.Millisecond, cancel)
			defer timer.Stop()
			p := goap.NewPlanner(d)
			res, err = p.Plan(nil, d.NewState(), goal, opt)
			if !errors.As(err, &se) || se.Bound != goap.BoundCanceled {
				t.Fatalf("canceled midway: %+v, %v; want BoundCanceled", res, err)
			}
			if p.Work() >= opt.MaxWork {
				t.Errorf("canceled midway after %d units of work", p.Work())
			}
		})
	}
}

// exclusive adds to s two facts each of which can be set only while the
// other is false, and a goal "Both" that wants both: unreachable, but not
// to a relaxation, which ignores what an effect undoes.
func exclusive(s goap.Spec) goap.Spec {
	s.Facts = append(s.Facts, "x", "y")
	s.Actions = append(s.Actions,
		goap.ActionSpec{Name: "set_x", Preconditions: map[string]bool{"y": false}, Effects: map[string]bool{"x": true}, Cost: goap.Const(1)},
		goap.ActionSpec{Name: "set_y", Preconditions: map[string]bool{"x": false}, Effects: map[string]bool{"y": true}, Cost: goap.Const(1)})
	s.Goals = append(s.Goals, goap.GoalSpec{Name: "Both", Conditions: map[string]bool{"x": true, "y": true}})
	return s
}
