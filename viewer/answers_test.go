package viewer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// fanSource is an HTN whose decomposition is a binary tree of the given
// depth, its 2^depth leaves all the action named leaf.
func fanSource(depth int, leaf string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: fan\nfacts: [f]\nactions:\n  - {name: %s, cost: 1}\n", leaf)
	b.WriteString("goals:\n  - {name: G, conditions: {f: true}}\nhtn:\n  root: T0\n  tasks:\n")
	for i := range depth {
		next := fmt.Sprintf("T%d", i+1)
		if i == depth-1 {
			next = leaf
		}
		fmt.Fprintf(&b, "    - name: T%d\n      methods:\n        - {name: m, subtasks: [%s, %s]}\n", i, next, next)
	}
	return b.String()
}

// counterSource is a binary counter of bits facts whose only plan to All
// is 2^bits - 1 steps, half of them the action named first.
func counterSource(bits int, first string) string {
	var b strings.Builder
	b.WriteString("name: c\nfacts: [b0")
	for i := 1; i < bits; i++ {
		fmt.Fprintf(&b, ", b%d", i)
	}
	b.WriteString("]\nactions:\n")
	all := ""
	for i := range bits {
		name := fmt.Sprintf("inc%d", i)
		if i == 0 {
			name = first
		}
		pre, eff := fmt.Sprintf("b%d: false", i), fmt.Sprintf("b%d: true", i)
		for j := range i {
			pre += fmt.Sprintf(", b%d: true", j)
			eff += fmt.Sprintf(", b%d: false", j)
		}
		fmt.Fprintf(&b, "  - {name: %s, preconditions: {%s}, effects: {%s}, cost: 1}\n", name, pre, eff)
		all += fmt.Sprintf(", b%d: true", i)
	}
	fmt.Fprintf(&b, "goals:\n  - {name: All, conditions: {%s}}\n", all[2:])
	return b.String()
}

// TestExplainDepthSentenceIsBounded: past a depth limit, explain names
// the cheapest plan without it in a sentence of at most 4 KiB of names,
// saying how many steps it leaves out.
func TestExplainDepthSentenceIsBounded(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	long := "a" + strings.Repeat("x", 999)
	out, err := s.explain(context.Background(), sourceBody(t, counterSource(8, long), map[string]any{"goal": "All", "max_depth": 3}))
	var x struct {
		Status string   `json:"status"`
		Why    []string `json:"why"`
	}
	if err != nil || json.Unmarshal(out, &x) != nil || x.Status != "depth_exceeded" || len(x.Why) != 1 {
		t.Fatalf("explain past its depth: %v, %.300s", err, out)
	}
	// 255 steps, 128 of them the long name: 4 of those fit in 4 KiB
	if len(x.Why[0]) > 5000 || !strings.Contains(x.Why[0], "the cheapest plan has 255:") || !strings.Contains(x.Why[0], "more steps left out)") {
		t.Errorf("the depth sentence, %d bytes: %.300s ... %s", len(x.Why[0]), x.Why[0], x.Why[0][max(0, len(x.Why[0])-100):])
	}
}

// TestExplainHTNStopsOnItsContext: explain with htn hands its request's
// context to the decomposition, which stops at once when it is done.
func TestExplainHTNStopsOnItsContext(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	body := sourceBody(t, fanSource(10, "leaf"), map[string]any{"htn": true})
	var x struct {
		Status string `json:"status"`
		Steps  int    `json:"steps"`
		Limit  string `json:"limit"`
	}
	out, err := s.explain(context.Background(), body)
	if err != nil || json.Unmarshal(out, &x) != nil || x.Status != "found" || x.Steps < 1<<10 {
		t.Fatalf("explain with htn: %v, %.300s", err, out)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	out, err = s.explain(done, body)
	x.Limit = ""
	if err != nil || json.Unmarshal(out, &x) != nil {
		t.Fatalf("explain with htn and a canceled context: %v, %.300s", err, out)
	}
	if x.Status == "found" || x.Steps > 1<<10 || !strings.Contains(x.Limit, "stopped") {
		t.Errorf("explain with htn and a canceled context went on: %.300s", out)
	}
}

// TestAnswersPastMaxAnswerAreRefused: a plan, a decomposition and their
// explanations past Config.MaxAnswer are refused with 422, naming the
// field to lower; under it they are answered.
func TestAnswersPastMaxAnswerAreRefused(t *testing.T) {
	leaf := "a" + strings.Repeat("x", 99) // 1 024 leaves of 102 bytes of JSON each
	fan := fanSource(10, leaf)
	counter := counterSource(6, leaf)
	cases := []struct {
		name  string
		call  func(s *Server, body []byte) ([]byte, error)
		body  []byte
		field string
		size  int // the answer's size, about
	}{
		{"htn", func(s *Server, b []byte) ([]byte, error) { return s.htn(context.Background(), b) }, sourceBody(t, fan, nil), "max_steps", 1024 * 103},
		{"explain htn", func(s *Server, b []byte) ([]byte, error) { return s.explain(context.Background(), b) }, sourceBody(t, fan, map[string]any{"htn": true}), "max_steps", 1024 * 103},
		{"decomposition", func(s *Server, b []byte) ([]byte, error) { return s.decomposition(context.Background(), b) }, sourceBody(t, fan, nil), "max_steps", 1024 * 103},
		{"plan", func(s *Server, b []byte) ([]byte, error) { return s.plan(context.Background(), b) }, sourceBody(t, counter, map[string]any{"goal": "All"}), "max_depth", 32 * 103},
		{"explain", func(s *Server, b []byte) ([]byte, error) { return s.explain(context.Background(), b) }, sourceBody(t, counter, map[string]any{"goal": "All"}), "max_depth", 32 * 103},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			small, err := New(Config{MaxAnswer: c.size * 9 / 10})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.call(small, c.body)
			var ae *apiError
			if !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity || ae.Field != c.field || !strings.Contains(ae.Message, "bytes of JSON, the most the server answers") {
				t.Errorf("past MaxAnswer: %v, want a 422 on %s", err, c.field)
			}
			large, err := New(Config{}) // 8 MiB
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.call(large, c.body)
			if err != nil || len(out) < c.size*9/10 {
				t.Errorf("under MaxAnswer: %v, %d bytes", err, len(out))
			}
		})
	}
}
