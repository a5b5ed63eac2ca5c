package pddl_test

import (
	"path/filepath"
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
// it against the example's domain.
func FuzzParseProblem(f *testing.F) {
	seeds(f, true)
	dom, err := pddl.ParseDomain("domain.pddl", []byte(exampleDomain))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := pddl.ParseProblem("fuzz.pddl", src)
		checkResult(t, p != nil, err)
		if p != nil {
			_ = p.Check(dom)
		}
	})
}
