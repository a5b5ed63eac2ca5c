package viewer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/goap"
)

// ruleListSource is a pasted domain whose searches are dear: toggles
// facts each set and cleared by an action whose cost is a rule list of
// rules rules (none of which ever holds, so that each is tested), a goal
// Never that nothing reaches, and agents agents of options goal options
// each over their own goals.
func ruleListSource(toggles, rules, agents, options int) string {
	var b strings.Builder
	b.WriteString("name: heavy\nfacts: [n")
	for i := range toggles {
		fmt.Fprintf(&b, ", t%d", i)
	}
	b.WriteString("]\nactions:\n")
	cost := "["
	for r := range rules {
		cost += fmt.Sprintf("{when: {n: true}, cost: %d}, ", 1+r%5)
	}
	cost += "{cost: 3}]"
	for i := range toggles {
		fmt.Fprintf(&b, "  - {name: set%d, preconditions: {t%d: false}, effects: {t%d: true}, cost: %s}\n", i, i, i, cost)
		fmt.Fprintf(&b, "  - {name: clear%d, preconditions: {t%d: true}, effects: {t%d: false}, cost: %s}\n", i, i, i, cost)
	}
	b.WriteString("goals:\n  - {name: Never, conditions: {n: true}}\n")
	if agents > 0 {
		b.WriteString("agents:\n")
	}
	for a := range agents {
		fmt.Fprintf(&b, "  - name: a%d\n    goals:\n", a)
		for o := range options {
			fmt.Fprintf(&b, "      - {goal: G%d, conditions: {n: true, t%d: true}, priority: %d}\n", o, o%toggles, o+1)
		}
	}
	return b.String()
}

