package pddl

import (
	"fmt"
	"strings"

	"github.com/ploy-ai/ploy/strips"
)

func bytesString(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// namesSize is what the objects' names take in a ground name.
func (g *grounder) namesSize(args []int32) int64 {
	n := int64(2)
	for _, o := range args {
		n += 1 + int64(len(g.objNames[o]))
	}
	return n
}

// most is the action schema with the most instances so far, for errors.
func (g *grounder) most(s *schema) *schema {
	for _, o := range g.schemas {
		if len(o.costv) > len(s.costv) {
			s = o
		}
	}
	return s
}

// emit records an instance whose conditions are reached: a ground
// action, conditional effect or axiom; and reaches what it adds.
func (g *grounder) emit(s *schema, b []int32) error {
	cost, ok := int64(1), true
	if g.p.MinimizeTotalCost && s.kind == kindAction {
		cost, ok = g.cost(s, b)
	}
	if !ok {
		g.undefined++
		return nil
	}
	if cost > strips.MaxCost {
		return g.fail(s.pos, "the ground action %s costs %d, more than %d (strips.MaxCost)", g.opName(s, b), cost, int64(strips.MaxCost))
	}
	if g.nInst >= g.lim.actions {
		most := g.most(s)
		return g.fail(most.pos, "%s has more than %d instantiations whose preconditions hold (pddl.MaxGroundActions counts all actions' together)", most.what, len(most.costv))
	}
	g.size += s.size + g.namesSize(b)
	if g.size > g.lim.size {
		most := g.most(s)
		return g.fail(most.pos, "the ground atoms and actions take more than %s (pddl.MaxGroundSize), at %d instantiations of %s among others",
			bytesString(g.lim.size), len(most.costv), most.what)
	}
	g.nInst++
	s.insts = append(s.insts, b...)
	s.costv = append(s.costv, cost)
	for _, l := range s.add {
		args := g.instArgs(l, b)
		if err := g.reachAtom(l.pred, args); err != nil {
			return err
		}
	}
	return nil
}

func (g *grounder) instArgs(l lit, b []int32) []int32 {
	args := g.args[:0]
	for _, t := range l.args {
		if t.isVar() {
			args = append(args, b[t])
		} else {
			args = append(args, int32(^t))
		}
	}
	g.args = args
	return args
}

// cost sums a ground action's cost; false if a function value is missing.
func (g *grounder) cost(s *schema, b []int32) (int64, bool) {
	var sum int64
	for _, c := range s.costs {
		v := c.value
		if c.fn >= 0 {
			var ok bool
			if v, ok = g.values[string(g.funcKey(c.fn, g.instArgs(lit{args: c.args}, b)))]; !ok {
				return 0, false
			}
		}
		sum = satAdd(sum, v)
	}
	return sum, true
}

func (g *grounder) opName(s *schema, b []int32) string {
	var sb strings.Builder
	sb.WriteString("(")
	sb.WriteString(s.a.Name)
	for _, o := range b[:s.nameArgs] {
		sb.WriteString(" ")
		sb.WriteString(g.objNames[o])
	}
	sb.WriteString(")")
	return sb.String()
}

func (g *grounder) factName(f int32) string {
	rf := g.facts[f]
	return g.atomName(rf.pred, g.rels[rf.pred].tuple(rf.tuple))
}

func (g *grounder) atomName(pred int32, args []int32) string {
	var sb strings.Builder
	sb.WriteString("(")
	sb.WriteString(g.preds[pred].Name)
	for _, o := range args {
		sb.WriteString(" ")
		sb.WriteString(g.objNames[o])
	}
	sb.WriteString(")")
	return sb.String()
}
