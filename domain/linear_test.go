package domain_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/internal/testkit/widefile"
)

// TestLintSharesSearchWork: on a wide domain every expansion reads all the
// actions' preconditions, so lint's searches share domain.LintSearchWork as
// they share states. Here about 150 goals are reachable along a chain of
// 1 000 actions over 2 048 facts (a step each, goal j (7j+1) mod 2048
// steps away): some 70 000 expansions of 32 000 units each to search them
// all, eight times the shared work. The first goals are found; the last are not searched,
// and say why. Each search had the default work limit of its own before
// (2^28 units, a second or so each).
func TestLintSharesSearchWork(t *testing.T) {
	src := widefile.GOAP(widefile.Shape{Goals: 300, Actions: 1000, Facts: 2048})
	f, err := domain.Parse("wide.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	byGoal := map[string]string{}
	for _, w := range domain.Lint(f) {
		if name, ok := strings.CutPrefix(w.Msg, `warning: goal "`); ok {
			name = name[:strings.IndexByte(name, '"')]
			byGoal[name] = w.Msg
		}
	}
	for _, g := range []string{"g0", "g1", "g2"} { // 1, 8 and 15 steps
		if msg, ok := byGoal[g]; ok {
			t.Errorf("goal %s is a few steps away, but: %s", g, msg)
		}
	}
	notSearched, last := 0, ""
	for j := range 300 {
		msg := byGoal[fmt.Sprintf("g%d", j)]
		reachable := (7*j+1)%2048 <= 1000
		if reachable {
			last = fmt.Sprintf("g%d", j)
		}
		switch {
		case !reachable && !strings.Contains(msg, "is unreachable from the initial state"):
			t.Errorf("g%d is past the chain's end, but: %q", j, msg)
		case reachable && strings.Contains(msg, "lint's search work"):
			notSearched++
		}
	}
	if notSearched == 0 || !strings.Contains(byGoal[last], fmt.Sprintf("not searched; lint's search work (%d units) went to the goals above it", domain.LintSearchWork)) {
		t.Errorf("%d goals not searched for want of work; the last reachable, %s: %q", notSearched, last, byGoal[last])
	}
}
