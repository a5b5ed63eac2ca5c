package agent_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

// toy is a world that is exactly the facts: an action's behaviour runs for
// its duration in ticks and then applies the action's effects, unless the
// test made it fail or made the world change underneath.
type toy struct {
	d        *goap.Domain
	world    goap.State
	duration map[string]int
	fail     map[string]bool
	left     map[*agent.Agent]int
	started  []string
	stopped  []string
}

func newToy(t testing.TB) (*toy, *goap.Domain, *htn.Domain) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	h, err := htn.NewDomain(d, domains.BattleMageHTN())
	if err != nil {
		t.Fatal(err)
	}
	return &toy{d: d, world: d.Initial(), duration: map[string]int{}, fail: map[string]bool{}, left: map[*agent.Agent]int{}}, d, h
}

func (w *toy) set(name string, v bool) {
	f, _ := w.d.Fact(name)
	w.world.Set(f, v)
}

func (w *toy) behaviours() map[string]agent.Behaviour {
	out := map[string]agent.Behaviour{}
	for a := goap.ActionID(0); int(a) < w.d.NumActions(); a++ {
		name := w.d.ActionName(a)
		id := a
		out[name] = agent.Funcs{
			StartFunc: func(ag *agent.Agent) {
				w.started = append(w.started, name)
				w.left[ag] = max(w.duration[name], 1)
			},
			TickFunc: func(ag *agent.Agent) agent.Status {
				if w.fail[name] {
					return agent.Failure
				}
				w.left[ag]--
				if w.left[ag] > 0 {
					return agent.Running
				}
				w.d.Apply(id, w.world)
				return agent.Success
			},
			StopFunc: func(*agent.Agent) { w.stopped = append(w.stopped, name) },
		}
	}
	return out
}

func (w *toy) sensor(_ *agent.Agent, facts goap.State) { facts.CopyFrom(w.world) }

func goapConfig(w *toy, d *goap.Domain, rec *agent.Recorder) agent.Config {
	var onEvent func(agent.Event)
	if rec != nil {
		onEvent = rec.Record
	}
	return agent.Config{
		Name:   "mage",
		Domain: d,
		Goals: []agent.GoalOption{
			{Goal: d.Goal("GetHealthy"), Priority: 10},
			{Goal: d.Goal("Kill"), Priority: 5},
		},
		Behaviours: w.behaviours(),
		Sensor:     w.sensor,
		RetryAfter: 5,
		OnEvent:    onEvent,
	}
}

// kinds renders the events compactly: kind(detail).
func kinds(rec *agent.Recorder) string {
	var out []string
	for _, e := range rec.Events {
		s := e.Kind.String()
		switch {
		case e.Action != "" && e.Reason != "":
			s += "(" + e.Action + ": " + e.Reason + ")"
		case e.Action != "":
			s += "(" + e.Action + ")"
		case e.Reason != "":
			s += "(" + e.Reason + ")"
		case e.Kind == agent.GoalChosen:
			s += "(" + e.Goal + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func run(a *agent.Agent, ticks int) {
	for range ticks {
		a.Tick()
	}
}

func TestRunsThePlanAndAdvancesOnEffects(t *testing.T) {
	w, d, _ := newToy(t)
	var rec agent.Recorder
	a, err := agent.New(goapConfig(w, d, &rec))
	if err != nil {
		t.Fatal(err)
	}
	run(a, 20)
	if !d.Goal("Kill").Holds(w.world) {
		t.Fatalf("the enemy is not dead: %s", d.FormatState(w.world))
	}
	want := "goal_chosen(Kill) plan_made step_started(Approach) step_done(Approach) step_started(TakeCover) step_done(TakeCover) step_started(Recharge) step_done(Recharge) step_started(CastBolt) step_done(CastBolt) plan_done goal_chosen()"
	if got := kinds(&rec); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	if s := a.Stats(); s.Plans != 1 || s.Replans != 0 || s.StepsDone != 4 {
		t.Errorf("stats %+v", s)
	}
}

func TestReplanTriggers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(w *toy)
		at     int // tick at which to meddle
		meddle func(w *toy)
		reason string
	}{
		{"next step's preconditions break", nil, 3, func(w *toy) { w.set("spare_crystals", false) }, agent.ReasonPrecondition},
		{"an action fails", nil, 2, func(w *toy) { w.fail["TakeCover"] = true }, agent.ReasonActionFailed},
		{"a step takes too long", func(w *toy) { w.duration["Approach"] = 50 }, 0, nil, agent.ReasonTimeout},
		{"the goal changes", nil, 2, func(w *toy) { w.set("healthy", false) }, agent.ReasonGoalChanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, d, _ := newToy(t)
			if tc.setup != nil {
				tc.setup(w)
			}
			var rec agent.Recorder
			cfg := goapConfig(w, d, &rec)
			cfg.DefaultTimeout = 10
			a, _ := agent.New(cfg)
			for tick := 1; tick <= 40; tick++ {
				if tick == tc.at {
					tc.meddle(w)
				}
				a.Tick()
			}
			if s := a.Stats(); s.ReplanReasons[tc.reason] == 0 {
				t.Errorf("no replan for %q; reasons %v; events %s", tc.reason, s.ReplanReasons, kinds(&rec))
			}
		})
	}
}

