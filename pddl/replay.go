package pddl

import (
	"fmt"
	"strings"
)

// Replay checks a plan against the PDDL semantics directly, without
// grounding: each step, an IPC plan line such as "(pick ball1 rooma
// left)", names an action and objects of its parameters' types; its
// precondition must hold in the state reached so far, where :init gives
// the start; its effect deletes, then adds; and the goal must hold at the
// end; a ";" starts a comment, and blank lines are skipped. It returns
// the plan's cost: the sum of total-cost's increases under
// the problem's metric, the number of steps without one. The error names
// the first step that fails and why. It is the grounding's oracle, sharing
// none of its code.
func Replay(d *Domain, p *Problem, plan []string) (int64, error) {
	r := replay{d: d, p: p, state: map[string]bool{}, values: map[string]int64{}}
	for _, a := range p.Init {
		r.state[r.key(a.Name, a.Args, nil)] = true
	}
	for _, v := range p.NumericInit {
		r.values[r.key(v.Func.Name, v.Func.Args, nil)] = v.Value
	}
	var cost int64
	for i, line := range plan {
		if line, _, _ = strings.Cut(line, ";"); strings.TrimSpace(line) == "" {
			continue // a comment, such as "; cost = 8 (general cost)", or a blank line
		}
		c, err := r.step(line)
		if err != nil {
			return 0, fmt.Errorf("pddl: step %d %s: %v", i+1, line, err)
		}
		cost += c
	}
	if !r.holds(p.Goal, nil) {
		return 0, fmt.Errorf("pddl: the goal does not hold after the plan's %d steps", len(plan))
	}
	return cost, nil
}

type replay struct {
	d      *Domain
	p      *Problem
	state  map[string]bool
	values map[string]int64
}

// key is the ground atom's name as a map key, with variables bound.
func (r *replay) key(name string, args []Term, bind map[string]string) string {
	var b strings.Builder
	b.WriteString(name)
	for _, a := range args {
		b.WriteByte(' ')
		if v, ok := bind[a.Name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(a.Name)
		}
	}
	return b.String()
}

func (r *replay) object(name string) *Object {
	if o := r.p.Object(name); o != nil {
		return o
	}
	return r.d.Constant(name)
}

func (r *replay) step(line string) (int64, error) {
	s := strings.TrimSpace(strings.ToLower(line))
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return 0, fmt.Errorf("not a plan line: expected (ACTION OBJECTS...)")
	}
	words := strings.Fields(s[1 : len(s)-1])
	if len(words) == 0 {
		return 0, fmt.Errorf("no action named")
	}
	var act *Action
	for _, a := range r.d.Actions {
		if a.Name == words[0] {
			act = a
		}
	}
	if act == nil {
		return 0, fmt.Errorf("no action %q in domain %s", words[0], r.d.Name)
	}
	args := words[1:]
	if len(args) != len(act.Params) {
		return 0, fmt.Errorf("%s takes %d arguments, not %d", act.Name, len(act.Params), len(args))
	}
	bind := map[string]string{}
	for i, prm := range act.Params {
		o := r.object(args[i])
		if o == nil {
			return 0, fmt.Errorf("no object %q", args[i])
		}
		if !r.d.Fits(o, prm) {
			return 0, fmt.Errorf("%s is a %s, not a %s (parameter %s)", o.Name, o.Type, prm.Type, prm.Name)
		}
		bind[prm.Name] = o.Name
	}
	if !r.holds(act.Precondition, bind) {
		return 0, fmt.Errorf("the precondition does not hold")
	}
	cost := int64(1)
	if r.p.MinimizeTotalCost {
		cost = 0
		for _, c := range act.Effect.Cost {
			if c.Func == nil {
				cost += c.Value
				continue
			}
			v, ok := r.values[r.key(c.Func.Name, c.Func.Args, bind)]
			if !ok {
				return 0, fmt.Errorf("(%s) has no value in :init", r.key(c.Func.Name, c.Func.Args, bind))
			}
			cost += v
		}
	}
	for _, a := range act.Effect.Delete {
		delete(r.state, r.key(a.Name, a.Args, bind))
	}
	for _, a := range act.Effect.Add {
		r.state[r.key(a.Name, a.Args, bind)] = true
	}
	return cost, nil
}

// holds evaluates a precondition or goal under bind.
func (r *replay) holds(f *Formula, bind map[string]string) bool {
	switch f.Kind {
	case And:
		for _, s := range f.Sub {
			if !r.holds(s, bind) {
				return false
			}
		}
		return true
	case Not:
		return !r.holds(f.Sub[0], bind)
	case Equal:
		return r.key("", f.Pred.Args[:1], bind) == r.key("", f.Pred.Args[1:], bind)
	}
	return r.state[r.key(f.Pred.Name, f.Pred.Args, bind)]
}
