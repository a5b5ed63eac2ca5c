package agent_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// TestDecisionSnapshotRoundTrips: a snapshot written and read back is
// the snapshot: a state-space one stays one (facts, not a resolver
// snapshot), a resolver one keeps its values, position and every target,
// one target as well as several.
func TestDecisionSnapshotRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    agent.DecisionSnapshot
	}{
		{"facts", agent.DecisionSnapshot{Facts: []string{"has_axe", "hp_high"}}},
		{"no fact true", agent.DecisionSnapshot{}},
		{"one target", agent.DecisionSnapshot{Resolver: true, Keys: []string{"hunger"}, Values: []int64{80}, At: resolver.Point{X: 1, Y: 2},
			Targets: []agent.DecisionTarget{{Name: "berries", At: resolver.Point{X: 5}}}}},
		{"two targets", agent.DecisionSnapshot{Resolver: true, Keys: []string{"hunger", "warmth"}, Values: []int64{80, 20},
			Targets: []agent.DecisionTarget{{Name: "berries", At: resolver.Point{X: 5}}, {Name: "deer", At: resolver.Point{X: 2}}}}},
		{"no key, no target", agent.DecisionSnapshot{Resolver: true, At: resolver.Point{X: 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.s)
			if err != nil {
				t.Fatal(err)
			}
			var back agent.DecisionSnapshot
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back.Resolver != tc.s.Resolver || !reflect.DeepEqual(back.Facts, tc.s.Facts) || back.At != tc.s.At ||
				len(back.Keys) != len(tc.s.Keys) || len(back.Targets) != len(tc.s.Targets) {
				t.Fatalf("%s read back as %+v", b, back)
			}
			for i := range tc.s.Keys {
				if back.Keys[i] != tc.s.Keys[i] || back.Values[i] != tc.s.Values[i] {
					t.Fatalf("%s read back as %+v", b, back)
				}
			}
			for i := range tc.s.Targets {
				if back.Targets[i] != tc.s.Targets[i] {
					t.Fatalf("%s read back as %+v", b, back)
				}
			}
		})
	}
	// A resolver snapshot written by hand with its values and no position
	// is still a resolver snapshot (at the origin).
	var s agent.DecisionSnapshot
	if err := json.Unmarshal([]byte(`{"values":{"hunger":80}}`), &s); err != nil || !s.Resolver || s.Values[0] != 80 {
		t.Fatalf("values without a position: %+v, %v; want a resolver snapshot", s, err)
	}
}

// TestSetTraceDecisions: the trace level turned on for an agent (the one
// being looked at) records what its search turned down, turned off
// records nothing; an agent that records no decisions ignores it.
func TestSetTraceDecisions(t *testing.T) {
	for _, tc := range []struct {
		name         string
		config, set  bool
		wantRejected bool
	}{
		{"on", false, true, true},
		{"off", true, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, d, _ := newToy(t)
			cfg := goapConfig(w, d, nil)
			cfg.TraceDecisions = tc.config
			ds := recordOf(t, cfg, func(a *agent.Agent) {
				a.SetTraceDecisions(tc.set)
				a.Tick()
			})
			if len(ds) != 1 || (len(ds[0].Rejected) > 0) != tc.wantRejected {
				t.Fatalf("%d decisions, the first with %d rejected; want rejected: %v", len(ds), len(ds[0].Rejected), tc.wantRejected)
			}
		})
	}
	w, d, _ := newToy(t)
	a, err := agent.New(goapConfig(w, d, nil))
	if err != nil {
		t.Fatal(err)
	}
	a.SetTraceDecisions(true) // no sink: nothing to trace into
	a.Tick()
}