func TestNoPlanFallsBackAndRetries(t *testing.T) {
	w, d, _ := newToy(t)
	w.set("healthy", false)
	w.set("potion_at_shrine", false)
	var rec agent.Recorder
	a, _ := agent.New(goapConfig(w, d, &rec))
	run(a, 3)
	// GetHealthy has no plan: the agent falls back to Kill instead of
	// standing still.
	if got := kinds(&rec); !strings.HasPrefix(got, "goal_chosen(GetHealthy) no_plan(no plan) goal_chosen(Kill) replan(goal changed) plan_made") {
		t.Fatalf("events: %s", got)
	}
	// A potion appears: after RetryAfter ticks the agent tries again and heals.
	w.set("potion_at_shrine", true)
	run(a, 40)
	if !w.world.Has(mustFact(d, "healthy")) {
		t.Errorf("the mage never healed; events %s", kinds(&rec))
	}
}

func mustFact(d *goap.Domain, name string) goap.Fact {
	f, _ := d.Fact(name)
	return f
}

func TestPolicies(t *testing.T) {
	count := func(p agent.Policy, request bool) agent.Stats {
		w, d, _ := newToy(t)
		for _, name := range []string{"Approach", "TakeCover", "Recharge", "CastBolt"} {
			w.duration[name] = 4
		}
		var rec agent.Recorder
		cfg := goapConfig(w, d, &rec)
		cfg.Policy = p
		a, _ := agent.New(cfg)
		for tick := 1; tick <= 12; tick++ {
			if request && tick == 6 {
				a.RequestReplan()
			}
			a.Tick()
		}
		return a.Stats()
	}
	if s := count(agent.Policy{Kind: agent.OnBreak}, false); s.Replans != 0 {
		t.Errorf("on-break: %d replans with nothing broken", s.Replans)
	}
	if s := count(agent.Policy{Kind: agent.Reactive}, false); s.ReplanReasons[agent.ReasonStepEnded] < 2 {
		t.Errorf("reactive: replans %v, want one per step ended", s.ReplanReasons)
	}
	if s := count(agent.Policy{Kind: agent.Proactive, Interval: 3}, false); s.ReplanReasons[agent.ReasonProactive] == 0 {
		t.Errorf("proactive: replans %v, want some on the interval", s.ReplanReasons)
	}
	if s := count(agent.Policy{Kind: agent.Manual}, true); s.ReplanReasons[agent.ReasonRequested] != 1 || s.Replans != 1 {
		t.Errorf("manual: replans %v, want exactly the requested one", s.ReplanReasons)
	}
}

