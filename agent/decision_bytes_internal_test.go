package agent

import (
	"math"
	"runtime"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// TestDecisionBytesCountEachSlice: a recorder's byte bound counts the
// memory of every slice a kept decision holds, each alone: copying a
// decision with one large slice into an empty slot allocates what the
// slot then counts beyond its own size, within the allocator's rounding.
func TestDecisionBytesCountEachSlice(t *testing.T) {
	const n = 20_000
	for _, tc := range []struct {
		name string
		d    *Decision
	}{
		{"options", &Decision{Options: make([]GoalScore, n)}},
		{"plan", &Decision{Plan: make([]DecisionStep, n)}},
		{"mtr", &Decision{MTR: make([]int32, n)}},
		{"running", &Decision{Running: make([]int32, n)}},
		{"rejected", &Decision{Rejected: make([]DecisionRejected, n)}},
		{"facts", &Decision{Snapshot: DecisionSnapshot{Facts: make([]string, n)}}},
		{"values", &Decision{Snapshot: DecisionSnapshot{Values: make([]int64, n)}}},
		{"option notes", &Decision{weighed: make([]optionNote, n)}},
		{"targets", &Decision{Snapshot: DecisionSnapshot{Targets: make([]DecisionTarget, n)}}},
		{"targets as read", &Decision{found: make([]resolver.Target, n)}},
		{"chain", &Decision{chain: make([]resolver.ActionID, n)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			slot, allocated := copyAllocates(tc.d)
			if got := slot.bytes() - slotBytes; got < allocated*95/100 || got > allocated*105/100 {
				t.Errorf("the slot counts %d bytes beyond its own; copying into it allocated %d", got, allocated)
			}
		})
	}
}

// TestRejectedBytesCountTheirText: a traced decision's reasons and
// rejected plans are made for the record, not the domain's: the byte
// bound counts them.
func TestRejectedBytesCountTheirText(t *testing.T) {
	plain := &Decision{Rejected: []DecisionRejected{{Action: "Eat"}}}
	withText := &Decision{Rejected: []DecisionRejected{{Action: "Eat", Reason: "its chain costs 3 more", Plan: make([]string, 3, 4)}}}
	if got, want := withText.bytes()-plain.bytes(), int64(len("its chain costs 3 more")+4*16); got != want {
		t.Fatalf("a reason and a plan of 4 names count %d bytes, want %d", got, want)
	}
}

// TestFlightRecorderKeepsADecisionOfExactlyTheBound: a decision that
// needs exactly the byte bound is kept, though the slot it lands in still
// holds an earlier decision's slices: its slot is made its own size.
func TestFlightRecorderKeepsADecisionOfExactlyTheBound(t *testing.T) {
	small := &Decision{Options: make([]GoalScore, 10)}
	exact := &Decision{Plan: make([]DecisionStep, 300)}
	f := NewFlightRecorder(1, exact.bytes())
	f.RecordDecision(small)
	if held, dropped := f.Len(); held != 1 || dropped != 0 {
		t.Fatalf("the small decision: holds %d, dropped %d", held, dropped)
	}
	f.RecordDecision(exact) // in small's slot, which keeps its 10 options
	if held, dropped := f.Len(); held != 1 || dropped != 1 || len(f.slots[f.head].Plan) != 300 || f.total > f.maxBytes {
		t.Errorf("holds %d (plan of %d), dropped %d, %d of %d bytes: want the exact decision kept", held, len(f.slots[f.head].Plan), dropped, f.total, f.maxBytes)
	}
}

// copyAllocates copies src into an empty slot and returns the slot and
// what the copy allocated. TotalAlloc counts every goroutine's
// allocations (the test runner's, the race detector's, a queue's
// helper's): another's landing between the reads inflates one copy's
// count, as CI once saw (87 496 bytes for 81 920), so the fewest of five
// copies is the copy's.
func copyAllocates(src *Decision) (slot Decision, allocated int64) {
	allocated = math.MaxInt64
	for range 5 {
		slot = Decision{}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		slot.copyFrom(src)
		runtime.ReadMemStats(&after)
		allocated = min(allocated, int64(after.TotalAlloc-before.TotalAlloc))
	}
	return slot, allocated
}
