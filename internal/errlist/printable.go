package errlist

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s with every character that is not printable text
// escaped the way strconv.Quote would (a NUL as \x00, an escape sequence's
// ESC as \x1b, invalid UTF-8 as \xff, a bidirectional override as
// \u202e), and the rest untouched.
func Printable(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return printableSlow(s)
		}
	}
	return s
}

func printableSlow(s string) string {
	var sb strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		sb.WriteString(EscapeRune(r, s[:size]))
		s = s[size:]
	}
	return sb.String()
}

// EscapeRune renders the rune r, encoded as raw, printably.
func EscapeRune(r rune, raw string) string {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return fmt.Sprintf(`\x%02x`, raw[0])
	case unicode.IsPrint(r):
		return raw
	}
	q := strconv.QuoteRune(r)
	return q[1 : len(q)-1]
}