// TestHeadIsCheckedBeforeItStarts plans Approach from a snapshot taken out
// of range, through a queue, and moves the mage into range before the plan
// arrives: the head's preconditions fail on the live facts, so Approach is
// not started and the agent replans.
func TestHeadIsCheckedBeforeItStarts(t *testing.T) {
	w, d, _ := newToy(t)
	var rec agent.Recorder
	cfg := goapConfig(w, d, &rec)
	q := agent.NewQueue(1, 1)
	cfg.Queue = q
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.Tick() // submits, out of range
	w.set("in_range", true)
	q.Frame()
	approach, _ := d.ActionByName("Approach")
	if len(a.Plan()) == 0 || a.Plan()[0] != approach {
		t.Fatalf("the stale plan does not start with Approach: %v", a.Plan())
	}
	a.Tick()
	if len(w.started) != 0 {
		t.Errorf("started %v although Approach's precondition (out of range) is false", w.started)
	}
	if got := kinds(&rec); !strings.HasSuffix(got, "plan_made action_failed(Approach: preconditions failed)") {
		t.Errorf("events: %s", got)
	}
	if s := a.Stats(); s.ActionsFailed != 0 {
		t.Errorf("a step that never started counted as failed: %+v", s)
	}
	a.Tick() // asks again, from in range
	q.Frame()
	a.Tick()
	if slices.Contains(w.started, "Approach") || len(w.started) != 1 {
		t.Errorf("after the replan started %v, want one step and no Approach", w.started)
	}
}

func TestProfilesAndGoalPriorities(t *testing.T) {
	w, d, _ := newToy(t)
	noCover, _ := d.NewProfile(goap.ProfileSpec{Incapable: []string{"TakeCover"}})
	var rec agent.Recorder
	cfg := goapConfig(w, d, &rec)
	cfg.Profile = noCover
	delete(cfg.Behaviours, "TakeCover") // an incapable action needs no behaviour
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	run(a, 15)
	if slices.Contains(w.started, "TakeCover") || !d.Goal("Kill").Holds(w.world) {
		t.Errorf("started %v; world %s", w.started, d.FormatState(w.world))
	}
	// Utility scoring picks the goal: here it prefers Kill even when hurt.
	w2, d2, _ := newToy(t)
	w2.set("healthy", false)
	cfg2 := goapConfig(w2, d2, &agent.Recorder{})
	cfg2.Goals[0].Utility = func(*agent.Agent) float64 { return 1 }
	cfg2.Goals[1].Utility = func(*agent.Agent) float64 { return 2 }
	a2, _ := agent.New(cfg2)
	a2.Tick()
	if a2.Goal() != d2.Goal("Kill") {
		t.Errorf("utility chose %v", a2.Goal().Name())
	}
}

