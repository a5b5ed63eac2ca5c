package pddl_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ploy-ai/ploy/pddl"
)

var update = flag.Bool("update", false, "rewrite the errors sections of testdata/bad")

// parsePair parses a domain and, if given, a problem, and checks the one
// against the other: the errors of the first stage that has any, or nil.
func parsePair(domName string, domSrc []byte, probName string, probSrc []byte) error {
	d, err := pddl.ParseDomain(domName, domSrc)
	if err != nil {
		return err
	}
	if probSrc == nil {
		return nil
	}
	p, err := pddl.ParseProblem(probName, probSrc)
	if err != nil {
		return err
	}
	return p.Check(d)
}

// TestBadFiles parses each testdata/bad/*.txtar archive's domain.pddl and,
// if there is one, its problem.pddl, and compares the errors with the
// archive's "errors" file, exactly.
func TestBadFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.txtar")
	if len(files) == 0 {
		t.Fatal("no bad files")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var dom, prob, want []byte
			errorsAt := -1
			for i, f := range ar.Files {
				switch f.Name {
				case "domain.pddl":
					dom = f.Data
				case "problem.pddl":
					prob = f.Data
				case "errors":
					want, errorsAt = f.Data, i
				default:
					t.Fatalf("unexpected file %q", f.Name)
				}
			}
			if dom == nil {
				dom = []byte{} // an empty domain is a case of its own
			}
			err = parsePair("domain.pddl", dom, "problem.pddl", prob)
			if err == nil {
				t.Fatal("no error")
			}
			got := []byte(err.Error() + "\n")
			if *update {
				if errorsAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "errors"})
					errorsAt = len(ar.Files) - 1
				}
				ar.Files[errorsAt].Data = got
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(got, want) {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
