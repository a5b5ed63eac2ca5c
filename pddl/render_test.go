package pddl_test

import (
	"fmt"
	"strings"

	"github.com/ploy-ai/ploy/pddl"
)

// The renderers below write a syntax tree back as PDDL-like text, every
// node with its position after "@", so that a test states the tree it
// expects in one readable string and a change of shape or position shows
// as a text difference.

// renderFormula writes f as (and@1:2 (p@1:7 ?x@1:10) ...).
func renderFormula(f *pddl.Formula) string {
	var sb strings.Builder
	writeFormula(&sb, f)
	return sb.String()
}

func writeFormula(sb *strings.Builder, f *pddl.Formula) {
	if f == nil {
		sb.WriteString("<nil>")
		return
	}
	switch f.Kind {
	case pddl.Atom, pddl.Equal:
		writeAtom(sb, f.Pred)
		return
	}
	name := map[pddl.FormulaKind]string{pddl.And: "and", pddl.Not: "not", pddl.Or: "or",
		pddl.Imply: "imply", pddl.Exists: "exists", pddl.Forall: "forall"}[f.Kind]
	if name == "" {
		name = fmt.Sprintf("kind%d", f.Kind)
	}
	fmt.Fprintf(sb, "(%s@%s", name, f.Pos)
	if f.Kind == pddl.Exists || f.Kind == pddl.Forall {
		sb.WriteString(" ")
		writeParams(sb, f.Vars)
	}
	for _, s := range f.Sub {
		sb.WriteString(" ")
		writeFormula(sb, s)
	}
	sb.WriteString(")")
}

func writeAtom(sb *strings.Builder, a pddl.AtomTerm) {
	fmt.Fprintf(sb, "(%s@%s", a.Name, a.Pos)
	for _, t := range a.Args {
		fmt.Fprintf(sb, " %s@%s", t.Name, t.Pos)
	}
	sb.WriteString(")")
}

// writeParams writes (?x - t@1:2 ?y - (either a b)@1:9).
func writeParams(sb *strings.Builder, ps []pddl.Param) {
	sb.WriteString("(")
	for i, p := range ps {
		if i > 0 {
			sb.WriteString(" ")
		}
		fmt.Fprintf(sb, "%s - %s@%s", p.Name, p.Type, p.Pos)
		if p.Either != nil {
			fmt.Fprintf(sb, "%v", p.Either)
		}
	}
	sb.WriteString(")")
}

// renderEffect writes an effect's parts in a fixed order: adds, deletes,
// costs, then each conditional effect.
func renderEffect(e pddl.Effect) string {
	var sb strings.Builder
	writeAtoms := func(what string, as []pddl.AtomTerm) {
		if len(as) == 0 {
			return
		}
		fmt.Fprintf(&sb, "%s", what)
		for _, a := range as {
			sb.WriteString(" ")
			writeAtom(&sb, a)
		}
		sb.WriteString("; ")
	}
	writeAtoms("add", e.Add)
	writeAtoms("del", e.Delete)
	for _, c := range e.Cost {
		if c.Func != nil {
			sb.WriteString("cost ")
			writeAtom(&sb, *c.Func)
		} else {
			fmt.Fprintf(&sb, "cost %d", c.Value)
		}
		fmt.Fprintf(&sb, "@%s; ", c.Pos)
	}
	for _, c := range e.Conditional {
		fmt.Fprintf(&sb, "{@%s vars ", c.Pos)
		writeParams(&sb, c.Vars)
		sb.WriteString(" when ")
		writeFormula(&sb, c.Cond)
		sb.WriteString(" ")
		writeAtoms("add", c.Add)
		writeAtoms("del", c.Delete)
		sb.WriteString("} ")
	}
	return strings.TrimSpace(sb.String())
}

// renderDomain writes every part of d that the parser fills, one line a
// part: the whole tree, for comparing two parsers' readings of a file.
func renderDomain(d *pddl.Domain) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "domain %s %s %v\n", d.File, d.Name, d.Requirements)
	for _, t := range d.Types {
		fmt.Fprintf(&sb, "type %s %v @%s\n", t.Name, t.Parents, t.Pos)
	}
	for _, c := range d.Constants {
		fmt.Fprintf(&sb, "constant %s - %s %v @%s\n", c.Name, c.Type, c.Either, c.Pos)
	}
	for _, p := range d.Predicates {
		fmt.Fprintf(&sb, "predicate %s @%s ", p.Name, p.Pos)
		writeParams(&sb, p.Params)
		sb.WriteString("\n")
	}
	for _, f := range d.Functions {
		fmt.Fprintf(&sb, "function %s @%s ", f.Name, f.Pos)
		writeParams(&sb, f.Params)
		sb.WriteString("\n")
	}
	for _, a := range d.Actions {
		fmt.Fprintf(&sb, "action %s @%s ", a.Name, a.Pos)
		writeParams(&sb, a.Params)
		fmt.Fprintf(&sb, "\n  pre %s\n  eff %s\n", renderFormula(a.Precondition), renderEffect(a.Effect))
	}
	for _, r := range d.Derived {
		fmt.Fprintf(&sb, "derived %s @%s ", r.Name, r.Pos)
		writeParams(&sb, r.Params)
		fmt.Fprintf(&sb, " %s\n", renderFormula(r.Body))
	}
	return sb.String()
}

// renderProblem is renderDomain's counterpart for a problem.
func renderProblem(p *pddl.Problem) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "problem %s %s for %s@%s %v metric %v\n", p.File, p.Name, p.Domain, p.DomainPos, p.Requirements, p.MinimizeTotalCost)
	for _, o := range p.Objects {
		fmt.Fprintf(&sb, "object %s - %s %v @%s\n", o.Name, o.Type, o.Either, o.Pos)
	}
	for _, a := range p.Init {
		sb.WriteString("init ")
		writeAtom(&sb, a)
		sb.WriteString("\n")
	}
	for _, v := range p.NumericInit {
		sb.WriteString("value ")
		writeAtom(&sb, v.Func)
		fmt.Fprintf(&sb, " %d @%s\n", v.Value, v.Pos)
	}
	fmt.Fprintf(&sb, "goal %s\n", renderFormula(p.Goal))
	return sb.String()
}