func TestConfigErrors(t *testing.T) {
	w, d, _ := newToy(t)
	cfg := goapConfig(w, d, &agent.Recorder{})
	delete(cfg.Behaviours, "Recharge")
	if _, err := agent.New(cfg); err == nil || !strings.Contains(err.Error(), `no behaviour for action "Recharge"`) {
		t.Errorf("missing behaviour: %v", err)
	}
	cfg = goapConfig(w, d, &agent.Recorder{})
	cfg.Behaviours["Fly"] = agent.Funcs{}
	if _, err := agent.New(cfg); err == nil || !strings.Contains(err.Error(), `unknown action "Fly"`) || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("unknown action: %v", err)
	}
	cfg = goapConfig(w, d, &agent.Recorder{})
	cfg.Behaviours["Aproach"] = cfg.Behaviours["Approach"]
	delete(cfg.Behaviours, "Approach")
	if _, err := agent.New(cfg); err == nil || err.Error() != `agent "mage": behaviour for unknown action "Aproach"; did you mean "Approach"?` {
		t.Errorf("misspelled action: %v", err)
	}

	// Goals: a nil one would crash the first tick; one from another
	// domain (even one built from the same spec) would never be pursued.
	cfg = goapConfig(w, d, &agent.Recorder{})
	cfg.Goals[1].Goal = nil
	if _, err := agent.New(cfg); err == nil || err.Error() != `agent "mage": Goals[1] has no goal` {
		t.Errorf("nil goal: %v", err)
	}
	twin, _, _ := newToy(t)
	cfg = goapConfig(w, d, &agent.Recorder{})
	cfg.Goals[1].Goal = twin.d.Goal("Kill")
	if _, err := agent.New(cfg); err == nil || !strings.Contains(err.Error(), `Goals[1] ("Kill") was made for another domain than the agent's (both named "battlemage", but built separately)`) {
		t.Errorf("goal from another domain: %v", err)
	}
	other, err := goap.NewDomain(goap.Spec{Name: "other", Facts: []string{"a"}, Goals: []goap.GoalSpec{{Name: "A", Conditions: map[string]bool{"a": true}}}})
	if err != nil {
		t.Fatal(err)
	}
	cfg = goapConfig(w, d, &agent.Recorder{})
	cfg.Goals[0].Goal = other.Goal("A")
	if _, err := agent.New(cfg); err == nil || !strings.Contains(err.Error(), `Goals[0] ("A") was made for domain "other", not the agent's "battlemage"`) {
		t.Errorf("goal from another domain: %v", err)
	}
	cfg = goapConfig(w, d, &agent.Recorder{})
	cfg.Profile = twin.d.DefaultProfile()
	if _, err := agent.New(cfg); err == nil || !strings.Contains(err.Error(), "the profile was made for another domain") {
		t.Errorf("profile from another domain: %v", err)
	}

	// A tree's nodes built over another domain would run the wrong
	// action, read the wrong fact, or pursue a goal nobody can plan.
	for node, tree := range map[string]agent.Node{
		`Action("Recharge")`: agent.Selector(agent.Sequence(agent.FactIs(d, "in_cover", true), agent.Action(twin.d, "Recharge"))),
		`FactIs("in_cover")`: agent.Sequence(agent.FactIs(twin.d, "in_cover", true)),
		`Plan("Kill")`:       agent.Selector(agent.Plan(twin.d.Goal("Kill"))),
		`Utility`:            agent.Utility(twin.d, 0, agent.UtilityOption{Action: "Recharge", Score: func(*agent.Agent) float64 { return 1 }}),
	} {
		cfg = agent.Config{Name: "bt", Domain: d, Tree: tree, Behaviours: w.behaviours()}
		want := `agent "bt": the tree's ` + node + ` was built over another domain than the agent's (both named "battlemage", but built separately)`
		if _, err := agent.New(cfg); err == nil || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	}

	// Numbers and kinds out of range.
	for _, tc := range []struct {
		change func(*agent.Config)
		want   string
	}{
		{func(c *agent.Config) { c.MaxDepth = -1 }, `agent "mage": MaxDepth is -1: want 0 (the default) or more`},
		{func(c *agent.Config) { c.Budget = -5 }, `agent "mage": Budget is -5: want 0 (the default) or more`},
		{func(c *agent.Config) { c.MaxBytes = -1 }, `agent "mage": MaxBytes is -1: want 0 (the default) or more`},
		{func(c *agent.Config) { c.MaxWork = -2 }, `agent "mage": MaxWork is -2: want 0 (the default) or more`},
		{func(c *agent.Config) { c.Timeouts = map[string]int{"Recharge": -1} }, `agent "mage": Timeouts["Recharge"] is -1: want 0 (never) or more ticks`},
		{func(c *agent.Config) { c.Timeouts = map[string]int{"Recharg": 5} }, `agent "mage": timeout for unknown action "Recharg"; did you mean "Recharge"?`},
		{func(c *agent.Config) { c.Policy = agent.Policy{Kind: agent.Proactive} }, `agent "mage": a Proactive policy needs an Interval (ticks between replans)`},
		{func(c *agent.Config) { c.Policy.Kind = 9 }, `agent "mage": unknown Policy.Kind 9`},
		{func(c *agent.Config) { c.HTNMode = 7 }, `agent "mage": unknown HTNMode 7`},
	} {
		cfg = goapConfig(w, d, &agent.Recorder{})
		tc.change(&cfg)
		if _, err := agent.New(cfg); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}

	// An unnamed agent is not "" in its errors or its events.
	cfg = goapConfig(w, d, &agent.Recorder{})
	cfg.Name = ""
	delete(cfg.Behaviours, "Recharge")
	if _, err := agent.New(cfg); err == nil || err.Error() != `agent: no behaviour for action "Recharge"` {
		t.Errorf("unnamed agent's error: %v", err)
	}
	var rec agent.Recorder
	cfg = goapConfig(w, d, &rec)
	cfg.Name = ""
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.Tick()
	if a.Name() != agent.DefaultName || len(rec.Events) == 0 || rec.Events[0].Agent != agent.DefaultName {
		t.Errorf("unnamed agent is called %q in its events %+v", a.Name(), rec.Events)
	}
}

