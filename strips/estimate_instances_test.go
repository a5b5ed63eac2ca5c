package strips_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
	"github.com/ploy-ai/ploy/strips"
)

// sharedPDDL holds the competition instances, outside the repository: the
// project's ../shared/pddl, found from the package's folder whether the
// checkout is the project's root or a worktree below it; "" if none is.
var sharedPDDL = func() string {
	for up := "../.."; len(up) <= len("../../../.."); up += "/.." {
		dir := filepath.Join(up, "shared", "pddl")
		if _, err := os.Stat(filepath.Join(dir, "instances.tsv")); err == nil {
			return dir
		}
	}
	return ""
}()

// estimateInstance is a shared instance and its optimal cost.
type estimateInstance struct {
	name, dir, problem, domain string
	optimal                    int64
}

// estimateInstances reads instances.tsv; the test is skipped where the
// shared folder is not there.
func estimateInstances(tb testing.TB) []estimateInstance {
	if sharedPDDL == "" {
		tb.Skip("no ../shared/pddl beside this checkout: the competition instances are not in the repository")
	}
	tsv, err := os.ReadFile(filepath.Join(sharedPDDL, "instances.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []estimateInstance
	for _, line := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(line, "\t")
		opt, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			tb.Fatalf("instances.tsv: %q: %v", line, err)
		}
		name := strings.TrimSuffix(f[0], "-strips") + "/" + strings.TrimSuffix(f[1], ".pddl")
		out = append(out, estimateInstance{name, f[0], f[1], f[2], opt})
	}
	return out
}

// ground parses and grounds in.
func (in estimateInstance) ground(tb testing.TB) *strips.Task {
	read := func(file string) []byte {
		b, err := os.ReadFile(filepath.Join(sharedPDDL, in.dir, file))
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	d, err := pddl.ParseDomain(in.domain, read(in.domain))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := pddl.ParseProblem(in.problem, read(in.problem))
	if err != nil {
		tb.Fatal(err)
	}
	g, err := pddl.Ground(d, p)
	if err != nil {
		tb.Fatal(err)
	}
	return g.Task
}

// TestEstimatesInstances checks LM-cut and h_max on every shared
// instance's initial state against its optimal cost: both admissible,
// LM-cut at least h_max. It logs the values.
func TestEstimatesInstances(t *testing.T) {
	for _, in := range estimateInstances(t) {
		task := in.ground(t)
		s := task.InitialState()
		lm, ldead := strips.LMCutEstimate(task)(s)
		hm, hdead := strips.HMaxEstimate(task)(s)
		t.Logf("%-36s optimal %7d  LM-cut %7d  h_max %7d", in.name, in.optimal, lm, hm)
		if ldead || hdead || lm > in.optimal || hm > lm {
			t.Errorf("%s: optimal %d, LM-cut %d (dead %v), h_max %d (dead %v)", in.name, in.optimal, lm, ldead, hm, hdead)
		}
	}
}

// BenchmarkEstimateInstances measures LM-cut's estimates a second on a
// few shared instances, at the initial state and along random walks from
// it, as an A* search meets them.
func BenchmarkEstimateInstances(b *testing.B) {
	all := estimateInstances(b)
	for _, name := range []string{"blocks/probBLOCKS-9-0", "logistics00/probLOGISTICS-6-0", "visitall-opt11/problem05-full",
		"barman-opt11/pfile01-001", "termes-opt18/p01", "snake-opt18/p01"} {
		i := slices.IndexFunc(all, func(in estimateInstance) bool { return in.name == name })
		if i < 0 {
			b.Fatalf("no instance %s", name)
		}
		task := all[i].ground(b)
		rng := rand.New(rand.NewPCG(1, 2))
		walks := [][]uint64{task.InitialState()}
		for range 20 {
			walks = append(walks, strips.RandomWalk(task, rng, 50)...)
		}
		for _, c := range []struct {
			what   string
			states [][]uint64
		}{{"init", walks[:1]}, {"walks", walks}} {
			b.Run(name+"/"+c.what, func(b *testing.B) {
				est := strips.LMCutEstimate(task)
				b.ReportAllocs()
				j := 0
				for b.Loop() {
					est(c.states[j%len(c.states)])
					j++
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "estimates/s")
			})
		}
	}
}
