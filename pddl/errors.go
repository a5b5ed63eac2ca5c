package pddl

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/ploy-ai/ploy/internal/errlist"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// Limits on what the parser accepts and reports, so that a hostile or
// broken file costs bounded time, memory and screen space.
const (
	// MaxSize is the largest input, in bytes: the largest competition
	// files are a few hundred KiB.
	MaxSize = 16 << 20
	// MaxTokens is the most names, numbers and parentheses a file may
	// hold: the syntax tree takes about 100 bytes a token, so this bounds
	// it near 100 MiB where MaxSize alone would allow 800 (a file of
	// one-letter names). Competition files hold far fewer.
	MaxTokens = 1 << 20
	// MaxDepth is the deepest parenthesis nesting: real files need fewer
	// than ten levels, and the formula walkers recurse once per level.
	MaxDepth = 256
	// MaxErrors is how many errors one file reports; a last one counts
	// the rest.
	MaxErrors = 20
)

// Pos is a position in a file, both 1-based, the column in runes. A zero
// Pos means the whole file.
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is one problem with a PDDL file, at a position.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error renders e as FILE:LINE:COL: message. Every piece of the input in
// a message is quoted with %q, and whatever is not printable text in the
// file name or the message escaped (as the domain package's errors do), so
// that a hostile file cannot drive the terminal it is reported on.
func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", errlist.Printable(e.File), errlist.Printable(e.Msg))
	}
	return fmt.Sprintf("%s:%d:%d: %s", errlist.Printable(e.File), e.Pos.Line, e.Pos.Col, errlist.Printable(e.Msg))
}

// ErrorList is the errors found in a file, sorted by position, at most
// MaxErrors of them and a last one saying how many more there were.
type ErrorList = errlist.List[*Error]

// errors collects a file's errors. It holds at most a few times
// MaxErrors: past that it keeps the first MaxErrors by position, which are
// the ones shown, and counts the rest, so that a file of a million errors
// costs no more memory than a file of twenty.
type errors struct {
	file    string
	list    ErrorList
	dropped int
	// cutoff is set once MaxErrors errors are kept: an error after it
	// will not be shown, so it is counted without being formatted.
	cutoff *Pos
}

func (e *errors) add(pos Pos, format string, args ...any) {
	if e.cutoff != nil && after(pos, *e.cutoff) {
		e.dropped++
		return
	}
	e.list = append(e.list, &Error{File: e.file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
	if len(e.list) >= 4*MaxErrors {
		if e.list = sortErrors(e.list); len(e.list) >= MaxErrors {
			e.dropped += len(e.list) - MaxErrors
			e.list = e.list[:MaxErrors:MaxErrors]
			last := e.list[MaxErrors-1].Pos
			e.cutoff = &last
		}
	}
}

func after(a, b Pos) bool {
	return a.Line > b.Line || (a.Line == b.Line && a.Col > b.Col)
}

// sortErrors orders l by position and drops exact duplicates.
func sortErrors(l ErrorList) ErrorList {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return slices.CompactFunc(l, func(a, b *Error) bool { return *a == *b })
}

// failed says whether any error was found.
func (e *errors) failed() bool { return len(e.list) > 0 }

// err returns the collected errors, sorted and capped, or nil.
func (e *errors) err() error {
	if !e.failed() {
		return nil
	}
	l := sortErrors(slices.Clone(e.list))
	more := e.dropped
	if len(l) > MaxErrors {
		more += len(l) - MaxErrors
		l = l[:MaxErrors:MaxErrors]
	}
	if more > 0 {
		// The count is at the last error shown: the first one not shown
		// may have been dropped already.
		l = append(l, &Error{File: e.file, Pos: l[len(l)-1].Pos,
			Msg: fmt.Sprintf("too many errors (%d more not shown)", more)})
	}
	return l
}

// didYouMean is a hint naming the candidate closest to name, or "".
func didYouMean(name string, candidates []string) string {
	if c := suggest.Closest(name, candidates); c != "" {
		return fmt.Sprintf(" (did you mean %q?)", c)
	}
	return ""
}

// quote quotes a piece of the input for a message, cut to a readable
// length.
func quote(s string) string {
	const max = 60
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "..."
	}
	return strconv.Quote(s)
}

// quoteRune quotes the first character of s.
func quoteRune(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("'\\x%02x'", s[0])
	}
	return strconv.QuoteRune(r)
}

// hint is didYouMean while few errors are reported: past MaxErrors, the
// hints of a broken file would cost a search of the candidates each, for
// errors that are mostly not shown.
func (e *errors) hint(name string, candidates func() []string) string {
	if len(e.list)+e.dropped >= MaxErrors {
		return ""
	}
	return didYouMean(name, candidates())
}
