package pddl

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
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

	// kind groups errors for the count of those not shown: the
	// construct refused, or the message's wording without its pieces of
	// the input.
	kind string
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
	file     string
	list     ErrorList
	dropped  map[string]int    // errors not kept, by kind
	ndropped int               // their number
	kinds    map[string]string // message format -> its kind
	// cutoff is set once MaxErrors errors are kept: an error after it
	// will not be shown, so it is counted without being formatted.
	cutoff *Pos
	// reported counts every error recorded, kept or not, so that a
	// check can tell whether a part of the file had any.
	reported int
}

// add records an error whose kind is its message's wording.
func (e *errors) add(pos Pos, format string, args ...any) {
	e.addKind("", pos, format, args...)
}

// addKind records an error of a kind, "" for its message's wording.
func (e *errors) addKind(kind string, pos Pos, format string, args ...any) {
	e.reported++
	if kind == "" {
		// Formats are the parser's constants: a file of a million errors
		// has a few dozen, each worded once.
		if kind = e.kinds[format]; kind == "" {
			if e.kinds == nil {
				e.kinds = map[string]string{}
			}
			kind = kindOf(format)
			e.kinds[format] = kind
		}
	}
	if e.cutoff != nil && after(pos, *e.cutoff) {
		e.drop(kind)
		return
	}
	e.list = append(e.list, &Error{File: e.file, Pos: pos, Msg: fmt.Sprintf(format, args...), kind: kind})
	if len(e.list) >= 4*MaxErrors {
		if e.list = sortErrors(e.list); len(e.list) >= MaxErrors {
			for _, d := range e.list[MaxErrors:] {
				e.drop(d.kind)
			}
			e.list = e.list[:MaxErrors:MaxErrors]
			last := e.list[MaxErrors-1].Pos
			e.cutoff = &last
		}
	}
}

// drop counts an error that will not be shown. The kinds are the
// parser's message templates and constructs, a bounded set, so the map
// stays small whatever the file.
func (e *errors) drop(kind string) {
	if e.dropped == nil {
		e.dropped = map[string]int{}
	}
	e.dropped[kind]++
	e.ndropped++
}

// kindOf is a message template with its verbs (the pieces of the input)
// shown as "…", cut before a parenthesised explanation: "undefined
// predicate %q%s" is the kind "undefined predicate …".
func kindOf(format string) string {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		switch c := format[i]; {
		case c == '%' && i+1 < len(format):
			i++
			if !strings.HasSuffix(sb.String(), "…") {
				sb.WriteString("…")
			}
		case c == '(' && i > 0 && format[i-1] == ' ':
			return strings.TrimSpace(sb.String())
		default:
			sb.WriteByte(c)
		}
	}
	return strings.TrimSpace(sb.String())
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
	more := maps.Clone(e.dropped)
	if len(l) > MaxErrors {
		if more == nil {
			more = map[string]int{}
		}
		for _, d := range l[MaxErrors:] {
			more[d.kind]++
		}
		l = l[:MaxErrors:MaxErrors]
	}
	if len(more) > 0 {
		// The count is at the last error shown: the first one not shown
		// may have been dropped already.
		l = append(l, &Error{File: e.file, Pos: l[len(l)-1].Pos, Msg: tooMany(more)})
	}
	return l
}

// maxKindsShown is how many kinds the count of errors not shown names.
const maxKindsShown = 4

// tooMany says how many errors were not shown, and of which kinds, the
// most frequent first: "too many errors (37 more not shown: 30
// unsupported "forall", 5 undefined predicate …, 2 of 2 other kinds)".
func tooMany(byKind map[string]int) string {
	kinds := slices.Collect(maps.Keys(byKind))
	slices.SortFunc(kinds, func(a, b string) int {
		if c := cmp.Compare(byKind[b], byKind[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	total := 0
	for _, k := range kinds {
		total += byKind[k]
	}
	var parts []string
	for i, k := range kinds {
		if i == maxKindsShown {
			rest := 0
			for _, k := range kinds[i:] {
				rest += byKind[k]
			}
			parts = append(parts, fmt.Sprintf("%d of %s", rest, count(len(kinds)-i, "other kind")))
			break
		}
		parts = append(parts, fmt.Sprintf("%d %s", byKind[k], k))
	}
	return fmt.Sprintf("too many errors (%d more not shown: %s)", total, strings.Join(parts, ", "))
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
	if len(e.list)+e.ndropped >= MaxErrors {
		return ""
	}
	return didYouMean(name, candidates())
}
