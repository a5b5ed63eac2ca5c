package agent_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// TestResolverHeadRecheckedWhileWalking: the head's conditions are checked
// not only when its step starts but on every tick of the walk to its
// target (MoveThenPerform). The survivor has the wood and is walking to
// the fireplace to light it when the wood is taken: the step ends there,
// on the way, and LightFire never starts.
func TestResolverHeadRecheckedWhileWalking(t *testing.T) {
	c := newCamp(t)
	var rec agent.Recorder
	a := mustResolverAgent(t, c.config(&rec))
	walking := 0
	for tick := 0; tick < 30 && walking < 2; tick++ {
		a.Tick()
		if cur, ok := a.Current(); ok && c.d.ActionName(cur) == "LightFire" && a.Moving() {
			walking++
		}
	}
	if walking < 2 {
		t.Fatalf("the survivor never walked to the fireplace: %s", kinds(&rec))
	}
	fireplace := c.places["fireplace"]
	if d := c.at.Y - fireplace.Y; d > -2 {
		t.Fatalf("the survivor is at %v, already near the fireplace %v: the test walks too far", c.at, fireplace)
	}
	c.values["has_wood"] = 0 // stolen on the way
	at := c.at
	a.Tick()
	if c.at.Y > at.Y {
		t.Errorf("the survivor walked on from %v to %v, toward the fireplace", at, c.at)
	}
	got := kinds(&rec)
	if !strings.HasSuffix(got, "move_started(LightFire) action_failed(LightFire: preconditions failed)") {
		t.Fatalf("events: %s", got)
	}
	a.Tick()
	if got := kinds(&rec); !strings.HasSuffix(got, "action_failed(LightFire: preconditions failed) replan(preconditions failed) plan_made move_started(GatherWoodSouth)") {
		t.Fatalf("events after the next tick: %s", got)
	}
	for _, s := range c.started {
		if strings.HasPrefix(s, "LightFire") {
			t.Errorf("LightFire started without its wood: %v", c.started)
		}
	}
}

// TestQueuedReplanCancelledMidChainIsAskedAgain: under Reactive the agent
// asks for a new chain after every step; the game cancels that request
// while it waits. The agent must ask again on its next tick, for the same
// reason, rather than follow the rest of the old chain unasked.
func TestQueuedReplanCancelledMidChainIsAskedAgain(t *testing.T) {
	c := newCamp(t)
	q := agent.NewQueue(1, 4)
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Queue = q
	cfg.Policy = agent.Policy{Kind: agent.Reactive}
	a := mustResolverAgent(t, cfg)
	a.Tick() // the first request
	q.Frame()
	for tick := 0; tick < 30 && q.Len() == 0; tick++ {
		a.Tick() // walks south and gathers, then asks again (step ended)
	}
	if q.Len() != 1 || a.Chain() == nil || a.Step() != 1 {
		t.Fatalf("%d waiting, chain %v at step %d: want a replan waiting after the first step: %s", q.Len(), a.Chain(), a.Step(), kinds(&rec))
	}
	if !q.Cancel(a) {
		t.Fatal("Cancel found no waiting request")
	}
	a.Tick()
	if q.Len() != 1 {
		t.Fatalf("%d waiting after the tick that follows a cancel: the agent did not ask again: %s", q.Len(), kinds(&rec))
	}
	q.Frame()
	got := kinds(&rec)
	if !strings.HasSuffix(got, "step_done(GatherWoodSouth) replan(step ended) plan_made") {
		t.Fatalf("events: %s", got)
	}
	if s := a.Stats(); s.ReplanReasons[agent.ReasonStepEnded] != 1 {
		t.Errorf("replan reasons %v, want one step_ended", s.ReplanReasons)
	}
}

