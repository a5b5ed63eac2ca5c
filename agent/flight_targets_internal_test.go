package agent

import (
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// TestWriteJSONLNamesTheTargetsOfASlotWithoutOptions: a slot's targets as
// read are named when the recording is written, whether or not the
// decision has goal options to make too.
func TestWriteJSONLNamesTheTargetsOfASlotWithoutOptions(t *testing.T) {
	dom, err := resolver.NewDomain(resolver.Spec{Name: "camp", Keys: []resolver.KeySpec{{Name: "warm"}}, Actions: []resolver.ActionSpec{
		{Name: "light", Effects: []resolver.Effect{resolver.Sets("warm", true)}, Cost: 1, Target: "fire"},
		{Name: "chop", Cost: 1, Target: "wood"},
		{Name: "hunt", Cost: 1, Target: "deer"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFlightRecorder(4, 1<<20)
	d := f.lendSlot()
	*d = Decision{Agent: "ann", Decided: "plan", Plan: []DecisionStep{}}
	d.Snapshot.Resolver = true
	d.Snapshot.Values = []int64{0}
	d.found = []resolver.Target{{At: resolver.Point{X: 1}, Found: true}, {}, {At: resolver.Point{Y: 2}, Found: true}}
	d.domain = dom
	f.keepSlot()
	var b strings.Builder
	if err := f.WriteJSONL(&b, RecordHeader{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], `"targets":{"deer":{"X":0,"Y":2},"fire":{"X":1,"Y":0}}`) {
		t.Errorf("recording %s: want the decision's targets fire and deer, not wood", b.String())
	}
}
