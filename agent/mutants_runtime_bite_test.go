package agent_test

// Tests written for the survivors of the mutation samples of the agent
// runtime after it became one (docs/testing.md, seeds 31 and 32): each
// asserts, through the public API, a behaviour that one of those mutants
// changed and no other test noticed.

import (
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/resolver"
)

// TestTimeoutOfOneTick: a step's timeout of one tick is a timeout, not
// "never": Prep succeeds at once (tick 1), Wait, which never ends, starts
// on tick 2 and fails on tick 3, one tick after its start.
func TestTimeoutOfOneTick(t *testing.T) {
	d := prepAndWait(t)
	world := d.Initial()
	prepped, _ := d.Fact("prepped")
	var rec agent.Recorder
	a, err := agent.New(agent.Config{
		Name: "waiter", Domain: d,
		Goals: []agent.GoalOption{{Goal: d.Goal("Done"), Priority: 1}},
		Behaviours: map[string]agent.Behaviour{
			"Prep": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { world.Set(prepped, true); return agent.Success }},
			"Wait": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { return agent.Running }},
		},
		Timeouts:   map[string]int{"Wait": 1},
		RetryAfter: 100,
		Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
		OnEvent:    rec.Record,
	})
	if err != nil {
		t.Fatal(err)
	}
	run(a, 4)
	var failed []agent.Event
	for _, e := range rec.Events {
		if e.Kind == agent.ActionFailed {
			failed = append(failed, e)
		}
	}
	if len(failed) == 0 || failed[0].Action != "Wait" || failed[0].Reason != agent.ReasonTimeout || failed[0].Tick != 3 {
		t.Errorf("failures %+v, want Wait timed out at tick 3: %s", failed, kinds(&rec))
	}
}

// TestStaleResultOfARequestAskedAgainIsDropped: an event callback cancels
// a request that the frame has already resolved and the agent asks again
// at once (it is ticked from the callback). The old result, resolved from
// the old snapshot, is not delivered: the agent waits for its new request,
// which the next frame answers.
func TestStaleResultOfARequestAskedAgainIsDropped(t *testing.T) {
	q := agent.NewQueue(1, 10)
	others, _ := crowd(t, 1, q, nil)
	second := others[0]
	w, d, _ := newToy(t)
	cfg := goapConfig(w, d, nil)
	cfg.Queue = q
	askedAgain := false
	cfg.OnEvent = func(e agent.Event) {
		if e.Kind == agent.PlanMade && !askedAgain {
			if !q.Cancel(second) {
				t.Error("the callback's Cancel found no request")
			}
			second.Tick() // asks again, at the back of the queue
			askedAgain = true
		}
	}
	first, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	first.Tick()
	second.Tick()
	if got := q.Frame(); got != 2 {
		t.Fatalf("frame resolved %d, want 2", got)
	}
	if !askedAgain {
		t.Fatal("first's plan never arrived")
	}
	if second.Plan() != nil || second.Stats().Plans != 0 || q.Len() != 1 {
		t.Fatalf("after the frame: the agent that asked again has plan %v, stats %+v, and %d requests wait (want no plan, no plans, 1 waiting)",
			second.Plan(), second.Stats(), q.Len())
	}
	if got := q.Frame(); got != 1 || second.Plan() == nil || second.Stats().Plans != 1 {
		t.Errorf("the next frame resolved %d and gave plan %v (stats %+v); want its new request answered", got, second.Plan(), second.Stats())
	}
}

// TestHaltedSequenceStartsOverFromItsFirstChild: a sequence halted while
// its first child runs (a higher-priority branch took over) starts again
// from its first child when it next runs, not from the child after.
func TestHaltedSequenceStartsOverFromItsFirstChild(t *testing.T) {
	w, d, _ := newToy(t)
	w.duration["Approach"] = 5
	tree := agent.Selector(
		agent.FactIs(d, "healthy", false),
		agent.Sequence(agent.Action(d, "Approach"), agent.Action(d, "TakeCover")),
	)
	a, err := agent.New(agent.Config{Name: "bt", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor})
	if err != nil {
		t.Fatal(err)
	}
	a.Tick() // Approach starts
	w.set("healthy", false)
	a.Tick() // the first branch takes over: the sequence is halted
	w.set("healthy", true)
	a.Tick() // back to the sequence
	if want := []string{"Approach", "Approach"}; !slices.Equal(w.started, want) || !slices.Equal(w.stopped, []string{"Approach"}) {
		t.Errorf("started %v and stopped %v; want started %v, stopped [Approach]", w.started, w.stopped, want)
	}
}