func sourceBody(t testing.TB, src string, fields map[string]any) []byte {
	t.Helper()
	req := map[string]any{"source": src}
	for k, v := range fields {
		req[k] = v
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEndpointsStopOnTheirContext: each endpoint that runs a planner hands
// its context to it: called with a context already done, its searches
// stop before their first expansion, with the bound saying why, where
// without one they run to their work limit.
func TestEndpointsStopOnTheirContext(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	src := ruleListSource(20, 50, 2, 3)
	done, cancel := context.WithCancel(context.Background())
	cancel()

	body, err := s.plan(done, sourceBody(t, src, map[string]any{"goal": "Never", "heuristic": "goal-count"}))
	if err != nil {
		t.Fatal(err)
	}
	var plan struct {
		Status   string `json:"status"`
		Expanded int    `json:"expanded"`
		Bound    string `json:"bound"`
	}
	if err := json.Unmarshal(body, &plan); err != nil || plan.Status != "budget_exhausted" || plan.Bound != "canceled" || plan.Expanded != 0 {
		t.Errorf("plan with a canceled context: %s", body)
	}

	body, err = s.personalities(done, sourceBody(t, src, map[string]any{"heuristic": "goal-count"}))
	if err != nil {
		t.Fatal(err)
	}
	var pa personalitiesAnswer
	if err := json.Unmarshal(body, &pa); err != nil || len(pa.Personalities) != 2 {
		t.Fatalf("personalities: %v, %s", err, body)
	}
	for _, p := range pa.Personalities {
		for _, g := range p.Goals {
			if g.Plan.Bound != "canceled" || g.Plan.Expanded != 0 {
				t.Errorf("personalities with a canceled context: %s's %s: %+v", p.Name, g.Goal, g.Plan)
			}
		}
	}

	deadline, dcancel := context.WithTimeout(context.Background(), -time.Second)
	defer dcancel()
	body, err = s.explain(deadline, sourceBody(t, src, map[string]any{"goal": "Never", "heuristic": "goal-count"}))
	if err != nil {
		t.Fatal(err)
	}
	// Explain's answer names no bound; nobody reads a stopped request's
	// answer, but its search must not have run.
	if !strings.Contains(string(body), `"status":"budget_exhausted"`) || !strings.Contains(string(body), "after 0 states") {
		t.Errorf("explain past its deadline: %.300s", body)
	}
}

// TestTimeoutStopsTheWork: a request whose search would run for a good
// while gets 503 at the timeout, and its search then stops, freeing the
// slot: the work's context is done when nobody waits for it.
func TestTimeoutStopsTheWork(t *testing.T) {
	s, err := New(Config{MaxConcurrent: 1, Timeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	stuck := work(func(_ *Server, ctx context.Context, _ []byte) ([]byte, error) {
		<-ctx.Done() // as a search does, at its next look
		stopped <- ctx.Err()
		return []byte("{}\n"), nil
	})
	if w := do(s, stuck, `{}`); w.Code != http.StatusServiceUnavailable {
		t.Fatalf("stuck work: %d %s, want 503", w.Code, w.Body)
	}
	select {
	case err := <-stopped:
		if err == nil {
			t.Errorf("the work's context ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the work's context was not done after the timeout's 503")
	}
	for deadline := time.Now().Add(5 * time.Second); len(s.slots) != 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if len(s.slots) != 0 {
		t.Error("the slot was not given back when the work stopped")
	}
}

// TestPersonalitiesShareOneWorkBudget: 16 goal options over rule-list
// costs, each of whose searches alone could do a plan's whole work,
// together do no more than one plan's: the successors they generate,
// each costing a unit per rule (and two for the state and its node),
// stay within maxPersonalitiesWork.
func TestPersonalitiesShareOneWorkBudget(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	const rules = 40
	body, err := s.personalities(context.Background(), sourceBody(t, ruleListSource(20, rules, 2, 8), map[string]any{"heuristic": "goal-count"}))
	if err != nil {
		t.Fatal(err)
	}
	var pa personalitiesAnswer
	if err := json.Unmarshal(body, &pa); err != nil {
		t.Fatal(err)
	}
	generated, options := 0, 0
	for _, p := range pa.Personalities {
		for _, g := range p.Goals {
			options++
			generated += g.Plan.Generated
			if g.Plan.Status != "budget_exhausted" || g.Plan.Bound != "work" || g.Plan.Expanded == 0 {
				t.Errorf("%s's %s: %+v; want its share of the work spent, after some expansions", p.Name, g.Goal, g.Plan)
			}
		}
	}
	if options != 16 {
		t.Fatalf("%d options answered, want 16", options)
	}
	if generated*(rules+2) > maxPersonalitiesWork {
		t.Errorf("%d successors generated, %d units of work at least: more than the request's %d", generated, generated*(rules+2), maxPersonalitiesWork)
	}
	if maxPersonalitiesWork != goap.DefaultMaxWork {
		t.Errorf("maxPersonalitiesWork is %d; docs/api.md says one plan's, %d", maxPersonalitiesWork, goap.DefaultMaxWork)
	}
}

// trapSource is toggles toggles whose every action, of a rule-list cost
// of rules rules, also sets lock; and setx, which needs lock false, sets
// x, the goal X's fact. The plan is setx; each alternative first step
// (any toggle) makes X unreachable, which only a search of the whole
// space (or its limits) tells.
func trapSource(toggles, rules int) string {
	var b strings.Builder
	b.WriteString("name: trap\nfacts: [n, x, lock")
	for i := range toggles {
		fmt.Fprintf(&b, ", t%d", i)
	}
	b.WriteString("]\nactions:\n")
	cost := "["
	for r := range rules {
		cost += fmt.Sprintf("{when: {n: true}, cost: %d}, ", 1+r%5)
	}
	cost += "{cost: 3}]"
	for i := range toggles {
		fmt.Fprintf(&b, "  - {name: set%d, preconditions: {t%d: false}, effects: {t%d: true, lock: true}, cost: %s}\n", i, i, i, cost)
		fmt.Fprintf(&b, "  - {name: clear%d, preconditions: {t%d: true}, effects: {t%d: false, lock: true}, cost: %s}\n", i, i, i, cost)
	}
	b.WriteString("  - {name: setx, preconditions: {lock: false}, effects: {x: true}, cost: 1}\ngoals:\n  - {name: X, conditions: {x: true}}\n")
	return b.String()
}

// TestExplainAlternativesShareOneSearchesWork: explain's alternatives,
// one search per other first step, each of which would run to its own
// work limit, together do no more than one search's work: the successors
// they generate, each testing its rules, stay within goap's default work
// limit. Before, their 4 budgets of states (400 000 expansions) ran each
// to its own limit: 12 s of CPU on 24 toggles of 430 rules.
func TestExplainAlternativesShareOneSearchesWork(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	const toggles, rules = 24, 100
	body, err := s.explain(context.Background(), sourceBody(t, trapSource(toggles, rules), map[string]any{"goal": "X", "heuristic": "goal-count", "alternatives": 20}))
	if err != nil {
		t.Fatal(err)
	}
	var x struct {
		Status string   `json:"status"`
		Plan   []string `json:"plan"`
		Cut    bool     `json:"alternatives_cut"`
		Work   int      `json:"alternatives_work"`
	}
	if err := json.Unmarshal(body, &x); err != nil || x.Status != "found" || len(x.Plan) != 1 {
		t.Fatalf("explain: %v, %.300s", err, body)
	}
	// Each expansion makes a successor per toggle, each testing its rules.
	if !x.Cut || x.Work*toggles*rules > goap.DefaultMaxWork {
		t.Errorf("alternatives: %d states expanded (cut %v), at least %d units of work; want them cut within %d", x.Work, x.Cut, x.Work*toggles*rules, goap.DefaultMaxWork)
	}
}
