package domain_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
)

// TestCommitmentParsed: a kind's commitment: reads as the issue writes
// it, in a state-space file and in an engine-model file; a kind without
// one has the zero Commitment, and so has commitment: with nothing under
// it.
func TestCommitmentParsed(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "battlemage.yaml")
	src = src[:strings.Index(string(src), "\ninputs:")] // the shipped agents left out
	src = append(src, []byte(`
agents:
  - name: steady
    goals: [{goal: Kill, priority: 5}, {goal: GetHealthy, priority: 10, when: {healthy: false}}]
    commitment: {margin: 0.5, min_ticks: 30, exempt: [GetHealthy], finish_action: true}
  - name: fickle
    goals: [{goal: Kill, priority: 5}]
  - name: blank
    goals: [{goal: Kill, priority: 5}]
    commitment:
`)...)
	f, err := domain.Parse("mage.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"steady": "{0.5 30 [GetHealthy] true}",
		"fickle": "{0 0 [] false}",
		"blank":  "{0 0 [] false}",
	}
	for name, w := range want {
		k, _ := f.Agent(name)
		if got := fmt.Sprint(k.Commitment); got != w {
			t.Errorf("%s: commitment %s, want %s", name, got, w)
		}
	}

	colony := uncommitted(t)
	engine := strings.Replace(colony, "    capabilities: [ArmUp, Fight, KeepWatch", "    commitment: {margin: 2, min_ticks: 7, exempt: [RaidersGone, Fed]}\n    capabilities: [ArmUp, Fight, KeepWatch", 1)
	ef, err := domain.Parse("colony.yaml", []byte(engine))
	if err != nil {
		t.Fatal(err)
	}
	guard, _ := ef.EngineAgent("guard")
	if got := fmt.Sprint(guard.Commitment); got != "{2 7 [RaidersGone Fed] false}" {
		t.Errorf("guard: commitment %s", got)
	}
}

// TestCommitmentSchema: docs/domain.schema.json describes commitment: as
// the loader reads it, in both kinds of agent: the properties it has are
// those the loader takes (each one, written alone, loads; one more is
// refused), with the loader's bounds.
func TestCommitmentSchema(t *testing.T) {
	raw, err := os.ReadFile("../docs/domain.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	type prop struct {
		Type    any      `json:"type"`
		Minimum *float64 `json:"minimum"`
		Maximum *float64 `json:"maximum"`
		Ref     string   `json:"$ref"`
	}
	var def struct {
		Type                 []string        `json:"type"`
		AdditionalProperties *bool           `json:"additionalProperties"`
		Properties           map[string]prop `json:"properties"`
	}
	if err := json.Unmarshal(schema.Defs["commitment"], &def); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"agent", "engineAgent"} {
		var k struct {
			Properties map[string]prop `json:"properties"`
		}
		json.Unmarshal(schema.Defs[kind], &k)
		if k.Properties["commitment"].Ref != "#/$defs/commitment" {
			t.Errorf("$defs.%s has no commitment referring to $defs.commitment", kind)
		}
	}
	if def.AdditionalProperties == nil || *def.AdditionalProperties || !slices.Equal(def.Type, []string{"object", "null"}) {
		t.Errorf("$defs.commitment: type %v, additionalProperties %v; want object or null, none additional", def.Type, def.AdditionalProperties)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range def.Properties {
			if !yield(n) {
				return
			}
		}
	})
	if !slices.Equal(names, []string{"exempt", "finish_action", "margin", "min_ticks"}) {
		t.Errorf("$defs.commitment's properties %v", names)
	}
	if p := def.Properties["margin"]; p.Type != "number" || p.Minimum == nil || *p.Minimum != 0 {
		t.Errorf("margin: %+v, want a number, minimum 0", p)
	}
	if p := def.Properties["min_ticks"]; p.Type != "integer" || p.Minimum == nil || *p.Minimum != 0 || p.Maximum == nil || *p.Maximum != domain.MaxMinTicks {
		t.Errorf("min_ticks: %+v, want an integer from 0 to %d", p, domain.MaxMinTicks)
	}
	// exempt: a list, or null (none), as the loader reads it.
	if def.Properties["finish_action"].Type != "boolean" || fmt.Sprint(def.Properties["exempt"].Type) != "[array null]" {
		t.Errorf("finish_action %v, exempt %v; want boolean, and array or null", def.Properties["finish_action"].Type, def.Properties["exempt"].Type)
	}
	// Each property loads alone, at its schema's bound; past it, or
	// another key, does not.
	values := map[string]string{"margin": "0", "min_ticks": "2147483647", "exempt": "[Fed]", "finish_action": "false"}
	colony := uncommitted(t)
	with := func(c string) error {
		src := strings.Replace(colony, "    capabilities: [ArmUp, Fight, KeepWatch", "    commitment: "+c+"\n    capabilities: [ArmUp, Fight, KeepWatch", 1)
		_, err := domain.Parse("colony.yaml", []byte(src))
		return err
	}
	for _, n := range names {
		if err := with("{" + n + ": " + values[n] + "}"); err != nil {
			t.Errorf("%s, as the schema allows: %v", n, err)
		}
	}
	for _, bad := range []string{"{margin: -0.1}", "{min_ticks: 2147483648}", "{min_ticks: -1}", "{patience: 1}", "{finish_action: 0}"} {
		if err := with(bad); err == nil {
			t.Errorf("%s loads; the schema refuses it", bad)
		}
	}
}

// uncommitted is colony.yaml with its kinds' commitment: lines left out,
// for a test to give one its own.
func uncommitted(t *testing.T) string {
	src, err := fs.ReadFile(domains.Files, "colony.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := regexp.MustCompile(`(?m)^    commitment: .*\n`).ReplaceAllString(string(src), "")
	if out == string(src) {
		t.Fatal("colony.yaml's kinds have no commitment: lines")
	}
	return out
}

// TestCommitmentNumbersPastFloat64: a margin or min_ticks too large for a
// float64 is refused at its value with the commitment's own rule, not
// the rule for costs (which would tell the author 1e+290 is the limit,
// when a margin of 1e300 is accepted).
func TestCommitmentNumbersPastFloat64(t *testing.T) {
	src, _ := fs.ReadFile(domains.Files, "battlemage.yaml")
	base := string(src[:strings.Index(string(src), "\ninputs:")])
	for _, c := range []struct{ yaml, want string }{
		{"{margin: 1e400}", "margin must be a finite number, 0 or more"},
		{"{min_ticks: 1e400}", "min_ticks must be a whole number of ticks from 0 to 2147483647"},
	} {
		y := base + "\nagents:\n  - name: steady\n    goals: [{goal: Kill, priority: 5}]\n    commitment: " + c.yaml + "\n"
		_, err := domain.Parse("mage.yaml", []byte(y))
		if err == nil {
			t.Errorf("%s: accepted", c.yaml)
			continue
		}
		line := strings.Count(y[:strings.Index(y, "    commitment: ")], "\n") + 1
		at := fmt.Sprintf("mage.yaml:%d:", line)
		if msg := err.Error(); !strings.Contains(msg, at) || !strings.Contains(msg, c.want) || strings.Contains(msg, "costs") {
			t.Errorf("%s: error %q, want one at %s saying %q", c.yaml, msg, at, c.want)
		}
	}
}
