package pddl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// TestReadPair: a good pair reads, parses and checks; each stage's error
// stops it and names the file.
func TestReadPair(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	dom := write("d.pddl", "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition () :effect (p)))")
	prob := write("p.pddl", "(define (problem q) (:domain d) (:init) (:goal (p)))")
	d, p, err := pddl.ReadPair(dom, prob)
	if err != nil || d.Name != "d" || p.Name != "q" {
		t.Fatalf("ReadPair: %v, %v, %v", d, p, err)
	}
	for _, c := range []struct {
		name, dom, prob, want string
	}{
		{"no domain file", filepath.Join(dir, "missing.pddl"), prob, "missing.pddl"},
		{"a domain that does not parse", write("bad.pddl", "(define (domain"), prob, "bad.pddl"},
		{"no problem file", dom, filepath.Join(dir, "gone.pddl"), "gone.pddl"},
		{"a problem that does not parse", dom, write("badp.pddl", "(define (problem"), "badp.pddl"},
		{"a problem of another domain", dom, write("other.pddl", "(define (problem q) (:domain e) (:init) (:goal (p)))"), "other.pddl"},
	} {
		if _, _, err := pddl.ReadPair(c.dom, c.prob); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, c.want)
		}
	}
}