// TestGoapQueuedReplanCancelledMidPlanIsAskedAgain is the same for a goap
// agent: its step-ended replan, cancelled while it waits, is asked again
// on the next tick.
func TestGoapQueuedReplanCancelledMidPlanIsAskedAgain(t *testing.T) {
	q := agent.NewQueue(1, 4)
	w, d, _ := newToy(t)
	var rec agent.Recorder
	cfg := goapConfig(w, d, &rec)
	cfg.Queue = q
	cfg.Policy = agent.Policy{Kind: agent.Reactive}
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.Tick()
	q.Frame()
	for tick := 0; tick < 30 && q.Len() == 0; tick++ {
		a.Tick()
	}
	if q.Len() != 1 || !strings.HasSuffix(kinds(&rec), "step_done(Approach)") {
		t.Fatalf("%d waiting: want a replan waiting after the first step: %s", q.Len(), kinds(&rec))
	}
	if !q.Cancel(a) {
		t.Fatal("Cancel found no waiting request")
	}
	a.Tick()
	if q.Len() != 1 {
		t.Fatalf("%d waiting after the tick that follows a cancel: the agent did not ask again: %s", q.Len(), kinds(&rec))
	}
	q.Frame()
	if got := kinds(&rec); !strings.HasSuffix(got, "replan(step ended) plan_made") {
		t.Fatalf("events: %s", got)
	}
}

// TestResolverNoChainRetriesOnSchedule: with no chain to its only goal,
// the agent passes over the goal for RetryAfter ticks and then resolves
// again: NoPlanFound at ticks 1, 4, 7 and 10 with RetryAfter 3, each
// counted in Stats.
func TestResolverNoChainRetriesOnSchedule(t *testing.T) {
	c := newCamp(t)
	c.piles["wood_north"].logs, c.piles["wood_south"].logs = 0, 0 // no wood: no chain to warmth
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Goals = cfg.Goals[:1]
	cfg.RetryAfter = 3
	a := mustResolverAgent(t, cfg)
	tickResolver(a, 11)
	var ticks []int
	for _, e := range rec.Events {
		if e.Kind == agent.NoPlanFound {
			ticks = append(ticks, e.Tick)
		}
	}
	if fmt.Sprint(ticks) != "[1 4 7 10]" {
		t.Errorf("no chain found at ticks %v, want [1 4 7 10]: %s", ticks, kinds(&rec))
	}
	if s := a.Stats(); s.NoPlan != 4 || s.Plans != 4 {
		t.Errorf("stats %+v, want 4 resolves, none with a chain", s)
	}
}

// TestStepIsZeroAfterThePlanEnds: once its plan has run to the end, the
// agent has no plan and no step in it.
func TestStepIsZeroAfterThePlanEnds(t *testing.T) {
	w, d, _ := newToy(t)
	var rec agent.Recorder
	a, err := agent.New(goapConfig(w, d, &rec))
	if err != nil {
		t.Fatal(err)
	}
	for tick := 0; tick < 40 && !strings.Contains(kinds(&rec), "plan_done"); tick++ {
		a.Tick()
	}
	if !strings.Contains(kinds(&rec), "plan_done") {
		t.Fatalf("the plan never ended: %s", kinds(&rec))
	}
	if a.Plan() != nil || a.Step() != 0 {
		t.Errorf("after the plan: plan %v, step %d; want none, 0", a.Plan(), a.Step())
	}
}

