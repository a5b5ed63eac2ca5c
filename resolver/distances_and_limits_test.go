package resolver_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// walled is a distance model with a wall around some places: straight
// lines, except +Inf to or from a walled-off position.
type walled struct{ off []resolver.Point }

func (w walled) Distance(from, to resolver.Point) float64 {
	if slices.Contains(w.off, from) != slices.Contains(w.off, to) {
		return math.Inf(1)
	}
	return resolver.StraightLine{}.Distance(from, to)
}

// fixed returns the same distance for every pair: NaN or a negative one
// to check that the resolver refuses them.
type fixed float64

func (f fixed) Distance(_, _ resolver.Point) float64 { return float64(f) }

// TestUnreachableTargetsMakeNoChain: a place the distance model cannot
// reach (+Inf) takes no part in a chain: the resolver takes the other pile,
// or finds no plan when every pile is cut off; it never returns a chain of
// infinite cost.
func TestUnreachableTargetsMakeNoChain(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20}, resolver.Point{}, camp())
	south := camp()["wood_south"]
	var tr resolver.Trace
	res, err := resolve(t, d, s, "Warm", resolver.Options{Distance: walled{off: []resolver.Point{south}}, Trace: &tr})
	if got := names(d, res.Chain); err != nil || !slices.Equal(got, []string{"GatherWoodNorth", "LightFire", "WarmUp"}) || res.Cost != 13 {
		t.Fatalf("south pile walled off: %v cost %g, %v; want the north pile at 13", got, res.Cost, err)
	}
	unreachable := false
	for _, c := range tr.Considered {
		if d.ActionName(c.Action) == "GatherWoodSouth" {
			unreachable = c.Reason == resolver.Unreachable && c.Cost == 0
		}
	}
	if !unreachable {
		t.Errorf("trace does not say the south pile is unreachable: %+v", tr.Considered)
	}
	var sb strings.Builder
	tr.WriteText(&sb)
	if !strings.Contains(sb.String(), "GatherWoodSouth serves has_wood: unreachable\n") {
		t.Errorf("text trace:\n%s", sb.String())
	}

	// Both piles cut off, and then the agent itself: no chain at all.
	for name, off := range map[string][]resolver.Point{
		"both piles": {south, camp()["wood_north"]},
		"the agent":  {{}},
	} {
		res, err = resolve(t, d, s, "Warm", resolver.Options{Distance: walled{off: off}})
		if res.Status != resolver.NoPlan || err != nil || len(res.Chain) != 0 {
			t.Errorf("%s walled off: %v %v cost %g, %v; want no plan", name, res.Status, names(d, res.Chain), res.Cost, err)
		}
	}
}

// TestHugeDistancesDoNotOverflowIntoAChain: a distance cost of 1e290 times
// a distance of 1e20 passes the float range. Such a chain has no cost to
// compare, so it is refused like an unreachable one, never returned at
// +Inf.
func TestHugeDistancesDoNotOverflowIntoAChain(t *testing.T) {
	spec := domains.Survivor()
	spec.DistanceCost = 1e290
	d := mustDomain(t, spec)
	far := camp()
	far["wood_south"] = resolver.Point{X: 0, Y: -1e20}
	far["wood_north"] = resolver.Point{X: 0, Y: 1e20}
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20}, resolver.Point{}, far)
	res, err := resolve(t, d, s, "Warm", resolver.Options{})
	if res.Status != resolver.NoPlan || err != nil || math.IsInf(res.Cost, 0) {
		t.Fatalf("%v %v cost %g, %v; want no plan", res.Status, names(d, res.Chain), res.Cost, err)
	}
	// The south pile within reach of the float range: its chain is found,
	// at a finite cost.
	far["wood_south"] = resolver.Point{X: 0, Y: -4}
	s = mustSnapshot(t, d, map[string]int64{"warmth": 20}, resolver.Point{}, far)
	res, err = resolve(t, d, s, "Warm", resolver.Options{})
	if got := names(d, res.Chain); err != nil || got[0] != "GatherWoodSouth" || math.IsInf(res.Cost, 0) || res.Cost < 1e290 {
		t.Fatalf("%v cost %g, %v", got, res.Cost, err)
	}
}

