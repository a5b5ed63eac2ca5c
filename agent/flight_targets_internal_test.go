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
	f := NewFlightRecorder(4, 1<<20)
	d := f.lendSlot()
	*d = Decision{Agent: "ann", Decided: "plan", Plan: []DecisionStep{}}
	d.Snapshot.Resolver = true
	d.found = []resolver.Target{{At: resolver.Point{X: 1}, Found: true}, {}, {At: resolver.Point{Y: 2}, Found: true}}
	d.targetNames = []string{"fire", "wood", "deer"}
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
