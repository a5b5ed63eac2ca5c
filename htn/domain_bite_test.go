package htn_test

import (
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// TestOneErrorAlone: a domain with a single error is refused with that
// error alone, before the analyses that need a well-formed domain run
// (a mutant that lived let one error through to them).
func TestOneErrorAlone(t *testing.T) {
	g, _ := goap.NewDomain(domains.BattleMage())
	for _, c := range []struct {
		spec htn.Spec
		want string
	}{
		{htn.Spec{Root: "Nope", Tasks: []htn.TaskSpec{{Name: "Fight", Methods: []htn.MethodSpec{{Name: "m", Subtasks: []string{"Approach"}}}}}},
			`htn: htn.root: root "Nope" is not a compound task`},
		{htn.Spec{Root: "Fight", Tasks: []htn.TaskSpec{{Name: "Fight", Methods: []htn.MethodSpec{{Name: "m", Subtasks: []string{"Loop"}}}}}},
			`htn: htn.tasks[0].methods[0].subtasks[0]: subtask "Loop" names no task or action`},
	} {
		d, err := htn.NewDomain(g, c.spec)
		if d != nil || err == nil || err.Error() != c.want {
			t.Errorf("got %v, %v; want %s", d, err, c.want)
		}
	}
}
