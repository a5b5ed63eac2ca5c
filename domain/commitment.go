package domain

import (
	"fmt"
	"math"
	"slices"

	"github.com/goccy/go-yaml/ast"
)

// Commitment is how firmly an agent kind keeps the goal it chose, as its
// commitment: says (agent.Commitment is the runtime's, which
// agentfile sets from it): another goal option replaces the current goal
// only if it scores more than Margin above it, after MinTicks ticks on
// it, and, with FinishAction, once the running step has ended; a goal in
// Exempt replaces it whenever it scores more. The zero Commitment is
// goal choice without commitment.
type Commitment struct {
	Margin       float64
	MinTicks     int
	Exempt       []string
	FinishAction bool
}

// MaxMinTicks is the largest min_ticks (the runtime counts ticks on a
// goal in 32 bits).
const MaxMinTicks = math.MaxInt32

// The rules for a commitment's numbers, said when one breaks them, also
// by number (rangeRule) for one too large to read.
var (
	marginRule   = "margin must be a finite number, 0 or more: how much more than the current goal another must score to replace it, such as margin: 0.5"
	minTicksRule = fmt.Sprintf("min_ticks must be a whole number of ticks from 0 to %d: how long the agent stays on a goal before another may replace it, such as min_ticks: 30", MaxMinTicks)
)

// commitmentSpec is a commitment as read, its exempt goals resolved
// against the kind's goal options once they are built.
type commitmentSpec struct {
	path string
	c    Commitment
}

// commitment reads an agent kind's commitment: {margin, min_ticks,
// exempt, finish_action}, each optional.
func (l *loader) commitment(path string, mv *ast.MappingValueNode) *commitmentSpec {
	l.pos[path] = position(mv.Key)
	cs := &commitmentSpec{path: path}
	if isNull(l.unwrap(mv.Value)) {
		return cs // commitment: with nothing under it: none
	}
	f := l.fields(l.mapping(mv.Value, "a commitment"), "a commitment", "margin", "min_ticks", "exempt", "finish_action")
	if m, ok := f["margin"]; ok {
		l.pos[path+".margin"] = position(m.Value)
		if x, ok := l.number(m.Value, "margin"); ok {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				l.errorf(m.Value, "%s", marginRule)
			} else {
				cs.c.Margin = x
			}
		}
	}
	if m, ok := f["min_ticks"]; ok {
		l.pos[path+".min_ticks"] = position(m.Value)
		if x, ok := l.number(m.Value, "min_ticks"); ok {
			if x != math.Trunc(x) || x < 0 || x > MaxMinTicks {
				l.errorf(m.Value, "%s", minTicksRule)
			} else {
				cs.c.MinTicks = int(x)
			}
		}
	}
	if m, ok := f["finish_action"]; ok {
		l.pos[path+".finish_action"] = position(m.Value)
		b, ok := boolValue(m.Value)
		if !ok {
			l.errorf(m.Value, "finish_action must be true or false, not %s", describe(l.unwrap(m.Value)))
		}
		cs.c.FinishAction = b
	}
	if m, ok := f["exempt"]; ok {
		l.pos[path+".exempt"] = position(m.Key)
		cs.c.Exempt = []string{}
		for k, item := range l.sequence(m.Value, "a commitment's exempt goals") {
			p := fmt.Sprintf("%s.exempt[%d]", path, k)
			l.pos[p] = position(item)
			name, _ := l.name(item, "an exempt goal")
			cs.c.Exempt = append(cs.c.Exempt, name) // "" for one said
		}
	}
	return cs
}

// resolveCommitment checks a kind's exempt goals against its goal
// options (goals names them) and returns the commitment, or false when
// it has errors, reported. goals names the file's goals, for an unknown
// one's suggestion; agent the kind's name.
func (l *loader) resolveCommitment(cs *commitmentSpec, agent string, options, goals []string) (Commitment, bool) {
	if cs == nil {
		return Commitment{}, true
	}
	ok := true
	c := cs.c
	c.Exempt = nil
	for k, name := range cs.c.Exempt {
		p := lookup(l.pos, fmt.Sprintf("%s.exempt[%d]", cs.path, k))
		switch {
		case name == "":
			ok = false // said
		case slices.Contains(cs.c.Exempt[:k], name):
			l.errorAt(p, "exempt lists goal %s twice", quote(name))
			ok = false
		case slices.Contains(options, name):
			c.Exempt = append(c.Exempt, name)
		case slices.Contains(goals, name):
			l.errorAt(p, "exempt goal %s is not one of agent %s's goal options: exempt lists goals the agent pursues, which may replace its current goal whatever the commitment says", quote(name), quote(agent))
			ok = false
		default:
			// suggested from the file's goals and the kind's own
			known := slices.Clone(goals)
			for _, o := range options {
				if !slices.Contains(known, o) {
					known = append(known, o)
				}
			}
			l.errorAt(p, "%s", l.unknownName("goal", name, known))
			ok = false
		}
	}
	return c, ok
}

// refuseCommitment reports a commitment on an agent kind that chooses
// no goal option: what ("an HTN agent", "a tree agent") it is instead.
func (l *loader) refuseCommitment(cs *commitmentSpec, agent, what string) {
	if cs == nil {
		return
	}
	l.errorAt(lookup(l.pos, cs.path), "agent %s is %s, which chooses no goal option: commitment keeps an agent with goals: on the goal it chose; leave it out", quote(agent), what)
}