// TestGoalOptionsSayWhy: each recorded goal option says why it was or was
// not chosen, as ploy why shows it: the current goal kept at a tie, and
// the option it tied with named as such; a score that is not a number
// (the first option's: goal choice took it, having nothing to compare)
// written as 0 and named; one past the float range written as the
// largest float.
func TestGoalOptionsSayWhy(t *testing.T) {
	t.Run("a tie keeps the current goal", func(t *testing.T) {
		w, d, _ := newToy(t)
		w.set("healthy", false)
		flag := false
		cfg := goapConfig(w, d, nil)
		cfg.Goals = []agent.GoalOption{
			{Goal: d.Goal("GetHealthy"), Priority: 5, When: func(*agent.Agent) bool { return flag }},
			{Goal: d.Goal("Kill"), Priority: 5},
		}
		ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick(); flag = true; a.RequestReplan(); a.Tick() })
		last := ds[len(ds)-1]
		want := []agent.GoalScore{
			{Goal: "GetHealthy", Priority: 5, Score: 5, Why: "equal score: the current goal kept"},
			{Goal: "Kill", Priority: 5, Score: 5, Chosen: true, Current: true, Why: "kept: the current goal at an equal or higher score"},
		}
		if last.Goal != "Kill" || last.Current != "Kill" || !reflect.DeepEqual(last.Options, want) {
			t.Fatalf("goal %q (current %q), options %+v; want Kill kept, %+v", last.Goal, last.Current, last.Options, want)
		}
	})
	t.Run("the first option kept", func(t *testing.T) {
		w, d, _ := newToy(t)
		w.set("healthy", false)
		flag := false
		cfg := goapConfig(w, d, nil)
		cfg.Goals = []agent.GoalOption{
			{Goal: d.Goal("Kill"), Priority: 5},
			{Goal: d.Goal("GetHealthy"), Priority: 1, When: func(*agent.Agent) bool { return flag }},
		}
		ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick(); flag = true; a.RequestReplan(); a.Tick() })
		if last := ds[len(ds)-1]; len(ds) < 2 || last.Goal != "Kill" || last.Current != "Kill" || last.Options[1].Why != "lower score" {
			t.Fatalf("%d decisions, the last %+v; want Kill kept, named as the current goal", len(ds), last)
		}
	})
	t.Run("no option applies: the goal it had named", func(t *testing.T) {
		w, d, _ := newToy(t)
		w.set("healthy", false)
		flag := true
		cfg := goapConfig(w, d, nil)
		cfg.Goals = []agent.GoalOption{
			{Goal: d.Goal("Kill"), Priority: 5, When: func(*agent.Agent) bool { return flag }},
		}
		ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick(); flag = false; a.Tick() })
		last := ds[len(ds)-1]
		if len(ds) < 2 || last.Decided != "goal" || last.Goal != "" || last.Current != "Kill" || len(last.Options) != 1 || last.Options[0].Why != "when is false" {
			t.Fatalf("%d decisions, the last %+v; want a goal decision with no goal, Kill its current one", len(ds), last)
		}
	})
	for _, tc := range []struct {
		name  string
		score float64
		want  agent.GoalScore
	}{
		{"not a number", math.NaN(), agent.GoalScore{Goal: "GetHealthy", Priority: 1, Utility: true, Chosen: true, Why: "score is not a number"}},
		{"past the float range", math.Inf(1), agent.GoalScore{Goal: "GetHealthy", Priority: 1, Score: math.MaxFloat64, Utility: true, Chosen: true, Why: "highest score"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, d, _ := newToy(t)
			w.set("healthy", false)
			cfg := goapConfig(w, d, nil)
			cfg.Goals = []agent.GoalOption{
				{Goal: d.Goal("GetHealthy"), Priority: 1, Utility: func(*agent.Agent) float64 { return tc.score }},
				{Goal: d.Goal("Kill"), Priority: -1},
			}
			ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick() })
			if len(ds) == 0 || len(ds[0].Options) != 2 || ds[0].Options[0] != tc.want {
				t.Fatalf("decisions %+v; want the first option %+v", ds, tc.want)
			}
		})
	}
}

// TestPriorityNotANumberIsWrittenAs0: a goal option whose priority is
// not a number (a Utility scores it) is written with priority 0, as
// docs/records.md says: JSON has no NaN.
func TestPriorityNotANumberIsWrittenAs0(t *testing.T) {
	w, d, _ := newToy(t)
	w.set("healthy", false)
	cfg := goapConfig(w, d, nil)
	cfg.Goals = []agent.GoalOption{
		{Goal: d.Goal("GetHealthy"), Priority: math.NaN(), Utility: func(*agent.Agent) float64 { return 3 }},
		{Goal: d.Goal("Kill"), Priority: math.Inf(-1), Utility: func(*agent.Agent) float64 { return 1 }},
	}
	ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick() })
	if len(ds) == 0 || len(ds[0].Options) != 2 || ds[0].Options[0].Priority != 0 || ds[0].Options[1].Priority != -math.MaxFloat64 {
		t.Fatalf("decisions %+v; want priorities 0 and the lowest float", ds)
	}
}

// TestNoPlanRecordsNoCost: a search that found no plan (here stopped by
// its budget) records no plan and a cost of 0, whatever the search had
// reached.
func TestNoPlanRecordsNoCost(t *testing.T) {
	w, d, _ := newToy(t)
	cfg := goapConfig(w, d, nil)
	cfg.Limits = search.Limits{Budget: 1}
	ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick() })
	if len(ds) == 0 || ds[0].Status == "found" || len(ds[0].Plan) != 0 || ds[0].Cost != 0 {
		t.Fatalf("decisions %+v; want no plan at cost 0", ds)
	}
}

