// Command portfoliofigures measures the default portfolio against its two
// searches on the competition instances in ../shared/pddl, for
// docs/performance.md. For each instance it finds which search the
// portfolio answers with (the one that needs less counted work, LM-cut on
// a tie), then times in interleaved rounds: that search alone; the other
// search alone up to the work at which the portfolio stops it (its share
// of the portfolio's work); and the portfolio. With two free cores the
// portfolio's time is about the longer of the first two ("critical path"),
// and its CPU time their sum. Times are medians of -runs rounds, wall
// clock and CPU (user and system) of this process.
//
//	go run ./tools/portfoliofigures [-runs 3] [-only barman] [-shared ../shared/pddl]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// maxBytes is the pddl command's memory limit.
const maxBytes = 4 << 30

func main() {
	shared := flag.String("shared", "../shared/pddl", "the folder of instances.tsv")
	runs := flag.Int("runs", 3, "rounds; times are their median")
	only := flag.String("only", "", "measure only instances whose folder contains this")
	flag.Parse()
	tsv, err := os.ReadFile(filepath.Join(*shared, "instances.tsv"))
	if err != nil {
		fail(err)
	}
	fmt.Println("| instance | answered by | its work | its s (CPU) | other's share of work | its s (CPU) | critical path / alone | portfolio s (CPU) | portfolio / alone (CPU) |")
	fmt.Println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, line := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(line, "\t")
		dir, prob, dom := f[0], f[1], f[2]
		if !strings.Contains(dir, *only) {
			continue
		}
		task := load(filepath.Join(*shared, dir, dom), filepath.Join(*shared, dir, prob))
		s, err := strips.NewSearcher(task)
		if err != nil {
			fail(err)
		}
		run := func(h strips.Heuristic, work int64) (strips.Result, time.Duration, time.Duration) {
			c0, t0 := cpu(), time.Now()
			res, _ := s.Search(strips.Options{Heuristic: h, Limits: search.Limits{MaxBytes: maxBytes, MaxWork: work}})
			return res, time.Since(t0), cpu() - c0
		}
		// Which search answers: the portfolio's own answer, and the
		// other's share, the work at which it stops.
		p, _, _ := run(strips.Portfolio, 0)
		if p.Status != strips.Found {
			fail(fmt.Errorf("%s %s: the portfolio: %s", dir, prob, strips.StatusName(p.Status, p.Bound)))
		}
		other, share := strips.Blind, p.Stats.Work
		if p.Heuristic == strips.Blind {
			other, share = strips.LMCut, p.Stats.Work+1 // LM-cut wins ties, so it must pass the work
		}
		var alone, aloneCPU, rest, restCPU, port, portCPU []time.Duration
		for range *runs {
			res, t, c := run(p.Heuristic, 0)
			if res.Stats.Work != p.Stats.Work || res.Cost != p.Cost {
				fail(fmt.Errorf("%s %s: %s alone: work %d cost %d, the portfolio's %d and %d", dir, prob, p.Heuristic, res.Stats.Work, res.Cost, p.Stats.Work, p.Cost))
			}
			alone, aloneCPU = append(alone, t), append(aloneCPU, c)
			_, t, c = run(other, share)
			rest, restCPU = append(rest, t), append(restCPU, c)
			res, t, c = run(strips.Portfolio, 0)
			if res.Stats.Work != p.Stats.Work || res.Heuristic != p.Heuristic {
				fail(fmt.Errorf("%s %s: the portfolio answered by %s with work %d, then by %s with %d", dir, prob, p.Heuristic, p.Stats.Work, res.Heuristic, res.Stats.Work))
			}
			port, portCPU = append(port, t), append(portCPU, c)
		}
		a, ac, r, rcpu, pt, pc := median(alone), median(aloneCPU), median(rest), median(restCPU), median(port), median(portCPU)
		fmt.Printf("| %s %s | %s | %d | %.2f (%.2f) | %d | %.2f (%.2f) | %.2f | %.2f (%.2f) | %.2f (%.2f) |\n",
			dir, strings.TrimSuffix(prob, ".pddl"), p.Heuristic, p.Stats.Work, a.Seconds(), ac.Seconds(), share, r.Seconds(), rcpu.Seconds(),
			max(ac, rcpu).Seconds()/ac.Seconds(), pt.Seconds(), pc.Seconds(), pt.Seconds()/a.Seconds(), pc.Seconds()/ac.Seconds())
	}
}

func load(domPath, probPath string) *strips.Task {
	d, p, err := pddl.ReadPair(domPath, probPath)
	if err != nil {
		fail(err)
	}
	g, err := pddl.Ground(d, p)
	if err != nil {
		fail(err)
	}
	return g.Task
}

// cpu is the process's CPU time so far, user and system.
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fail(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(ts []time.Duration) time.Duration {
	ts = slices.Clone(ts)
	slices.Sort(ts)
	return ts[len(ts)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "portfoliofigures:", err)
	os.Exit(1)
}
