package goap_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
)

// TestTracesMatchTheRecordedGolden: TestDeterministic compares runs of one
// process with each other, so anything fixed once per process (a seed, an
// address, a map grown in another order) gives the same wrong answer
// every time and passes. Here the traces of every search and heuristic on
// the battle mage are compared with a digest recorded at commit 969d5c2
// (whose plans the battle mage tests check): a change to any plan,
// expansion order or tie-break fails it. If the change is meant, run with
// -v and record the new digest.
func TestTracesMatchTheRecordedGolden(t *testing.T) {
	const golden = "27537 bytes, sha256 7ed4114ba1212389033db57686b3f009b1653df4c0fa5e151c79ac332c8f45ec"
	var out strings.Builder
	d := mustDomain(t, domains.BattleMage())
	p := goap.NewPlanner(d)
	for _, search := range searches {
		for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.HMax} {
			var tr goap.Trace
			p.Plan(nil, fixture.StateWith(t, d, "!spare_crystals"), d.Goal("Kill"), goap.Options{Search: search, Heuristic: h, Trace: &tr})
			tr.WriteText(&out)
		}
	}
	got := fmt.Sprintf("%d bytes, sha256 %x", out.Len(), sha256.Sum256([]byte(out.String())))
	t.Logf("traces: %s", got)
	if got != golden {
		t.Errorf("traces are %s, recorded %s:\n%s", got, golden, out.String())
	}
}
