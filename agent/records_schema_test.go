package agent_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// schemaCheck checks v against the part of JSON Schema that
// docs/records.schema.json uses: type, required, properties,
// additionalProperties, items, enum, const, minimum, pattern and $ref
// (to its $defs).
func schemaCheck(defs map[string]any, schema map[string]any, v any, at string) []string {
	if ref, ok := schema["$ref"].(string); ok {
		return schemaCheck(defs, defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any), v, at)
	}
	var bad []string
	if c, ok := schema["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		bad = append(bad, fmt.Sprintf("%s: %v, want %v", at, v, c))
	}
	if m, ok := schema["minimum"].(float64); ok {
		if f, isNum := v.(float64); isNum && f < m {
			bad = append(bad, fmt.Sprintf("%s: %v is below %v", at, v, m))
		}
	}
	if p, ok := schema["pattern"].(string); ok {
		if s, isStr := v.(string); isStr && !regexp.MustCompile(p).MatchString(s) {
			bad = append(bad, fmt.Sprintf("%s: %q does not match %s", at, s, p))
		}
	}
	if e, ok := schema["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return fmt.Sprint(x) == fmt.Sprint(v) }) {
		bad = append(bad, fmt.Sprintf("%s: %v is not one of %v", at, v, e))
	}
	if t, ok := schema["type"]; ok {
		var types []any
		if s, ok := t.(string); ok {
			types = []any{s}
		} else {
			types = t.([]any)
		}
		if !slices.ContainsFunc(types, func(x any) bool { return jsonType(v, x.(string)) }) {
			bad = append(bad, fmt.Sprintf("%s: %v is not of type %v", at, v, t))
		}
	}
	switch v := v.(type) {
	case map[string]any:
		for _, r := range asSlice(schema["required"]) {
			if _, ok := v[r.(string)]; !ok {
				bad = append(bad, fmt.Sprintf("%s: no %q", at, r))
			}
		}
		props, _ := schema["properties"].(map[string]any)
		for k, x := range v {
			if p, ok := props[k].(map[string]any); ok {
				bad = append(bad, schemaCheck(defs, p, x, at+"."+k)...)
			} else if ap, ok := schema["additionalProperties"].(map[string]any); ok {
				bad = append(bad, schemaCheck(defs, ap, x, at+"."+k)...)
			} else if props != nil {
				bad = append(bad, fmt.Sprintf("%s: %q is not in the schema", at, k))
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, x := range v {
				bad = append(bad, schemaCheck(defs, items, x, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	return bad
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func jsonType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	}
	return false
}

// TestRecordingMatchesItsSchema: the recordings GOAP, HTN and resolver
// agents write (plans found, none found, a limit reached, an HTN
// interruption check) match docs/records.schema.json line by line.
func TestRecordingMatchesItsSchema(t *testing.T) {
	raw, err := os.ReadFile("../docs/records.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatalf("docs/records.schema.json: %v", err)
	}
	defs := schema["$defs"].(map[string]any)
	fr := agent.NewFlightRecorder(1000, 1<<24)

	for _, kind := range []string{"goap", "htn", "limited"} {
		w, d, h := newToy(t) // a world of its own for each agent
		cfg := goapConfig(w, d, nil)
		switch kind {
		case "htn":
			cfg = agent.Config{Name: "htn", Domain: d, HTN: h, HTNMode: agent.Interrupt, Behaviours: w.behaviours(), Sensor: w.sensor, RetryAfter: 3}
		case "limited":
			cfg.Name, cfg.Limits = "limited", search.Limits{MaxWork: 1}
		}
		cfg.Decisions = fr
		cfg.TraceDecisions = kind == "goap" // the trace level's rejected lists
		if kind == "htn" {
			for _, name := range []string{"Approach", "TakeCover", "Recharge", "CastBolt"} {
				w.duration[name] = 3
			}
		}
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for tick := range 30 {
			if kind == "htn" && tick == 4 {
				w.set("healthy", false) // hurt mid-fight: an interruption check
			}
			a.Tick()
		}
	}
	c := newCamp(t)
	c.values["hunger"] = 80
	rcfg := c.config(nil)
	rcfg.Decisions, rcfg.TraceDecisions = fr, true
	prof, err := c.d.NewProfile(resolver.ProfileSpec{Costs: map[string]float64{"Hunt": 7}})
	if err != nil {
		t.Fatal(err)
	}
	rcfg.Profile = prof
	ra := mustResolverAgent(t, rcfg)
	tickResolver(ra, 20)

	var b bytes.Buffer
	if err := fr.WriteJSONL(&b, agent.RecordHeader{Domain: "toy", DomainHash: agent.DomainHash([]byte("toy"))}); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&b)
	sc.Buffer(nil, 1<<20)
	seen := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		var v any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		def := "decision"
		if n == 1 {
			def = "header"
		} else {
			m := v.(map[string]any)
			seen[fmt.Sprint(m["kind"], " ", m["decided"], " ", m["status"])] = true
			for _, field := range []string{"rejected", "profile", "limits", "task", "running", "current"} {
				if m[field] != nil {
					seen[fmt.Sprint(m["kind"], " ", field)] = true
				}
			}
			if m["agent"] == "limited" && m["status"] == "limit_reached" && m["bound"] != "work" {
				t.Errorf("line %d: a search stopped by MaxWork has bound %v, want work", n, m["bound"])
			}
		}
		for _, e := range schemaCheck(defs, defs[def].(map[string]any), v, fmt.Sprintf("line %d", n)) {
			t.Error(e)
		}
	}
	for _, want := range []string{"goap plan found", "goap plan limit_reached", "htn plan found", "htn interruption found", "resolver plan found",
		"goap rejected", "resolver rejected", "resolver profile", "goap limits", "htn task", "htn running", "resolver current"} {
		if !seen[want] {
			t.Errorf("no %q decision among %v: the test covers less than it says", want, seen)
		}
	}
}
