package agent_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// commitGoals are the goals of the commitment tests' world, each reached
// by two steps (PrepX, then DoX), so that a step is under way while its
// goal is pursued: B is an ordinary rival of A, Heal the interruption a
// commitment exempts.
var commitGoals = []string{"A", "B", "Heal"}

// commitWorld is the world of the commitment tests, for a GOAP agent and
// a resolver agent alike: facts (keys) by name, a score per goal that the
// test sets, and behaviours that run dur ticks each and then make their
// action's effect true.
type commitWorld struct {
	t       *testing.T
	facts   map[string]bool
	score   map[string]float64
	dur     int
	left    int
	stopped []string // behaviours stopped before they succeeded
	rec     agent.Recorder
	sink    *keptDecisions
	tick    func()
	goal    func() string
	// off: goals whose option's When is false (the option withdrawn)
	off map[string]bool
	// queue, if set, is where the agent asks for its plans
	queue *agent.Queue
	// trace: the agent records at the trace level (TraceDecisions)
	trace bool
	// calls, if set, logs the options' When and Utility calls in order
	calls *[]string
}

// called logs a call of an option's When or Utility, if w.calls is set.
func (w *commitWorld) called(fn, goal string) {
	if w.calls != nil {
		*w.calls = append(*w.calls, fn+" "+goal)
	}
}

// keptDecisions is a decision sink that keeps copies of the decisions.
type keptDecisions struct{ d []agent.Decision }

func (k *keptDecisions) RecordDecision(d *agent.Decision) {
	b, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	var c agent.Decision
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	k.d = append(k.d, c)
}

func newCommitWorld(t *testing.T) *commitWorld {
	return &commitWorld{t: t, facts: map[string]bool{}, score: map[string]float64{"A": 2, "B": 1, "Heal": 0}, dur: 1000, sink: &keptDecisions{}, off: map[string]bool{}}
}

// decisions is the agents' decision sink: w.sink, or none when the test
// set it nil (an interface holding a nil pointer is not none).
func (w *commitWorld) decisions() agent.DecisionSink {
	if w.sink == nil {
		return nil
	}
	return w.sink
}

// run ticks the agent n times.
func (w *commitWorld) run(n int) {
	for range n {
		w.tick()
	}
}

// behaviour runs for w.dur ticks and then makes fact true.
func (w *commitWorld) behaviour(name, fact string) (start func(), tick func() agent.Status, stop func()) {
	done := false
	start = func() { w.left, done = w.dur, false }
	tick = func() agent.Status {
		if w.left--; w.left > 0 {
			return agent.Running
		}
		w.facts[fact], done = true, true
		return agent.Success
	}
	stop = func() {
		if !done {
			w.stopped = append(w.stopped, name)
		}
	}
	return start, tick, stop
}