// TestSelectorHaltedWhileItsFirstChildRuns: a selector halted from above
// halts its running child, the first included, so that its behaviour
// stops; run again, the child starts over.
func TestSelectorHaltedWhileItsFirstChildRuns(t *testing.T) {
	w, d, _ := newToy(t)
	w.duration["Approach"] = 5
	tree := agent.Selector(
		agent.FactIs(d, "healthy", false),
		agent.Selector(agent.Action(d, "Approach"), agent.Action(d, "TakeCover")),
	)
	a, err := agent.New(agent.Config{Name: "bt", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor})
	if err != nil {
		t.Fatal(err)
	}
	a.Tick()
	w.set("healthy", false)
	a.Tick()
	if !slices.Equal(w.stopped, []string{"Approach"}) {
		t.Fatalf("after the outer branch took over, stopped %v, want [Approach]", w.stopped)
	}
	w.set("healthy", true)
	a.Tick()
	if want := []string{"Approach", "Approach"}; !slices.Equal(w.started, want) {
		t.Errorf("started %v, want %v", w.started, want)
	}
}

// scripted is a game's own node: it returns its statuses in turn (the
// last for ever) and counts its halts.
type scripted struct {
	statuses []agent.Status
	ticks    int
	halts    int
}

func (n *scripted) Tick(*agent.Agent) agent.Status {
	s := n.statuses[min(n.ticks, len(n.statuses)-1)]
	n.ticks++
	return s
}

func (n *scripted) Halt(*agent.Agent) { n.halts++ }

// TestSelectorHaltsTheChildThatRanWhenItNoLongerRuns: a selector halts the
// child that returned Running last tick as soon as it no longer runs it,
// wherever the child sits: when a later child takes over after it failed,
// and when every child fails. A game's own node may leave work going when
// it fails and count on that Halt.
func TestSelectorHaltsTheChildThatRanWhenItNoLongerRuns(t *testing.T) {
	w, d, _ := newToy(t)
	never := agent.Condition(func(*agent.Agent) bool { return false })
	always := agent.Condition(func(*agent.Agent) bool { return true })
	for _, tc := range []struct {
		name string
		tree func(n agent.Node) agent.Node
	}{
		{"first, then all fail", func(n agent.Node) agent.Node { return agent.Selector(n, never) }},
		{"second, then all fail", func(n agent.Node) agent.Node { return agent.Selector(never, n) }},
		{"first, then the next succeeds", func(n agent.Node) agent.Node { return agent.Selector(n, always) }},
	} {
		n := &scripted{statuses: []agent.Status{agent.Running, agent.Failure}}
		a, err := agent.New(agent.Config{Name: "bt", Domain: d, Tree: tc.tree(n), Behaviours: w.behaviours()})
		if err != nil {
			t.Fatal(err)
		}
		a.Tick()
		if n.halts != 0 {
			t.Errorf("%s: halted %d times while running", tc.name, n.halts)
		}
		a.Tick()
		if n.halts != 1 {
			t.Errorf("%s: halted %d times after it failed, want 1", tc.name, n.halts)
		}
		a.Tick()
		if n.halts != 1 {
			t.Errorf("%s: halted %d times in all, want 1 (it ran only once)", tc.name, n.halts)
		}
	}
}

// TestHaltOnIdleNodesDoesNothing: Halt on a node that is not running (a
// game's own composite node may halt any of its children) stops nothing
// and does not panic, empty composites included.
func TestHaltOnIdleNodesDoesNothing(t *testing.T) {
	w, d, _ := newToy(t)
	a, err := agent.New(agent.Config{Name: "bt", Domain: d, Tree: agent.Sequence(), Behaviours: w.behaviours(), Sensor: w.sensor})
	if err != nil {
		t.Fatal(err)
	}
	a.Tick() // an empty sequence succeeds
	for name, n := range map[string]agent.Node{
		"Sequence()":         agent.Sequence(),
		"Selector()":         agent.Selector(),
		"Sequence(Approach)": agent.Sequence(agent.Action(d, "Approach")),
		"Selector(Approach)": agent.Selector(agent.Action(d, "Approach")),
		"Action(Approach)":   agent.Action(d, "Approach"),
		"Plan(Kill)":         agent.Plan(d.Goal("Kill")),
		"Utility(Approach)":  agent.Utility(d, 0, agent.UtilityOption{Action: "Approach", Score: func(*agent.Agent) float64 { return 1 }}),
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s.Halt on an idle node panicked: %v", name, r)
				}
			}()
			n.Halt(a)
		}()
	}
	if len(w.started) != 0 || len(w.stopped) != 0 {
		t.Errorf("halting idle nodes started %v and stopped %v", w.started, w.stopped)
	}
}

