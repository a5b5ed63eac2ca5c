package pddl_test

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/pddl"
)

func TestGroundTable(t *testing.T) {
	if os.Getenv("GROUND_TABLE") == "" {
		t.Skip()
	}
	for _, in := range instances(t) {
		domSrc, probSrc := readInstance(t, in)
		d, _ := pddl.ParseDomain(in.domain, domSrc)
		p, _ := pddl.ParseProblem(in.problem, probSrc)
		if err := p.Check(d); err != nil {
			t.Fatal(err)
		}
		var times []time.Duration
		var g *pddl.Grounding
		var err error
		for range 7 {
			t0 := time.Now()
			g, err = pddl.Ground(d, p)
			times = append(times, time.Since(t0))
			if err != nil {
				t.Fatal(in, err)
			}
		}
		slices.Sort(times)
		if err := g.Task.Validate(); err != nil {
			t.Error(in, err)
		}
		s := fmt.Sprintf("%-28s", in.dir+"/"+in.problem)
		for _, st := range g.Stages {
			s += fmt.Sprintf(" %s %d/%d", st.Name[:3], st.Facts, st.Actions)
		}
		fmt.Printf("%s  %v undef=%d %s\n", s, times[3], g.UndefinedCost, g.Unsolvable)
	}
}

func BenchmarkGroundSnake(b *testing.B) {
	for _, in := range instances(b) {
		if in.dir != "snake-opt18-strips" {
			continue
		}
		domSrc, probSrc := readInstance(b, in)
		d, _ := pddl.ParseDomain(in.domain, domSrc)
		p, _ := pddl.ParseProblem(in.problem, probSrc)
		p.Check(d)
		b.ReportAllocs()
		for b.Loop() {
			pddl.Ground(d, p)
		}
	}
}

func BenchmarkGroundFactsAttack(b *testing.B) {
	a := groundAttacks["three atoms added per binding of three parameters"]
	dom, prob := a.files()
	d, p := mustParse(b, dom, prob)
	for b.Loop() {
		pddl.Ground(d, p)
	}
}