// goapAgent makes a GOAP agent with commitment c in w.
func (w *commitWorld) goapAgent(c *agent.Commitment) *agent.Agent {
	w.t.Helper()
	spec := goap.Spec{Name: "commit"}
	for _, g := range commitGoals {
		x := strings.ToLower(g)
		spec.Facts = append(spec.Facts, x+"1", x)
		spec.Actions = append(spec.Actions,
			goap.ActionSpec{Name: "Prep" + g, Effects: map[string]bool{x + "1": true}, Cost: goap.Const(1)},
			goap.ActionSpec{Name: "Do" + g, Preconditions: map[string]bool{x + "1": true}, Effects: map[string]bool{x: true}, Cost: goap.Const(1)})
		spec.Goals = append(spec.Goals, goap.GoalSpec{Name: g, Conditions: map[string]bool{x: true}})
	}
	d, err := goap.NewDomain(spec)
	if err != nil {
		w.t.Fatal(err)
	}
	cfg := agent.Config{Name: "goap", Domain: d, Behaviours: map[string]agent.Behaviour{}, Commitment: c, OnEvent: w.rec.Record, Decisions: w.decisions(), Queue: w.queue, TraceDecisions: w.trace,
		Sensor: func(_ *agent.Agent, facts goap.State) {
			for f := range goap.Fact(d.NumFacts()) {
				facts.Set(f, w.facts[d.FactName(f)])
			}
		}}
	for _, g := range commitGoals {
		cfg.Goals = append(cfg.Goals, agent.GoalOption{Goal: d.Goal(g),
			Utility: func(*agent.Agent) float64 { w.called("utility", g); return w.score[g] },
			When:    func(*agent.Agent) bool { w.called("when", g); return !w.off[g] }})
		x := strings.ToLower(g)
		for _, step := range []struct{ action, fact string }{{"Prep" + g, x + "1"}, {"Do" + g, x}} {
			start, tick, stop := w.behaviour(step.action, step.fact)
			cfg.Behaviours[step.action] = agent.Funcs{
				StartFunc: func(*agent.Agent) { start() },
				TickFunc:  func(*agent.Agent) agent.Status { return tick() },
				StopFunc:  func(*agent.Agent) { stop() },
			}
		}
	}
	a, err := agent.New(cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	w.tick = a.Tick
	w.goal = func() string {
		if g := a.Goal(); g != nil {
			return g.Name()
		}
		return ""
	}
	return a
}

// resolverAgent makes a resolver agent with commitment c in w.
func (w *commitWorld) resolverAgent(c *agent.Commitment) *agent.ResolverAgent {
	w.t.Helper()
	spec := resolver.Spec{Name: "commit"}
	for _, g := range commitGoals {
		x := strings.ToLower(g)
		spec.Keys = append(spec.Keys, resolver.KeySpec{Name: x + "1", Kind: resolver.Bool}, resolver.KeySpec{Name: x, Kind: resolver.Bool})
		spec.Actions = append(spec.Actions,
			resolver.ActionSpec{Name: "Prep" + g, Effects: []resolver.Effect{resolver.Sets(x+"1", true)}, Cost: 1},
			resolver.ActionSpec{Name: "Do" + g, Conditions: []resolver.Condition{resolver.True(x + "1")}, Effects: []resolver.Effect{resolver.Sets(x, true)}, Cost: 1})
		spec.Goals = append(spec.Goals, resolver.GoalSpec{Name: g, Conditions: []resolver.Condition{resolver.True(x)}})
	}
	d, err := resolver.NewDomain(spec)
	if err != nil {
		w.t.Fatal(err)
	}
	cfg := agent.ResolverConfig{Name: "resolver", Domain: d, Behaviours: map[string]agent.ResolverBehaviour{}, Commitment: c, OnEvent: w.rec.Record, Decisions: w.decisions(), Queue: w.queue, TraceDecisions: w.trace,
		Sensor: func(_ *agent.ResolverAgent, s *resolver.Snapshot) {
			for k, name := range d.Keys() {
				s.Values[k] = 0
				if w.facts[name.Name] {
					s.Values[k] = 1
				}
			}
		}}
	for _, g := range commitGoals {
		cfg.Goals = append(cfg.Goals, agent.ResolverGoal{Goal: d.Goal(g),
			Utility: func(*agent.ResolverAgent) float64 { w.called("utility", g); return w.score[g] },
			When:    func(*agent.ResolverAgent) bool { w.called("when", g); return !w.off[g] }})
		x := strings.ToLower(g)
		for _, step := range []struct{ action, fact string }{{"Prep" + g, x + "1"}, {"Do" + g, x}} {
			start, tick, stop := w.behaviour(step.action, step.fact)
			cfg.Behaviours[step.action] = agent.ResolverFuncs{
				StartFunc: func(*agent.ResolverAgent) { start() },
				TickFunc:  func(*agent.ResolverAgent) agent.Status { return tick() },
				StopFunc:  func(*agent.ResolverAgent) { stop() },
			}
		}
	}
	a, err := agent.NewResolverAgent(cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	w.tick = a.Tick
	w.goal = func() string {
		if g := a.Goal(); g != nil {
			return g.Name()
		}
		return ""
	}
	return a
}

// commitKinds make an agent of each kind that chooses goals in a fresh
// world, with commitment c.
var commitKinds = []struct {
	name string
	make func(t *testing.T, c *agent.Commitment) *commitWorld
}{
	{"goap", func(t *testing.T, c *agent.Commitment) *commitWorld {
		w := newCommitWorld(t)
		w.goapAgent(c)
		return w
	}},
	{"resolver", func(t *testing.T, c *agent.Commitment) *commitWorld {
		w := newCommitWorld(t)
		w.resolverAgent(c)
		return w
	}},
}

// switchTick plays until the goal becomes want, at most limit ticks, and
// returns how many ticks that took (-1: never).
func (w *commitWorld) switchTick(want string, limit int) int {
	for i := 1; i <= limit; i++ {
		w.tick()
		if w.goal() == want {
			return i
		}
	}
	return -1
}

// TestCommitmentMargin: B must score more than A's score plus the margin
// to replace A: 2.4 against 2 with a margin of 0.5 does not, 2.6 does,
// and without a commitment 2.4 does at once.
func TestCommitmentMargin(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 0.5})
			w.run(3)
			if g := w.goal(); g != "A" {
				t.Fatalf("goal %q, want A (it scores 2 to B's 1)", g)
			}
			w.score["B"] = 2.4
			if n := w.switchTick("B", 50); n >= 0 {
				t.Errorf("B, at 2.4 against A's 2, replaced A after %d ticks despite the margin of 0.5", n)
			}
			w.score["B"] = 2.5 // not more than 2 + 0.5
			if n := w.switchTick("B", 50); n >= 0 {
				t.Errorf("B, at exactly A's score plus the margin, replaced A after %d ticks: it must score more", n)
			}
			w.score["B"] = 2.6
			if n := w.switchTick("B", 5); n != 1 {
				t.Errorf("B at 2.6 took %d ticks to replace A, want 1", n)
			}

			free := k.make(t, nil)
			free.run(3)
			free.score["B"] = 2.4
			if n := free.switchTick("B", 5); n != 1 {
				t.Errorf("without commitment, B at 2.4 took %d ticks to replace A, want 1", n)
			}
		})
	}
}

