package domain_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
)

// TestLint checks every file in testdata/lint: exactly the annotated
// warnings (`WARN "regexp"`), each on its line.
func TestLint(t *testing.T) {
	files, _ := filepath.Glob("testdata/lint/*.yaml")
	if len(files) == 0 {
		t.Fatal("no lint files")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := domain.Parse(filepath.Base(path), src)
			if err != nil {
				t.Fatal(domain.Format(err, src))
			}
			exps := expectations(t, []byte(strings.ReplaceAll(string(src), "WARN ", "ERROR ")))
			for _, w := range domain.Lint(f) {
				found := false
				for _, x := range exps {
					if !x.met && x.line == w.Pos.Line && x.re.MatchString(w.Msg) {
						x.met, found = true, true
						break
					}
				}
				if !found {
					t.Errorf("unexpected warning %v", w)
				}
			}
			for _, x := range exps {
				if !x.met {
					t.Errorf("line %d: no warning matching %q", x.line, x.re)
				}
			}
		})
	}
}

// TestShippedDomainsLintClean keeps the domains ploy ships free of
// warnings: they are what a designer copies.
func TestShippedDomainsLintClean(t *testing.T) {
	for _, name := range []string{"battlemage.yaml", "soldier.yaml"} {
		f := loadShipped(t, name)
		for _, w := range domain.Lint(f) {
			t.Errorf("%v", w)
		}
	}
}
