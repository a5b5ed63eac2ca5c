// Command pddlfigures measures ploy on the competition instances in
// ../shared/pddl and prints docs/pddl.md's table: for each instance the
// grounded task's size, and the expansions and time of blind and LM-cut
// A* and of the default portfolio, next to Fast Downward's expansion
// counts from instances.tsv. Times are medians of -runs runs.
//
//	go run ./tools/pddlfigures [-runs 3] [-only blocks] [-shared ../shared/pddl]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/search"
	"github.com/ploy-ai/ploy/strips"
)

// figuresMaxBytes is the searches' memory limit: the pddl command's 4 GiB
// (lowered to what the process may use), with which docs/pddl.md's
// figures were measured, rather than the library's smaller default.
const figuresMaxBytes = 4 << 30

func main() {
	shared := flag.String("shared", "../shared/pddl", "the folder of instances.tsv")
	runs := flag.Int("runs", 3, "runs per search; times are their median")
	only := flag.String("only", "", "measure only instances whose folder contains this")
	heuristics := flag.String("heuristics", "blind,lmcut,portfolio", "the configurations to measure, comma-separated")
	flag.Parse()
	tsv, err := os.ReadFile(filepath.Join(*shared, "instances.tsv"))
	if err != nil {
		fail(err)
	}
	var hs []strips.Heuristic
	for _, name := range strings.Split(*heuristics, ",") {
		h, err := strips.ParseHeuristic(name)
		if err != nil {
			fail(err)
		}
		hs = append(hs, h)
	}
	fmt.Print("| instance | optimum | facts | actions | ground ms |")
	for _, h := range hs {
		fmt.Printf(" %s expanded | %s s | %s exp/s |", h, h, h)
	}
	fmt.Println(" FD blind | FD LM-cut |")
	fmt.Print("| --- | ---: | ---: | ---: | ---: |")
	for range hs {
		fmt.Print(" ---: | ---: | ---: |")
	}
	fmt.Println(" ---: | ---: |")
	for _, line := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(line, "\t")
		dir, prob, dom, opt, fdBlind, fdLMCut := f[0], f[1], f[2], f[3], f[4], f[5]
		if !strings.Contains(dir, *only) {
			continue
		}
		d, p := load(filepath.Join(*shared, dir, dom), filepath.Join(*shared, dir, prob))
		var g *pddl.Grounding
		groundTimes := measure(*runs, func() {
			if g, err = pddl.Ground(d, p); err != nil {
				fail(err)
			}
		})
		fmt.Printf("| %s %s | %s | %d | %d | %.1f |", dir, strings.TrimSuffix(prob, ".pddl"), opt, len(g.Task.Facts), len(g.Task.Ops), ms(groundTimes))
		s, err := strips.NewSearcher(g.Task)
		if err != nil {
			fail(err)
		}
		for _, h := range hs {
			var res strips.Result
			times := measure(*runs, func() {
				res, err = s.Search(strips.Options{Heuristic: h, Limits: search.Limits{MaxBytes: figuresMaxBytes}})
			})
			if res.Status != strips.Found {
				fmt.Printf(" %s | | |", strips.StatusName(res.Status, res.Bound))
				continue
			}
			if fmt.Sprint(res.Cost) != opt {
				fail(fmt.Errorf("%s %s: %s found cost %d, the optimum is %s", dir, prob, h, res.Cost, opt))
			}
			sec := median(times).Seconds()
			by := ""
			if h == strips.Portfolio {
				by = " (" + res.Heuristic.String() + ")"
			}
			fmt.Printf(" %d%s | %.2f | %.0f |", res.Expanded, by, sec, float64(res.Expanded)/sec)
		}
		fmt.Printf(" %s | %s |\n", fdBlind, fdLMCut)
	}
}

func load(domPath, probPath string) (*pddl.Domain, *pddl.Problem) {
	d, p, err := pddl.ReadPair(domPath, probPath)
	if err != nil {
		fail(err)
	}
	return d, p
}

// measure runs f runs times and returns the times, or once when that run
// takes more than ten seconds: the median of long searches would cost
// minutes, and their times vary less than short ones'.
func measure(runs int, f func()) []time.Duration {
	var out []time.Duration
	for range runs {
		begin := time.Now()
		f()
		out = append(out, time.Since(begin))
		if out[0] > 10*time.Second {
			break
		}
	}
	return out
}

func median(ts []time.Duration) time.Duration {
	ts = slices.Clone(ts)
	slices.Sort(ts)
	return ts[len(ts)/2]
}

func ms(ts []time.Duration) float64 { return float64(median(ts).Microseconds()) / 1000 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pddlfigures:", err)
	os.Exit(1)
}
