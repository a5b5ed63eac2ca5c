package viewer_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/viewer"
)

// togglesSource is a domain of n facts each set and cleared freely, and a
// goal no plan reaches (finish needs blocked, which needs locked, which
// nothing sets): a search of it expands all 2^n states unless a limit
// stops it first.
func togglesSource(n int) string {
	var sb strings.Builder
	sb.WriteString("name: toggles\nfacts: [never, blocked, locked")
	for i := range n {
		fmt.Fprintf(&sb, ", f%d", i)
	}
	sb.WriteString("]\nactions:\n")
	sb.WriteString("  - {name: finish, preconditions: {blocked: true}, effects: {never: true}, cost: 1}\n")
	sb.WriteString("  - {name: unblock, preconditions: {locked: true}, effects: {blocked: true}, cost: 1}\n")
	for i := range n {
		fmt.Fprintf(&sb, "  - {name: set%d, preconditions: {f%d: false}, effects: {f%d: true}, cost: 1}\n", i, i, i)
		fmt.Fprintf(&sb, "  - {name: clear%d, preconditions: {f%d: true}, effects: {f%d: false}, cost: 1}\n", i, i, i)
	}
	sb.WriteString("goals: [{name: G, conditions: {never: true}}]\n")
	return sb.String()
}

// TestLiveSearchesHeldToTheTraceBudget: a live run's searches are held to
// DefaultMaxTraceBudget states (docs/api.md), below the server's
// MaxBudget, which bounds plan's. Here a search would exhaust all 65 536
// states within MaxBudget and say no plan; the live run's stops at 10 000
// and says the search limit ended it.
func TestLiveSearchesHeldToTheTraceBudget(t *testing.T) {
	src, _ := json.Marshal(togglesSource(16))
	request := `{"source": ` + string(src) + `, "goal": "G", "fast": true, "max_ticks": 3}`
	for _, c := range []struct {
		maxBudget, want int
	}{{0, viewer.DefaultMaxTraceBudget}, {500, 500}} {
		run, _ := live(t, newServer(t, viewer.Config{MaxBudget: c.maxBudget}), request)
		var end struct{ Expanded, Plans int }
		for _, raw := range run.Raw {
			if data, ok := strings.CutPrefix(string(raw), "event: end\ndata: "); ok {
				if err := json.Unmarshal([]byte(data), &end); err != nil {
					t.Fatal(err)
				}
			}
		}
		reason := ""
		for _, e := range eventsOf(run, "no_plan") {
			reason = e.Reason
		}
		if end.Plans != 1 || end.Expanded != c.want || reason != "search limit" {
			t.Errorf("MaxBudget %d: %d searches expanded %d states, the last ended by %q; want one of %d, ended by the search limit",
				c.maxBudget, end.Plans, end.Expanded, reason, c.want)
		}
	}
}
