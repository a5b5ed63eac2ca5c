package replay_test

import (
	"bytes"
	"testing"

	"github.com/ploy-ai/ploy/internal/testkit/camp"
)

// TestAttackTracedRecordingsAreTheSameOnAnyWorkers: a camp recorded with
// every agent at the trace level writes the same bytes on 1, 2 and 4
// workers: what each search turned down is the request's, not the
// worker's.
func TestAttackTracedRecordingsAreTheSameOnAnyWorkers(t *testing.T) {
	all := func(int) bool { return true }
	want := camp.Record(t, camp.Options{Agents: 12, Ticks: 150, Workers: 1, Trace: all})
	if !bytes.Contains(want, []byte(`"rejected":[`)) {
		t.Fatal("no decision recorded what it turned down")
	}
	for _, w := range []int{2, 4} {
		if got := camp.Record(t, camp.Options{Agents: 12, Ticks: 150, Workers: w, Trace: all}); !bytes.Equal(got, want) {
			t.Errorf("%d workers: the recording differs from 1 worker's", w)
		}
	}
}