// TestTreeTicksCountNodesAndOptions: Stats.TreeTicks counts the nodes
// ticked and the utility options scored (those whose preconditions hold,
// and the running one), one each per evaluation.
func TestTreeTicksCountNodesAndOptions(t *testing.T) {
	w, d, _ := newToy(t)
	for _, name := range []string{"Approach", "TakeCover"} {
		w.duration[name] = 100
	}
	score := func(v float64) func(*agent.Agent) float64 { return func(*agent.Agent) float64 { return v } }
	for _, tc := range []struct {
		name    string
		tree    agent.Node
		perTick int
	}{
		{"an action leaf", agent.Action(d, "Approach"), 1},
		// CastBolt's preconditions do not hold (not in range): two of
		// the three options are scored every tick.
		{"a utility selector", agent.Utility(d, 0,
			agent.UtilityOption{Action: "Approach", Score: score(1)},
			agent.UtilityOption{Action: "TakeCover", Score: score(2)},
			agent.UtilityOption{Action: "CastBolt", Score: score(3)}), 2},
	} {
		a, err := agent.New(agent.Config{Name: "bt", Domain: d, Tree: tc.tree, Behaviours: w.behaviours(), Sensor: w.sensor})
		if err != nil {
			t.Fatal(err)
		}
		for tick := 1; tick <= 3; tick++ {
			a.Tick()
			if got, want := a.Stats().TreeTicks, tick*tc.perTick; got != want {
				t.Errorf("%s, tick %d: TreeTicks %d, want %d", tc.name, tick, got, want)
			}
		}
	}
}

// TestPlanLeafReplansForTheReasonItsPlanBroke: a tree's Plan leaf whose
// step failed asks for its next plan with the reason "action failed", as
// an agent without a tree does: in its Replanned event and in
// Stats.ReplanReasons.
func TestPlanLeafReplansForTheReasonItsPlanBroke(t *testing.T) {
	w, d, _ := newToy(t)
	var rec agent.Recorder
	a, err := agent.New(agent.Config{Name: "hybrid", Domain: d, Tree: agent.Plan(d.Goal("Kill")), Behaviours: w.behaviours(), Sensor: w.sensor, OnEvent: rec.Record})
	if err != nil {
		t.Fatal(err)
	}
	w.fail["Approach"] = true
	a.Tick() // plans, and Approach fails
	w.fail["Approach"] = false
	a.Tick() // plans again
	var reasons []string
	for _, e := range rec.Events {
		if e.Kind == agent.Replanned {
			reasons = append(reasons, e.Reason)
		}
	}
	if !slices.Equal(reasons, []string{agent.ReasonActionFailed}) {
		t.Errorf("replanned for %q, want [%q]: %s", reasons, agent.ReasonActionFailed, kinds(&rec))
	}
	if got := a.Stats().ReplanReasons; got[agent.ReasonActionFailed] != 1 || len(got) != 1 {
		t.Errorf("ReplanReasons %v, want one %q", got, agent.ReasonActionFailed)
	}
}

// noPlanTicks returns the ticks of rec's NoPlanFound events.
func noPlanTicks(rec *agent.Recorder) []int {
	var ticks []int
	for _, e := range rec.Events {
		if e.Kind == agent.NoPlanFound {
			ticks = append(ticks, e.Tick)
		}
	}
	return ticks
}