// TestCommitmentMinTicks: chosen at tick 1, A is kept against a far
// better B until it has been pursued MinTicks ticks, and replaced on the
// tick it has.
func TestCommitmentMinTicks(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{MinTicks: 20})
			w.tick() // tick 1: A chosen
			w.score["B"] = 9
			if n := w.switchTick("B", 40); n != 20 {
				t.Errorf("B replaced A %d ticks after tick 1, want 20 (on tick 21, A's 20th tick after the one it was chosen on)", n)
			}
			// The clock restarts with the new goal: B is kept as long.
			w.score["A"] = 20
			if n := w.switchTick("A", 40); n != 20 {
				t.Errorf("A took back over after %d ticks on B, want 20", n)
			}
		})
	}
}

// TestCommitmentExempt: an exempt goal that outscores the current one
// replaces it at once, whatever the margin, the minimum time and the
// running step say; another, outscoring it by more, is held off.
func TestCommitmentExempt(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 5, MinTicks: 100, FinishAction: true, Exempt: []string{"Heal"}})
			w.run(3)
			w.score["B"] = 50
			w.score["Heal"] = 2.1 // more than A's 2, far less than the margin above it
			if n := w.switchTick("Heal", 5); n != 1 {
				t.Errorf("exempt Heal took %d ticks to replace A, want 1", n)
			}
			if !slices.Contains(w.stopped, "PrepA") {
				t.Errorf("A's running step was not stopped when Heal interrupted it (stopped: %v)", w.stopped)
			}
			// Heal is now the goal, and the commitment holds it too: B,
			// not exempt, still waits.
			if n := w.switchTick("B", 50); n >= 0 {
				t.Errorf("B replaced Heal after %d ticks, within its minimum time", n)
			}
		})
	}
}

// TestCommitmentFinishAction: with FinishAction, a B that outscores A
// while A's first step runs waits for the step to succeed, and replaces
// A on the next tick; without, it stops the step at once.
func TestCommitmentFinishAction(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{FinishAction: true})
			w.dur = 10
			w.run(3) // PrepA started on tick 1
			w.score["B"] = 9
			n := w.switchTick("B", 40)
			if !w.facts["a1"] || slices.Contains(w.stopped, "PrepA") {
				t.Errorf("PrepA was stopped (%v) or did not finish (a1 %v) before B replaced A", w.stopped, w.facts["a1"])
			}
			if n != 8 {
				t.Errorf("B replaced A %d ticks after tick 3, want 8 (PrepA, 10 ticks from tick 1, succeeds on tick 10; B on tick 11)", n)
			}

			free := k.make(t, nil)
			free.dur = 10
			free.run(3)
			free.score["B"] = 9
			if n := free.switchTick("B", 5); n != 1 || !slices.Contains(free.stopped, "PrepA") {
				t.Errorf("without commitment, B took %d ticks and PrepA was stopped: %v; want 1 and stopped", n, free.stopped)
			}
		})
	}
}

