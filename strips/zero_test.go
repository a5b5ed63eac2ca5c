package strips_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/strips"
)

// recovered runs f and returns what it panicked with, as text.
func recovered(f func()) (r string) {
	defer func() { r = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}

// A nil or zero Searcher says what to call instead of dereferencing nil,
// whatever the heuristic (the portfolio takes another way in).
func TestZeroSearcherSaysWhatToCall(t *testing.T) {
	const want = "strips: Searcher not made by NewSearcher: a nil or zero Searcher has no task; call strips.NewSearcher(task)"
	var zero strips.Searcher
	var none *strips.Searcher
	for name, call := range map[string]func(){
		"zero Search":            func() { zero.Search(strips.Options{}) },
		"zero Search, portfolio": func() { zero.Search(strips.Options{Heuristic: strips.Portfolio}) },
		"zero Search, blind":     func() { zero.Search(strips.Options{Heuristic: strips.Blind}) },
		"nil Search":             func() { none.Search(strips.Options{}) },
	} {
		if r := recovered(call); r != want {
			t.Errorf("%s: recovered %s, want %q", name, r, want)
		}
	}
}
