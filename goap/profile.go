package goap

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/ploy-ai/ploy/internal/suggest"
)

// ProfileSpec describes how one kind of agent differs from the domain
// without rebuilding it: actions it cannot do (a capabilities mask: a
// wounded guard that cannot run) and actions whose cost it sees
// differently (a personality: a defensive soldier to whom cover is cheap).
type ProfileSpec struct {
	Incapable []string        // actions this agent cannot do
	Costs     map[string]Cost // action name to the cost this agent sees
}

// Profile is a compiled ProfileSpec: immutable and safe to share. A nil
// *Profile in Options means the domain as built.
type Profile struct {
	domain  *Domain
	capable []uint64 // one bit per action
	costs   []actionCost
	// minCost is the least cost any capable action can have; the goal-count
	// heuristic multiplies by it to stay admissible.
	minCost float64
	// maxEffects is the most facts one capable action sets, for the
	// backward goal-count heuristic.
	maxEffects int
	// cases are the capable actions' exact cost cases, for regression and
	// for h_max; caseOf[a] .. caseOf[a+1] are action a's.
	cases  []costCase
	caseOf []int32
	// funcAction is a capable action whose cost is a Go function, or
	// NoAction: backward search cannot use such a profile.
	funcAction ActionID
	// buildWork is the words NewProfile's passes read, for the tests.
	buildWork int
	// overrides are the spec's Costs, copied, for Spec.
	overrides map[string]Cost
	// tablesOnce guards the estimate tables below, made by prepare on the
	// profile's first search.
	tablesOnce sync.Once
	relaxed    relaxation
	// achieve is, per literal (2f: fact f true, 2f+1: false), the least
	// cost of a capable action whose effects make it so, +Inf if none:
	// the GoalCost heuristic's second bound.
	achieve []float64
	// dearest is every literal, dearest achiever first (those with none,
	// +Inf, leading; ties in literal order): backward GoalCost picks a
	// start's wrong literals from it, in order, without sorting.
	dearest []int32
	// achievers[achieverOf[l]:achieverOf[l+1]] are literal l's capable
	// achievers, cheapest (least cost) first: GoalCost's chains.
	achievers  []ActionID
	achieverOf []int32
	allCapable bool // no action is masked out: searches skip the test
	// costScale, when not 0, is the least power of two, 1 to maxCostScale,
	// that makes every capable action's costs whole numbers of at most
	// maxBucketCost (1.5 and 0.25 scale by 2 and 4). Sums of such costs
	// are exact, and f values scaled by it whole and small enough for a
	// bucketed open list.
	costScale float64
	// wholeCost is, when costScale is not 0, each action's constant cost
	// in those units, or -1 where it is a rule list; on one-word domains
	// the rule lists are wholeRules[wholeRuleOf[a]:wholeRuleOf[a+1]], in
	// those units too, their default last (a rule every state meets).
	wholeCost   []int32
	wholeRules  []wholeRule
	wholeRuleOf []int32
	// maxRules is the longest rule list of a capable action: forward
	// search keeps room under its work limit for evaluating it per
	// successor.
	maxRules int
}

// wholeRule is a rule of a one-word domain's cost, in the profile's scaled
// units: its cost where state & mask == value.
type wholeRule struct {
	mask, value uint64
	cost        int32
}

// ruleCost is, in whole units, the cost of the first of an action's rules
// that one-word state s meets: the last meets every state, so -1, for
// none, does not happen.
func ruleCost(s uint64, rules []wholeRule) int32 {
	for _, r := range rules {
		if s&r.mask == r.value {
			return r.cost
		}
	}
	return -1
}

// maxBucketCost bounds the scaled costs for which searches use a bucketed
// open list, and maxCostScale the scale: the spread of queued f values then
// stays small enough to index a ring of lists.
const (
	maxBucketCost = 1 << 10
	maxCostScale  = 64
)

// bucketScale returns the costScale that makes every one of costs whole,
// or 0 if there is none.
func bucketScale(costs []float64) float64 {
	for scale := 1.0; scale <= maxCostScale; scale *= 2 {
		ok := true
		for _, c := range costs {
			v := c * scale
			ok = ok && v == math.Trunc(v) && v <= maxBucketCost
		}
		if ok {
			return scale
		}
	}
	return 0
}