// TestCommitmentLetsAGoalThatStopsApplyingGo: commitment keeps a goal
// only while it applies: once it holds, the agent moves on at once, its
// minimum time notwithstanding.
func TestCommitmentLetsAGoalThatStopsApplyingGo(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{MinTicks: 1000, Margin: 100, FinishAction: true})
			w.dur = 2
			for i := 0; !w.facts["a"]; i++ {
				if i == 20 {
					t.Fatal("A does not come to hold in 20 ticks")
				}
				w.tick()
			}
			w.tick() // the agent senses A holding
			if g := w.goal(); g != "B" {
				t.Errorf("goal %q on the tick A held, want B at once", g)
			}
			for _, e := range w.rec.Events {
				if e.Kind == agent.GoalChosen && e.Goal == "" {
					t.Errorf("goal_chosen with no goal at tick %d: B applied", e.Tick)
				}
			}
		})
	}
}

// TestCommitmentZeroIsChoiceWithout: a nil commitment, a zero one and
// one that only lists exempt goals choose exactly as an agent with none:
// the same events, tick for tick, under scores that change at random.
func TestCommitmentZeroIsChoiceWithout(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			play := func(c *agent.Commitment) string {
				w := k.make(t, c)
				w.dur = 3
				r := rand.New(rand.NewPCG(7, 11))
				for range 400 {
					for _, g := range commitGoals {
						if r.IntN(4) == 0 {
							w.score[g] = float64(r.IntN(5))
						}
					}
					if r.IntN(9) == 0 {
						clear(w.facts) // the world undoes the goals
					}
					w.tick()
				}
				var sb strings.Builder
				w.rec.WriteJSONL(&sb)
				return sb.String()
			}
			without := play(nil)
			if strings.Count(without, `"goal_chosen"`) < 50 {
				t.Fatalf("only %d goal choices in the reference game", strings.Count(without, `"goal_chosen"`))
			}
			for _, c := range []*agent.Commitment{{}, {Exempt: []string{"Heal"}}} {
				if got := play(c); got != without {
					t.Errorf("commitment %+v changes the game", *c)
				}
			}
			if got := play(&agent.Commitment{MinTicks: 5}); got == without {
				t.Error("a commitment of 5 ticks changes nothing: the game does not test goal choice")
			}
		})
	}
}

// TestCommitmentInDecisions: the first tick commitment keeps the goal
// against an option that outscores it is recorded as a goal decision that
// says so: the kept option's why, the held one's rule, the commitment and
// the ticks on the goal. A plan asked for while it holds says so too.
func TestCommitmentInDecisions(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 0.5, MinTicks: 10, Exempt: []string{"Heal"}, FinishAction: true})
			w.run(3)
			before := len(w.sink.d)
			w.score["B"] = 9
			w.run(3) // held off by the running step
			kept := w.sink.d[before:]
			if len(kept) != 1 {
				t.Fatalf("%d decisions while commitment held A, want 1 (the first tick): %+v", len(kept), kept)
			}
			d := kept[0]
			if d.Decided != "goal" || d.Reason != agent.ReasonCommitment || d.Goal != "A" || d.Current != "A" || d.Tick != 4 || d.Status != "not_searched" {
				t.Errorf("decision %+v, want a goal decision at tick 4 keeping A for %q", d, agent.ReasonCommitment)
			}
			want := agent.DecisionCommitment{Margin: 0.5, MinTicks: 10, Exempt: []string{"Heal"}, FinishAction: true, OnGoal: 3, Acting: true}
			if fmt.Sprint(d.Commitment) != fmt.Sprint(want) {
				t.Errorf("commitment %+v, want %+v", d.Commitment, want)
			}
			whys := map[string]string{}
			for _, o := range d.Options {
				whys[o.Goal] = o.Why
			}
			if whys["A"] != "kept: committed to the current goal" || whys["B"] != agent.WhyHeldFinishAction || whys["Heal"] != "lower score" {
				t.Errorf("whys %v", whys)
			}
			// Within min_ticks once the step is done, then within the
			// margin, each rule named in a plan's record.
			w.dur, w.left = 1, 1
			w.score["B"] = 2.3
			w.sink.d = nil
			for range 20 {
				w.facts["a1"], w.facts["a"] = false, false // PrepA again and again: A stays unmet
				w.tick()
			}
			seen := map[string]bool{}
			for _, d := range w.sink.d {
				for _, o := range d.Options {
					if o.Goal == "B" {
						seen[o.Why] = true
					}
				}
			}
			for _, why := range []string{agent.WhyHeldMinTicks, agent.WhyHeldMargin} {
				if !seen[why] {
					t.Errorf("no record says B was %q (whys of B: %v)", why, seen)
				}
			}
			if w.goal() != "A" {
				t.Errorf("goal %q, want A kept within the margin", w.goal())
			}
		})
	}
}

