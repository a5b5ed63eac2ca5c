package domain

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ploy-ai/ploy/internal/errlist"
)

// Pos is a position in a domain file, both 1-based. A zero Pos means the
// whole file.
type Pos struct {
	Line, Col int
}

// Error is one problem with a domain file, at a position.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error renders e as FILE:LINE:COL: message, with whatever in the file
// name or the message is not printable escaped, so that a hostile file
// cannot drive the terminal it is reported on.
func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", Printable(e.File), Printable(e.Msg))
	}
	return fmt.Sprintf("%s:%d:%d: %s", Printable(e.File), e.Pos.Line, e.Pos.Col, Printable(e.Msg))
}

// ErrorList is every problem found in a file, sorted by position.
type ErrorList = errlist.List[*Error]

// sort orders the list by file and position, dropping exact duplicates.
func sortErrors(l ErrorList) ErrorList {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return slices.CompactFunc(l, func(a, b *Error) bool { return *a == *b })
}

// Limits on what Format prints, so that the report on a hostile file stays
// readable and small: MaxShown entries (errors or warnings; the rest are
// counted), each message cut at MaxMessage runes and each echoed line at
// MaxEcho columns, a window around the caret.
const (
	MaxShown   = MaxErrors + 1 // as many as Parse keeps, with its note
	MaxMessage = 400
	MaxEcho    = 200
)

// Printable returns s with every character that is not printable text
// escaped the way strconv.Quote would (a NUL as \x00, an escape sequence's
// ESC as \x1b, invalid UTF-8 as \xff, a bidirectional override as
// \u202e), and the rest untouched.
func Printable(s string) string { return errlist.Printable(s) }

// cut returns s cut to max runes, with an ellipsis if it was longer.
func cut(s string, max int) string {
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// Format renders err for a person: each error on its line, followed by the
// offending source line and a caret under the column (when src is given).
// It shows at most MaxShown errors, then says how many more there are;
// messages and echoed lines are cut (see MaxMessage and MaxEcho) and
// escaped (see Printable). Errors that are not *Error or ErrorList are
// rendered as they are, escaped and cut.
func Format(err error, src []byte) string {
	var list ErrorList
	switch e := err.(type) {
	case ErrorList:
		list = e
	case *Error:
		list = ErrorList{e}
	default:
		return cut(Printable(err.Error()), MaxMessage)
	}
	text := strings.TrimPrefix(string(src), byteOrderMark)
	var sb strings.Builder
	for i, e := range list {
		if i == MaxShown {
			fmt.Fprintf(&sb, "... and %d more not shown\n", len(list)-MaxShown)
			break
		}
		shown := *e
		shown.Msg = cut(e.Msg, MaxMessage)
		sb.WriteString(cut(shown.Error(), MaxMessage+len(e.File)+32))
		sb.WriteByte('\n')
		if src == nil || e.Pos.Line < 1 {
			continue
		}
		line, ok := nthLine(text, e.Pos.Line)
		if !ok {
			continue
		}
		echo, caret := window(strings.TrimRight(line, "\r"), e.Pos.Col)
		gutter := fmt.Sprintf("%5d | ", e.Pos.Line)
		sb.WriteString(gutter)
		sb.WriteString(echo)
		sb.WriteByte('\n')
		sb.WriteString(strings.Repeat(" ", len(gutter)-2))
		sb.WriteString("| ")
		sb.WriteString(caret)
		sb.WriteString("^\n")
	}
	return sb.String()
}

// nthLine returns the nth line of text (1-based), without splitting the
// whole text: a report on a file of long lines costs the lines it shows.
func nthLine(text string, n int) (string, bool) {
	for ; n > 1; n-- {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return "", false
		}
		text = text[i+1:]
	}
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	return text, true
}

// window renders line printably, cut to at most MaxEcho characters around
// column col (1-based, in characters) with an ellipsis at each cut end, and
// returns it with the padding that puts a caret under col. Tabs are kept
// in the padding so that the caret lines up under them.
func window(line string, col int) (echo, pad string) {
	col = min(max(col, 1), utf8.RuneCountInString(line)+1)
	// Only the characters within MaxEcho of the caret can be shown: skip
	// those before without decoding them into cells, stop after.
	skipped, i := 0, 0
	for ; skipped < col-1-MaxEcho; skipped++ {
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
	}
	caret := col - 1 - skipped
	type cell struct {
		text string
		tab  bool
	}
	var cells []cell
	for len(cells) < caret+MaxEcho && i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		text := errlist.EscapeRune(r, line[i:i+size])
		if r == '\t' {
			text = "\t" // echoed as it is, so that the caret's padding can copy it
		}
		cells = append(cells, cell{text, r == '\t'})
		i += size
	}
	lo := max(0, caret-MaxEcho/2)
	hi := min(len(cells), lo+MaxEcho)
	lo = max(0, hi-MaxEcho)
	var e, p strings.Builder
	if lo > 0 || skipped > 0 {
		e.WriteString("…")
		p.WriteByte(' ')
	}
	for j := lo; j < hi; j++ {
		e.WriteString(cells[j].text)
		if j < caret {
			if cells[j].tab {
				p.WriteByte('\t')
			} else {
				p.WriteString(strings.Repeat(" ", utf8.RuneCountInString(cells[j].text)))
			}
		}
	}
	if hi < len(cells) || i < len(line) {
		e.WriteString("…")
	}
	return e.String(), p.String()
}