// TestInterruptingPlanKeepsOrStopsTheRunningAction: an HTN agent in
// Interrupt mode runs Wait (five ticks) as the first step of its plain
// method's plan [Wait, Rest]. Mid-Wait, "urgent" turns true and the better
// "hurry" method interrupts it. When hurry's plan is [Wait], it starts with
// the running action, so Wait goes on (started once, stopped once when
// done) rather than restarting; when hurry's plan is empty (give up at
// once), Wait is stopped where it is and the agent idles.
func TestInterruptingPlanKeepsOrStopsTheRunningAction(t *testing.T) {
	for _, c := range []struct {
		hurry  []string
		ticks  int
		events string
	}{
		{[]string{"Wait"}, 5, "step_done(Wait)"},
		{nil, 2, "interruption_taken(facts changed) plan_done"},
	} {
		d, err := goap.NewDomain(goap.Spec{Name: "wait", Facts: []string{"done", "urgent"},
			Actions: []goap.ActionSpec{
				{Name: "Wait", Effects: map[string]bool{"done": true}, Cost: goap.Const(1)},
				{Name: "Rest", Cost: goap.Const(1)},
			}})
		if err != nil {
			t.Fatal(err)
		}
		h, err := htn.NewDomain(d, htn.Spec{Root: "Root", Tasks: []htn.TaskSpec{{Name: "Root", Methods: []htn.MethodSpec{
			{Name: "hurry", Conditions: map[string]bool{"urgent": true, "done": false}, Subtasks: c.hurry},
			{Name: "plain", Conditions: map[string]bool{"done": false}, Subtasks: []string{"Wait", "Rest"}},
			{Name: "idle"},
		}}}})
		if err != nil {
			t.Fatal(err)
		}
		world := d.Initial()
		done, _ := d.Fact("done")
		urgent, _ := d.Fact("urgent")
		starts, stops, ticks := 0, 0, 0
		var rec agent.Recorder
		a, err := agent.New(agent.Config{
			Name: "waiter", Domain: d, HTN: h, HTNMode: agent.Interrupt,
			Behaviours: map[string]agent.Behaviour{
				"Wait": agent.Funcs{
					StartFunc: func(*agent.Agent) { starts++ },
					StopFunc:  func(*agent.Agent) { stops++ },
					TickFunc: func(*agent.Agent) agent.Status {
						if stops > 0 {
							t.Error("Wait ticked after it was stopped")
						}
						if ticks++; ticks < 5 {
							return agent.Running
						}
						world.Set(done, true)
						return agent.Success
					},
				},
				"Rest": agent.Funcs{},
			},
			Sensor:  func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
			OnEvent: rec.Record,
		})
		if err != nil {
			t.Fatal(err)
		}
		a.Tick()
		a.Tick()
		world.Set(urgent, true)
		for range 6 {
			a.Tick()
		}
		got := kinds(&rec)
		if !strings.Contains(got, "interruption_taken") || !strings.Contains(got, c.events) {
			t.Errorf("hurry %v: want %q among the events: %s", c.hurry, c.events, got)
		}
		if starts != 1 || stops != 1 || ticks != c.ticks {
			t.Errorf("hurry %v: Wait started %d times, stopped %d, ticked %d; want once, once, %d: %s", c.hurry, starts, stops, ticks, c.ticks, got)
		}
	}
}

// prepAndWait is a domain of two steps: Prep, then Wait (which needs
// prepped); the goal Done wants waited.
func prepAndWait(t *testing.T) *goap.Domain {
	d, err := goap.NewDomain(goap.Spec{Name: "prep", Facts: []string{"prepped", "waited", "never"},
		Actions: []goap.ActionSpec{
			{Name: "Prep", Effects: map[string]bool{"prepped": true}, Cost: goap.Const(1)},
			{Name: "Wait", Preconditions: map[string]bool{"prepped": true}, Effects: map[string]bool{"waited": true}, Cost: goap.Const(1)},
		},
		Goals: []goap.GoalSpec{{Name: "Done", Conditions: map[string]bool{"waited": true}}}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTimeoutCountsFromTheStepsStart: Prep takes six ticks (its timeout
// 0, never), so Wait, which never ends, starts at tick 7; its timeout of 3
// ticks fails it at tick 10, three ticks after its own start, not at once.
func TestTimeoutCountsFromTheStepsStart(t *testing.T) {
	d := prepAndWait(t)
	world := d.Initial()
	prepped, _ := d.Fact("prepped")
	prepTicks := 0
	var rec agent.Recorder
	a, err := agent.New(agent.Config{
		Name: "waiter", Domain: d,
		Goals: []agent.GoalOption{{Goal: d.Goal("Done"), Priority: 1}},
		Behaviours: map[string]agent.Behaviour{
			"Prep": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status {
				if prepTicks++; prepTicks < 6 {
					return agent.Running
				}
				world.Set(prepped, true)
				return agent.Success
			}},
			"Wait": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { return agent.Running }},
		},
		Timeouts:   map[string]int{"Prep": 0, "Wait": 3},
		RetryAfter: 100,
		Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) },
		OnEvent:    rec.Record,
	})
	if err != nil {
		t.Fatalf("a timeout of 0 (never) refused: %v", err)
	}
	var started, failed int
	for tick := 1; tick <= 12; tick++ {
		a.Tick()
		for _, e := range rec.Events {
			switch {
			case e.Kind == agent.StepStarted && e.Action == "Wait" && started == 0:
				started = e.Tick
			case e.Kind == agent.ActionFailed && e.Action == "Wait" && failed == 0:
				failed = e.Tick
			}
		}
	}
	if started != 7 || failed != 10 {
		t.Errorf("Wait started at tick %d and timed out at tick %d; want 7 and 10: %s", started, failed, kinds(&rec))
	}
}