// TestTraceLevelOutlastsGoalChoice: the trace level is kept beside the
// notes goal choice writes every tick (goalMemory), which the commitment's
// rules set and clear as they hold an option off and let it go: every
// plan the agent asks for, before, while and after commitment holds, is
// still traced, and turning the trace off is seen from the next request.
func TestTraceLevelOutlastsGoalChoice(t *testing.T) {
	for _, k := range []struct {
		name string
		make func(w *commitWorld, c *agent.Commitment) *agent.Agent
	}{
		{"goap", (*commitWorld).goapAgent},
		{"resolver", func(w *commitWorld, c *agent.Commitment) *agent.Agent { return w.resolverAgent(c).Agent() }},
	} {
		t.Run(k.name, func(t *testing.T) {
			w := newCommitWorld(t)
			w.trace = true
			a := k.make(w, &agent.Commitment{MinTicks: 10, FinishAction: true})
			w.run(3)
			w.score["B"] = 9
			w.run(3) // held off by the running step: a "goal" decision
			w.dur, w.left = 1, 1
			for range 30 { // A's step again and again, B held off by min_ticks
				w.facts["a1"], w.facts["a"] = false, false
				w.tick()
			}
			plans, held := 0, false
			for _, d := range w.sink.d {
				held = held || d.Reason == agent.ReasonCommitment
				if d.Decided != "plan" {
					continue
				}
				plans++
				if !d.Traced {
					t.Errorf("tick %d: a plan for %s recorded untraced, at the trace level", d.Tick, d.Goal)
				}
			}
			if plans < 3 || !held {
				t.Fatalf("%d plans, commitment held: %v: the game does not test what it should", plans, held)
			}
			w.sink.d = nil
			a.SetTraceDecisions(false)
			for range 10 {
				w.facts["a1"], w.facts["a"] = false, false
				w.tick()
			}
			if len(w.sink.d) == 0 {
				t.Fatal("no decision after SetTraceDecisions(false)")
			}
			for _, d := range w.sink.d {
				if d.Traced {
					t.Errorf("tick %d: a plan recorded traced after SetTraceDecisions(false)", d.Tick)
				}
			}
		})
	}
}

// TestCommitmentExemptRecorded: an exempt goal that replaces the current
// one while another is held off says it is exempt.
func TestCommitmentExemptRecorded(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{MinTicks: 100, Exempt: []string{"Heal"}})
			w.run(3)
			w.score["B"], w.score["Heal"] = 9, 3
			w.sink.d = nil
			w.tick()
			if len(w.sink.d) == 0 {
				t.Fatal("no decision when Heal replaced A")
			}
			d := w.sink.d[0]
			whys := map[string]string{}
			for _, o := range d.Options {
				whys[o.Goal] = o.Why
			}
			if d.Goal != "Heal" || whys["Heal"] != "exempt from commitment: replaces the current goal" || whys["B"] != agent.WhyHeldMinTicks {
				t.Errorf("goal %q, whys %v", d.Goal, whys)
			}
		})
	}
}

// TestGoalChosenWithNoGoalSaysWhy: when the goal the agent pursued comes
// to hold and no other applies, its goal_chosen event names the goal
// satisfied and counts why the others do not apply.
func TestGoalChosenWithNoGoalSaysWhy(t *testing.T) {
	for _, k := range commitKinds {
		for _, c := range []*agent.Commitment{nil, {MinTicks: 50, Margin: 1}} {
			t.Run(fmt.Sprintf("%s, commitment %v", k.name, c != nil), func(t *testing.T) { goalChosenWithNoGoal(t, k.make(t, c)) })
		}
	}
}

// goalChosenWithNoGoal plays w until A holds, B and Heal holding from
// the start, and checks the last goal_chosen event.
func goalChosenWithNoGoal(t *testing.T, w *commitWorld) {
	w.dur = 1
	w.facts["b"], w.facts["heal"] = true, true
	w.run(6) // PrepA, DoA
	var last agent.Event
	for _, e := range w.rec.Events {
		if e.Kind == agent.GoalChosen {
			last = e
		}
	}
	if last.Goal != "" || last.Satisfied != "A" || last.Why != "no goal option applies: 3 goals hold" {
		t.Errorf("last goal_chosen %+v, want none, satisfied A, 3 goals hold", last)
	}
	b, _ := json.Marshal(last)
	if !strings.Contains(string(b), `"satisfied":"A","why":"no goal option applies: 3 goals hold"`) {
		t.Errorf("in JSON: %s", b)
	}
}

