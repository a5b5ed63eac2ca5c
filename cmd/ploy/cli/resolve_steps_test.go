package cli

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

// TestResolveStepsAddUpForEveryKind: for every agent kind of the shipped
// engine-model files, the steps ploy resolve prints (each action's cost
// for that kind, and its walk) add up to the chain's cost: a kind's cost
// overrides are its steps' costs, not the file's.
func TestResolveStepsAddUpForEveryKind(t *testing.T) {
	stepLine := regexp.MustCompile(`(?m)^  \d+\. \S+\s+cost (\S+)(?: \+ distance (\S+))?`)
	total := regexp.MustCompile(`(?m)^cost (\S+);`)
	checked := 0
	for file, kinds := range map[string][]string{"survivor": {"survivor", "wounded"}, "colony": {"worker", "hunter", "guard"}} {
		for _, kind := range kinds {
			st, out, errs := runPloy(t, "resolve", file, "--agent", kind)
			if st != exitOK {
				t.Fatalf("resolve %s --agent %s: status %d\n%s", file, kind, st, errs)
			}
			m := total.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("resolve %s --agent %s: no total in\n%s", file, kind, out)
			}
			want, _ := strconv.ParseFloat(m[1], 64)
			// Each number printed is rounded to two decimals (costfmt),
			// so off by half a cent at most.
			sum, printed := 0.0, 1
			for _, s := range stepLine.FindAllStringSubmatch(out, -1) {
				printed += 2
				c, _ := strconv.ParseFloat(s[1], 64)
				d := 0.0 // an action without a target: no walk
				if s[2] != "" {
					d, _ = strconv.ParseFloat(s[2], 64)
				}
				sum += c + d
			}
			if math.Abs(sum-want) > 0.005*float64(printed)+1e-9*max(1, want) {
				t.Errorf("resolve %s --agent %s: steps add up to %g, the chain costs %g\n%s", file, kind, sum, want, out)
			}
			checked++
		}
	}
	if checked != 5 {
		t.Fatalf("%d kinds checked", checked)
	}
}
