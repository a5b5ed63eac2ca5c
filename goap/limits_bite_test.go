package goap_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
)

// chainSpec is a line of n actions over n+1 facts: step_i moves the token
// from s_i to s_{i+1}, so every state but the last has exactly one
// successor. Its goal, "never", nothing achieves.
func chainSpec(n int) goap.Spec {
	s := goap.Spec{Name: "chain"}
	for i := 0; i <= n; i++ {
		s.Facts = append(s.Facts, fmt.Sprintf("s%d", i))
	}
	s.Facts = append(s.Facts, "never")
	for i := 0; i < n; i++ {
		from, to := fmt.Sprintf("s%d", i), fmt.Sprintf("s%d", i+1)
		s.Actions = append(s.Actions, goap.ActionSpec{Name: "step_" + from,
			Preconditions: map[string]bool{from: true}, Effects: map[string]bool{from: false, to: true}, Cost: goap.Const(1)})
	}
	s.Goals = []goap.GoalSpec{{Name: "Never", Conditions: map[string]bool{"never": true}}}
	return s
}

// TestWorkLimitIsExact: the work limit is checked before each expansion
// against its worst case (Options), in the units Options.MaxWork
// documents. On a one-word state with n actions, an expansion tests n
// actions (n units) and each successor costs 2 (its word and its node);
// the worst expansion makes n successors, 3n units. The chain makes one
// successor per expansion, n+2 units, so under MaxWork = M the search
// expands exactly the most states E with (E-1)(n+2) + 3n <= M: one fewer
// or one more is an off-by-one in the meter.
func TestWorkLimitIsExact(t *testing.T) {
	const n = 30
	d := mustDomain(t, chainSpec(n))
	start := fixture.StateWith(t, d, "s0")
	p := goap.NewPlanner(d)
	for m := 1; m <= 20*(n+2); m++ {
		want := 0
		if m >= 3*n {
			want = (m-3*n)/(n+2) + 1
		}
		res, err := p.Plan(nil, start, d.Goal("Never"), goap.Options{Heuristic: goap.Blind, Budget: math.MaxInt, MaxWork: m})
		var se *goap.SearchError
		if !errors.As(err, &se) || se.Bound != goap.BoundWork || res.Bound != goap.BoundWork {
			t.Fatalf("MaxWork %d: %+v, %v; want the work limit reached", m, res, err)
		}
		if res.Expanded != want || res.Generated != want {
			t.Fatalf("MaxWork %d: %d expanded, %d generated; want exactly %d of each", m, res.Expanded, res.Generated, want)
		}
		if used := res.Expanded * (n + 2); used > m {
			t.Fatalf("MaxWork %d: %d units spent", m, used)
		}
	}
}
