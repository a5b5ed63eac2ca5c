package pddl_test

import (
	"os"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// benchInstance grounds the shared instance named by PLOY_BENCH_INSTANCE
// ("folder/problem"), or the default given.
func benchTask(b *testing.B, def string) *strips.Task {
	name := def
	if v := os.Getenv("PLOY_BENCH_INSTANCE"); v != "" {
		name = v
	}
	for _, in := range instances(b) {
		if in.dir+"/"+in.problem != name {
			continue
		}
		domSrc, probSrc := readInstance(b, in)
		d, err := pddl.ParseDomain(in.domain, domSrc)
		if err != nil {
			b.Fatal(err)
		}
		p, err := pddl.ParseProblem(in.problem, probSrc)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Check(d); err != nil {
			b.Fatal(err)
		}
		g, err := pddl.Ground(d, p)
		if err != nil {
			b.Fatal(err)
		}
		return g.Task
	}
	b.Fatalf("no instance %s", name)
	return nil
}

func benchSearch(b *testing.B, def string, h strips.Heuristic) {
	s, err := strips.NewSearcher(benchTask(b, def))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var res strips.Result
	for b.Loop() {
		res, _ = s.Search(strips.Options{Heuristic: h, Limits: search.Limits{MaxBytes: 4 << 30}}) // the pddl command's limit
	}
	b.ReportMetric(float64(res.Expanded)*float64(b.N)/b.Elapsed().Seconds(), "expanded/s")
}

// BenchmarkBlind measures blind A* on logistics00 probLOGISTICS-6-0
// (475 142 expansions), or PLOY_BENCH_INSTANCE.
func BenchmarkBlind(b *testing.B) {
	benchSearch(b, "logistics00/probLOGISTICS-6-0.pddl", strips.Blind)
}

// BenchmarkLMCut measures LM-cut A* on logistics00 probLOGISTICS-6-0, or
// PLOY_BENCH_INSTANCE.
func BenchmarkLMCut(b *testing.B) {
	benchSearch(b, "logistics00/probLOGISTICS-6-0.pddl", strips.LMCut)
}

// BenchmarkPortfolio measures the default portfolio on logistics00
// probLOGISTICS-6-0, or PLOY_BENCH_INSTANCE: LM-cut and blind A* side by
// side, so that its time against BenchmarkBlind's and BenchmarkLMCut's is
// what the second core buys (docs/performance.md).
func BenchmarkPortfolio(b *testing.B) {
	benchSearch(b, "logistics00/probLOGISTICS-6-0.pddl", strips.Portfolio)
}
