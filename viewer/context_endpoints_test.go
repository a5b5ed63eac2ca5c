package viewer

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestEveryEndpointPassesItsContextOn: each endpoint that searches,
// decomposes, resolves or fights, given a context already canceled,
// answers that its work was stopped before it began; with a live context
// the same request does its work (so the request is one that works, and
// the stop is the context's). An endpoint that drops its context on the
// way to the planner answers as if nothing stopped it, and fails here.
// A context canceled before the call, not during it: the answer is then
// the same on every machine, however loaded.
func TestEveryEndpointPassesItsContextOn(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	// answer is the fields the endpoints' answers share, as far as this
	// test looks at them.
	type answer struct {
		Status     string            `json:"status"`
		Bound      string            `json:"bound"`
		Steps      *int              `json:"steps"`
		Expanded   *int              `json:"expanded"`
		Expansions []json.RawMessage `json:"expansions"`
		Limit      string            `json:"limit"`
	}
	for _, c := range []struct {
		name     string
		endpoint func(context.Context, []byte) ([]byte, error)
		body     string
		// worked and stopped check the answer with a live context and
		// with a canceled one.
		worked, stopped func(a answer) bool
	}{
		{"trace, GOAP", s.trace, `{"domain": "soldier", "goal": "KillPlayer"}`,
			func(a answer) bool { return a.Status == "found" && len(a.Expansions) > 0 },
			func(a answer) bool {
				return a.Status == "budget_exhausted" && a.Expansions != nil && len(a.Expansions) == 0
			}},
		{"trace, HTN", s.trace, `{"domain": "battlemage", "htn": true}`,
			func(a answer) bool { return a.Status == "found" && a.Steps != nil && *a.Steps > 0 },
			func(a answer) bool { return a.Status == "canceled" && a.Steps != nil && *a.Steps == 0 }},
		{"htn", s.htn, `{"domain": "battlemage"}`,
			func(a answer) bool { return a.Status == "found" && a.Steps != nil && *a.Steps > 0 },
			func(a answer) bool {
				return a.Status == "canceled" && a.Steps != nil && *a.Steps == 0 && strings.Contains(a.Limit, "context canceled")
			}},
		{"decomposition", s.decomposition, `{"domain": "battlemage"}`,
			func(a answer) bool { return a.Status == "found" && a.Steps != nil && *a.Steps > 0 },
			func(a answer) bool {
				return a.Status == "canceled" && a.Steps != nil && *a.Steps == 0 && strings.Contains(a.Limit, "context canceled")
			}},
		{"trace, engine model", s.trace, `{"domain": "survivor", "goal": "Warm"}`,
			func(a answer) bool { return a.Status == "found" && a.Expanded != nil && *a.Expanded > 0 },
			func(a answer) bool { return a.Status == "canceled" && a.Expanded != nil && *a.Expanded == 0 }},
		{"resolve", s.resolve, `{"domain": "survivor", "goal": "Warm"}`,
			func(a answer) bool { return a.Status == "found" && a.Expanded != nil && *a.Expanded > 0 },
			func(a answer) bool { return a.Status == "canceled" && a.Expanded != nil && *a.Expanded == 0 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, stop := range []bool{false, true} {
				ctx, want := context.Background(), c.worked
				if stop {
					ctx, want = canceled, c.stopped
				}
				body, err := c.endpoint(ctx, []byte(c.body))
				if err != nil {
					t.Fatalf("canceled=%v: %v", stop, err)
				}
				var a answer
				if err := json.Unmarshal(body, &a); err != nil {
					t.Fatalf("canceled=%v: %v in %.300s", stop, err, body)
				}
				if !want(a) {
					t.Errorf("canceled=%v: the answer %.400s", stop, body)
				}
			}
		})
	}

	// The arena answers a batch it could not finish with an error, not
	// with rows: a fight stopped halfway is no result.
	t.Run("arena", func(t *testing.T) {
		if _, err := s.arena(context.Background(), []byte(`{"fights": 2}`)); err != nil {
			t.Fatalf("a live context: %v", err)
		}
		body, err := s.arena(canceled, []byte(`{"fights": 2}`))
		if err == nil || !strings.Contains(err.Error(), "canceled") {
			t.Errorf("a canceled context: %v, %.300s; want an error saying the batch was canceled", err, body)
		}
	})
}
