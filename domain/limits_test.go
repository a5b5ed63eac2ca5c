package domain

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
)

// endless is a reader that never ends, counting what was read from it.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += len(p)
	return len(p), nil
}

// TestReadStopsAtTheLimit reads a source that never ends (a pipe, a
// device): the read stops just past MaxFileSize and the error names the
// file and the limit.
func TestReadStopsAtTheLimit(t *testing.T) {
	r := &endless{}
	_, err := ReadFrom("<stdin>", r)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("got %v, want one positioned error", err)
	}
	if want := "<stdin>: file is larger than 8 MiB (8388608 bytes), the most a domain file may have"; list[0].Error() != want {
		t.Errorf("got %q, want %q", list[0].Error(), want)
	}
	if r.read > MaxFileSize+64<<10 {
		t.Errorf("read %d bytes from an endless source; the limit is %d", r.read, MaxFileSize)
	}
	src, err := ReadFrom("x", io.LimitReader(&endless{}, MaxFileSize))
	if err != nil || len(src) != MaxFileSize {
		t.Errorf("a file of exactly MaxFileSize: %d bytes, %v", len(src), err)
	}
}

// TestSuggestionsAreBounded gives the loader 10 000 misspelled initial
// facts against 10 000 declared ones, and a 50 000-character misspelling:
// each is reported, but only the first maxSuggestions look for a
// did-you-mean, so the work stays linear in the file.
func TestSuggestionsAreBounded(t *testing.T) {
	src := MisspelledInitial(10000) + fmt.Sprintf("  %s: true\n", strings.Repeat("fact_", 10000))
	l := &loader{path: "x.yaml", pos: map[string]Pos{}, lines: strings.Split(src, "\n")}
	tokens, ok := l.tokenize(src)
	if !ok || !l.parse(tokens) {
		t.Fatal(l.errs)
	}
	l.build(&File{})
	if len(l.errs) != 10001 {
		t.Errorf("%d errors, want 10001", len(l.errs))
	}
	if l.suggested > maxSuggestions {
		t.Errorf("%d did-you-mean lookups, want at most %d", l.suggested, maxSuggestions)
	}
	found := false
	for _, e := range l.errs {
		found = found || e.Msg == `unknown fact "fcat_00000"; did you mean "fact_00000"?`
	}
	if !found {
		t.Errorf("no suggestion for fcat_00000")
	}
}

func TestByteOrderMarkIsAccepted(t *testing.T) {
	src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("bom.yaml", append([]byte(byteOrderMark), src...)); err != nil {
		t.Errorf("a file starting with a byte order mark: %v", err)
	}
}

func TestInvalidUTF8NamesAreRefused(t *testing.T) {
	src := "name: x\nfacts: [ok, bad\xff\xfename]\n"
	_, err := Parse("x.yaml", []byte(src))
	if err == nil || err.Error() != "x.yaml:2:16: invalid UTF-8: a domain file is UTF-8 text" {
		t.Fatalf("got %v", err)
	}
	if strings.ContainsAny(Format(err, []byte(src)), "\xff\xfe") {
		t.Errorf("invalid UTF-8 printed raw:\n%s", Format(err, []byte(src)))
	}
}

// MisspelledInitial is a file of n facts, fact_00000 on, whose initial
// section names each with two letters swapped (fcat_00000): n unknown
// facts, each a close match for a declared one. It is exported for the
// attack tests of package domain_test.
func MisspelledInitial(n int) string {
	var sb strings.Builder
	sb.WriteString("name: x\nfacts:\n")
	for i := range n {
		fmt.Fprintf(&sb, "  - fact_%05d\n", i)
	}
	sb.WriteString("initial:\n")
	for i := range n {
		fmt.Fprintf(&sb, "  fcat_%05d: true\n", i)
	}
	return sb.String()
}