// TestHTNLeafRetriesAfterRetryAfter: a tree's PlanHTN leaf whose task has
// no decomposition fails, and decomposes again only RetryAfter ticks
// later: at ticks 1, 4, 7 and 10 with RetryAfter 3.
func TestHTNLeafRetriesAfterRetryAfter(t *testing.T) {
	d := prepAndWait(t)
	h, err := htn.NewDomain(d, htn.Spec{Root: "Root", Tasks: []htn.TaskSpec{{Name: "Root", Methods: []htn.MethodSpec{
		{Name: "impossible", Conditions: map[string]bool{"never": true}, Subtasks: []string{"Prep"}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	var rec agent.Recorder
	a, err := agent.New(agent.Config{Name: "htn", Domain: d, HTN: h, Tree: agent.PlanHTN("Root"), RetryAfter: 3,
		Behaviours: map[string]agent.Behaviour{"Prep": agent.Funcs{}, "Wait": agent.Funcs{}}, OnEvent: rec.Record})
	if err != nil {
		t.Fatal(err)
	}
	for range 11 {
		a.Tick()
	}
	var ticks []int
	for _, e := range rec.Events {
		if e.Kind == agent.NoPlanFound {
			ticks = append(ticks, e.Tick)
		}
	}
	if fmt.Sprint(ticks) != "[1 4 7 10]" {
		t.Errorf("no decomposition at ticks %v, want [1 4 7 10]: %s", ticks, kinds(&rec))
	}
}

// TestTreeHTNLeavesAreCheckedEverywhere: a PlanHTN leaf is checked
// wherever it sits in the tree, under a sequence or a selector.
func TestTreeHTNLeavesAreCheckedEverywhere(t *testing.T) {
	d := prepAndWait(t)
	behaviours := map[string]agent.Behaviour{"Prep": agent.Funcs{}, "Wait": agent.Funcs{}}
	for _, tree := range []agent.Node{
		agent.PlanHTN("Root"),
		agent.Sequence(agent.Action(d, "Prep"), agent.PlanHTN("Root")),
		agent.Selector(agent.Action(d, "Prep"), agent.PlanHTN("Root")),
	} {
		_, err := agent.New(agent.Config{Name: "bt", Domain: d, Tree: tree, Behaviours: behaviours})
		if err == nil || !strings.Contains(err.Error(), `PlanHTN("Root") needs the agent's HTN`) {
			t.Errorf("a PlanHTN leaf with no HTN: %v", err)
		}
	}
}

// TestTreeCountsItsSteps: a tree's action leaves count the steps done in
// Stats, as a plan's steps are.
func TestTreeCountsItsSteps(t *testing.T) {
	d := prepAndWait(t)
	world := d.Initial()
	set := func(fact string) agent.Funcs {
		f, _ := d.Fact(fact)
		return agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { world.Set(f, true); return agent.Success }}
	}
	a, err := agent.New(agent.Config{Name: "bt", Domain: d,
		Tree:       agent.Sequence(agent.Action(d, "Prep"), agent.Action(d, "Wait")),
		Behaviours: map[string]agent.Behaviour{"Prep": set("prepped"), "Wait": set("waited")},
		Sensor:     func(_ *agent.Agent, facts goap.State) { facts.CopyFrom(world) }})
	if err != nil {
		t.Fatal(err)
	}
	// A sequence runs its leaves in one tick while each succeeds at once,
	// and starts over on the next.
	for tick, want := range []int{2, 4} {
		a.Tick()
		if s := a.Stats(); s.StepsDone != want {
			t.Errorf("tick %d: %d steps done, want %d (stats %+v)", tick+1, s.StepsDone, want, s)
		}
	}
}