// TestCommitmentConfigErrors: a commitment that cannot hold a goal is
// refused when the agent is made, naming what is wrong.
func TestCommitmentConfigErrors(t *testing.T) {
	type errCase struct {
		c    agent.Commitment
		want string
	}
	cases := []errCase{
		{agent.Commitment{Margin: -1}, "Commitment.Margin is -1: want 0 or more"},
		{agent.Commitment{Margin: math.NaN()}, "Commitment.Margin is NaN"},
		{agent.Commitment{Margin: math.Inf(1)}, "Commitment.Margin is +Inf"},
		{agent.Commitment{MinTicks: -3}, "Commitment.MinTicks is -3: want 0 to 2147483647 ticks"},
		{agent.Commitment{Exempt: []string{"Heel"}}, `Commitment.Exempt names goal "Heel", which is none of the agent's goal options; did you mean "Heal"?`},
		{agent.Commitment{Exempt: []string{"Heal", "Heal"}}, `Commitment.Exempt names goal "Heal" twice`},
	}
	if over := int64(math.MaxInt32) + 1; strconv.IntSize == 64 { // an int of 32 bits cannot hold it
		cases = append(cases, errCase{agent.Commitment{MinTicks: int(over)}, "Commitment.MinTicks is 2147483648"})
	}
	for _, c := range cases {
		for _, k := range []string{"goap", "resolver"} {
			if err := commitErr(t, k, &c.c); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s, %+v: error %v, want %q", k, c.c, err, c.want)
			}
		}
	}
}

// commitErr makes an agent of kind k with commitment c and returns the
// error.
func commitErr(t *testing.T, k string, c *agent.Commitment) error {
	if k == "goap" {
		spec := goap.Spec{Name: "commit", Facts: []string{"a", "heal"}, Actions: []goap.ActionSpec{{Name: "DoA", Effects: map[string]bool{"a": true}, Cost: goap.Const(1)}},
			Goals: []goap.GoalSpec{{Name: "A", Conditions: map[string]bool{"a": true}}, {Name: "Heal", Conditions: map[string]bool{"heal": true}}}}
		d, err := goap.NewDomain(spec)
		if err != nil {
			t.Fatal(err)
		}
		_, err = agent.New(agent.Config{Domain: d, Goals: []agent.GoalOption{{Goal: d.Goal("A")}, {Goal: d.Goal("Heal")}}, Commitment: c,
			Behaviours: map[string]agent.Behaviour{"DoA": agent.Funcs{}}})
		return err
	}
	spec := resolver.Spec{Name: "commit", Keys: []resolver.KeySpec{{Name: "a", Kind: resolver.Bool}, {Name: "heal", Kind: resolver.Bool}},
		Actions: []resolver.ActionSpec{{Name: "DoA", Effects: []resolver.Effect{resolver.Sets("a", true)}, Cost: 1}},
		Goals:   []resolver.GoalSpec{{Name: "A", Conditions: []resolver.Condition{resolver.True("a")}}, {Name: "Heal", Conditions: []resolver.Condition{resolver.True("heal")}}}}
	d, err := resolver.NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = agent.NewResolverAgent(agent.ResolverConfig{Domain: d, Goals: []agent.ResolverGoal{{Goal: d.Goal("A")}, {Goal: d.Goal("Heal")}}, Commitment: c,
		Behaviours: map[string]agent.ResolverBehaviour{"DoA": agent.ResolverFuncs{}}, Sensor: func(*agent.ResolverAgent, *resolver.Snapshot) {}})
	return err
}

