// Package domain loads domain files: YAML documents that describe a GOAP
// domain (facts, initial state, actions, goals) and optionally an HTN over
// it. Every problem is reported at once, each as FILE:LINE:COL: message.
package domain

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
)

// File is a loaded, validated domain file.
type File struct {
	Path   string
	Source []byte
	// Spec and HTNSpec are what the file says; HTNSpec is nil when the file
	// has no htn section.
	Spec    goap.Spec
	HTNSpec *htn.Spec
	GOAP    *goap.Domain
	HTN     *htn.Domain
	// Sensed are the facts the file's sensed key lists: facts the world
	// changes at run time, not only actions. Lint takes both their values
	// as reachable.
	Sensed []goap.Fact
	// Agents are the agent kinds of the file's agents: section, in its
	// order (docs/agents.md).
	Agents []*Agent
	// EngineAgents are an engine-model file's agent kinds.
	EngineAgents []*EngineAgent
	// Inputs are the numbers the world supplies to the agents (inputs:).
	Inputs []Input
	// Resolver, ResolverSpec and World are set for an engine-model file
	// (one with keys: instead of facts:), and Spec, GOAP, HTN and Sensed
	// are then empty: the file is for package resolver, not goap.
	Resolver     *resolver.Domain
	ResolverSpec resolver.Spec
	World        World
	pos          map[string]Pos
}

// Pos returns the position of the part of the file at path, in the form of
// goap.SpecError paths ("actions[2].cost", "htn.tasks[0].methods[1]"), or
// of the nearest enclosing part that has one.
func (f *File) Pos(path string) Pos { return lookup(f.pos, path) }

func lookup(pos map[string]Pos, path string) Pos {
	for path != "" {
		if p, ok := pos[path]; ok {
			return p
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return Pos{Line: 1, Col: 1}
}

// Load reads and parses the domain file at path.
func Load(path string) (*File, error) {
	src, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// ReadFile reads a domain file through a reader that stops one byte past
// MaxFileSize, whatever the file is: a regular file, a device such as
// /dev/zero, a pipe. A longer file is refused.
func ReadFile(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ReadFrom(path, fh)
}

// ReadFrom reads a domain file named name from r (standard input, say),
// refusing one longer than MaxFileSize without reading past it.
func ReadFrom(name string, r io.Reader) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, ErrorList{tooLarge(name)}
	}
	return src, nil
}

func tooLarge(name string) *Error {
	return &Error{File: name, Msg: fmt.Sprintf("file is larger than %d MiB (%d bytes), the most a domain file may have", MaxFileSize>>20, MaxFileSize)}
}

// Limits that keep a hostile or broken file from exhausting the loader.
// A domain file needs a handful of nesting levels and some kilobytes. The
// YAML parser's time and memory grow with the square of the nesting depth,
// and its memory by some hundreds of bytes per token, so both are checked
// on the parser's own tokens before it builds anything.
const (
	MaxFileSize = 8 << 20
	MaxNesting  = 64
	MaxTokens   = 1 << 19
	MaxErrors   = 100 // errors reported per file; the rest are counted
	// MaxAgents bounds a file's agent kinds: each compiles a profile as
	// large as the domain's actions, so the bound keeps a file's cost
	// linear in its size. Games have a handful.
	MaxAgents = 256
)

// byteOrderMark is the UTF-8 encoding of U+FEFF, which some editors put at
// the start of a file.
const byteOrderMark = "\xef\xbb\xbf"

// Parse parses src as the domain file named path. On failure the error is
// an ErrorList holding every problem found, sorted by position (at most
// MaxErrors of them, the last saying how many more there were).
func Parse(path string, src []byte) (*File, error) {
	text := strings.TrimPrefix(string(src), byteOrderMark)
	// YAML reads a CRLF as one line break, but the scanner counts the one
	// ending a comment as two, so every error below a comment named a line
	// too far down. As one break it is "\n" (line breaks in a scalar read
	// as "\n" either way), and lines and columns are the file's.
	text = strings.ReplaceAll(text, "\r\n", "\n")
	l := &loader{path: path, pos: map[string]Pos{}, lines: strings.Split(text, "\n"), standIn: map[string]bool{}, skip: map[string]bool{}}
	f := &File{Path: path, Source: src, pos: l.pos}
	if len(src) > MaxFileSize {
		l.errs = append(l.errs, tooLarge(path))
		return nil, l.errs
	}
	if !utf8.ValidString(text) {
		// YAML is Unicode text; the parser would quietly turn the bad
		// bytes into U+FFFD, and names would differ from what is written.
		l.errorAt(invalidUTF8(text), "invalid UTF-8: a domain file is UTF-8 text")
		return nil, l.errs
	}
	if n := tokenBound(text); n > MaxTokens {
		l.errorAt(Pos{Line: 1, Col: 1}, "too many YAML tokens (names, values, punctuation): about %d, where a domain file may have %d", n, MaxTokens)
		return nil, l.errs
	}
	tokens, ok := l.tokenize(text)
	if !ok {
		return nil, l.errs
	}
	if ok := l.parse(tokens); ok && l.engine {
		l.buildEngine(f)
	} else if ok {
		f.Spec = l.spec
		f.HTNSpec = l.htn
		l.build(f)
	}
	if len(l.errs) > 0 {
		return nil, capErrors(sortErrors(l.errs))
	}
	return f, nil
}

// capErrors keeps the first MaxErrors errors and says how many were cut.
func capErrors(l ErrorList) ErrorList {
	if len(l) <= MaxErrors {
		return l
	}
	more := len(l) - MaxErrors
	last := l[MaxErrors-1]
	l = l[:MaxErrors:MaxErrors]
	return append(l, &Error{File: last.File, Pos: last.Pos, Msg: fmt.Sprintf("too many errors: %d more not shown", more)})
}