// TestProfileIsRecorded: an agent's profile is in its decisions, read
// back as what replay compiles again (a GOAP agent's incapable actions
// and costs, a resolver agent's capabilities and costs); an agent with none
// records none, and a profile read back with names in it is not none.
func TestProfileIsRecorded(t *testing.T) {
	line := func(t *testing.T, fr *agent.FlightRecorder) string {
		var b bytes.Buffer
		if err := fr.WriteJSONL(&b, agent.RecordHeader{}); err != nil {
			t.Fatal(err)
		}
		return strings.SplitN(b.String(), "\n", 3)[1]
	}
	t.Run("goap", func(t *testing.T) {
		w, d, _ := newToy(t)
		p, err := d.NewProfile(goap.ProfileSpec{Incapable: []string{"GetCrystals"}, Costs: map[string]goap.Cost{
			"Approach": goap.Const(7), "Recharge": goap.Rules(4, goap.CostRule{When: map[string]bool{"in_cover": true}, Cost: 1})}})
		if err != nil {
			t.Fatal(err)
		}
		cfg := goapConfig(w, d, nil)
		cfg.Profile = p
		ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick() })
		spec, ok, err := ds[0].Profile.GOAPSpec()
		if err != nil || !ok || !slices.Equal(spec.Incapable, []string{"GetCrystals"}) || len(spec.Costs) != 2 {
			t.Fatalf("profile read back %+v: spec %+v, %v, %v", ds[0].Profile, spec, ok, err)
		}
		if c, ok := spec.Costs["Approach"].Constant(); !ok || c != 7 {
			t.Fatalf("Approach costs %v (a constant: %v), want 7", c, ok)
		}
		if rules, otherwise, ok := spec.Costs["Recharge"].RuleList(); !ok || otherwise != 4 || len(rules) != 1 || rules[0].Cost != 1 || !rules[0].When["in_cover"] {
			t.Fatalf("Recharge costs %v otherwise %v (a rule list: %v), want 1 in cover, else 4", rules, otherwise, ok)
		}
		fr := agent.NewFlightRecorder(10, 1<<20)
		cfg = goapConfig(w, d, nil)
		cfg.Decisions = fr
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a.Tick()
		if l := line(t, fr); strings.Contains(l, `"profile"`) {
			t.Fatalf("no profile, and the record has one: %s", l)
		}
	})
	t.Run("resolver", func(t *testing.T) {
		c := newCamp(t)
		c.values["hunger"] = 80
		p, err := c.d.NewProfile(resolver.ProfileSpec{Capabilities: []string{"Forage", "Eat"}, Costs: map[string]float64{"Eat": 3}})
		if err != nil {
			t.Fatal(err)
		}
		cfg := c.config(nil)
		cfg.Profile = p
		fr := agent.NewFlightRecorder(10, 1<<20)
		cfg.Decisions = fr
		mustResolverAgent(t, cfg).Tick()
		_, ds := decisions(t, fr, agent.RecordHeader{})
		spec, ok := ds[0].Profile.ResolverSpec()
		if !ok || !slices.Equal(spec.Capabilities, []string{"Eat", "Forage"}) && !slices.Equal(spec.Capabilities, []string{"Forage", "Eat"}) {
			t.Fatalf("profile read back %+v: spec %+v, %v", ds[0].Profile, spec, ok)
		}
		if len(spec.Costs) != 1 || spec.Costs["Eat"] != 3 {
			t.Fatalf("costs read back %v, want Eat 3", spec.Costs)
		}
	})
	for _, p := range []agent.DecisionProfile{{Incapable: []string{"Hunt"}}, {Capabilities: []string{}}, {Costs: map[string]agent.DecisionCost{"Eat": {Value: 2}}}} {
		if p.IsZero() {
			t.Errorf("%+v is not the domain as built, and IsZero says it is", p)
		}
	}
	if !(agent.DecisionProfile{}).IsZero() {
		t.Error("the zero profile is not IsZero")
	}
}

// TestReadRecordingOfNoDecisions: a recording of no decisions (a game
// that recorded none yet, or all dropped) is read, its header's counts
// as written; a negative count of dropped ones is refused.
func TestReadRecordingOfNoDecisions(t *testing.T) {
	for _, file := range []string{
		`{"format":"ploy-decisions","version":1,"decisions":0,"dropped":0}` + "\n",
		`{"format":"ploy-decisions","version":1,"decisions":0,"dropped":5}` + "\n",
	} {
		rec, err := agent.ReadRecording(strings.NewReader(file), "rec.jsonl", 0)
		if err != nil || len(rec.Decisions) != 0 {
			t.Fatalf("%s: %v", file, err)
		}
	}
	fr := agent.NewFlightRecorder(10, 1<<20)
	var b bytes.Buffer
	if err := fr.WriteJSONL(&b, agent.RecordHeader{Domain: "toy"}); err != nil {
		t.Fatal(err)
	}
	if rec, err := agent.ReadRecording(&b, "rec.jsonl", 0); err != nil || rec.Header.Domain != "toy" || len(rec.Decisions) != 0 {
		t.Fatalf("an empty recorder's recording: %+v, %v", rec, err)
	}
	bad := `{"format":"ploy-decisions","version":1,"decisions":0,"dropped":-1}` + "\n"
	if _, err := agent.ReadRecording(strings.NewReader(bad), "rec.jsonl", 0); err == nil || !strings.Contains(err.Error(), "rec.jsonl:1: the header's decisions and dropped must not be negative") {
		t.Fatalf("dropped -1: err = %v", err)
	}
}

