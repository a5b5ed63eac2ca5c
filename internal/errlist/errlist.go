// Package errlist is the list of errors that ploy's validators return: all
// of a spec's problems at once, one per line, each findable with errors.As.
package errlist

import "strings"

// List is a list of errors of one type.
type List[E error] []E

func (l List[E]) Error() string {
	var sb strings.Builder
	for i, e := range l {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(e.Error())
	}
	return sb.String()
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (l List[E]) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}
