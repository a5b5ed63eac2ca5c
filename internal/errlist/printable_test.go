package errlist

import "testing"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é and 漢": "plain text, é and 漢",
		"nul\x00":             `nul\x00`,
		"\x1b[31mred":         `\x1b[31mred`,
		"bad \xff byte":       `bad \xff byte`,
		"over\u202eride":      `over\u202eride`,
		"tab\tand newline\n":  `tab\tand newline\n`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}
