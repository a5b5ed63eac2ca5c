package pddl

import (
	"maps"
	"slices"
	"strings"
)

// GroundReachable grounds p up to the reachability analysis: the task as
// reached, before simplification and relevance, for the brute-force
// cross-check. A goal literal grounding decides is false is left out of
// its goal, and noted in Unsolvable.
func GroundReachable(d *Domain, p *Problem) (*Grounding, error) {
	return ground(d, p, defaultLimits, stageReachable)
}

// GroundLimited grounds p under smaller limits: ground actions, ground
// atoms, join steps, counting steps and bytes.
func GroundLimited(d *Domain, p *Problem, actions, facts int, work, counts, size int64) (*Grounding, error) {
	return ground(d, p, groundLimits{actions, facts, work, counts, size}, stageRelevant)
}

// LiftedOptimalCost is the least cost of a plan for p by uniform-cost
// search over the PDDL semantics themselves, Replay's: in every state,
// every action is tried with every tuple of objects of its parameters'
// types, and the goal is evaluated with the derived predicates derived.
// It shares no code with grounding, which makes it the grounder's oracle
// on small problems. ok is false past maxStates states; cost is -1 if no
// plan exists.
func LiftedOptimalCost(d *Domain, p *Problem, maxStates int) (cost int64, ok bool, err error) {
	r := &replay{d: d, p: p, limit: 1 << 40, state: map[string]bool{}, derived: map[string]bool{},
		values: map[string]int64{}, ofType: map[string][]string{}}
	if err := r.stratify(); err != nil {
		return 0, false, err
	}
	for _, a := range p.Init {
		r.state[r.key(a.Name, a.Args)] = true
	}
	for _, v := range p.NumericInit {
		r.values[r.key(v.Func.Name, v.Func.Args)] = v.Value
	}
	var lines []string
	for _, a := range d.Actions {
		var rec func(i int, line string)
		rec = func(i int, line string) {
			if i == len(a.Params) {
				lines = append(lines, line+")")
				return
			}
			for _, o := range r.objectsOf(a.Params[i]) {
				rec(i+1, line+" "+o)
			}
		}
		rec(0, "("+a.Name)
	}
	keyOf := func(s map[string]bool) string { return strings.Join(slices.Sorted(maps.Keys(s)), "|") }
	type item struct {
		g     int64
		state map[string]bool
	}
	best := map[string]int64{keyOf(r.state): 0}
	done := map[string]bool{}
	open := []item{{0, r.state}}
	for len(open) > 0 {
		i := 0
		for j := range open {
			if open[j].g < open[i].g {
				i = j
			}
		}
		it := open[i]
		open = slices.Delete(open, i, i+1)
		k := keyOf(it.state)
		if done[k] {
			continue
		}
		done[k] = true
		if len(done) > maxStates {
			return 0, false, nil
		}
		r.state, r.bind = it.state, map[string]string{}
		r.derive()
		if r.holds(p.Goal) {
			return it.g, true, r.err
		}
		for _, line := range lines {
			r.state = maps.Clone(it.state)
			c, err := r.step(line)
			if r.err != nil {
				return 0, false, r.err
			}
			if err != nil {
				continue
			}
			nk := keyOf(r.state)
			if g, seen := best[nk]; !seen || it.g+c < g {
				best[nk] = it.g + c
				open = append(open, item{it.g + c, r.state})
			}
		}
	}
	return -1, true, nil
}

// LiftedSpace steps the PDDL semantics (Replay's) state by state, for
// the brute-force comparison of a ground task's transitions. A state is
// the set of its true basic atoms, written "(p o1 o2)", statics included.
type LiftedSpace struct {
	r     *replay
	lines []string
}

// NewLiftedSpace returns the space of p and its initial state.
func NewLiftedSpace(d *Domain, p *Problem) (*LiftedSpace, map[string]bool, error) {
	r := &replay{d: d, p: p, limit: 1 << 40, state: map[string]bool{}, derived: map[string]bool{},
		values: map[string]int64{}, ofType: map[string][]string{}}
	if err := r.stratify(); err != nil {
		return nil, nil, err
	}
	init := map[string]bool{}
	for _, a := range p.Init {
		init["("+r.key(a.Name, a.Args)+")"] = true
	}
	for _, v := range p.NumericInit {
		r.values[r.key(v.Func.Name, v.Func.Args)] = v.Value
	}
	s := &LiftedSpace{r: r}
	for _, a := range d.Actions {
		var rec func(i int, line string)
		rec = func(i int, line string) {
			if i == len(a.Params) {
				s.lines = append(s.lines, line+")")
				return
			}
			for _, o := range r.objectsOf(a.Params[i]) {
				rec(i+1, line+" "+o)
			}
		}
		rec(0, "("+a.Name)
	}
	return s, init, nil
}

func (s *LiftedSpace) load(state map[string]bool) {
	s.r.state = map[string]bool{}
	for a := range state {
		s.r.state[a[1:len(a)-1]] = true
	}
}

// IsGoal says whether the goal holds in state.
func (s *LiftedSpace) IsGoal(state map[string]bool) bool {
	s.load(state)
	s.r.bind = map[string]string{}
	s.r.derive()
	return s.r.holds(s.r.p.Goal)
}

// Successors lists each applicable ground action's plan line, cost and
// next state.
func (s *LiftedSpace) Successors(state map[string]bool) (lines []string, costs []int64, next []map[string]bool) {
	for _, line := range s.lines {
		s.load(state)
		c, err := s.r.step(line)
		if err != nil {
			continue
		}
		n := map[string]bool{}
		for a := range s.r.state {
			n["("+a+")"] = true
		}
		lines, costs, next = append(lines, line), append(costs, c), append(next, n)
	}
	return lines, costs, next
}
