package pddl_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ploy-ai/ploy/pddl"
)

// seeds adds the shared instances' files and the malformed corpus's files
// of the given name (domain.pddl or problem.pddl) to f.
func seeds(f *testing.F, problems bool) {
	if sharedDir != "" {
		for _, in := range instances(f) {
			dom, prob := readInstance(f, in)
			if problems {
				f.Add(prob)
			} else {
				f.Add(dom)
			}
		}
	}
	if dir, adl := adlSeeds(f); dir != "" {
		for _, in := range adl {
			dom, prob := readADLInstance(f, dir, in)
			if problems {
				f.Add(prob)
			} else {
				f.Add(dom)
			}
		}
	}
	if problems {
		f.Add([]byte(adlProblem))
	} else {
		f.Add([]byte(adlDomain))
	}
	want := "domain.pddl"
	if problems {
		want = "problem.pddl"
	}
	files, _ := filepath.Glob("testdata/bad/*.txtar")
	for _, path := range files {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if file.Name == want {
				f.Add(file.Data)
			}
		}
	}
}

// adlSeeds lists the ADL instances, or none where ../shared/pddl-adl is
// not there (the fuzz targets still run on the other seeds).
func adlSeeds(f *testing.F) (string, []adlInstance) {
	if adlDir() == "" {
		return "", nil
	}
	return adlInstances(f)
}

func readADLInstance(t testing.TB, dir string, in adlInstance) (domSrc, probSrc []byte) {
	var err error
	if domSrc, err = os.ReadFile(filepath.Join(dir, in.dir, in.domain)); err != nil {
		t.Fatal(err)
	}
	if probSrc, err = os.ReadFile(filepath.Join(dir, in.dir, in.problem)); err != nil {
		t.Fatal(err)
	}
	return domSrc, probSrc
}

// adlProblem is a problem of adlDomain that uses ADL in its goal.
const adlProblem = `(define (problem g) (:domain adl)
  (:objects o1 - t o2 - u)
  (:init (p o1))
  (:goal (and (forall (?x - t) (imply (p ?x) (exists (?y - u) (or (r ?y) (q ?x c0))))) (not (d o1 o2)))))`

// checkResult fails on a result that is neither a value nor an error list
// of positioned errors.
func checkResult(t *testing.T, ok bool, err error) {
	if ok == (err != nil) {
		t.Fatalf("a result and an error, or neither: %v", err)
	}
	if err == nil {
		return
	}
	l, isList := err.(pddl.ErrorList)
	if !isList || len(l) == 0 || len(l) > pddl.MaxErrors+1 {
		t.Fatalf("error %T with %d entries", err, len(l))
	}
}

func FuzzParseDomain(f *testing.F) {
	seeds(f, false)
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := pddl.ParseDomain("fuzz.pddl", src)
		checkResult(t, d != nil, err)
	})
}

// FuzzParseProblem parses the input as a problem and, if it parses, checks
// it against the example's domain and against adlDomain, whose derived
// predicate and types a quantified goal meets.
func FuzzParseProblem(f *testing.F) {
	seeds(f, true)
	var doms []*pddl.Domain
	for _, src := range []string{exampleDomain, adlDomain} {
		dom, err := pddl.ParseDomain("domain.pddl", []byte(src))
		if err != nil {
			f.Fatal(err)
		}
		doms = append(doms, dom)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := pddl.ParseProblem("fuzz.pddl", src)
		checkResult(t, p != nil, err)
		if p == nil {
			return
		}
		for _, dom := range doms {
			if err := p.Check(dom); err != nil {
				checkResult(t, false, err)
			}
		}
	})
}

// FuzzGround parses a domain and a problem, checks them and grounds them,
// under small limits: grounding never panics, its error is positioned or
// says "pddl:", and its task is valid and the same twice.
func FuzzGround(f *testing.F) {
	if sharedDir != "" {
		for _, in := range instances(f) {
			dom, prob := readInstance(f, in)
			f.Add(dom, prob)
		}
	}
	f.Add([]byte(exampleDomain), []byte(exampleProblem))
	f.Add([]byte(vehiclesDomain), []byte(vehiclesProblem))
	f.Add([]byte(costsDomain), []byte(fmt.Sprintf(costsProblem, "(:metric minimize (total-cost))")))
	f.Add([]byte(switchesDomain), []byte(switchesProblem("(and (not (on a)) (on b))")))
	f.Add([]byte(zenoDomain), []byte(zenoProblem))
	f.Add([]byte(adlDomain), []byte(adlProblem))
	if dir, adl := adlSeeds(f); dir != "" {
		for _, in := range adl {
			dom, prob := readADLInstance(f, dir, in)
			f.Add(dom, prob)
		}
	}
	f.Add([]byte(storageDomain), []byte(storageProblem))
	for seed := range 20 {
		dom, prob := randomPDDL(rand.New(rand.NewPCG(uint64(seed), 7)))
		f.Add([]byte(dom), []byte(prob))
		dom, prob = randomTypedPDDL(rand.New(rand.NewPCG(uint64(seed), 7)), true)
		f.Add([]byte(dom), []byte(prob))
	}
	f.Fuzz(func(t *testing.T, domSrc, probSrc []byte) {
		d, err := pddl.ParseDomain("domain.pddl", domSrc)
		if err != nil {
			return
		}
		p, err := pddl.ParseProblem("problem.pddl", probSrc)
		if err != nil || p.Check(d) != nil {
			return
		}
		ground := func() *pddl.Grounding {
			g, err := pddl.GroundLimited(d, p, 10_000, 10_000, 1<<20, 1<<20, 16<<20)
			if err != nil {
				var pe *pddl.Error
				if !errors.As(err, &pe) && !strings.HasPrefix(err.Error(), "pddl: ") {
					t.Fatalf("error %T: %v", err, err)
				}
				return nil
			}
			if err := g.Task.Validate(); err != nil {
				t.Fatal(err)
			}
			return g
		}
		if g1, g2 := ground(), ground(); !reflect.DeepEqual(g1, g2) {
			t.Fatal("two groundings differ")
		}
	})
}
