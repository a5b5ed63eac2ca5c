package agent_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/resolver"
)

// taggedHerd is an entity of a type Go can compare (a struct), holding a
// value it cannot (a slice in an interface field): == on two of them
// panics at run time, though reflect calls the type comparable.
type taggedHerd struct {
	at  *resolver.Point
	tag any
}

func (h taggedHerd) Position() resolver.Point { return *h.at }

// TestResolverEntityHoldingIncomparableValue: a hunt whose target sensor
// answers, each tick, an entity whose type is comparable but whose value
// is not (an interface field holding a slice) goes on as the hunt of an
// incomparable entity does: taken to be the same target, not lost, and no
// panic. Before, the check for "another target" compared the two answers
// with == and panicked ("comparing uncomparable type []string") on the
// walk's second tick.
func TestResolverEntityHoldingIncomparableValue(t *testing.T) {
	c := newCamp(t)
	c.values = map[string]int64{"warmth": 60, "hunger": 70}
	var rec agent.Recorder
	cfg := c.config(&rec)
	cfg.Targets["berries"] = func(*agent.ResolverAgent) agent.Where { return agent.Where{} }
	cfg.Targets["deer"] = func(*agent.ResolverAgent) agent.Where {
		return agent.OnEntity(taggedHerd{at: &c.deer.at, tag: []string{"herd"}})
	}
	a := mustResolverAgent(t, cfg)
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v (events: %s)", r, kinds(&rec))
		}
	}()
	tickResolver(a, 4)
	c.deer.at.X += 0.5 // the deer ambles off: the same entity, moved
	a.Tick()
	got := kinds(&rec)
	if !strings.Contains(got, "step_started(Hunt)") || strings.Contains(got, "target_lost") {
		t.Errorf("events: %s, want the hunt going on, its target not lost", got)
	}
}

// TestResolverTargetRefreshZeroAndHuge: a refresh of 0 is the default,
// every tick (the walk's pile sensed on each of its ticks, an emptied
// pile seen the tick after); a refresh of math.MaxInt keeps the answer
// for the whole game without its arithmetic overflowing into "sense
// again" (or into never sensing at all).
func TestResolverTargetRefreshZeroAndHuge(t *testing.T) {
	for _, tc := range []struct {
		refresh   int
		wantCalls int  // wood_south's sensings in the first 3 ticks
		wantLost  bool // the pile emptied on tick 2 is seen on tick 3
	}{
		{0, 3, true},
		{1, 3, true},
		{math.MaxInt, 1, false},
	} {
		c := newCamp(t)
		c.piles["wood_south"].at = resolver.Point{Y: -6}
		var rec agent.Recorder
		cfg := c.config(&rec)
		cfg.TargetRefresh = map[string]int{"wood_south": tc.refresh}
		calls := countSensing(&cfg)
		a := mustResolverAgent(t, cfg)
		tickResolver(a, 2)
		c.piles["wood_south"].logs = 0
		a.Tick()
		if calls["wood_south"] != tc.wantCalls {
			t.Errorf("refresh %d: wood_south sensed %d times in 3 ticks, want %d", tc.refresh, calls["wood_south"], tc.wantCalls)
		}
		if lost := strings.Contains(kinds(&rec), "target_lost(GatherWoodSouth: not found)"); lost != tc.wantLost {
			t.Errorf("refresh %d: target lost %v, want %v: %s", tc.refresh, lost, tc.wantLost, kinds(&rec))
		}
		if tc.refresh == math.MaxInt {
			tickResolver(a, 200)
			if calls["wood_south"] != 1 {
				t.Errorf("refresh MaxInt: wood_south sensed %d times in 203 ticks, want 1", calls["wood_south"])
			}
		}
	}
}

// keepDecisions is a decision sink that keeps a copy of every record.
type keepDecisions struct{ records []agent.Decision }

func (k *keepDecisions) RecordDecision(d *agent.Decision) {
	c := *d
	c.Snapshot.Targets = append([]agent.DecisionTarget(nil), d.Snapshot.Targets...)
	c.Plan = append([]agent.DecisionStep(nil), d.Plan...)
	k.records = append(k.records, c)
}