// TestReadRecordingSkipsBlankLines: blank lines (an editor's trailing
// newline, CRLF line ends, lines joined by hand) are not decisions.
func TestReadRecordingSkipsBlankLines(t *testing.T) {
	file := strings.ReplaceAll(rec(2, aDecision, "", "  ", aDecision, ""), "\n", "\r\n")
	got, err := agent.ReadRecording(strings.NewReader(file), "rec.jsonl", 0)
	if err != nil || len(got.Decisions) != 2 {
		t.Fatalf("%v, want 2 decisions", err)
	}
}

// TestTracedResolverRejectsWholeChains: a traced resolver agent records
// the chains its chosen one beat as the domain's action names, first
// action first, each dearer than the chosen chain, cheapest first.
func TestTracedResolverRejectsWholeChains(t *testing.T) {
	c := newCamp(t)
	c.values["hunger"] = 80
	cfg := c.config(nil)
	cfg.TraceDecisions = true
	fr := agent.NewFlightRecorder(10, 1<<20)
	cfg.Decisions = fr
	mustResolverAgent(t, cfg).Tick()
	_, ds := decisions(t, fr, agent.RecordHeader{})
	if len(ds) == 0 || ds[0].Status != "found" {
		t.Fatalf("decisions %+v, want a chain found", ds)
	}
	chains, last := 0, ds[0].Cost
	for _, r := range ds[0].Rejected {
		if len(r.Plan) == 0 {
			continue
		}
		chains++
		if r.Action != r.Plan[0] || r.Cost < last || !strings.HasPrefix(r.Reason, "its chain costs ") {
			t.Errorf("rejected %+v after cost %g: want its first action named, dearer, cheapest first", r, last)
		}
		last = r.Cost
		for _, name := range r.Plan {
			if _, ok := c.d.ActionByName(name); !ok {
				t.Errorf("rejected chain %q: %q is not an action of the domain", r.Plan, name)
			}
		}
	}
	if chains == 0 {
		t.Fatalf("rejected %+v: no chain, the test covers less than it says", ds[0].Rejected)
	}
}

// TestTracedGOAPRejectsAtTheStart: a traced GOAP agent records, from the
// state it planned in, the actions that could not start (and why) and
// those that could but begin no cheaper plan, never the plan's own first
// action.
func TestTracedGOAPRejectsAtTheStart(t *testing.T) {
	w, d, _ := newToy(t)
	cfg := goapConfig(w, d, nil)
	cfg.TraceDecisions = true
	ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick() })
	if len(ds) == 0 || len(ds[0].Plan) == 0 {
		t.Fatalf("decisions %+v, want a plan", ds)
	}
	first := ds[0].Plan[0].Action
	unmet, couldStart := 0, 0
	for _, r := range ds[0].Rejected {
		switch {
		case r.Action == first:
			t.Errorf("the plan's first action %s is listed as turned down: %+v", first, r)
		case r.Reason == "could start, but begins no cheaper plan":
			couldStart++
		case strings.HasSuffix(r.Reason, " at the start"):
			unmet++
		}
	}
	if unmet == 0 || couldStart == 0 {
		t.Fatalf("rejected %+v: want actions that could not start and ones that began no cheaper plan", ds[0].Rejected)
	}
}

// TestTracedSearchWithNoPlan: a traced agent whose search found no plan
// records what could not start, and nothing as beginning "no cheaper
// plan": there is no plan to compare with.
func TestTracedSearchWithNoPlan(t *testing.T) {
	w, d, _ := newToy(t)
	cfg := goapConfig(w, d, nil)
	cfg.Limits = search.Limits{Budget: 1}
	cfg.TraceDecisions = true
	ds := recordOf(t, cfg, func(a *agent.Agent) { a.Tick() })
	if len(ds) == 0 || ds[0].Status == "found" {
		t.Fatalf("decisions %+v; want no plan", ds)
	}
	for _, r := range ds[0].Rejected {
		if r.Reason == "could start, but begins no cheaper plan" {
			t.Errorf("no plan, and %+v", r)
		}
	}
}
