package arena

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// Kind is an agent kind in the arena.
type Kind struct {
	Name  string // as the table and --agents name it
	Title string
	make  func(env *kindEnv) (*agent.Agent, error)
}

// kindEnv is what building an agent for one fight needs.
type kindEnv struct {
	g         *goap.Domain
	h         *htn.Domain
	w         *World
	acts      *mageActions
	sensor    agent.Sensor
	events    func(agent.Event)
	timing    bool
	extra     extraGoals
	decisions agent.DecisionSink
}

// extraGoals are the GOAP agent's idle goals, beyond the domain's Kill and
// GetHealthy: restock the potion and charge the staff when idle.
type extraGoals struct {
	restock, charge *goap.Goal
}

// Kinds are the arena's agent kinds, in table order.
var Kinds = []Kind{
	{"goap", "GOAP", newGOAP},
	{"htn", "HTN, interrupting", func(e *kindEnv) (*agent.Agent, error) { return newHTN(e, agent.Interrupt) }},
	{"htn-break", "HTN, replan on break", func(e *kindEnv) (*agent.Agent, error) { return newHTN(e, agent.ReplanOnBreak) }},
	{"bt", "behaviour tree", newTree},
	{"utility", "utility", newUtility},
}

// KindByName returns the kind with the given name.
func KindByName(name string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

func (e *kindEnv) base(name string) agent.Config {
	return agent.Config{
		Name:           name,
		Domain:         e.g,
		Behaviours:     e.acts.behaviours(),
		Sensor:         e.sensor,
		DefaultTimeout: seconds(15), // far too long for any step here
		RetryAfter:     seconds(1),
		OnEvent:        e.events,
		TimePlanning:   e.timing,
		Data:           e.w,
		Decisions:      e.decisions,
	}
}

// newGOAP is the GOAP agent: a goal picker (heal when health is below
// 40, fight while there are enemies, restock when idle) and a planner.
func newGOAP(e *kindEnv) (*agent.Agent, error) {
	cfg := e.base("goap")
	w := e.w
	cfg.Goals = []agent.GoalOption{
		{Goal: e.g.Goal("GetHealthy"), Priority: 10, When: func(*agent.Agent) bool { return w.health < 40 }},
		{Goal: e.g.Goal("Kill"), Priority: 5},
		{Goal: e.extra.restock, Priority: 2},
		{Goal: e.extra.charge, Priority: 1},
	}
	return agent.New(cfg)
}

// newHTN is the HTN agent over the shipped HTN: patch up as soon as it
// is not healthy, that decision being the domain's first method.
func newHTN(e *kindEnv, mode agent.HTNMode) (*agent.Agent, error) {
	cfg := e.base("htn")
	if mode == agent.ReplanOnBreak {
		cfg.Name = "htn-break"
	}
	cfg.HTN = e.h
	cfg.HTNMode = mode
	return agent.New(cfg)
}

// newTree is the behaviour tree a designer would write for the same
// priorities: its selector checks conditions only now, with no lookahead.
func newTree(e *kindEnv) (*agent.Agent, error) {
	g, w := e.g, e.w
	fact := func(name string, v bool) agent.Node { return agent.FactIs(g, name, v) }
	act := func(name string) agent.Node { return agent.Action(g, name) }
	hurt := agent.Condition(func(*agent.Agent) bool { return w.health < 40 })
	closeIn := agent.Selector(fact("in_range", true), act("Approach"))
	shelter := agent.Selector(fact("in_cover", true), act("TakeCover"))
	cfg := e.base("bt")
	cfg.Tree = agent.Selector(
		agent.Sequence(hurt, fact("carrying_potion", true), shelter, act("DrinkPotion")),
		agent.Sequence(hurt, fact("potion_at_shrine", true), act("FetchPotion")),
		agent.Sequence(fact("enemy_dead", false), agent.Selector(
			agent.Sequence(fact("staff_charged", true), closeIn, act("CastBolt")),
			agent.Sequence(fact("spare_crystals", true), closeIn, shelter, act("Recharge")),
			act("GetCrystals"),
		)),
		agent.Sequence(fact("carrying_potion", false), fact("potion_at_shrine", true), act("FetchPotion")),
		agent.Sequence(fact("staff_charged", false), fact("spare_crystals", false), act("GetCrystals")),
	)
	return agent.New(cfg)
}

// newUtility scores every action from the world's factors each tick and
// runs the best, with some hysteresis.
func newUtility(e *kindEnv) (*agent.Agent, error) {
	w := e.w
	enemies := func() bool { return len(w.enemies) > 0 }
	opt := func(name string, score func() float64) agent.UtilityOption {
		return agent.UtilityOption{Action: name, Score: func(*agent.Agent) float64 { return score() }}
	}
	cfg := e.base("utility")
	cfg.Tree = agent.Utility(e.g, 0.5,
		opt("DrinkPotion", func() float64 { return (100 - w.health) / 8 }),
		opt("FetchPotion", func() float64 {
			if w.health < 50 {
				return 6
			}
			return 0.5
		}),
		opt("CastBolt", func() float64 { return 8 }),
		opt("Approach", func() float64 {
			if enemies() && w.charges > 0 {
				return 4
			}
			return 0
		}),
		opt("TakeCover", func() float64 {
			if enemies() && w.charges == 0 && w.crystals {
				return 3
			}
			return 0.2
		}),
		opt("Recharge", func() float64 {
			if w.inCover() {
				return 5
			}
			return 2
		}),
		opt("GetCrystals", func() float64 {
			if w.charges == 0 {
				return 3.5
			}
			return 0.1
		}),
	)
	return agent.New(cfg)
}

// checkDomain says, in the arena's terms, what a domain lacks that the
// arena's agents need: the battle mage's goals and exactly its actions,
// which the arena's behaviours run.
func checkDomain(g *goap.Domain) error {
	for _, name := range []string{"Kill", "GetHealthy"} {
		if g.Goal(name) == nil {
			return fmt.Errorf("arena: the domain has no goal %q: the arena's GOAP agent pursues the battle mage's Kill and GetHealthy", name)
		}
	}
	var have []string
	for id := range g.NumActions() {
		have = append(have, g.ActionName(goap.ActionID(id)))
	}
	known := slices.Sorted(maps.Keys((&mageActions{}).behaviours()))
	for _, name := range known {
		if _, ok := g.ActionByName(name); !ok {
			msg := fmt.Sprintf("arena: the domain has no action %q", name)
			if s := suggest.Closest(name, have); s != "" {
				msg += fmt.Sprintf(" (it has %q)", s)
			}
			return fmt.Errorf("%s: the arena runs the battle mage's actions: %s", msg, strings.Join(known, ", "))
		}
	}
	for _, name := range have {
		if !slices.Contains(known, name) {
			return fmt.Errorf("arena: the arena has no behaviour for the domain's action %q: it runs only the battle mage's actions: %s", name, strings.Join(known, ", "))
		}
	}
	return nil
}

func newExtraGoals(g *goap.Domain) (extraGoals, error) {
	restock, err := g.NewGoal("Restock", map[string]bool{"carrying_potion": true})
	if err != nil {
		return extraGoals{}, fmt.Errorf("arena: %w", err)
	}
	charge, err := g.NewGoal("ChargeStaff", map[string]bool{"staff_charged": true})
	if err != nil {
		return extraGoals{}, fmt.Errorf("arena: %w", err)
	}
	return extraGoals{restock: restock, charge: charge}, nil
}