// TestCommitmentRefusedWhereNoGoalIsChosen: an HTN agent and a tree
// agent choose no goal option, so a commitment for one is refused.
func TestCommitmentRefusedWhereNoGoalIsChosen(t *testing.T) {
	w, d, h := newToy(t)
	htnCfg := goapConfig(w, d, nil)
	htnCfg.HTN, htnCfg.Goals = h, nil
	htnCfg.Commitment = &agent.Commitment{MinTicks: 5}
	if _, err := agent.New(htnCfg); err == nil || !strings.Contains(err.Error(), "an HTN agent chooses no goal option, so a Commitment has nothing to hold") {
		t.Errorf("HTN agent with a commitment: %v", err)
	}
	treeCfg := goapConfig(w, d, nil)
	treeCfg.Tree = agent.Plan(d.Goal("Kill"))
	treeCfg.Commitment = &agent.Commitment{Exempt: []string{"Kill"}}
	if _, err := agent.New(treeCfg); err == nil || !strings.Contains(err.Error(), "a tree agent chooses no goal option") {
		t.Errorf("tree agent with a commitment: %v", err)
	}
	// A zero commitment is no commitment, on any agent.
	htnCfg.Commitment = &agent.Commitment{}
	if _, err := agent.New(htnCfg); err != nil {
		t.Errorf("HTN agent with a zero commitment: %v", err)
	}
}

// TestCommitmentRecordsMatchTheSchema: decisions of an agent with a
// commitment, the goal decision commitment records included, validate
// against docs/records.schema.json, commitment and all.
func TestCommitmentRecordsMatchTheSchema(t *testing.T) {
	raw, err := os.ReadFile("../docs/records.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	defs := schema["$defs"].(map[string]any)
	for _, k := range commitKinds {
		w := k.make(t, &agent.Commitment{Margin: 0.5, MinTicks: 10, Exempt: []string{"Heal"}, FinishAction: true})
		w.run(3)
		w.score["B"] = 9
		w.run(3)
		kept := false
		for i, d := range w.sink.d {
			b, _ := json.Marshal(&d)
			kept = kept || d.Reason == agent.ReasonCommitment
			if !strings.Contains(string(b), `"commitment":{"margin":0.5,"min_ticks":10,"exempt":["Heal"],"finish_action":true,"on_goal":`) {
				t.Errorf("%s: decision %d has no commitment: %s", k.name, i, b)
			}
			var v any
			json.Unmarshal(b, &v)
			for _, e := range schemaCheck(defs, defs["decision"].(map[string]any), v, fmt.Sprintf("%s decision %d", k.name, i)) {
				t.Error(e)
			}
		}
		if !kept {
			t.Errorf("%s: no decision of commitment keeping the goal", k.name)
		}
	}
}

// TestCommitmentLetsAWithdrawnGoalGo: an option the game withdraws at run
// time (its When turns false) stops being held to, whatever the rules
// say: B replaces A on the next tick and A's step is stopped. Back, A is
// held off by B's own minimum time, counted from B's choice (no
// finish_action here: B's step outlasts the test).
func TestCommitmentLetsAWithdrawnGoalGo(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{MinTicks: 40, Margin: 100})
			w.run(3) // A chosen on tick 1, PrepA running
			w.off["A"] = true
			if n := w.switchTick("B", 5); n != 1 {
				t.Fatalf("B took %d ticks to replace a withdrawn A, want 1", n)
			}
			if !slices.Contains(w.stopped, "PrepA") {
				t.Errorf("the withdrawn A's step was not stopped (stopped: %v)", w.stopped)
			}
			w.off["A"], w.score["A"] = false, 500
			if n := w.switchTick("A", 100); n != 40 {
				t.Errorf("A, back and far ahead, replaced B %d ticks after B was chosen, want 40", n)
			}
		})
	}
}

// TestCommitmentHoldsAnExemptCurrentGoal: Exempt lets a goal interrupt;
// once it is the current goal the rules hold others off it as any other.
func TestCommitmentHoldsAnExemptCurrentGoal(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{MinTicks: 50, Exempt: []string{"A"}})
			w.run(3) // A chosen on tick 1
			w.score["B"] = 9
			if n := w.switchTick("B", 100); n != 48 {
				t.Errorf("B replaced the exempt current goal A %d ticks after tick 3, want 48 (tick 51)", n)
			}
		})
	}
}

