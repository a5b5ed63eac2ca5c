package pddl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// sharedDir holds the competition instances, outside the repository: the
// project's ../shared/pddl, found from the package's folder whether the
// checkout is the project's root or a worktree below it; "" if none is.
var sharedDir = func() string {
	for up := "../.."; len(up) <= len("../../../.."); up += "/.." {
		if dir := filepath.Join(up, "shared", "pddl"); fileExists(filepath.Join(dir, "instances.tsv")) {
			return dir
		}
	}
	return ""
}()

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

type instance struct {
	dir, problem, domain string
}

// instances reads instances.tsv; the test is skipped where the shared
// folder is not there (a checkout elsewhere), never on a bad line.
func instances(t testing.TB) []instance {
	if sharedDir == "" {
		t.Skip("no ../shared/pddl beside this checkout: the competition instances are not in the repository")
	}
	tsv, err := os.ReadFile(filepath.Join(sharedDir, "instances.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []instance
	for i, line := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			t.Fatalf("instances.tsv line %d: %d fields", i+2, len(f))
		}
		out = append(out, instance{f[0], f[1], f[2]})
	}
	return out
}

func readInstance(t testing.TB, in instance) (domSrc, probSrc []byte) {
	var err error
	if domSrc, err = os.ReadFile(filepath.Join(sharedDir, in.dir, in.domain)); err != nil {
		t.Fatal(err)
	}
	if probSrc, err = os.ReadFile(filepath.Join(sharedDir, in.dir, in.problem)); err != nil {
		t.Fatal(err)
	}
	return domSrc, probSrc
}

func TestSharedInstancesParse(t *testing.T) {
	all := instances(t)
	if len(all) != 21 {
		t.Errorf("instances.tsv lists %d instances, want 21", len(all))
	}
	for _, in := range all {
		t.Run(in.dir+"/"+in.problem, func(t *testing.T) {
			domSrc, probSrc := readInstance(t, in)
			d, err := pddl.ParseDomain(in.domain, domSrc)
			if err != nil {
				t.Fatalf("domain:\n%v", err)
			}
			p, err := pddl.ParseProblem(in.problem, probSrc)
			if err != nil {
				t.Fatalf("problem:\n%v", err)
			}
			if err := p.Check(d); err != nil {
				t.Fatalf("check:\n%v", err)
			}
			if len(d.Actions) == 0 || len(d.Predicates) == 0 || len(p.Init) == 0 {
				t.Errorf("empty parts: %d actions, %d predicates, %d init atoms", len(d.Actions), len(d.Predicates), len(p.Init))
			}
			t.Logf("%d types, %d constants, %d predicates, %d functions, %d actions; %d objects, %d init atoms, %d numeric values, metric %v",
				len(d.Types), len(d.Constants), len(d.Predicates), len(d.Functions), len(d.Actions),
				len(p.Objects), len(p.Init), len(p.NumericInit), p.MinimizeTotalCost)
		})
	}
}
