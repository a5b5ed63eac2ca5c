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

// TestEngineSuggestionsAreBounded: in an engine-model file too, only the
// first maxSuggestions unknown names are compared with every known one
// for a "did you mean": the agents' inputs that are no key, and the
// targets placed that no action names (each lookup compares with every
// key or target, so unbounded, a file of many would cost their number
// squared).
func TestEngineSuggestionsAreBounded(t *testing.T) {
	const n = maxSuggestions + 20
	var keys, when, targets, actions strings.Builder
	for i := range n {
		fmt.Fprintf(&keys, "key_%03d: int, ", i)
		fmt.Fprintf(&when, "kye_%03d: \"> 1\", ", i)
		fmt.Fprintf(&targets, "  place_%03d: [0, 0]\n", i)
		fmt.Fprintf(&actions, "  - {name: Go%03d, effects: {key_%03d: increase}, cost: 1, target: plaec_%03d}\n", i, i, i)
	}
	goal := "goals:\n  - {name: G, conditions: {key_000: \"> 5\"}}\n"
	for _, c := range []struct{ what, src string }{
		{"unknown inputs", "name: x\nkeys: {" + keys.String() + "}\nactions:\n  - {name: A, effects: {key_000: increase}, cost: 1}\n" + goal +
			"agents:\n  - name: k\n    goals:\n      - {goal: G, when: {" + when.String() + "}}\n"},
		{"stray targets", "name: x\nkeys: {" + keys.String() + "}\ntargets:\n" + targets.String() + "actions:\n" + actions.String() + goal},
	} {
		l := &loader{path: "x.yaml", pos: map[string]Pos{}, lines: strings.Split(c.src, "\n")}
		tokens, ok := l.tokenize(c.src)
		if !ok || !l.parse(tokens) {
			t.Fatalf("%s: %v", c.what, l.errs)
		}
		l.buildEngine(&File{})
		suggested := 0
		for _, e := range l.errs {
			if strings.Contains(e.Msg, "did you mean") {
				suggested++
			}
		}
		// Every name is a near miss: exactly the first maxSuggestions get
		// their suggestion.
		if len(l.errs) < n || suggested != maxSuggestions || l.suggested != maxSuggestions {
			t.Errorf("%s: %d errors, %d with a suggestion, %d lookups; want at least %d errors and %d suggestions, as many lookups",
				c.what, len(l.errs), suggested, l.suggested, n, maxSuggestions)
		}
	}
}
