package domain_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
)

// TestManyEngineAgents is TestManyAgents for the engine model, whose
// agents a loader of their own reads: the most agents a file may have
// load, and one more is refused at its position.
func TestManyEngineAgents(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("name: many\nkeys: {a: bool}\nactions:\n")
	const actions = 300
	for i := range actions {
		fmt.Fprintf(&sb, "  - {name: A%d, effects: {a: true}, cost: 1}\n", i)
	}
	sb.WriteString("goals: [{name: G, conditions: {a: true}}]\nagents:\n")
	for i := range domain.MaxAgents {
		fmt.Fprintf(&sb, "  - {name: k%d, goals: [{goal: G, priority: 1}], capabilities: [A%d], costs: {A%d: 2}}\n", i, i, i)
	}
	f, err := domain.Parse("many.yaml", []byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !f.EngineModel() || len(f.EngineAgents) != domain.MaxAgents {
		t.Fatalf("engine model %v, %d agents loaded; want %d", f.EngineModel(), len(f.EngineAgents), domain.MaxAgents)
	}
	line := 4 + actions + 2 + domain.MaxAgents // three lines before the actions, goals and agents: after them
	sb.WriteString("  - {name: one_more, goals: [{goal: G, priority: 1}]}\n")
	_, err = domain.Parse("many.yaml", []byte(sb.String()))
	var list domain.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Pos.Line != line || !strings.Contains(list[0].Msg, "more than 256 agents") {
		t.Errorf("one agent too many: %v, want one error at line %d", err, line)
	}
}
