package pddl

import (
	stderrors "errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkReplayADL measures the checker's work, in MaxReplayWork's
// units, and its rate: on psr-middle p02's optimal plan (derived
// predicates recomputed before each step), rubiks-cube p01's (96 whens,
// each over up to 216 bindings) and a forall that passes the limit, which
// says what the limit costs in time. go test ./pddl -run '^$' -bench ReplayADL
func BenchmarkReplayADL(b *testing.B) {
	dir := ""
	for up := "../.."; len(up) <= len("../../../.."); up += "/.." {
		if _, err := os.Stat(filepath.Join(up, "shared", "pddl-adl", "instances.tsv")); err == nil {
			dir = filepath.Join(up, "shared", "pddl-adl")
			break
		}
	}
	if dir == "" {
		b.Skip("no ../shared/pddl-adl beside this checkout")
	}
	load := func(sub, domain, problem string) (*Domain, *Problem) {
		d, p, err := ReadPair(filepath.Join(dir, sub, domain), filepath.Join(dir, sub, problem))
		if err != nil {
			b.Fatal(err)
		}
		return d, p
	}
	d, p := load("psr-middle", "domain.pddl", "p02-s23-n2-l3-f70.pddl")
	bench(b, "psr-middle-p02", d, p, []string{"(wait)", "(open sd8)", "(close cb2)"}, false)
	d, p = load("rubiks-cube-opt23-adl", "domain.pddl", "p01.pddl")
	bench(b, "rubiks-cube-p01", d, p, []string{"(drev)"}, false)
	// 420 passengers: a forall of three of them tries 74 M bindings.
	d, _ = load("miconic-simpleadl", "domain.pddl", "s1-0.pddl")
	var objects strings.Builder
	for i := range 420 {
		objects.WriteString(" q" + strconv.Itoa(i))
	}
	p, err := ParseProblem("wide.pddl", []byte(`(define (problem wide) (:domain miconic)
  (:objects`+objects.String()+` - passenger f0 - floor) (:init)
  (:goal (forall (?a ?b ?c - passenger) (not (served ?a)))))`))
	if err == nil {
		err = p.Check(d)
	}
	if err != nil {
		b.Fatal(err)
	}
	bench(b, "forall-past-the-limit", d, p, nil, true)
}

func bench(b *testing.B, name string, d *Domain, p *Problem, plan []string, pastLimit bool) {
	b.Run(name, func(b *testing.B) {
		var work int64
		for b.Loop() {
			_, w, err := replayWithin(d, p, plan, MaxReplayWork)
			if pastLimit != stderrors.Is(err, ErrReplayLimit) || !pastLimit && err != nil {
				b.Fatal(err)
			}
			work = w
		}
		b.ReportMetric(float64(work), "units/op")
		b.ReportMetric(float64(work)*float64(b.N)/b.Elapsed().Seconds(), "units/s")
	})
}