// TestWithoutASensor: the agent's facts start from the domain's initial
// facts (spare crystals, so no GetCrystals) and its succeeding steps'
// effects are taken as done, so the plan runs to its end once instead of
// being redone for ever because its effects never hold.
func TestWithoutASensor(t *testing.T) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	behaviours := map[string]agent.Behaviour{}
	for id := range d.NumActions() {
		behaviours[d.ActionName(goap.ActionID(id))] = agent.Funcs{} // succeed, touching nothing
	}
	var rec agent.Recorder
	a, err := agent.New(agent.Config{Name: "blind", Domain: d, Behaviours: behaviours, OnEvent: rec.Record,
		Goals: []agent.GoalOption{{Goal: d.Goal("Kill"), Priority: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Facts().Equal(d.Initial()) {
		t.Fatalf("facts before the first tick %s, want the initial %s", d.FormatState(a.Facts()), d.FormatState(d.Initial()))
	}
	run(a, 20)
	want := "goal_chosen(Kill) plan_made step_started(Approach) step_done(Approach) step_started(TakeCover) step_done(TakeCover) step_started(Recharge) step_done(Recharge) step_started(CastBolt) step_done(CastBolt) plan_done goal_chosen()"
	if got := kinds(&rec); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	if s := a.Stats(); s.Plans != 1 || s.Replans != 0 || !d.Goal("Kill").Holds(a.Facts()) {
		t.Errorf("stats %+v, facts %s", s, d.FormatState(a.Facts()))
	}
}

func htnAgent(t testing.TB, w *toy, d *goap.Domain, h *htn.Domain, mode agent.HTNMode, rec *agent.Recorder) *agent.Agent {
	a, err := agent.New(agent.Config{Name: "htn", Domain: d, HTN: h, HTNMode: mode, Behaviours: w.behaviours(), Sensor: w.sensor, OnEvent: rec.Record, RetryAfter: 3})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestHTNInterruptions(t *testing.T) {
	w, d, h := newToy(t)
	for _, name := range []string{"Approach", "TakeCover", "Recharge", "CastBolt"} {
		w.duration[name] = 3
	}
	var rec agent.Recorder
	a := htnAgent(t, w, d, h, agent.Interrupt, &rec)
	run(a, 4) // Approach done, taking cover
	if got := a.MTR().String(); got != "2, 2, 2" {
		t.Fatalf("MTR %s", got)
	}
	w.set("healthy", false) // hurt mid-fight
	a.Tick()
	s := a.Stats()
	if s.TopLevelChanges != 1 || a.MTR()[0] != 1 {
		t.Fatalf("hurt mid-fight: MTR %s, stats %+v; events %s", a.MTR(), s, kinds(&rec))
	}
	// FetchPotion (one tick) is done, so the agent carries a potion: the
	// next change of facts finds Patch up's drink-now method (1, 1, 2),
	// which beats fetch-first (1, 2, 2), and is taken, within Patch up.
	w.set("staff_charged", true)
	a.Tick()
	if got := a.Stats(); got.Interruptions != s.Interruptions+1 || got.TopLevelChanges != 1 || got.InterruptsRefused != s.InterruptsRefused || a.MTR().String() != "1, 1, 2" {
		t.Fatalf("with a potion in hand: MTR %s, stats %+v; events %s", a.MTR(), got, kinds(&rec))
	}
	// A change that matters to neither recipe finds the same plan from the
	// same methods: refused, so the agent does not flicker, and the
	// running TakeCover goes on.
	s = a.Stats()
	running, _ := a.Current()
	w.set("spare_crystals", false) // only the fight needs them
	a.Tick()
	if got := a.Stats(); got.InterruptsRefused != s.InterruptsRefused+1 || got.Interruptions != s.Interruptions || a.MTR().String() != "1, 1, 2" {
		t.Errorf("an irrelevant change: MTR %s, stats %+v; events %s", a.MTR(), got, kinds(&rec))
	}
	if now, ok := a.Current(); !ok || now != running || d.ActionName(now) != "TakeCover" {
		t.Errorf("the running action changed after a refusal")
	}
	run(a, 40)
	if !w.world.Has(mustFact(d, "healthy")) {
		t.Errorf("never healed: %s", kinds(&rec))
	}
}

func TestHTNReplanOnlyOnBreak(t *testing.T) {
	w, d, h := newToy(t)
	for _, name := range []string{"Approach", "TakeCover", "Recharge", "CastBolt"} {
		w.duration[name] = 3
	}
	var rec agent.Recorder
	a := htnAgent(t, w, d, h, agent.ReplanOnBreak, &rec)
	run(a, 2)
	w.set("healthy", false) // does not break the fight plan
	run(a, 3)
	if s := a.Stats(); s.Interruptions != 0 || s.Plans != 1 {
		t.Errorf("replanned without a break: %+v; %s", s, kinds(&rec))
	}
	run(a, 30)
	if !w.world.Has(mustFact(d, "enemy_dead")) || !w.world.Has(mustFact(d, "healthy")) {
		t.Errorf("world %s; events %s", d.FormatState(w.world), kinds(&rec))
	}
}

func TestRecorderWritesJSONLines(t *testing.T) {
	w, d, _ := newToy(t)
	var rec agent.Recorder
	a, _ := agent.New(goapConfig(w, d, &rec))
	run(a, 3)
	var sb strings.Builder
	if err := rec.WriteJSONL(&sb); err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(sb.String(), "\n", 2)[0]
	if first != `{"tick":1,"agent":"mage","kind":"goal_chosen","goal":"Kill"}` {
		t.Errorf("first line %s", first)
	}
	if !strings.Contains(sb.String(), `"kind":"plan_made","goal":"Kill","plan":["Approach","TakeCover","Recharge","CastBolt"],"cost":7,"expanded":7}`) {
		t.Errorf("no plan_made line with statistics:\n%s", sb.String())
	}
}

func TestBehaviourTreeOverTheSameBehaviours(t *testing.T) {
	w, d, _ := newToy(t)
	// A tree for the fight: bolt if charged, else recharge first; a
	// fallback that only checks conditions now.
	tree := agent.Selector(
		agent.Sequence(agent.FactIs(d, "enemy_dead", true)),
		agent.Sequence(agent.FactIs(d, "in_range", false), agent.Action(d, "Approach")),
		agent.Sequence(agent.FactIs(d, "staff_charged", true), agent.Action(d, "CastBolt")),
		agent.Sequence(agent.FactIs(d, "in_cover", false), agent.Action(d, "TakeCover")),
		agent.Action(d, "Recharge"),
	)
	var rec agent.Recorder
	a, err := agent.New(agent.Config{Name: "bt", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor, OnEvent: rec.Record})
	if err != nil {
		t.Fatal(err)
	}
	run(a, 10)
	if !w.world.Has(mustFact(d, "enemy_dead")) {
		t.Fatalf("the tree never killed: %s", kinds(&rec))
	}
	if want := []string{"Approach", "TakeCover", "Recharge", "CastBolt"}; !slices.Equal(w.started, want) {
		t.Errorf("ran %v, want %v", w.started, want)
	}
}

func TestPlanLeafInATree(t *testing.T) {
	w, d, _ := newToy(t)
	w.set("healthy", false)
	tree := agent.Selector(
		agent.Sequence(agent.FactIs(d, "healthy", false), agent.Plan(d.Goal("GetHealthy"))),
		agent.Plan(d.Goal("Kill")),
	)
	a, _ := agent.New(agent.Config{Name: "hybrid", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor})
	run(a, 20)
	if !w.world.Has(mustFact(d, "healthy")) || !w.world.Has(mustFact(d, "enemy_dead")) {
		t.Errorf("world %s, ran %v", d.FormatState(w.world), w.started)
	}
	// Healed in cover, the Kill plan recharges there first (1 + 2 + 4 = 7,
	// tying with walking up and taking cover again).
	if want := []string{"FetchPotion", "TakeCover", "DrinkPotion", "Recharge", "Approach", "CastBolt"}; !slices.Equal(w.started, want) {
		t.Errorf("ran %v, want %v", w.started, want)
	}
}

func TestUtilitySelector(t *testing.T) {
	w, d, _ := newToy(t)
	score := func(v float64) func(*agent.Agent) float64 { return func(*agent.Agent) float64 { return v } }
	tree := agent.Utility(d, 0.5,
		agent.UtilityOption{Action: "CastBolt", Score: score(10)},
		agent.UtilityOption{Action: "Recharge", Score: score(5)},
		agent.UtilityOption{Action: "Approach", Score: score(3)},
		agent.UtilityOption{Action: "TakeCover", Score: score(1)},
	)
	a, _ := agent.New(agent.Config{Name: "utility", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor})
	run(a, 3)
	// No lookahead: it recharges in the open (the best applicable score),
	// then walks up and casts. Not the planner's cheaper sequence.
	if want := []string{"Recharge", "Approach", "CastBolt"}; !slices.Equal(w.started, want) {
		t.Errorf("ran %v, want %v", w.started, want)
	}
}

// TestHTNInterruptRefused changes a fact that does not change the HTN's
// choice: the replan finds the same plan from the same methods and is
// refused, so the running action carries on.
func TestHTNInterruptRefused(t *testing.T) {
	w, d, h := newToy(t)
	for _, name := range []string{"Approach", "TakeCover", "Recharge", "CastBolt"} {
		w.duration[name] = 3
	}
	var rec agent.Recorder
	a := htnAgent(t, w, d, h, agent.Interrupt, &rec)
	a.Tick()
	running, _ := a.Current()
	w.set("potion_at_shrine", false) // irrelevant to the fight
	a.Tick()
	s := a.Stats()
	if s.InterruptsRefused != 1 || s.Interruptions != 0 {
		t.Fatalf("stats %+v; events %s", s, kinds(&rec))
	}
	if now, ok := a.Current(); !ok || now != running {
		t.Errorf("the running action changed after a refused interruption")
	}
	if got := a.MTR().String(); got != "2, 2, 2" {
		t.Errorf("MTR %s after a refusal", got)
	}
}

// TestEqualGoalScoresDoNotFlicker: the current goal is kept while no other
// scores strictly more, although ties otherwise go to the earlier option.
func TestEqualGoalScoresDoNotFlicker(t *testing.T) {
	w, d, _ := newToy(t)
	w.set("healthy", false) // both goals apply
	w.duration["Approach"] = 100
	w.duration["FetchPotion"] = 100
	heal, kill := 1.0, 2.0
	var rec agent.Recorder
	cfg := goapConfig(w, d, &rec)
	cfg.Goals[0].Utility = func(*agent.Agent) float64 { return heal }
	cfg.Goals[1].Utility = func(*agent.Agent) float64 { return kill }
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	chosen := func() []string {
		var out []string
		for _, e := range rec.Events {
			if e.Kind == agent.GoalChosen {
				out = append(out, e.Goal)
			}
		}
		return out
	}
	for _, step := range []struct {
		heal, kill float64
		want       string
	}{
		{1, 2, "Kill"},
		{2, 2, "Kill"}, // a tie: kept
		{2, 2, "Kill"},
		{2.5, 2, "GetHealthy"}, // strictly more: taken
		{2, 2, "GetHealthy"},   // a tie again: kept, not back to Kill
		{2, 2, "GetHealthy"},
	} {
		heal, kill = step.heal, step.kill
		a.Tick()
		if a.Goal() == nil || a.Goal().Name() != step.want {
			t.Fatalf("scores heal %g, kill %g: goal %v, want %s; chosen %v", heal, kill, a.Goal(), step.want, chosen())
		}
	}
	if got := chosen(); !slices.Equal(got, []string{"Kill", "GetHealthy"}) {
		t.Errorf("goals chosen %v, want Kill then GetHealthy once each", got)
	}
}

// TestUtilityHysteresis: a running action is kept unless another scores
// more than the margin above it.
func TestUtilityHysteresis(t *testing.T) {
	w, d, _ := newToy(t)
	w.duration["TakeCover"] = 100
	w.duration["Approach"] = 100
	cover, approach := 2.0, 1.0
	tree := agent.Utility(d, 0.5,
		agent.UtilityOption{Action: "TakeCover", Score: func(*agent.Agent) float64 { return cover }},
		agent.UtilityOption{Action: "Approach", Score: func(*agent.Agent) float64 { return approach }},
	)
	a, err := agent.New(agent.Config{Name: "utility", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor})
	if err != nil {
		t.Fatal(err)
	}
	for _, approach = range []float64{1, 2, 2.5, 2.2, 2} { // within the margin
		a.Tick()
	}
	if !slices.Equal(w.started, []string{"TakeCover"}) || len(w.stopped) != 0 {
		t.Fatalf("within the margin: started %v, stopped %v", w.started, w.stopped)
	}
	approach = 2.6
	a.Tick()
	if !slices.Equal(w.started, []string{"TakeCover", "Approach"}) || !slices.Equal(w.stopped, []string{"TakeCover"}) {
		t.Errorf("past the margin: started %v, stopped %v", w.started, w.stopped)
	}
}

// TestPlanLeafThroughAQueue: a tree's Plan leaf waits for its queued
// request (Running) instead of asking again every tick, runs the plan that
// arrives, and fails when the answer is no plan, so that the selector falls
// through to the next branch, as it does inline; the leaf that found no
// plan is not asked again before RetryAfter, so it does not take the agent
// back every tick.
func TestPlanLeafThroughAQueue(t *testing.T) {
	ran := func(q *agent.Queue) []string {
		w, d, _ := newToy(t)
		w.set("healthy", false)
		w.set("potion_at_shrine", false) // GetHealthy has no plan
		tree := agent.Selector(
			agent.Sequence(agent.FactIs(d, "healthy", false), agent.Plan(d.Goal("GetHealthy"))),
			agent.Plan(d.Goal("Kill")),
		)
		a, err := agent.New(agent.Config{Name: "hybrid", Domain: d, Tree: tree, Behaviours: w.behaviours(), Sensor: w.sensor, Queue: q, RetryAfter: 10})
		if err != nil {
			t.Fatal(err)
		}
		for range 30 {
			a.Tick()
			if q != nil {
				q.Frame()
			}
		}
		if !w.world.Has(mustFact(d, "enemy_dead")) {
			t.Errorf("queue %v: never killed; ran %v, stats %+v", q != nil, w.started, a.Stats())
		}
		// GetHealthy tried at ticks 1, 11 and 21, never found; Kill planned
		// once, and done before the second try.
		if s := a.Stats(); s.NoPlan != 3 || s.Plans != 4 {
			t.Errorf("queue %v: %d plans, %d without a plan; want GetHealthy tried every 10 ticks", q != nil, s.Plans, s.NoPlan)
		}
		return w.started
	}
	inline := ran(nil)
	if queued := ran(agent.NewQueue(1, 4)); !slices.Equal(queued, inline) {
		t.Errorf("through a queue ran %v, inline %v", queued, inline)
	}
}

// TestSearchLimits: Config's MaxBytes and MaxWork reach the agent's
// searches: held low, the first search stops at its limit, and the agent
// says so; left at zero, goap's defaults plan.
func TestSearchLimits(t *testing.T) {
	for _, tc := range []struct {
		name           string
		maxBytes, work int
		want           string
	}{
		{"defaults", 0, 0, "plan_made"},
		{"MaxWork 1", 0, 1, "no_plan(search limit)"},
		{"MaxBytes 1", 1, 0, "no_plan(search limit)"},
	} {
		w, d, _ := newToy(t)
		var rec agent.Recorder
		cfg := goapConfig(w, d, &rec)
		cfg.MaxBytes, cfg.MaxWork = tc.maxBytes, tc.work
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a.Tick()
		var got string
		for _, e := range rec.Events {
			switch e.Kind {
			case agent.PlanMade:
				got = "plan_made"
			case agent.NoPlanFound:
				got = "no_plan(" + e.Reason + ")"
			}
		}
		if got != tc.want {
			t.Errorf("%s: the first search gives %s, want %s (events %s)", tc.name, got, tc.want, kinds(&rec))
		}
	}
}
