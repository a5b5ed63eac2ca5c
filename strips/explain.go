package strips

import "fmt"

// RelaxedUnreachable returns the goal literals that no sequence of
// operators can make true even when nothing is ever deleted, each as the
// fact's name (negative ones as "(not NAME)"): a positive goal fact that no
// chain of operators from the start adds, ignoring deletes and negative
// preconditions, or a negative one true at the start that no operator
// deletes. Either proves the task has no plan; an empty list proves
// nothing. Conditional effects and axioms count as operators of their own
// (see relaxationOf), so a fact they make true is reached.
func RelaxedUnreachable(t *Task) []string {
	t, _ = relaxationOf(t)
	reached := make([]bool, len(t.Facts))
	for _, f := range t.Init {
		reached[f] = true
	}
	for changed := true; changed; {
		changed = false
		for i := range t.Ops {
			o := &t.Ops[i]
			ok := true
			for _, f := range o.Pre {
				if !reached[f] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			for _, f := range o.Add {
				if !reached[f] {
					reached[f], changed = true, true
				}
			}
		}
	}
	deleted := make([]bool, len(t.Facts))
	for i := range t.Ops {
		for _, f := range t.Ops[i].Del {
			deleted[f] = true
		}
	}
	init := make([]bool, len(t.Facts))
	for _, f := range t.Init {
		init[f] = true
	}
	var out []string
	for _, f := range t.Goal {
		if !reached[f] {
			out = append(out, t.Facts[f])
		}
	}
	for _, f := range t.GoalNot {
		if init[f] && !deleted[f] {
			out = append(out, "(not "+t.Facts[f]+")")
		}
	}
	return out
}

// Estimates returns h's estimate of each state along plan, the start's
// first: len(plan)+1 values, -1 for a dead end; a Portfolio's are
// LM-cut's. The task must be valid and the plan's operators in range;
// they need not apply.
func Estimates(t *Task, h Heuristic, plan []int32) ([]int64, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	for i, a := range plan {
		if a < 0 || int(a) >= len(t.Ops) {
			return nil, fmt.Errorf("strips: step %d: operator %d out of range", i+1, a)
		}
	}
	if h == Portfolio {
		h = LMCut
	}
	s := newSearcher(t, successors{})
	est, err := s.estimator(h)
	if err != nil {
		return nil, err
	}
	state := t.InitialState()
	if len(state) == 0 {
		state = make([]uint64, 1)
	}
	out := make([]int64, 0, len(plan)+1)
	d := newDeriver(t)
	for i := 0; ; i++ {
		v, dead := est.estimate(state)
		if dead {
			v = -1
		}
		out = append(out, v)
		if i == len(plan) {
			return out, nil
		}
		t.Ops[plan[i]].Apply(state)
		if d != nil {
			d.derive(state)
		}
	}
}

// minCost is the cheapest operator's cost, 0 for a task without any.
func minCost(t *Task) int64 {
	if len(t.Ops) == 0 {
		return 0
	}
	m := t.Ops[0].Cost
	for i := range t.Ops {
		m = min(m, t.Ops[i].Cost)
	}
	return m
}