func TestBadDistancesPanic(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20}, resolver.Point{}, camp())
	for _, m := range []fixed{fixed(math.NaN()), -1} {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.HasPrefix(msg, "resolver: distance model resolver_test.fixed returned") {
					t.Errorf("distance %g: recovered %v; want a resolver panic", float64(m), r)
				}
			}()
			resolve(t, d, s, "Warm", resolver.Options{Distance: m})
		}()
	}
}

// wide is a domain whose goal is served by n actions, none of which can
// run now: a single expansion of the goal makes n chains.
func wide(n int) resolver.Spec {
	spec := resolver.Spec{
		Name:  "wide",
		Keys:  []resolver.KeySpec{{Name: "done", Kind: resolver.Bool}, {Name: "never", Kind: resolver.Bool}},
		Goals: []resolver.GoalSpec{{Name: "Done", Conditions: []resolver.Condition{resolver.True("done")}}},
	}
	for i := range n {
		spec.Actions = append(spec.Actions, resolver.ActionSpec{
			Name: "A" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Cost: 1,
			Conditions: []resolver.Condition{resolver.True("never")},
			Effects:    []resolver.Effect{resolver.Sets("done", true)},
		})
	}
	return spec
}

// TestWorkLimitBoundsNodes: the work limit bounds the chains a search
// holds, even within one expansion of a wide graph: one node per unit of
// work at most.
func TestWorkLimitBoundsNodes(t *testing.T) {
	d := mustDomain(t, wide(200))
	for _, limit := range []int{1, 10, 150} {
		res, err := resolve(t, d, d.NewSnapshot(), "Done", resolver.Options{MaxWork: limit})
		if res.Status != resolver.LimitReached || res.Bound != search.Work || err == nil || res.Generated > limit {
			t.Errorf("work limit %d: %v, %d chains made, %v", limit, res.Status, res.Generated, err)
		}
	}
	// The work runs out within the one expansion the budget allows: the
	// error names the work limit, not the budget.
	res, err := resolve(t, d, d.NewSnapshot(), "Done", resolver.Options{MaxWork: 10, Budget: 1})
	var se *resolver.SearchError
	if !errors.As(err, &se) || !se.Work || se.Limit != 10 || res.Expanded != 1 {
		t.Errorf("budget 1, work 10: %+v, %v", res, err)
	}
	// Enough work: every chain is made, and none completes.
	res, err = resolve(t, d, d.NewSnapshot(), "Done", resolver.Options{})
	if res.Status != resolver.NoPlan || err != nil || res.Generated != 200 {
		t.Errorf("unlimited: %v, %d chains, %v", res.Status, res.Generated, err)
	}
}

func TestTraceOfAGoalThatHolds(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 60}, resolver.Point{}, camp())
	var tr resolver.Trace
	res, _ := resolve(t, d, s, "Warm", resolver.Options{Trace: &tr})
	var sb strings.Builder
	tr.WriteText(&sb)
	if res.Status != resolver.Found || tr.Chosen != -1 || sb.String() != "resolve Warm: the goal holds already; nothing to do\n" {
		t.Errorf("%v, chosen %d, text %q", res.Status, tr.Chosen, sb.String())
	}
}

// scattered is a domain of n actions, each at a target of its own, in a
// chain: A0 needs s0, A1 gives s0 and needs s1, and so on.
func scattered(n int) (resolver.Spec, map[string]resolver.Point) {
	spec := resolver.Spec{Name: "scattered", Goals: []resolver.GoalSpec{{Name: "Done", Conditions: []resolver.Condition{resolver.True("s0")}}}}
	targets := map[string]resolver.Point{}
	for i := range n + 1 {
		spec.Keys = append(spec.Keys, resolver.KeySpec{Name: fmt.Sprintf("s%d", i), Kind: resolver.Bool})
	}
	for i := range n {
		a := resolver.ActionSpec{Name: fmt.Sprintf("A%d", i), Cost: 1, Target: fmt.Sprintf("t%d", i), Effects: []resolver.Effect{resolver.Sets(fmt.Sprintf("s%d", i), true)}}
		if i+1 < n {
			a.Conditions = []resolver.Condition{resolver.True(fmt.Sprintf("s%d", i+1))}
		}
		spec.Actions = append(spec.Actions, a)
		targets[a.Target] = resolver.Point{X: float64(i)}
	}
	return spec, targets
}

