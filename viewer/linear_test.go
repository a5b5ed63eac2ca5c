package viewer_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/internal/testkit/widefile"
	"github.com/ploy-ai/ploy/viewer"
)

// TestPastedWideSource pastes large generated domains (internal/testkit/widefile)
// into /api/v1/lint and /api/v1/plan. Before the whole-file analyses were
// made linear, the lint took 11 s of CPU (the server's answer: 503, no
// answer within 10 s) and the plan's domain build several seconds; both
// answer now in well under a second of work. Only the answers are checked.
func TestPastedWideSource(t *testing.T) {
	cfg := viewer.Config{}
	if race.Enabled {
		// The race detector makes the linear lint take 5 to 7 s of the
		// default 10 (the quadratic one took 11 s without it, so 60 s
		// still tells them apart); a loaded machine did the rest.
		cfg.Timeout = 60 * time.Second
	}
	s := newServer(t, cfg)
	body := func(src []byte, extra string) string {
		b, err := json.Marshal(string(src))
		if err != nil {
			t.Fatal(err)
		}
		return `{"source": ` + string(b) + extra + `}`
	}

	t.Run("lint", func(t *testing.T) {
		const goals, actions, facts = 1000, 1000, 4000
		status, answer := post(t, s, "/api/v1/lint", body(widefile.GOAP(widefile.Shape{Goals: goals, Actions: actions, Facts: facts}), ""))
		if status != http.StatusOK {
			t.Fatalf("status %d: %.300s", status, answer)
		}
		var lint struct {
			Count    int `json:"count"`
			Warnings []struct {
				Message string `json:"message"`
			} `json:"warnings"`
		}
		if err := json.Unmarshal(answer, &lint); err != nil {
			t.Fatal(err)
		}
		// The chain of actions writes f1 to f1000: every fact after is
		// never written (read by a goal or not used at all), and every
		// goal wanting one is unreachable.
		unreachable := 0
		for j := range goals {
			if (7*j+1)%facts > actions {
				unreachable++
			}
		}
		if want := facts - 1 - actions + unreachable; lint.Count < want {
			t.Errorf("%d warnings, want at least %d: %d facts past the chain, %d goals past it", lint.Count, want, facts-1-actions, unreachable)
		}
		if len(lint.Warnings) == 0 || !strings.Contains(lint.Warnings[0].Message, `fact "f0" is read but no action changes it`) {
			t.Errorf("first warning %+v, want f0's", lint.Warnings[:min(1, len(lint.Warnings))])
		}
	})

	t.Run("plan", func(t *testing.T) {
		src := widefile.GOAP(widefile.Shape{Goals: 3000, Actions: 3000, Facts: 12000})
		status, answer := post(t, s, "/api/v1/plan", body(src, `, "goal": "g1"`))
		if status != http.StatusOK {
			t.Fatalf("status %d: %.300s", status, answer)
		}
		var plan struct {
			Status string   `json:"status"`
			Plan   []string `json:"plan"`
		}
		if err := json.Unmarshal(answer, &plan); err != nil {
			t.Fatal(err)
		}
		// g1 wants f8: the chain's first eight actions.
		if want := []string{"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"}; plan.Status != "found" || !slices.Equal(plan.Plan, want) {
			t.Errorf("status %q, plan %v, want found, %v", plan.Status, plan.Plan, want)
		}
	})
}
