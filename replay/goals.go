package replay

import (
	"fmt"
	"math"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// weighed is one goal option as goal choice finds it: whether it applies
// and, if it does, its score.
type weighed struct {
	goal    string
	applies bool
	score   float64
}

// choose is the runtime's goal choice (agent.Agent's chooseGoal): the
// applicable option of the highest score, ties to the earlier, the
// current option (current, its index; -1 for none) kept while no other
// scores strictly more, or while the recorded commitment c holds off
// those that do. It returns "" when none applies.
func choose(options []weighed, current int, c *agent.DecisionCommitment) string {
	committed, atScore := false, 0.0
	if current >= 0 && options[current].applies {
		committed, atScore = true, options[current].score
	}
	best, bestScore := -1, 0.0
	currentScore, hasCurrent := 0.0, false
	for i, o := range options {
		if !o.applies {
			continue
		}
		if committed && i != current && o.score > atScore && c.Holds(o.goal, o.score, atScore) != "" {
			continue // commitment keeps the current goal against it
		}
		if i == current {
			currentScore, hasCurrent = o.score, true
		}
		if best < 0 || o.score > bestScore {
			best, bestScore = i, o.score
		}
	}
	if hasCurrent && currentScore >= bestScore {
		return options[current].goal
	}
	if best < 0 {
		return ""
	}
	return options[best].goal
}

// currentOption is the index of d's current option: the one marked
// current, or, in a recording made before options were marked, the first
// of the current goal's name (-1 for none).
func currentOption(d *agent.Decision) int {
	for i := range d.Options {
		if d.Options[i].Current {
			return i
		}
	}
	return optionNamed(d, d.Current)
}

func optionNamed(d *agent.Decision, name string) int {
	if name == "" {
		return -1
	}
	for i := range d.Options {
		if d.Options[i].Goal == name {
			return i
		}
	}
	return -1
}

// recordedOption is the recorded option that option i of an agent kind
// in a file, of goal name, stands for: the one at the same place if it
// has that goal (the file's options are the agent's, in order), or else
// the first of that goal (an edit moved the options; -1 for none).
func recordedOption(d *agent.Decision, i int, name string) int {
	if i < len(d.Options) && d.Options[i].Goal == name {
		return i
	}
	return optionNamed(d, name)
}

const whyBlocked = "no plan until a later tick"

// recordedScore is a recorded option's score as goal choice compared it.
func recordedScore(o *agent.GoalScore) float64 {
	if o.Why == "score is not a number" {
		return math.NaN()
	}
	return o.Score
}

// recordedApplies says whether a recorded option applied, its goal's
// holding judged again by holds (the goal's conditions may be edited):
// its When and its retry wait are the record's.
func recordedApplies(o *agent.GoalScore, holds func(string) (bool, error)) (bool, error) {
	h, err := holds(o.Goal)
	if err != nil || h {
		return false, err
	}
	switch o.Why {
	case "when is false", whyBlocked:
		return false, nil
	case "goal holds":
		// It held when recorded, so goal choice never weighed it: with
		// edited conditions it applies at its priority, unless a Utility
		// scores it (not recorded: it stays out).
		return !o.Utility, nil
	}
	return true, nil
}

// chooseGOAPGoal decides a GOAP agent's goal again: a tree's Plan leaf's
// is its own (it has no options); otherwise the recorded options, each
// goal's holding judged again in the state.
func (r *Replayer) chooseGOAPGoal(d *agent.Decision, s goap.State) (string, error) {
	if len(d.Options) == 0 {
		return d.Goal, nil
	}
	opts := make([]weighed, 0, len(d.Options))
	for i := range d.Options {
		o := &d.Options[i]
		applies, err := recordedApplies(o, func(name string) (bool, error) {
			g := r.goapGoal(d, name)
			if g == nil {
				return false, fmt.Errorf("goal %q is not in domain %s", name, r.dom.GOAP.Name())
			}
			return g.Holds(s), nil
		})
		if err != nil {
			return "", err
		}
		score := recordedScore(o)
		if o.Why == "goal holds" {
			score = o.Priority
		}
		opts = append(opts, weighed{o.Goal, applies, score})
	}
	return choose(opts, currentOption(d), &d.Commitment), nil
}

// goapGoal is the goal named name: the agent kind's own, if its option
// defines one, or the domain's.
func (r *Replayer) goapGoal(d *agent.Decision, name string) *goap.Goal {
	if k := r.goapKind(d); k != nil {
		for _, o := range k.Goals {
			if o.Goal.Name() == name {
				return o.Goal
			}
		}
	}
	if g := r.dom.GOAP.Goal(name); g != nil {
		return g
	}
	for _, g := range r.dom.Goals {
		if g.Name() == name {
			return g
		}
	}
	return nil
}

// chooseResolverGoal decides a resolver agent's goal again on snapshot
// s: with its agent kind's options in the file, weighed as agentfile
// configures them (every key an input), or else with the recorded
// options, each goal's holding judged again.
func (r *Replayer) chooseResolverGoal(d *agent.Decision, s *resolver.Snapshot) (string, error) {
	if len(d.Options) == 0 {
		return d.Goal, nil
	}
	var opts []weighed
	if k := r.engineKind(d); k != nil {
		inputs := make([]float64, len(s.Values))
		for i, v := range s.Values {
			inputs[i] = float64(v)
		}
		current := -1
		if rc := currentOption(d); rc >= 0 {
			current = kindOption(k, rc, d.Options[rc].Goal)
		}
		var noFacts goap.State
		for i, o := range k.Goals {
			w := weighed{goal: o.Goal.Name()}
			blocked := false
			if rc := recordedOption(d, i, w.goal); rc >= 0 {
				blocked = d.Options[rc].Why == whyBlocked
			}
			w.applies = !o.Goal.HoldsIn(s.Values) && o.When.Holds(noFacts, inputs) && !blocked
			if w.applies {
				w.score = o.Priority
				if o.Utility != nil {
					w.score = o.Utility.At(noFacts, inputs)
				}
			}
			opts = append(opts, w)
		}
		return choose(opts, current, &d.Commitment), nil
	} else {
		for i := range d.Options {
			o := &d.Options[i]
			applies, err := recordedApplies(o, func(name string) (bool, error) {
				g := r.dom.Resolver.Goal(name)
				if g == nil {
					return false, fmt.Errorf("goal %q is not in domain %s", name, r.dom.Resolver.Name())
				}
				return g.HoldsIn(s.Values), nil
			})
			if err != nil {
				return "", err
			}
			score := recordedScore(o)
			if o.Why == "goal holds" {
				score = o.Priority
			}
			opts = append(opts, weighed{o.Goal, applies, score})
		}
	}
	return choose(opts, currentOption(d), &d.Commitment), nil
}

// kindOption is the option of agent kind k that recorded option rc, of
// goal name, stands for: the one at the same place if it has that goal,
// or else the first of that goal (-1 for none).
func kindOption(k *domain.EngineAgent, rc int, name string) int {
	if rc < len(k.Goals) && k.Goals[rc].Goal.Name() == name {
		return rc
	}
	for i, o := range k.Goals {
		if o.Goal.Name() == name {
			return i
		}
	}
	return -1
}

// decideChoice decides a utility selector's choice again: the options
// whose action applies in the recorded state (the running one always),
// by their recorded scores (the game's), the highest first, ties to the
// earlier; the running action kept unless outscored by more than the
// margin. An option that did not apply when recorded has no score, and
// stays out even if an edit makes it apply.
func (r *Replayer) decideChoice(d *agent.Decision, s goap.State, out Outcome) Outcome {
	dom := r.dom.GOAP
	best, bestScore := -1, 0.0
	currentScore, running := 0.0, -1
	current := currentOption(d)
	for i := range d.Options {
		o := &d.Options[i]
		id, ok := dom.ActionByName(o.Goal)
		if !ok {
			out.Error, out.Status = fmt.Sprintf("action %q is not in domain %s", o.Goal, dom.Name()), "error"
			return out
		}
		if o.Why == "preconditions unmet" || (i != current && !dom.Applicable(id, s)) {
			continue
		}
		score := recordedScore(o)
		if i == current {
			currentScore, running = score, i
		}
		if best < 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		out.Status = "no_plan"
		return out
	}
	if running >= 0 && best != running && bestScore <= currentScore+d.Margin {
		best = running
	}
	id, _ := dom.ActionByName(d.Options[best].Goal)
	out.Plan = append(out.Plan, d.Options[best].Goal)
	out.Cost = dom.CostIn(id, s)
	out.Status = d.Status
	return out
}
