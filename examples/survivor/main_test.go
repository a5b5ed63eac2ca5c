package main

import (
	"bytes"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

var update = flag.Bool("update", false, "rewrite testdata/survivor.golden")

func run(t *testing.T) (*Camp, string) {
	t.Helper()
	var out bytes.Buffer
	c, err := Run(3, 40, &out)
	if err != nil {
		t.Fatal(err)
	}
	return c, out.String()
}

// TestOutputIsTheGolden runs the camp twice and compares the text with
// testdata/survivor.golden (go test -update rewrites it after a change
// that is meant).
func TestOutputIsTheGolden(t *testing.T) {
	_, out := run(t)
	if _, again := run(t); again != out {
		t.Fatal("two runs of the same camp differ")
	}
	if *update {
		if err := os.WriteFile("testdata/survivor.golden", []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/survivor.golden")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("output differs from testdata/survivor.golden:\n%s", out)
	}
}

// events returns a survivor's events of kind k.
func events(c *Camp, name string, k agent.EventKind) []agent.Event {
	var out []agent.Event
	for _, e := range c.Events.Events {
		if e.Agent == name && e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// TestTheStoryHolds checks, beyond the golden text, each point the example
// makes, so that a change of numbers that loses one fails here by name.
func TestTheStoryHolds(t *testing.T) {
	c, _ := run(t)
	first := func(name string) []string { return events(c, name, agent.PlanMade)[0].Plan }

	// The nearest pile wins: bo (south of the fire) and eli (north).
	if p := first("bo"); p[0] != "GatherWoodSouth" {
		t.Errorf("bo's first chain %v, want the south pile", p)
	}
	if p := first("eli"); p[0] != "GatherWoodNorth" {
		t.Errorf("eli's first chain %v, want the north pile", p)
	}
	// The pile runs out under cy's feet: target lost, then the north pile.
	cy := events(c, "cy", agent.PlanMade)
	failed := events(c, "cy", agent.ActionFailed)
	if len(failed) == 0 || failed[0].Reason != agent.ReasonTargetLost || len(cy) < 2 || cy[1].Plan[0] != "GatherWoodNorth" {
		t.Errorf("cy: failures %v, chains %v", failed, cy)
	}
	// The fire bo lit changes the others' chains: eli's LightFire does not
	// start, and his next chain, like cy's later one, is WarmUp alone.
	if f := events(c, "eli", agent.ActionFailed); len(f) != 1 || f[0].Action != "LightFire" || f[0].Reason != agent.ReasonPrecondition {
		t.Errorf("eli's failures %v", f)
	}
	if p := events(c, "eli", agent.PlanMade)[1].Plan; !slices.Equal(p, []string{"WarmUp"}) {
		t.Errorf("eli's second chain %v", p)
	}
	// The wounded cannot gather wood: no chain until the fire is lit, and
	// never a GatherWood step.
	dov := c.Survivors[3]
	if dov.Agent.Stats().NoPlan == 0 || dov.Warmth < 50 {
		t.Errorf("dov: %+v, warmth %d", dov.Agent.Stats(), dov.Warmth)
	}
	for _, e := range events(c, "dov", agent.StepStarted) {
		if strings.HasPrefix(e.Action, "GatherWood") {
			t.Errorf("dov gathered wood at tick %d", e.Tick)
		}
	}
	// The hunter hunts, and Hunt is performed while moving: started on the
	// tick ada set off, done only once she was within 10 m of the deer.
	if p := first("ada"); !slices.Equal(p, []string{"Hunt", "Eat"}) {
		t.Errorf("ada's first chain %v", p)
	}
	set, start, done := events(c, "ada", agent.MoveStarted)[0], events(c, "ada", agent.StepStarted)[0], events(c, "ada", agent.StepDone)[0]
	if set.Tick != start.Tick || done.Tick <= start.Tick+2 {
		t.Errorf("ada's hunt: set off %d, started %d, done %d", set.Tick, start.Tick, done.Tick)
	}
}
