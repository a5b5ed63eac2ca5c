package htn_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/htn"
)

// recovered runs f and returns what it panicked with, as text.
func recovered(f func()) (r string) {
	defer func() { r = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}

// A nil or zero Planner says what to call instead of dereferencing nil.
func TestZeroPlannerSaysWhatToCall(t *testing.T) {
	g := oneAction(t)
	const want = "htn: Planner not made by NewPlanner: a nil or zero Planner has no domain; call htn.NewPlanner(domain)"
	var zero htn.Planner
	var none *htn.Planner
	var res htn.Result
	for name, call := range map[string]func(){
		"zero Plan":      func() { zero.Plan(&res, g.Initial(), htn.Options{}) },
		"nil Plan":       func() { none.Plan(&res, g.Initial(), htn.Options{}) },
		"zero Interrupt": func() { zero.Interrupt(&res, nil, g.Initial(), htn.Options{}) },
		"zero Domain":    func() { zero.Domain() },
		"nil Domain":     func() { none.Domain() },
	} {
		if r := recovered(call); r != want {
			t.Errorf("%s: recovered %s, want %q", name, r, want)
		}
	}
}