// TestResolverGoalRecordShowsEveryTickTargetsNow: the record of a goal
// choice that leaves the survivor nothing to pursue shows a target sensed
// every tick where it is now (the berries moved since the resolve sensed
// them, and no step needed them since), and a kept target as it stands
// (the north pile, kept 3 ticks, moved too: its answer, stale by the
// record's tick, is not sensed again for a record, which would make the
// game with a recording sense it on other ticks than the game without).
func TestResolverGoalRecordShowsEveryTickTargetsNow(t *testing.T) {
	c := newCamp(t)
	var rec agent.Recorder
	cfg := c.config(&rec)
	berries := resolver.Point{X: 5}
	cfg.Targets["berries"] = func(*agent.ResolverAgent) agent.Where { return agent.AtPoint(berries) }
	cfg.TargetRefresh = map[string]int{"wood_north": 3}
	sink := &keepDecisions{}
	cfg.Decisions = sink
	a := mustResolverAgent(t, cfg)
	a.Tick() // resolves: every target sensed
	berries = resolver.Point{X: 7, Y: 1}
	c.piles["wood_north"].at = resolver.Point{Y: 12}
	for range 30 {
		if len(sink.records) > 1 {
			break
		}
		a.Tick()
	}
	if len(sink.records) != 2 || sink.records[1].Decided != "goal" {
		t.Fatalf("records %d (%s), want a plan and then a goal choice", len(sink.records), kinds(&rec))
	}
	got := map[string]resolver.Point{}
	for _, tg := range sink.records[1].Snapshot.Targets {
		got[tg.Name] = tg.At
	}
	if got["berries"] != berries {
		t.Errorf("the goal record's berries at %v, want %v: a target sensed every tick shown as it was at the resolve", got["berries"], berries)
	}
	if want := (resolver.Point{Y: 10}); got["wood_north"] != want {
		t.Errorf("the goal record's north pile at %v, want %v, the kept answer", got["wood_north"], want)
	}
}

// TestResolverRecordSaysOwnProfileAndGameDistance: a resolver agent's
// decision record says own_profile only for an agent of a file's kind
// whose profile the game changed (SetProfile), and distance "game" when
// the game prices its walks.
func TestResolverRecordSaysOwnProfileAndGameDistance(t *testing.T) {
	for _, tc := range []struct {
		kind     string
		distance resolver.DistanceModel
	}{{"", nil}, {"survivor", resolver.StraightLine{}}} {
		c := newCamp(t)
		cfg := c.config(nil)
		cfg.AgentKind, cfg.Distance = tc.kind, tc.distance
		sink := &keepDecisions{}
		cfg.Decisions = sink
		a := mustResolverAgent(t, cfg)
		a.Tick()
		p, err := c.d.NewProfile(resolver.ProfileSpec{})
		if err != nil {
			t.Fatal(err)
		}
		a.SetProfile(p)
		a.RequestReplan()
		a.Tick()
		if len(sink.records) != 2 {
			t.Fatalf("kind %q: %d records, want 2", tc.kind, len(sink.records))
		}
		first, second := sink.records[0], sink.records[1]
		if first.OwnProfile || second.OwnProfile != (tc.kind != "") {
			t.Errorf("kind %q: own profile %v, then %v after SetProfile", tc.kind, first.OwnProfile, second.OwnProfile)
		}
		if want := map[bool]string{true: "game"}[tc.distance != nil]; first.Distance != want {
			t.Errorf("kind %q: distance %q, want %q", tc.kind, first.Distance, want)
		}
	}
}

// TestResolverRecordOfOneStepChain: the record of a one-step chain (the
// fire already lit: WarmUp) lists that step with its cost.
func TestResolverRecordOfOneStepChain(t *testing.T) {
	c := newCamp(t)
	c.values["fire_lit"] = 1
	cfg := c.config(nil)
	sink := &keepDecisions{}
	cfg.Decisions = sink
	a := mustResolverAgent(t, cfg)
	a.Tick()
	if len(sink.records) != 1 {
		t.Fatalf("%d records, want 1", len(sink.records))
	}
	if p := sink.records[0].Plan; len(p) != 1 || p[0].Action != "WarmUp" || p[0].Cost <= 0 {
		t.Errorf("the record's chain %+v, want WarmUp with its cost", p)
	}
}

// TestResolverNotMovingWhileGathering: once at the pile, with its
// behaviour under way, the survivor's step runs but it is not moving.
func TestResolverNotMovingWhileGathering(t *testing.T) {
	c := newCamp(t)
	c.ticks["GatherWoodSouth"] = 3
	a := mustResolverAgent(t, c.config(nil))
	tickResolver(a, 4)
	if act, ok := a.Current(); !ok || c.d.ActionName(act) != "GatherWoodSouth" || len(c.started) != 1 || a.Moving() {
		t.Errorf("current %v %v, started %v, moving %v: want gathering at the pile, not moving", act, ok, c.started, a.Moving())
	}
}
