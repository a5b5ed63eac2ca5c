package agent_test

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// TestResolverGoalSwappedAfterConstruction: the game points a goal option
// at another goal of the domain after the agent was made. Main's resolver
// agent resolved the option's goal of the moment (and named it so in its
// events); a runtime that copied the goals at construction resolves the
// old one while Goal() reports the new.
func TestResolverGoalSwappedAfterConstruction(t *testing.T) {
	c := newCamp(t)
	c.values["hunger"] = 80 // neither Warm nor Fed holds
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Goals = []agent.ResolverGoal{{Goal: c.d.Goal("Warm"), Priority: 1}}
	a := mustResolverAgent(t, cfg)
	cfg.Goals[0].Goal = c.d.Goal("Fed") // the game's slice, shared with the agent
	a.Tick()
	if g := a.Goal(); g == nil || g.Name() != "Fed" {
		t.Fatalf("Goal() = %v, want Fed", g)
	}
	var chosen, plan string
	for _, e := range rec.Events {
		switch e.Kind {
		case agent.GoalChosen:
			chosen = e.Goal
		case agent.PlanMade:
			plan = strings.Join(e.Plan, " ")
		}
	}
	if chosen != "Fed" || plan != "Forage Eat" {
		t.Errorf("goal_chosen(%s), plan %q; want goal_chosen(Fed), plan \"Forage Eat\" (Goal() says Fed)", chosen, plan)
	}
}