// TestCommitmentFinishActionThroughAQueuedReplan: a resolver agent keeps
// its running step while a replan waits in the queue (it commits only to
// the head of its chain), so finish_action holds a better B off until the
// step succeeds, however long the queue takes.
func TestCommitmentFinishActionThroughAQueuedReplan(t *testing.T) {
	w := newCommitWorld(t)
	w.queue = agent.NewQueue(1, 10)
	a := w.resolverAgent(&agent.Commitment{FinishAction: true})
	w.dur = 10
	w.tick()
	w.queue.Frame() // A's chain delivered
	w.run(2)        // PrepA started on tick 2
	w.score["B"] = 9
	a.RequestReplan()
	w.tick() // B held off, the replan queued
	if w.queue.Len() != 1 || w.goal() != "A" {
		t.Fatalf("after the replan's tick: %d queued, goal %q; want 1 and A", w.queue.Len(), w.goal())
	}
	w.run(3) // waiting for the queue
	n := 0
	for ; n < 30 && w.goal() != "B"; n++ {
		w.queue.Frame()
		w.tick()
	}
	if len(w.stopped) != 0 || !w.facts["a1"] {
		t.Errorf("PrepA stopped (%v) or unfinished (a1 %v) when B replaced A", w.stopped, w.facts["a1"])
	}
	if w.goal() != "B" {
		t.Errorf("B never replaced A after PrepA finished")
	}
}

// TestGoalChosenWithNoGoalNamesOnlyItsOwnGoal: a goal_chosen event with
// no goal names a goal satisfied only if it is the goal the agent
// pursued: when A is withdrawn while B and Heal hold, none was satisfied
// (B and Heal were never pursued), with and without a commitment.
func TestGoalChosenWithNoGoalNamesOnlyItsOwnGoal(t *testing.T) {
	for _, k := range commitKinds {
		for _, c := range []*agent.Commitment{nil, {MinTicks: 50, Margin: 1}} {
			t.Run(fmt.Sprintf("%s, commitment %v", k.name, c != nil), func(t *testing.T) {
				w := k.make(t, c)
				w.facts["b"], w.facts["heal"] = true, true
				w.run(3) // A pursued
				w.off["A"] = true
				w.tick()
				last := w.rec.Events[len(w.rec.Events)-1]
				for _, e := range w.rec.Events {
					if e.Kind == agent.GoalChosen {
						last = e
					}
				}
				if last.Goal != "" || last.Satisfied != "" || last.Why != "no goal option applies: 2 goals hold, 1 option's when is false" {
					t.Errorf("last goal_chosen %+v, want no goal, none satisfied, 2 goals hold and 1 when false", last)
				}
			})
		}
	}
}

// TestRecordsMarkTheCurrentOptionWhereverItIs: a record marks the goal
// the agent pursued as goal choice began as current wherever it is among
// the options, with and without a commitment: kept at the highest score
// (B, the second option, chosen and current), and after its goal came to
// hold (B current but no longer applying, A chosen).
func TestRecordsMarkTheCurrentOptionWhereverItIs(t *testing.T) {
	for _, kind := range []string{"goap", "resolver"} {
		for _, c := range []*agent.Commitment{nil, {Margin: 0.5}} {
			t.Run(fmt.Sprintf("%s/commitment=%v", kind, c != nil), func(t *testing.T) {
				w := newCommitWorld(t)
				w.score["B"] = 3
				var replan func()
				if kind == "goap" {
					replan = w.goapAgent(c).RequestReplan
				} else {
					replan = w.resolverAgent(c).RequestReplan
				}
				w.run(2)
				replan()
				w.run(1)
				last := func() agent.Decision {
					if len(w.sink.d) == 0 {
						t.Fatal("no decision recorded")
					}
					return w.sink.d[len(w.sink.d)-1]
				}
				d := last()
				if d.Reason != agent.ReasonRequested || d.Goal != "B" || d.Current != "B" {
					t.Fatalf("the replan's record: reason %q, goal %q, current %q; want %q, B, B", d.Reason, d.Goal, d.Current, agent.ReasonRequested)
				}
				for _, o := range d.Options {
					isB := o.Goal == "B"
					if o.Chosen != isB || o.Current != isB {
						t.Errorf("the replan's record: option %s chosen %v, current %v; want both %v", o.Goal, o.Chosen, o.Current, isB)
					}
					if isB && o.Why != "kept: the current goal at an equal or higher score" {
						t.Errorf("the replan's record: B's why %q", o.Why)
					}
				}
				w.facts["b"] = true // B holds: A is chosen next
				w.run(1)
				d = last()
				if d.Goal != "A" || d.Current != "B" {
					t.Fatalf("the record after B held: goal %q, current %q; want A and B", d.Goal, d.Current)
				}
				for _, o := range d.Options {
					if want := o.Goal == "B"; o.Current != want {
						t.Errorf("the record after B held: option %s current %v, want %v", o.Goal, o.Current, want)
					}
				}
			})
		}
	}
}
