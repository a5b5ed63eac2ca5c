package goap

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/ploy-ai/ploy/internal/errlist"
	"github.com/ploy-ai/ploy/internal/suggest"
)

// Spec describes a domain by name: its facts, initial state, actions and
// goals. NewDomain validates it and compiles it to bit masks. It mirrors the
// domain file format, key for key.
type Spec struct {
	Name    string
	Facts   []string
	Initial map[string]bool // facts not listed are false
	Actions []ActionSpec
	Goals   []GoalSpec
}

// ActionSpec describes an action: the facts that must hold (true) or not
// (false) for it to apply, the facts it makes true or false, and its cost.
type ActionSpec struct {
	Name          string
	Preconditions map[string]bool
	Effects       map[string]bool
	Cost          Cost
}

// GoalSpec names a set of facts to bring about.
type GoalSpec struct {
	Name       string
	Conditions map[string]bool
}

// ActionID is a dense action index, in the order of Spec.Actions.
type ActionID int32

// NoAction marks the absence of an action: the start of a search.
const NoAction ActionID = -1

// Domain is a compiled, validated domain. It is immutable once built and
// safe to share between any number of planners and goroutines.
type Domain struct {
	name        string
	facts       []string
	factIndex   map[string]Fact
	words       int
	initial     []uint64
	actions     []action
	actionIndex map[string]ActionID
	goals       []*Goal
	goalIndex   map[string]int
	base        *Profile // every action capable, the domain's own costs
	// masks holds every action's preMask, preValue, effMask and effValue,
	// W words each, action after action: the searches' inner loops read it
	// front to back instead of chasing four slices per action.
	masks []uint64
	// one is masks again, as one struct per action, when states are one
	// word: the common case gets scalar code.
	one []oneWordAction
	// fails finds a state's applicable actions by table lookups; its fail
	// slice is nil where the table would be too large.
	fails failTable
	// buildWork is the mask words and literals NewDomain's passes wrote
	// and read (the default profile's included): the tests check that it
	// grows linearly with the domain's actions, goals and words.
	buildWork int
}

type oneWordAction struct {
	preMask, preValue, effMask, effValue uint64
}

type action struct {
	name                                 string
	preMask, preValue, effMask, effValue []uint64
	cost                                 Cost
	compiled                             actionCost
}

// Goal is a compiled goal: a name and a condition to bring about.
type Goal struct {
	domain *Domain
	name   string
	cond   Condition
	// fixMax is the most goal facts one action can set to their goal value;
	// the goal-count heuristic divides by it to stay admissible. It is
	// computed when the goal is first planned (fixOnce), not when the
	// domain is built: each goal's count reads the achievers of its facts,
	// up to every effect of the domain, so counting every goal at build
	// time grows with goals × actions.
	fixOnce sync.Once
	fixMax  int
}

// mostFixed returns fixMax, computing it on the goal's first search.
func (g *Goal) mostFixed() int {
	g.fixOnce.Do(func() { g.fixMax = g.domain.fixMax(g.cond) })
	return g.fixMax
}

// Name returns the goal's name.
func (g *Goal) Name() string { return g.name }

// Condition returns the facts the goal requires.
func (g *Goal) Condition() Condition { return g.cond }

// Holds reports whether the goal is met in s.
func (g *Goal) Holds(s State) bool { return g.cond.Holds(s) }

// Domain returns the domain the goal was made for, so that a user of a
// goal can refuse one from another domain.
func (g *Goal) Domain() *Domain { return g.domain }

// SpecError is one problem with a Spec. Path locates it in the spec the way
// a domain file is laid out, for instance "actions[3].preconditions.in_rnage",
// so that a file loader can point at the offending line.
type SpecError struct {
	Path string
	Msg  string
}

func (e *SpecError) Error() string {
	if e.Path == "" {
		return "goap: " + e.Msg
	}
	return "goap: " + e.Path + ": " + e.Msg
}

// SpecErrors is every problem NewDomain found, in the order of the spec.
type SpecErrors = errlist.List[*SpecError]

type builder struct {
	d *Domain
	// work counts the mask words and literals the build writes and reads,
	// kept as Domain.buildWork.
	work int
	errs SpecErrors
}

