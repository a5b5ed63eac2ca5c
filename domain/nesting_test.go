package domain

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/ploy-ai/ploy/domains"
)

// astDepth is the nesting of collections in the parsed tree: what the
// parser's cost grows with.
func astDepth(n ast.Node) int {
	switch v := n.(type) {
	case *ast.DocumentNode:
		return astDepth(v.Body)
	case *ast.TagNode:
		return astDepth(v.Value)
	case *ast.AnchorNode:
		return astDepth(v.Value)
	case *ast.MappingNode:
		d := 0
		for _, mv := range v.Values {
			d = max(d, astDepth(mv.Key), astDepth(mv.Value))
		}
		return d + 1
	case *ast.MappingValueNode:
		return 1 + max(astDepth(v.Key), astDepth(v.Value))
	case *ast.MappingKeyNode:
		return astDepth(v.Value)
	case *ast.SequenceNode:
		d := 0
		for _, item := range v.Values {
			d = max(d, astDepth(item))
		}
		return d + 1
	}
	return 0
}

// measure returns tokenize's verdict and measured depth for src, and the
// parser's depth when it parses.
func measure(src string) (ok bool, measured, parsed int, err error) {
	l := &loader{path: "x.yaml", pos: map[string]Pos{}, lines: strings.Split(src, "\n")}
	tokens, ok := l.tokenize(src)
	if !ok {
		return false, l.depth, 0, nil
	}
	if bound := tokenBound(src); len(tokens) > bound {
		return true, l.depth, 0, fmt.Errorf("%d tokens, more than the bound %d", len(tokens), bound)
	}
	file, err := parser.Parse(tokens, 0)
	if err != nil {
		return true, l.depth, 0, err
	}
	for _, d := range file.Docs {
		parsed = max(parsed, astDepth(d))
	}
	return true, l.depth, parsed, nil
}

// TestNestingCannotBeFooled covers the ways the old character scan was
// fooled: an apostrophe inside a plain scalar that it took for a quote, a
// comment at column 1 that it did not recognise, and brackets inside a
// comment that it counted.
func TestNestingCannotBeFooled(t *testing.T) {
	deep := strings.Repeat("[", 50000)
	for _, tc := range []struct {
		name, src string
		refused   bool
	}{
		{"apostrophe in a plain scalar", "name: don't\nfacts: " + deep + "\n", true},
		{"apostrophe in a key", "don't: x\nfacts: " + deep + "\n", true},
		{"comment at column 1 after line 1", "name: x\n# it's\nfacts: " + deep + "\n", true},
		{"comment with a quote then a newline", "name: x # \"\nfacts: " + deep + "\n", true},
		{"backslash in single quotes", "name: 'a\\'\nfacts: " + deep + "\n", true},
		{"deep block lists", strings.Repeat("- ", 50000) + "x\n", true},
		{"deep block maps", func() string {
			var sb strings.Builder
			for i := range 200 {
				sb.WriteString(strings.Repeat(" ", i) + "k:\n")
			}
			return sb.String()
		}(), true},
		{"70 brackets in a comment", "name: x\n# " + strings.Repeat("[", 70) + "\nfacts: [a]\n", false},
		{"70 brackets in quotes", "name: '" + strings.Repeat("[", 70) + "'\nfacts: [\"" + strings.Repeat("{", 70) + "\"]\n", false},
		{"70 brackets in a block scalar", "name: |\n  " + strings.Repeat("[", 70) + "\nfacts: [a]\n", false},
		{"63 levels", "a: " + strings.Repeat("[", 62) + strings.Repeat("]", 62) + "\n", false},
	} {
		ok, measured, parsed, err := measure(tc.src)
		if ok == tc.refused {
			t.Errorf("%s: refused %v, want %v (measured %d)", tc.name, !ok, tc.refused, measured)
		}
		if ok && err == nil && parsed > 2*measured+2 {
			t.Errorf("%s: parsed depth %d, measured %d", tc.name, parsed, measured)
		}
	}
}

// FuzzNesting compares the measured nesting with the parser's: on any
// input the measure accepts and the parser parses, the parser's depth is
// at most twice the measure (and so bounded by 2·MaxNesting+2), and the
// measure does not find depth where the parser finds little.
func FuzzNesting(f *testing.F) {
	for _, s := range []string{
		"name: don't\nfacts: [[[a]]]\n",
		"name: x\n# [[[\nfacts: [a]\n",
		"- - - [a, {b: [c]}]\n",
		"a:\n  b:\n    - c: [d]\n    - ? e\n      : f\n",
		"a: |\n  [[[\nb: '{{'\n",
		"--- [a]\n--- {b: c}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		ok, measured, parsed, err := measure(src)
		if err != nil && strings.Contains(err.Error(), "more than the bound") {
			t.Fatal(err)
		}
		if !ok || err != nil {
			return
		}
		if parsed > 2*measured+2 {
			t.Fatalf("parsed depth %d, measured %d", parsed, measured)
		}
		if measured > 2*parsed+4 {
			t.Fatalf("measured depth %d where the parser found %d", measured, parsed)
		}
	})
}

// TestTokenBoundIsCloseOnShippedFiles: the bound is an upper bound that
// stays near the count (a file is refused on the bound, before it is
// scanned, so a bound grown loose would refuse files well under
// MaxTokens): on every shipped domain file it is at least the scanner's
// tokens and at most two and a half times them (2.0 to 2.4 now).
func TestTokenBoundIsCloseOnShippedFiles(t *testing.T) {
	names, err := fs.Glob(domains.Files, "*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no shipped domain files: %v", err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(domains.Files, name)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		l := &loader{path: name, pos: map[string]Pos{}, lines: strings.Split(src, "\n")}
		tokens, ok := l.tokenize(src)
		if !ok {
			t.Fatalf("%s: not tokenized", name)
		}
		if bound := tokenBound(src); bound < len(tokens) || 2*bound > 5*len(tokens) {
			t.Errorf("%s: bound %d for %d tokens; want between the count and 2.5 times it", name, bound, len(tokens))
		}
	}
}
