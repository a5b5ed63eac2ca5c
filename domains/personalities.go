package domains

import "github.com/ploy-ai/ploy/goap"

// Personality is one kind of agent on a domain (seed 001 §5, "personality
// by goals and costs"): the goals it pursues with their priorities, and the
// costs it sees, over the domain's one graph.
type Personality struct {
	Name string
	// Goals are the goals it may pursue, by name, each with its priority:
	// the highest-priority one not already met that has a plan is the one
	// it pursues (seed 001: "the NPC picks the most urgent and plans for
	// it"; when no plan exists, "pick another goal or idle"). Ties go to
	// the earlier goal, as in package agent.
	Goals []GoalPriority
	// Profile holds its cost overrides; an empty one is the domain's own
	// costs.
	Profile goap.ProfileSpec
}

// GoalPriority is one goal of a Personality.
type GoalPriority struct {
	Goal     string
	Priority float64
}

// Personalities returns the personalities of the shipped domain with the
// given name (its name: field, as "soldier"), or nil for a domain that has
// none. Each call returns fresh values.
//
// Until domain files can declare agents, this is where they live: the
// soldier's two are seed 001's soldado_ofensivo (kill_player priority 10,
// take_cover priority 3, the standard costs) and soldado_defensivo
// (take_cover 8, kill_player 5, AttackRanged 5, TakeCover 1). The seed's
// take_cover goal is the domain's GetSafe (at_cover and hp_high, the
// seed's goal_get_safe): taking cover is what achieves it.
func Personalities(name string) []Personality {
	switch name {
	case "soldier":
		return []Personality{
			{
				Name:  "offensive",
				Goals: []GoalPriority{{"KillPlayer", 10}, {"GetSafe", 3}},
			},
			{
				Name:    "defensive",
				Goals:   []GoalPriority{{"GetSafe", 8}, {"KillPlayer", 5}},
				Profile: DefensiveSoldier(),
			},
		}
	}
	return nil
}