func (b *builder) errorf(path, format string, args ...any) {
	b.errs = append(b.errs, &SpecError{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// NewDomain validates spec and compiles it. It reports every problem at once,
// as SpecErrors: empty or duplicate names, facts that are not declared (with
// a suggestion), unset, zero, negative or non-finite costs.
func NewDomain(spec Spec) (*Domain, error) {
	b := &builder{d: &Domain{
		name:        spec.Name,
		factIndex:   make(map[string]Fact, len(spec.Facts)),
		actionIndex: make(map[string]ActionID, len(spec.Actions)),
		goalIndex:   make(map[string]int, len(spec.Goals)),
	}}
	d := b.d
	for i, f := range spec.Facts {
		path := fmt.Sprintf("facts[%d]", i)
		switch {
		case f == "":
			b.errorf(path, "empty fact name")
		case strings.ContainsAny(f, " \t\n,"):
			b.errorf(path, "fact name %q contains white space or a comma", f)
		default:
			if _, dup := d.factIndex[f]; dup {
				b.errorf(path, "fact %q is declared twice", f)
				continue
			}
		}
		d.factIndex[f] = Fact(len(d.facts))
		d.facts = append(d.facts, f)
	}
	d.words = max(1, (len(d.facts)+63)/64)
	if n := maskBytes(spec, d.words); n > MaxMaskBytes {
		b.errorf("actions", "the domain's conditions and effects take %d bytes as bit masks (%d facts, so %d bytes a mask; four masks an action, two a goal and a cost rule), more than goap.MaxMaskBytes (%d): use fewer facts, actions or goals", n, len(d.facts), 8*d.words, MaxMaskBytes)
		return nil, b.errs
	}
	d.initial = make([]uint64, d.words)
	initMask := make([]uint64, d.words)
	b.condition("initial", spec.Initial, initMask, d.initial)

	d.masks = make([]uint64, 4*d.words*len(spec.Actions))
	for i, as := range spec.Actions {
		path := fmt.Sprintf("actions[%d]", i)
		if as.Name == "" {
			b.errorf(path+".name", "empty action name")
		} else if _, dup := d.actionIndex[as.Name]; dup {
			b.errorf(path+".name", "action %q is defined twice", as.Name)
		} else {
			d.actionIndex[as.Name] = ActionID(len(d.actions))
		}
		// Each action's four masks are its slice of d.masks, made once:
		// the searches read them front to back, and a copy would double
		// the largest table a domain has (actions × state words × 4).
		w := d.words
		buf := d.masks[4*w*i : 4*w*(i+1) : 4*w*(i+1)]
		a := action{
			name: as.Name, cost: as.Cost,
			preMask: buf[0:w:w], preValue: buf[w : 2*w : 2*w],
			effMask: buf[2*w : 3*w : 3*w], effValue: buf[3*w : 4*w : 4*w],
		}
		b.condition(path+".preconditions", as.Preconditions, a.preMask, a.preValue)
		b.condition(path+".effects", as.Effects, a.effMask, a.effValue)
		a.compiled = b.cost(path+".cost", as.Name, as.Cost)
		d.actions = append(d.actions, a)
	}

	for i, gs := range spec.Goals {
		path := fmt.Sprintf("goals[%d]", i)
		if gs.Name == "" {
			b.errorf(path+".name", "empty goal name")
		} else if _, dup := d.goalIndex[gs.Name]; dup {
			b.errorf(path+".name", "goal %q is defined twice", gs.Name)
		} else {
			d.goalIndex[gs.Name] = len(d.goals)
		}
		g := &Goal{domain: d, name: gs.Name, cond: Condition{make([]uint64, d.words), make([]uint64, d.words)}}
		b.condition(path+".conditions", gs.Conditions, g.cond.mask, g.cond.value)
		d.goals = append(d.goals, g)
	}
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	w := d.words
	if w == 1 {
		for i := range d.actions {
			a := &d.actions[i]
			d.one = append(d.one, oneWordAction{a.preMask[0], a.preValue[0], a.effMask[0], a.effValue[0]})
		}
	}
	b.work += len(d.masks)
	d.fails, _ = newFailTable(d.masks, w, len(d.actions))
	b.work += w*len(d.actions) + 64*len(d.fails.fail) // its read pass, and a word per action per entry
	base, err := d.NewProfile(ProfileSpec{})
	if err != nil {
		return nil, err
	}
	d.base = base
	d.buildWork = b.work + base.buildWork
	return d, nil
}

// MaxMaskBytes bounds the bit masks of a domain's conditions and effects:
// every action, goal and cost rule holds masks one bit a fact wide, so they
// take actions × facts / 8 bytes and more, the only part of a domain that
// grows as a product of the file's sizes rather than with its length (an
// 8 MiB file could declare 100 000 facts and 10 000 actions: about 500
// MiB). 5 000 actions and goals over 20 000 facts take 75 MiB; 100 000
// facts leave room for about 5 000 actions.
const MaxMaskBytes = 256 << 20

// maskBytes returns the bytes spec's masks take at words words a mask: the
// initial state's two, four an action, two a goal and a cost rule.
func maskBytes(spec Spec, words int) int {
	masks := 2 + 4*len(spec.Actions) + 2*len(spec.Goals)
	for _, a := range spec.Actions {
		masks += 2 * len(a.Cost.rules)
	}
	return masks * words * 8
}

// condition resolves a fact map into masks, reporting unknown facts in
// sorted order so that errors are deterministic.
func (b *builder) condition(path string, m map[string]bool, mask, value []uint64) {
	b.work += len(mask) + len(value) + len(m)
	for _, name := range slices.Sorted(maps.Keys(m)) {
		f, ok := b.d.factIndex[name]
		if !ok {
			b.errorf(path+"."+name, "%s", b.d.unknownFact(name))
			continue
		}
		mask[f>>6] |= 1 << (uint(f) & 63)
		if m[name] {
			value[f>>6] |= 1 << (uint(f) & 63)
		}
	}
}

func (d *Domain) unknownFact(name string) string {
	msg := fmt.Sprintf("unknown fact %q", name)
	if s := suggest.Closest(name, d.facts); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg
}

func (b *builder) cost(path, action string, c Cost) actionCost {
	out := actionCost{kind: c.kind, value: c.value, fn: c.fn, min: c.min, name: action}
	switch c.kind {
	case costUnset:
		b.errorf(path, "cost is required")
	case costConst:
		if !validCost(c.value) {
			b.errorf(path, "%s", costMessageOf(action, c.value))
		}
	case costRules:
		for i, r := range c.rules {
			rp := fmt.Sprintf("%s[%d]", path, i)
			if !validCost(r.Cost) {
				b.errorf(rp+".cost", "%s", costMessageOf(action, r.Cost))
			}
			if len(r.When) == 0 {
				b.errorf(rp+".when", "a rule with no condition always applies; make it the default instead")
			}
			cr := costRule{mask: make([]uint64, b.d.words), value: make([]uint64, b.d.words), cost: r.Cost}
			b.condition(rp+".when", r.When, cr.mask, cr.value)
			out.rules = append(out.rules, cr)
		}
		if !validCost(c.value) {
			b.errorf(fmt.Sprintf("%s[%d].cost", path, len(c.rules)), "default %s", costMessageOf(action, c.value))
		}
	case costFunc:
		if c.fn == nil {
			b.errorf(path, "cost function is nil")
		}
		if !validCost(c.min) {
			b.errorf(path, "declared minimum %s", costMessageOf(action, c.min))
		}
	}
	return out
}

// fixMax returns the most facts of cond that one action can set to the
// value cond requires. It counts, per action, the achievers of cond's
// literals (the default profile's, which are every action's): each effect
// of the domain is read at most once, so the count is linear in the
// domain's effects and cond's words, not in actions × words.
func (d *Domain) fixMax(cond Condition) int {
	d.base.prepare()
	lits := appendLiterals(nil, cond.mask, cond.value)
	fixed := make([]int32, len(d.actions))
	best := int32(0)
	for _, l := range lits {
		for _, a := range d.base.achievers[d.base.achieverOf[l]:d.base.achieverOf[l+1]] {
			fixed[a]++
			best = max(best, fixed[a])
		}
	}
	return int(best)
}

// Name returns the domain's name.
func (d *Domain) Name() string { return d.name }

// NumFacts returns the number of facts.
func (d *Domain) NumFacts() int { return len(d.facts) }

// FactName returns the name of fact f.
func (d *Domain) FactName(f Fact) string { return d.facts[f] }

// Fact returns the fact with the given name.
func (d *Domain) Fact(name string) (Fact, bool) {
	f, ok := d.factIndex[name]
	return f, ok
}

// Facts returns the fact names in index order. The caller must not modify it.
func (d *Domain) Facts() []string { return d.facts }

// NumActions returns the number of actions.
func (d *Domain) NumActions() int { return len(d.actions) }

// ActionName returns the name of action a.
func (d *Domain) ActionName(a ActionID) string {
	if a == NoAction {
		return "(start)"
	}
	return d.actions[a].name
}

// ActionByName returns the action with the given name.
func (d *Domain) ActionByName(name string) (ActionID, bool) {
	a, ok := d.actionIndex[name]
	return a, ok
}

// Preconditions returns what action a needs.
func (d *Domain) Preconditions(a ActionID) Condition {
	return Condition{d.actions[a].preMask, d.actions[a].preValue}
}

// Effects returns what action a changes, as the facts it sets and their values.
func (d *Domain) Effects(a ActionID) Condition {
	return Condition{d.actions[a].effMask, d.actions[a].effValue}
}

// Cost returns action a's cost as given in the spec.
func (d *Domain) Cost(a ActionID) Cost { return d.actions[a].cost }

// CostIn returns the cost of applying action a in state s, under the
// domain's own costs.
func (d *Domain) CostIn(a ActionID, s State) float64 { return d.actions[a].compiled.at(s.words) }

// Applicable reports whether action a's preconditions hold in s.
func (d *Domain) Applicable(a ActionID, s State) bool {
	return holds(s.words, d.actions[a].preMask, d.actions[a].preValue)
}

// Apply applies action a's effects to s in place: s = s &^ mask | value.
func (d *Domain) Apply(a ActionID, s State) {
	act := &d.actions[a]
	for w := range s.words {
		s.words[w] = s.words[w]&^act.effMask[w] | act.effValue[w]
	}
}

// Goals returns the domain's goals in spec order. The caller must not modify it.
func (d *Domain) Goals() []*Goal { return d.goals }

// Goal returns the goal with the given name, or nil.
func (d *Domain) Goal(name string) *Goal {
	if i, ok := d.goalIndex[name]; ok {
		return d.goals[i]
	}
	return nil
}

// NewGoal compiles an ad-hoc goal that is not part of the domain.
func (d *Domain) NewGoal(name string, conditions map[string]bool) (*Goal, error) {
	c, err := d.Condition(conditions)
	if err != nil {
		return nil, err
	}
	return &Goal{domain: d, name: name, cond: c}, nil
}

// Condition compiles a fact map into a condition.
func (d *Domain) Condition(facts map[string]bool) (Condition, error) {
	b := &builder{d: d}
	c := Condition{make([]uint64, d.words), make([]uint64, d.words)}
	b.condition("", facts, c.mask, c.value)
	if len(b.errs) > 0 {
		for _, e := range b.errs {
			e.Path = strings.TrimPrefix(e.Path, ".")
		}
		return Condition{}, b.errs
	}
	return c, nil
}

// NewState returns a state in which no fact holds.
func (d *Domain) NewState() State { return State{words: make([]uint64, d.words)} }

// Initial returns a fresh copy of the domain's initial state.
func (d *Domain) Initial() State { return State{words: slices.Clone(d.initial)} }

// StateOf returns a state in which exactly the named facts hold.
func (d *Domain) StateOf(facts ...string) (State, error) {
	s := d.NewState()
	var errs SpecErrors
	for _, name := range facts {
		f, ok := d.factIndex[name]
		if !ok {
			errs = append(errs, &SpecError{Path: name, Msg: d.unknownFact(name)})
			continue
		}
		s.Set(f, true)
	}
	if errs != nil {
		return State{}, errs
	}
	return s, nil
}

// FormatState writes the facts that hold in s by name, as {a, b}.
func (d *Domain) FormatState(s State) string {
	var sb strings.Builder
	formatFacts(&sb, d.facts, s.words)
	return sb.String()
}

// FormatCondition writes c by name, a fact required false prefixed by !, as {a, !b}.
func (d *Domain) FormatCondition(c Condition) string {
	var sb strings.Builder
	formatCondition(&sb, d.facts, c.mask, c.value)
	return sb.String()
}

func (d *Domain) checkState(s State) {
	if err := d.CheckState(s); err != nil {
		panic(err.Error())
	}
}

// CheckState reports whether s can be a state of d: one word per 64 facts,
// and no bit set past the domain's last fact. Plan panics with this error's
// message on a state that fails it; a caller that builds states from words
// it did not get from d (StateFromWords) can check them first.
func (d *Domain) CheckState(s State) error {
	if len(s.words) != d.words {
		return fmt.Errorf("goap: state has %d words, domain %q needs %d: make states with the domain", len(s.words), d.name, d.words)
	}
	if r := len(d.facts) & 63; r != 0 {
		if extra := s.words[d.words-1] >> uint(r); extra != 0 {
			return fmt.Errorf("goap: state sets bit %d, past the %d facts of domain %q: make states with the domain", (d.words-1)*64+r+bits.TrailingZeros64(extra), len(d.facts), d.name)
		}
	} else if len(d.facts) == 0 && s.words[0] != 0 {
		return fmt.Errorf("goap: state sets bit %d, but domain %q has no facts: make states with the domain", bits.TrailingZeros64(s.words[0]), d.name)
	}
	return nil
}

func (d *Domain) checkGoal(g *Goal) {
	if g == nil {
		panic("goap: nil goal")
	}
	if g.domain != d {
		panic(fmt.Sprintf("goap: goal %q belongs to another domain than %q", g.name, d.name))
	}
}
