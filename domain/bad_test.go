package domain_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
)

var update = flag.Bool("update", false, "rewrite golden files")

// expectation is an `ERROR "regexp"` annotation: an error matching the
// regexp is expected on the annotation's line.
type expectation struct {
	line int
	re   *regexp.Regexp
	met  bool
}

var annotation = regexp.MustCompile(`ERROR ("(?:[^"\\]|\\.)*")`)

func expectations(t *testing.T, src []byte) []*expectation {
	var out []*expectation
	for i, line := range strings.Split(string(src), "\n") {
		c := strings.Index(line, "#")
		if c < 0 {
			continue
		}
		for _, m := range annotation.FindAllStringSubmatch(line[c:], -1) {
			// The quoted text is a regexp; only \" is unescaped.
			pattern := strings.ReplaceAll(m[1][1:len(m[1])-1], `\"`, `"`)
			re, err := regexp.Compile(pattern)
			if err != nil {
				t.Fatalf("line %d: bad annotation %s: %v", i+1, m[1], err)
			}
			out = append(out, &expectation{line: i + 1, re: re})
		}
	}
	return out
}

// TestBadFiles loads every file in testdata/bad and checks that exactly
// the errors annotated in the file are reported, each on its line, and that
// the rendering for a person matches the golden file.
func TestBadFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	if len(files) == 0 {
		t.Fatal("no bad files")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = domain.Parse(filepath.Base(path), src)
			var list domain.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got %v, want an ErrorList", err)
			}
			exps := expectations(t, src)
			for _, e := range list {
				found := false
				for _, x := range exps {
					if !x.met && x.line == e.Pos.Line && x.re.MatchString(e.Msg) {
						x.met, found = true, true
						break
					}
				}
				if !found {
					t.Errorf("unexpected error %v", e)
				}
			}
			for _, x := range exps {
				if !x.met {
					t.Errorf("line %d: no error matching %q", x.line, x.re)
				}
			}
			golden := strings.TrimSuffix(path, ".yaml") + ".golden"
			got := domain.Format(err, src)
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
				return
			}
			want, _ := os.ReadFile(golden)
			if got != string(want) {
				t.Errorf("rendering differs from %s (run with -update to accept):\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestBadFilesWithCRLF checks that a file saved with Windows line endings
// gets the errors it gets with Unix ones, at the same lines and columns:
// the YAML scanner counted a comment's CRLF as two line breaks, so every
// error below a comment pointed lines too far down.
func TestBadFilesWithCRLF(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "\r") {
			continue // a file about line endings itself
		}
		crlf := strings.ReplaceAll(string(src), "\n", "\r\n")
		_, want := domain.Parse(filepath.Base(path), src)
		_, got := domain.Parse(filepath.Base(path), []byte(crlf))
		var wl, gl domain.ErrorList
		if !errors.As(want, &wl) || !errors.As(got, &gl) {
			t.Errorf("%s: %v with LF, %v with CRLF; want an ErrorList from both", path, want, got)
			continue
		}
		if len(gl) != len(wl) {
			t.Errorf("%s: %d errors with CRLF, %d with LF", path, len(gl), len(wl))
			continue
		}
		for i := range wl {
			if gl[i].Pos != wl[i].Pos || gl[i].Msg != wl[i].Msg {
				t.Errorf("%s: with CRLF %d:%d %s\n  with LF %d:%d %s", path, gl[i].Pos.Line, gl[i].Pos.Col, gl[i].Msg, wl[i].Pos.Line, wl[i].Pos.Col, wl[i].Msg)
			}
		}
	}
}

// TestErrorsAfterATab checks that an error about a value written after a
// tab (target:<TAB>woods) points at the value, as it does after a space:
// the YAML scanner places such a value at the tab before it.
func TestErrorsAfterATab(t *testing.T) {
	src := "name: tabs\n" +
		"keys: {has_wood: bool}\n" +
		"targets:\n" +
		"  wood: [0, -4]\n" +
		"actions:\n" +
		"  - name: GatherWood\n" +
		"    effects: {has_wood: true}\n" +
		"    cost:\t\tfoo\n" +
		"    target:\twoods\n" +
		"goals:\n" +
		"  - name: Stocked\n" +
		"    conditions: {has_wood: true}\n"
	_, err := domain.Parse("tabs.yaml", []byte(src))
	var list domain.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %v, want an ErrorList", err)
	}
	want := map[int]int{8: 12, 9: 13} // line: the value's column
	for _, e := range list {
		if col, ok := want[e.Pos.Line]; ok && e.Pos.Col != col {
			t.Errorf("%d:%d %s: want column %d, the value's", e.Pos.Line, e.Pos.Col, e.Msg, col)
		}
		delete(want, e.Pos.Line)
	}
	if len(want) > 0 {
		t.Errorf("no error on lines %v: %v", want, err)
	}
}