// TestHTNAgentWaitsRetryAfterAfterNoPlan: an HTN agent (no tree, no goal
// options) whose root has no decomposition decomposes again only
// RetryAfter ticks later: at ticks 1, 4, 7 and 10 with RetryAfter 3.
func TestHTNAgentWaitsRetryAfterAfterNoPlan(t *testing.T) {
	d := prepAndWait(t)
	h, err := htn.NewDomain(d, htn.Spec{Root: "Root", Tasks: []htn.TaskSpec{{Name: "Root", Methods: []htn.MethodSpec{
		{Name: "impossible", Conditions: map[string]bool{"never": true}, Subtasks: []string{"Prep"}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	var rec agent.Recorder
	a, err := agent.New(agent.Config{Name: "htn", Domain: d, HTN: h, RetryAfter: 3,
		Behaviours: map[string]agent.Behaviour{"Prep": agent.Funcs{}, "Wait": agent.Funcs{}}, OnEvent: rec.Record})
	if err != nil {
		t.Fatal(err)
	}
	run(a, 11)
	if got := noPlanTicks(&rec); !slices.Equal(got, []int{1, 4, 7, 10}) {
		t.Errorf("no decomposition at ticks %v, want [1 4 7 10]: %s", got, kinds(&rec))
	}
}

// TestGoalWithNoPlanIsTriedAgainAfterRetryAfter: a GOAP agent's goal with
// no plan is passed over until RetryAfter ticks later; with RetryAfter 0
// it is tried again on the very next tick.
func TestGoalWithNoPlanIsTriedAgainAfterRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		retryAfter int
		want       []int
	}{{0, []int{1, 2, 3, 4, 5, 6, 7}}, {3, []int{1, 4, 7}}} {
		w, d, _ := newToy(t)
		w.set("healthy", false)
		w.set("potion_at_shrine", false) // GetHealthy has no plan
		var rec agent.Recorder
		cfg := goapConfig(w, d, &rec)
		cfg.Goals = []agent.GoalOption{{Goal: d.Goal("GetHealthy"), Priority: 1}}
		cfg.RetryAfter = tc.retryAfter
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		run(a, 7)
		if got := noPlanTicks(&rec); !slices.Equal(got, tc.want) {
			t.Errorf("RetryAfter %d: no plan at ticks %v, want %v", tc.retryAfter, got, tc.want)
		}
	}
}

// TestTargetAfterArrival: a MoveThenPerform step's target is checked on
// the walk only; once the behaviour has started there, the step goes on if
// the target is lost (someone takes the last logs while the survivor
// gathers). A PerformWhileMoving step's mover is asked every tick until
// the step ends: a deer that bolts after the survivor reached it must be
// caught up with again before the hunt is done.
func TestTargetAfterArrival(t *testing.T) {
	c := newCamp(t)
	c.ticks["GatherWoodSouth"] = 3
	gone := false
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Targets["wood_south"] = func(*agent.ResolverAgent) agent.Where {
		if gone {
			return agent.Where{}
		}
		return agent.AtPoint(c.piles["wood_south"].at)
	}
	a := mustResolverAgent(t, cfg)
	tickResolver(a, 3) // walks 3 m south and starts gathering on tick 3
	if got := strings.Join(c.started, " "); got != "GatherWoodSouth@3(0,-3)" {
		t.Fatalf("started %s, want GatherWoodSouth on tick 3", got)
	}
	gone = true
	tickResolver(a, 2) // the behaviour succeeds on tick 5
	if got := kinds(&rec); !strings.Contains(got, "step_started(GatherWoodSouth) step_done(GatherWoodSouth)") || a.Stats().ReplanReasons[agent.ReasonTargetLost] != 0 {
		t.Errorf("the pile lost while gathering there: %s", got)
	}

	// The deer is 5 m away, within Hunt's 10: arrived on tick 1. On tick
	// 2 it bolts to 40 m; the hunt's behaviour succeeds on tick 3, but the
	// survivor, walking a metre a tick from tick 2, is within 10 m of it
	// only on tick 31 (at 30 m).
	c = newCamp(t)
	c.values = map[string]int64{"warmth": 60, "hunger": 70}
	c.ticks["Hunt"] = 3
	c.deer.at = resolver.Point{X: 5}
	rec = agent.Recorder{}
	cfg = c.config(&rec)
	cfg.Targets["berries"] = func(*agent.ResolverAgent) agent.Where { return agent.Where{} }
	a = mustResolverAgent(t, cfg)
	a.Tick()
	c.deer.at = resolver.Point{X: 40}
	huntDone := 0
	for tick := 2; tick <= 35 && huntDone == 0; tick++ {
		a.Tick()
		for _, e := range rec.Events {
			if e.Kind == agent.StepDone && e.Action == "Hunt" {
				huntDone = e.Tick
			}
		}
	}
	if huntDone != 31 || len(c.started) != 1 {
		t.Errorf("Hunt done at tick %d (behaviours started %v), want 31, once: %s", huntDone, c.started, kinds(&rec))
	}
}
