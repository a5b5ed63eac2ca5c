package domain_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
)

// seeds returns the shipped domains and the bad-file corpus, failing the
// test if any cannot be read: a fuzz target with no seeds fuzzes from
// nothing and says nothing.
func seeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, name := range []string{"battlemage.yaml", "soldier.yaml", "survivor.yaml", "shopkeeper.yaml"} {
		src, err := fs.ReadFile(domains.Files, name)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, src)
	}
	bad, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil || len(bad) == 0 {
		f.Fatalf("no bad files: %v", err)
	}
	for _, path := range bad {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, src)
	}
	return out
}

// fuzzBudget keeps each fuzzed search small: the target checks that an
// accepted file plans without panicking, not that it plans well.
const fuzzBudget = 1000

// FuzzParse feeds the loader arbitrary files, of both models (the seeds
// hold state-space and engine-model files, good and bad): it must never panic, every
// error must carry a position inside the file, and the rendering for a
// person must not panic either and print nothing unprintable. A file it
// accepts must plan every goal and decompose without panicking, and a
// plan found must be valid. (Lint is left out: its searches would take
// most of the fuzzing time.)
func FuzzParse(f *testing.F) {
	for _, src := range seeds(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := domain.Parse("fuzz.yaml", src)
		if err != nil {
			var list domain.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v is not a non-empty ErrorList", err)
			}
			lines := yamlLines(src)
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
					t.Fatalf("error %v is outside the file's %d lines", e, lines)
				}
			}
			checkPrintable(t, domain.Format(err, src))
			return
		}
		if file.EngineModel() {
			checkEngineFile(t, file)
			return
		}
		g := file.GOAP
		if g == nil {
			t.Fatal("accepted file has no GOAP domain")
		}
		p := goap.NewPlanner(g)
		for _, goal := range g.Goals() {
			res, err := p.Plan(nil, g.Initial(), goal, goap.Options{Budget: fuzzBudget})
			if err != nil || res.Status != goap.Found {
				continue
			}
			s := g.Initial().Clone()
			for _, a := range res.Plan {
				if !g.Applicable(a, s) {
					t.Fatalf("goal %s: plan %v applies %s where it cannot", goal.Name(), res.Plan, g.ActionName(a))
				}
				g.Apply(a, s)
			}
			if !goal.Holds(s) {
				t.Fatalf("goal %s: plan %v does not reach it", goal.Name(), res.Plan)
			}
		}
		if file.HTN != nil {
			var res htn.Result
			htn.NewPlanner(file.HTN).Plan(&res, g.Initial(), htn.Options{MaxSteps: fuzzBudget})
		}
		// Every accepted agent plans as itself: its choice of goal with its
		// profile, or its root with its capabilities.
		for _, a := range file.Agents {
			if a.IsHTN() {
				var res htn.Result
				htn.NewPlanner(a.HTN).Plan(&res, g.Initial(), htn.Options{Root: a.Root, HasRoot: true, Profile: a.Profile, MaxSteps: fuzzBudget})
				continue
			}
			if o, ok := a.Choose(g.Initial(), file.InputDefaults()); ok {
				if o.Goal.Holds(g.Initial()) || !o.When.Holds(g.Initial(), file.InputDefaults()) {
					t.Fatalf("agent %s chose %s, which holds already or does not apply", a.Name, o.Goal.Name())
				}
				p.Plan(nil, g.Initial(), o.Goal, goap.Options{Budget: fuzzBudget, Profile: a.Profile})
			}
		}
	})
}

// checkEngineFile resolves every goal of an accepted engine-model file
// from its world and checks each chain found: its head can run now, and
// it is empty only when the goal holds already. Lint must not panic, and
// its warnings must sit inside the file.
func checkEngineFile(t *testing.T, file *domain.File) {
	d := file.Resolver
	s, err := d.SnapshotOf(file.World.Values, file.World.At, file.World.Targets)
	if err != nil {
		t.Fatalf("accepted world does not fit the domain: %v", err)
	}
	r := resolver.NewResolver(d)
	for _, goal := range d.Goals() {
		res, err := r.Resolve(nil, s, goal, resolver.Options{Budget: fuzzBudget})
		if err != nil || res.Status != resolver.Found {
			continue
		}
		if len(res.Chain) == 0 {
			if !goal.Holds(s) {
				t.Fatalf("goal %s: empty chain for a goal that does not hold", goal.Name())
			}
			continue
		}
		for _, c := range d.Conditions(res.Chain[0]) {
			if !d.Holds(c, s) {
				t.Fatalf("goal %s: head %s of %s needs %v, which does not hold", goal.Name(), d.ActionName(res.Chain[0]), d.FormatChain(res.Chain), c)
			}
		}
	}
	lines := yamlLines(file.Source)
	for _, w := range domain.Lint(file) {
		if w.Pos.Line < 1 || w.Pos.Line > lines {
			t.Fatalf("warning %v is outside the file's %d lines", w, lines)
		}
	}
}

func checkPrintable(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		if r != '\n' && r != '\t' && !unicode.IsPrint(r) {
			t.Fatalf("unprintable %q in the rendering:\n%s", r, s)
		}
	}
}

// yamlLines counts src's lines as YAML does: "\r\n", "\r" and "\n" each
// end one.
func yamlLines(src []byte) int {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	return strings.Count(text, "\n") + strings.Count(text, "\r") + 1
}