// TestResolverMemoryIsLinear: a resolver's memory grows with the domain's
// actions and targets, not their product. A domain file may hold about
// 11 000 actions, each with a target of its own: a table per (action,
// target) would take about a gigabyte per resolver.
func TestResolverMemoryIsLinear(t *testing.T) {
	spec, targets := scattered(3000)
	d := mustDomain(t, spec)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := resolver.NewResolver(d)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("NewResolver took %d bytes for 3000 actions and 3000 targets", n)
	}
	s := mustSnapshot(t, d, nil, resolver.Point{}, targets)
	res, err := r.Resolve(nil, s, d.Goal("Done"), resolver.Options{MaxDepth: 3000, Budget: 4000, MaxWork: 1 << 23})
	if err != nil || len(res.Chain) != 3000 || res.Cost != 3000+2*2999 { // out to A2999 at x = 2999, then back
		t.Errorf("%v, %d actions, cost %g, %v", res.Status, len(res.Chain), res.Cost, err)
	}
}

// recording is straight lines that remember every question.
type recording struct{ asked [][2]resolver.Point }

func (m *recording) Distance(from, to resolver.Point) float64 {
	m.asked = append(m.asked, [2]resolver.Point{from, to})
	return resolver.StraightLine{}.Distance(from, to)
}

// TestDistanceIsAskedTheWayToATarget: the resolver asks a distance model
// the way to a target, never to the agent, which is what lets
// navgrid.Fields measure one field per target and look every query up.
func TestDistanceIsAskedTheWayToATarget(t *testing.T) {
	spec, targets := survival30()
	d := mustDomain(t, spec)
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20, "hunger": 70, "thirst": 60}, resolver.Point{X: 1, Y: -1}, targets)
	m := &recording{}
	r := resolver.NewResolver(d)
	for _, g := range d.Goals() {
		if res, err := r.Resolve(nil, s, g, resolver.Options{Distance: m}); err != nil || res.Status != resolver.Found {
			t.Fatalf("%s: %v %v", g.Name(), res.Status, err)
		}
	}
	fromAgent := 0
	for _, q := range m.asked {
		if !slices.ContainsFunc(s.Targets, func(tg resolver.Target) bool { return tg.At == q[1] }) {
			t.Fatalf("asked the way from %v to %v, which is no target", q[0], q[1])
		}
		if q[0] == s.At {
			fromAgent++
		}
	}
	if len(m.asked) < 20 || fromAgent == 0 {
		t.Errorf("%d questions, %d from the agent: the test tests little", len(m.asked), fromAgent)
	}
}

// TestStraightLineMatchesHypot: the straight line's square root of the sum
// of squares agrees with math.Hypot to an ulp or two wherever the squares
// stay in the normal range, and falls back to it where they would not (a
// point 1e200 away is 1e200 away, not +Inf; one 1e-200 away is not 0).
func TestStraightLineMatchesHypot(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for i := range 100000 {
		scale := math.Pow(10, float64(r.IntN(640)-320))
		a := resolver.Point{X: (r.Float64() - 0.5) * scale, Y: (r.Float64() - 0.5) * scale}
		b := resolver.Point{X: (r.Float64() - 0.5) * scale, Y: (r.Float64() - 0.5) * scale}
		if i%7 == 0 {
			b = a // the same point
		}
		got, want := resolver.StraightLine{}.Distance(a, b), math.Hypot(b.X-a.X, b.Y-a.Y)
		if got != want && math.Abs(got-want) > 4e-16*want {
			t.Fatalf("%v to %v: %g, Hypot %g", a, b, got, want)
		}
	}
}