// NewProfile compiles spec against d. Unknown action names and invalid
// costs are errors, reported together.
func (d *Domain) NewProfile(spec ProfileSpec) (*Profile, error) {
	b := &builder{d: d}
	p := &Profile{
		domain:     d,
		capable:    make([]uint64, (len(d.actions)+63)/64),
		costs:      make([]actionCost, len(d.actions)),
		funcAction: NoAction,
	}
	for i := range d.actions {
		p.capable[i>>6] |= 1 << (uint(i) & 63)
		p.costs[i] = d.actions[i].compiled
	}
	for i, name := range spec.Incapable {
		a, ok := d.actionIndex[name]
		if !ok {
			b.errorf(fmt.Sprintf("incapable[%d]", i), "%s", d.unknownAction(name))
			continue
		}
		p.capable[a>>6] &^= 1 << (uint(a) & 63)
	}
	for _, name := range slices.Sorted(maps.Keys(spec.Costs)) {
		a, ok := d.actionIndex[name]
		if !ok {
			b.errorf("costs."+name, "%s", d.unknownAction(name))
			continue
		}
		p.costs[a] = b.cost("costs."+name, name, spec.Costs[name])
	}
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	p.allCapable = len(spec.Incapable) == 0
	if len(spec.Costs) > 0 {
		p.overrides = maps.Clone(spec.Costs)
	}
	var costs []float64 // every value a capable action's cost can take
	bucketable := true
	p.minCost = 0
	p.caseOf = make([]int32, len(d.actions)+1)
	ruleCases, ruleLimit := 0, ruleCaseLimit(d.words)
	for i := range d.actions {
		p.caseOf[i] = int32(len(p.cases))
		if !p.Capable(ActionID(i)) {
			continue
		}
		a := &d.actions[i]
		c := &p.costs[i]
		if p.minCost == 0 || c.min < p.minCost {
			p.minCost = c.min
		}
		n := 0
		for w := range a.effMask {
			n += bits.OnesCount64(a.effMask[w])
		}
		p.buildWork += len(a.effMask)
		p.maxEffects = max(p.maxEffects, n)
		if c.kind == costFunc && p.funcAction == NoAction {
			p.funcAction = ActionID(i)
		}
		switch c.kind {
		case costFunc:
			bucketable = false
		case costRules:
			p.maxRules = max(p.maxRules, len(c.rules))
			for _, r := range c.rules {
				costs = append(costs, r.cost)
			}
			fallthrough
		default:
			costs = append(costs, c.value)
		}
		cases, ok := splitCost(c, a.preMask, a.preValue)
		if !ok {
			return nil, SpecErrors{{Path: fmt.Sprintf("actions[%d].cost", i), Msg: fmt.Sprintf("rule list of action %q splits into more than %d exclusive cases", a.name, maxCostCases)}}
		}
		if c.kind == costRules {
			if ruleCases += len(cases); ruleCases > ruleLimit {
				return nil, SpecErrors{{Path: fmt.Sprintf("actions[%d].cost", i), Msg: fmt.Sprintf("the rule lists of all actions split into more than %d exclusive cases in all, passed at action %q", ruleLimit, a.name)}}
			}
		}
		p.cases = append(p.cases, cases...)
	}
	p.caseOf[len(d.actions)] = int32(len(p.cases))
	if bucketable && intBits == 64 { // whole costs sum in ints (see wholeInf)
		p.costScale = bucketScale(costs)
	}
	if p.costScale > 0 {
		p.wholeCost = make([]int32, len(d.actions))
		if d.words == 1 {
			p.wholeRuleOf = make([]int32, len(d.actions)+1)
		}
		for i := range p.costs {
			c := &p.costs[i]
			p.wholeCost[i] = -1
			if c.kind == costConst {
				p.wholeCost[i] = int32(c.value * p.costScale)
			} else if d.words == 1 {
				for _, r := range c.rules {
					p.wholeRules = append(p.wholeRules, wholeRule{r.mask[0], r.value[0], int32(r.cost * p.costScale)})
				}
				p.wholeRules = append(p.wholeRules, wholeRule{cost: int32(c.value * p.costScale)})
			}
			if d.words == 1 {
				p.wholeRuleOf[i+1] = int32(len(p.wholeRules))
			}
		}
	}
	if p.minCost == 0 {
		p.minCost = 1 // no capable action: nothing is reachable, any scale will do
	}
	return p, nil
}

// prepare makes the profile's estimate tables (relaxed, achievers,
// achieve, dearest) on its first search, once, whichever goroutine gets
// there first. Each table reads every capable action's effects and is as
// large as the domain's literals, so building them for every agent of a
// file at load time took agents × actions × state words; most agents of a
// file that is only linted or drawn are never planned.
func (p *Profile) prepare() {
	p.tablesOnce.Do(func() {
		d := p.domain
		p.relaxed = newRelaxation(d, p)
		p.achievers, p.achieverOf = achieversByLiteral(d, p)
		p.achieve = cheapestAchievers(p)
		p.dearest = make([]int32, len(p.achieve))
		for l := range p.dearest {
			p.dearest[l] = int32(l)
		}
		slices.SortStableFunc(p.dearest, func(a, b int32) int { return cmp.Compare(p.achieve[b], p.achieve[a]) })
	})
}

func (d *Domain) unknownAction(name string) string {
	msg := fmt.Sprintf("unknown action %q", name)
	names := make([]string, len(d.actions))
	for i := range d.actions {
		names[i] = d.actions[i].name
	}
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg
}

// Capable reports whether the profile lets its agent do action a.
func (p *Profile) Capable(a ActionID) bool {
	return p.capable[a>>6]&(1<<(uint(a)&63)) != 0
}

// CostIn returns what action a costs in state s for this profile.
func (p *Profile) CostIn(a ActionID, s State) float64 { return p.costs[a].at(s.words) }

// CostWork returns the work, in Options.MaxWork's units, that evaluating
// action a's cost in one state takes for this profile: one unit per rule
// of a rule list per word of state, as forward search counts it; 0 for a
// constant or a Go function. A caller that evaluates costs outside a
// search (a table of every action's cost) counts them the same way.
func (p *Profile) CostWork(a ActionID) int { return len(p.costs[a].rules) * p.domain.words }

// MinCost returns the least cost any capable action can have.
func (p *Profile) MinCost() float64 { return p.minCost }

// DefaultProfile returns the profile of the domain as built: every action
// capable, at its own cost. Options with a nil Profile use it.
func (d *Domain) DefaultProfile() *Profile { return d.base }

// Domain returns the domain the profile was made for.
func (p *Profile) Domain() *Domain { return p.domain }

// Spec returns the ProfileSpec the profile was compiled from, up to
// order: Incapable in the domain's action order, Costs the overrides (nil
// when none; a copy, as the profile's own is immutable). A decision
// record keeps it, so that a replay can compile the same profile again.
func (p *Profile) Spec() ProfileSpec {
	var spec ProfileSpec
	for a := range p.domain.actions {
		if !p.Capable(ActionID(a)) {
			spec.Incapable = append(spec.Incapable, p.domain.actions[a].name)
		}
	}
	spec.Costs = maps.Clone(p.overrides)
	return spec
}
