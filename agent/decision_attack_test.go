package agent_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// TestAttackUtilityRecordsTheActionItPreempts: a utility selector whose
// running action is outscored by more than its margin records the switch
// with the running action as Current and that option's why saying it was
// outscored: the record of a preemption names what was preempted.
func TestAttackUtilityRecordsTheActionItPreempts(t *testing.T) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	world := d.Initial()
	scoreA, scoreB := 10.0, 1.0
	beh := map[string]agent.Behaviour{}
	for id := range d.NumActions() {
		beh[d.ActionName(goap.ActionID(id))] = agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { return agent.Running }}
	}
	// Approach and FetchPotion apply in the initial state.
	fr := agent.NewFlightRecorder(100, 1<<20)
	a, err := agent.New(agent.Config{Name: "util", Domain: d, Behaviours: beh, Decisions: fr,
		Sensor: func(_ *agent.Agent, f goap.State) { f.CopyFrom(world) },
		Tree: agent.Utility(d, 2,
			agent.UtilityOption{Action: "Approach", Score: func(*agent.Agent) float64 { return scoreA }},
			agent.UtilityOption{Action: "FetchPotion", Score: func(*agent.Agent) float64 { return scoreB }},
		)})
	if err != nil {
		t.Fatal(err)
	}
	a.Tick() // Approach starts
	scoreB = 20
	a.Tick() // FetchPotion outscores it by more than 2
	_, ds := decisions(t, fr, agent.RecordHeader{})
	if len(ds) != 2 {
		t.Fatalf("%d decisions, want 2", len(ds))
	}
	dec := ds[1]
	if dec.Decided != "choice" || dec.Plan[0].Action != "FetchPotion" {
		t.Fatalf("second decision %+v", dec)
	}
	if dec.Current != "Approach" {
		t.Errorf("current %q, want Approach (the running action preempted)", dec.Current)
	}
	if w := dec.Options[0].Why; w != "the running action, outscored by more than the margin" {
		t.Errorf("Approach's why %q", w)
	}
}

// TestAttackNewFieldsMatchTheSchema: the fields this review added
// (an option's current, own_profile, traced) are in docs/records.schema.json
// and validate there, on an agent of a kind given a profile of its own,
// traced, with a current goal.
func TestAttackNewFieldsMatchTheSchema(t *testing.T) {
	raw, err := os.ReadFile("../docs/records.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	defs := schema["$defs"].(map[string]any)
	w, d, _ := newToy(t)
	cfg := goapConfig(w, d, nil)
	fr := agent.NewFlightRecorder(100, 1<<20)
	cfg.Decisions, cfg.TraceDecisions, cfg.AgentKind = fr, true, "goap"
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.Tick()
	p, err := d.NewProfile(goap.ProfileSpec{Costs: map[string]goap.Cost{"CastBolt": goap.Const(9)}})
	if err != nil {
		t.Fatal(err)
	}
	a.SetProfile(p)
	a.RequestReplan()
	a.Tick()
	var b bytes.Buffer
	if err := fr.WriteJSONL(&b, agent.RecordHeader{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines", len(lines))
	}
	last := lines[2]
	for _, want := range []string{`"current":true`, `"own_profile":true`, `"traced":true`} {
		if !strings.Contains(last, want) {
			t.Errorf("the second decision has no %s: %s", want, last)
		}
	}
	if strings.Contains(lines[1], `"own_profile"`) {
		t.Errorf("the first decision, on the kind's profile, says own_profile: %s", lines[1])
	}
	for n, line := range lines[1:] {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatal(err)
		}
		for _, e := range schemaCheck(defs, defs["decision"].(map[string]any), v, fmt.Sprintf("line %d", n+2)) {
			t.Error(e)
		}
	}
}
