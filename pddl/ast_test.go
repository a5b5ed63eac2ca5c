package pddl_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// TestTree checks the tree grounding will read: formula kinds, effects,
// costs, numeric values and the type hierarchy.
func TestTree(t *testing.T) {
	d, err := pddl.ParseDomain("trucks.pddl", []byte(exampleDomain))
	if err != nil {
		t.Fatal(err)
	}
	a := d.Actions[0]
	want := []string{"?t truck", "?from place", "?to place"}
	for i, prm := range a.Params {
		if i >= len(want) || prm.Name+" "+prm.Type != want[i] {
			t.Errorf("parameter %d: %+v", i, prm)
		}
	}
	if len(a.Params) != len(want) {
		t.Errorf("%d parameters", len(a.Params))
	}
	pre := a.Precondition
	if pre.Kind != pddl.And || len(pre.Sub) != 3 {
		t.Fatalf("precondition %+v", pre)
	}
	if at := pre.Sub[0]; at.Kind != pddl.Atom || at.Pred.Name != "at" || len(at.Pred.Args) != 2 || !at.Pred.Args[0].IsVariable() {
		t.Errorf("first conjunct %+v", at)
	}
	if neq := pre.Sub[2]; neq.Kind != pddl.Not || neq.Sub[0].Kind != pddl.Equal || neq.Sub[0].Pred.Args[1].Name != "?to" {
		t.Errorf("third conjunct %+v", neq)
	}
	e := a.Effect
	if len(e.Add) != 1 || e.Add[0].Name != "at" || len(e.Delete) != 1 || len(e.Cost) != 1 ||
		e.Cost[0].Func == nil || e.Cost[0].Func.Name != "distance" || len(e.Cost[0].Func.Args) != 2 {
		t.Errorf("effect %+v", e)
	}

	p, err := pddl.ParseProblem("deliver.pddl", []byte(exampleProblem))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(d); err != nil {
		t.Fatal(err)
	}
	if len(p.NumericInit) != 2 || p.NumericInit[0].Value != 7 || p.NumericInit[0].Func.Args[1].Name != "shop" ||
		p.NumericInit[1].Func.Name != "total-cost" {
		t.Errorf("numeric init %+v", p.NumericInit)
	}
	if p.Goal.Kind != pddl.Atom || p.Goal.Pred.Name != "at" || p.Object("t1").Type != "truck" || p.Object("depot") == nil {
		t.Errorf("goal %+v, objects %+v", p.Goal, p.Objects)
	}
}

func TestTypeHierarchy(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(sharedDir, "elevators-opt08-strips", "domain.pddl"))
	if os.IsNotExist(err) {
		t.Skip("no shared instances")
	}
	d, err := pddl.ParseDomain("domain.pddl", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t, of string
		want  bool
	}{
		{"slow-elevator", "elevator", true},
		{"slow-elevator", "object", true},
		{"elevator", "elevator", true},
		{"elevator", "slow-elevator", false},
		{"slow-elevator", "fast-elevator", false},
		{"passenger", "elevator", false},
		{"object", "object", true},
		{"object", "count", false},
	} {
		if got := d.IsSubtype(c.t, c.of); got != c.want {
			t.Errorf("IsSubtype(%q, %q) = %v", c.t, c.of, got)
		}
	}
	if ty := d.Type("fast-elevator"); ty == nil || len(ty.Parents) != 1 || ty.Parents[0] != "elevator" {
		t.Errorf("fast-elevator: %+v", ty)
	}
	if f := d.Function("travel-slow"); f == nil || len(f.Params) != 2 || f.Params[1].Type != "count" {
		t.Errorf("travel-slow: %+v", f)
	}
}
