package domain

import (
	"fmt"
	"slices"
	"strings"

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

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
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

// Format renders err for a person: each error on its line, followed by the
// offending source line and a caret under the column (when src is given). Errors that are not
// *Error or ErrorList are rendered as they are.
func Format(err error, src []byte) string {
	var list ErrorList
	switch e := err.(type) {
	case ErrorList:
		list = e
	case *Error:
		list = ErrorList{e}
	default:
		return err.Error()
	}
	lines := strings.Split(string(src), "\n")
	var sb strings.Builder
	for _, e := range list {
		sb.WriteString(e.Error())
		sb.WriteByte('\n')
		if src == nil || e.Pos.Line < 1 || e.Pos.Line > len(lines) {
			continue
		}
		line := strings.TrimRight(lines[e.Pos.Line-1], "\r")
		gutter := fmt.Sprintf("%5d | ", e.Pos.Line)
		sb.WriteString(gutter)
		sb.WriteString(line)
		sb.WriteByte('\n')
		col := min(max(e.Pos.Col, 1), len(line)+1)
		pad := []byte(strings.Repeat(" ", col-1))
		for i := 0; i < col-1 && i < len(line); i++ {
			if line[i] == '\t' {
				pad[i] = '\t' // keep tabs so the caret lines up
			}
		}
		sb.WriteString(strings.Repeat(" ", len(gutter)-2))
		sb.WriteString("| ")
		sb.Write(pad)
		sb.WriteString("^\n")
	}
	return sb.String()
}
