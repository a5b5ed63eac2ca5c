package agent

import (
	"fmt"
	"math"
	"slices"

	"github.com/ploy-ai/ploy/internal/suggest"
)

// Commitment keeps an agent on the goal it chose. Without it goal choice
// switches as soon as another option scores more than the current goal
// (only a tie keeps it), so a settler whose wood stock dips from 40 to 39
// drops a walk half done to go and eat, and back. Each rule holds off an
// option that outscores the current goal:
//
//   - Margin: the option must score more than the current goal's score
//     plus Margin (scores are Utility, else Priority);
//   - MinTicks: the agent stays MinTicks ticks on a goal before another
//     may replace it;
//   - FinishAction: while a step of the plan is under way (its walk to
//     the target included) the goal is kept; the choice is made again
//     when the step ends.
//
// An option whose goal is in Exempt is held off by none of them: it
// replaces the current goal as soon as it scores more, as an interrupting
// goal (GetHealthy, lesson 5's Patch up) must. Commitment never keeps a
// goal that stops applying: it holds, its When turns false, or it found
// no plan. The zero Commitment (or a nil one) is goal choice without
// commitment.
//
// Commitment applies to agents that choose among goal options: GOAP
// agents (Config.Goals) and resolver agents (ResolverConfig.Goals). An
// HTN agent decomposes one root task and a tree agent's tree chooses, so
// New refuses a commitment for either; a Utility selector's margin is its
// own.
type Commitment struct {
	// Margin is how much more than the current goal another option must
	// score to replace it: 0 or more, finite.
	Margin float64
	// MinTicks is how many ticks the agent stays on a goal before another
	// may replace it (0: none). Ticks on a goal are counted modulo 2³²,
	// so a goal held for longer than that may be held MinTicks more.
	MinTicks int
	// Exempt names goals (of the agent's goal options) that replace the
	// current goal whenever they outscore it, whatever the rules say.
	Exempt []string
	// FinishAction keeps the current goal while a step is under way.
	FinishAction bool

	// exempt is Exempt by goal option, made by New from its copy.
	exempt []bool
}

// MaxMinTicks is the largest Commitment.MinTicks: ticks on a goal are
// counted in 32 bits.
const MaxMinTicks = math.MaxInt32

// on reports whether c has a rule that can hold a goal.
func (c *Commitment) on() bool {
	return c != nil && (c.Margin != 0 || c.MinTicks != 0 || c.FinishAction)
}

// check returns what is wrong with c for an agent whose goal options are
// named goals, with errorf's prefix; kind is "" for an agent that chooses
// among goal options, else what it is ("an HTN agent"), which refuses a
// commitment.
func (c *Commitment) check(goals []string, kind string, errorf func(string, ...any) error) error {
	if c == nil {
		return nil
	}
	switch {
	case kind != "" && (c.on() || len(c.Exempt) > 0):
		return errorf("%s chooses no goal option, so a Commitment has nothing to hold: commitment keeps a GOAP or resolver agent on one of its Goals", kind)
	case math.IsNaN(c.Margin) || math.IsInf(c.Margin, 0) || c.Margin < 0:
		return errorf("Commitment.Margin is %v: want 0 or more, a finite number (how much more than the current goal another must score)", c.Margin)
	case c.MinTicks < 0 || c.MinTicks > MaxMinTicks:
		return errorf("Commitment.MinTicks is %d: want 0 to %d ticks", c.MinTicks, MaxMinTicks)
	}
	for i, name := range c.Exempt {
		if slices.Contains(c.Exempt[:i], name) {
			return errorf("Commitment.Exempt names goal %q twice", name)
		}
		if !slices.Contains(goals, name) {
			msg := fmt.Sprintf("Commitment.Exempt names goal %q, which is none of the agent's goal options", name)
			if s := suggest.Closest(name, goals); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			return errorf("%s", msg)
		}
	}
	return nil
}

// compiled returns the agent's own copy of c, its Exempt marked by goal
// option (goals names them), or nil when no rule can hold a goal: goal
// choice then costs what it did before commitment.
func (c *Commitment) compiled(goals []string) *Commitment {
	if !c.on() {
		return nil
	}
	own := *c
	own.Exempt = slices.Clone(c.Exempt)
	own.exempt = make([]bool, len(goals))
	for i, g := range goals {
		own.exempt[i] = slices.Contains(own.Exempt, g)
	}
	return &own
}

// Rules that held an option off (weighedOption.held), in the order they
// are tested.
const (
	heldNot          uint8 = iota
	heldFinishAction       // a step of the current goal's plan is under way
	heldMinTicks           // the current goal was chosen fewer than MinTicks ticks ago
	heldMargin             // it scored more, but not by more than Margin
)

// holds says which rule, if any, keeps the current goal (scoring current)
// against option i (scoring score, more than current).
func (c *Commitment) holds(i int, score, current float64, onGoal int, acting bool) uint8 {
	switch {
	case c.exempt[i]:
		return heldNot
	case c.FinishAction && acting:
		return heldFinishAction
	case onGoal < c.MinTicks:
		return heldMinTicks
	case score <= current+c.Margin:
		return heldMargin
	}
	return heldNot
}

// onGoal returns how many ticks the agent has pursued its current goal.
func (a *Agent) onGoal() int { return int(uint32(a.tick) - a.goalSince) }
