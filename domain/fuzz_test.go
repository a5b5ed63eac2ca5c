package domain_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
)

// FuzzParse feeds the loader arbitrary files: it must never panic, every
// error must carry a position inside the file, and the rendering for a
// person must not panic either. A file it accepts must plan without
// panicking.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"battlemage.yaml", "soldier.yaml"} {
		src, _ := fs.ReadFile(domains.Files, name)
		f.Add(src)
	}
	bad, _ := filepath.Glob("testdata/bad/*.yaml")
	for _, path := range bad {
		src, _ := os.ReadFile(path)
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := domain.Parse("fuzz.yaml", src)
		if err != nil {
			var list domain.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v is not a non-empty ErrorList", err)
			}
			lines := strings.Count(string(src), "\n") + 1
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
					t.Fatalf("error %v is outside the file's %d lines", e, lines)
				}
			}
			_ = domain.Format(err, src)
			return
		}
		if file.GOAP == nil {
			t.Fatal("accepted file has no GOAP domain")
		}
	})
}
