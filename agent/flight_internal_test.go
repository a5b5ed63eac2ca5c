package agent

import (
	"strings"
	"testing"
)

// A big decision once, then small ones: the bound should hold for what is
// counted, for what the ring retains, and 16 small ones should be kept.
func TestFlightRecorderCountsWhatItsSlotsHold(t *testing.T) {
	small, big := &Decision{Tick: 1}, &Decision{Tick: 2, Options: make([]GoalScore, 1000)}
	f := NewFlightRecorder(16, big.bytes()+2*small.bytes())
	f.RecordDecision(big)
	over := 0
	for range 100 {
		f.RecordDecision(small)
		if f.total > f.maxBytes {
			over++
		}
	}
	if over > 0 {
		t.Errorf("counted bytes over the bound %d after %d of 100 small decisions", f.maxBytes, over)
	}
	if f.n != 16 {
		t.Errorf("holds %d small decisions; 16 (%d bytes) fit in %d", f.n, 16*small.bytes(), f.maxBytes)
	}
}

func TestFlightRecorderReleasesWhatItDrops(t *testing.T) {
	small, big := &Decision{Tick: 1}, &Decision{Tick: 2, Options: make([]GoalScore, 1000)}
	f := NewFlightRecorder(16, big.bytes()+small.bytes()/2)
	for range 16 {
		f.RecordDecision(big)
		for range 3 {
			f.RecordDecision(small)
		}
	}
	held := int64(0)
	for i := range f.slots {
		held += f.slots[i].bytes()
	}
	if held > f.maxBytes {
		t.Errorf("the ring retains %d bytes in %d slots (%d decisions held), bound %d", held, len(f.slots), f.n, f.maxBytes)
	}
}

// TestDecisionBytesAreWhatItsSlicesHold: what a slot counts against the
// byte bound is what copying a decision into an empty slot allocated,
// within the allocator's rounding.
func TestDecisionBytesAreWhatItsSlicesHold(t *testing.T) {
	src := &Decision{
		Options:  make([]GoalScore, 40),
		Plan:     make([]DecisionStep, 60),
		MTR:      make([]int32, 500),
		Snapshot: DecisionSnapshot{Facts: make([]string, 300), Values: make([]int64, 700), Targets: make([]DecisionTarget, 90)},
	}
	slot, allocated := copyAllocates(src) // the fewest of five copies
	if got := slot.bytes() - slotBytes; got < allocated*9/10 || got > allocated*11/10+256 {
		t.Errorf("a slot counts %d bytes beyond its own; copying into it allocated %d", got, allocated)
	}
}

// TestFlightRecorderKeepsADecisionThatFitsInAFreshSlot: a decision that
// fits the byte bound alone is kept even when the slot it lands in holds
// larger slices from an earlier decision: it gets a slot of its own size.
func TestFlightRecorderKeepsADecisionThatFitsInAFreshSlot(t *testing.T) {
	big := &Decision{Options: make([]GoalScore, 400)}
	medium := &Decision{Plan: make([]DecisionStep, 300)}
	if medium.bytes() > big.bytes() {
		t.Fatal("the test wants the medium decision smaller than the big one")
	}
	f := NewFlightRecorder(1, big.bytes())
	f.RecordDecision(big)
	f.RecordDecision(medium) // in big's slot: its Options and medium's Plan together are over
	if held, dropped := f.Len(); held != 1 || dropped != 1 || len(f.slots[f.head].Plan) != 300 || f.total > f.maxBytes {
		t.Errorf("holds %d (plan of %d), dropped %d, %d of %d bytes: want the medium decision kept", held, len(f.slots[f.head].Plan), dropped, f.total, f.maxBytes)
	}
}

// TestFlightRecorderOfOneByte: the smallest bounds are valid; a recorder
// of one byte keeps nothing and counts every decision dropped.
func TestFlightRecorderOfOneByte(t *testing.T) {
	f := NewFlightRecorder(1, 1)
	f.RecordDecision(&Decision{Tick: 1})
	if held, dropped := f.Len(); held != 0 || dropped != 1 {
		t.Errorf("holds %d, dropped %d", held, dropped)
	}
}

// TestFlightRecorderDropsATooBigDecisionAlone: a decision over the byte
// bound by itself is dropped without pushing the older ones out.
func TestFlightRecorderDropsATooBigDecisionAlone(t *testing.T) {
	small := &Decision{Tick: 1}
	f := NewFlightRecorder(10, 4*slotBytes+small.bytes())
	for range 3 {
		f.RecordDecision(small)
	}
	f.RecordDecision(&Decision{Options: make([]GoalScore, 1000)})
	if held, dropped := f.Len(); held != 3 || dropped != 1 {
		t.Errorf("after a decision too big for the bound: holds %d, dropped %d; want the 3 small ones kept", held, dropped)
	}
}

// TestNewFlightRecorderRefusesEmptyBounds: a bound below 1 is a mistake,
// said at once.
func TestNewFlightRecorderRefusesEmptyBounds(t *testing.T) {
	for _, b := range [][2]int64{{0, 10}, {10, 0}, {-1, -1}} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "both bounds must be at least 1") {
					t.Errorf("NewFlightRecorder(%d, %d): panic %q", b[0], b[1], msg)
				}
			}()
			NewFlightRecorder(int(b[0]), b[1])
		}()
	}
}

// TestFlightRecorderGrowsAWrappedRingInOrder: a ring that grows after it
// wrapped (its oldest decision not in its first slot) keeps its decisions
// oldest first.
func TestFlightRecorderGrowsAWrappedRingInOrder(t *testing.T) {
	f := NewFlightRecorder(100, 1<<30)
	for tick := range 16 {
		f.RecordDecision(&Decision{Tick: tick})
	}
	for range 3 {
		f.evict(false) // as the byte bound does: the oldest goes, the ring wraps
	}
	for tick := 16; tick < 20; tick++ { // the fourth finds the ring full and grows it
		f.RecordDecision(&Decision{Tick: tick})
	}
	var ticks []int
	for i := range f.n {
		ticks = append(ticks, f.slots[(f.head+i)%len(f.slots)].Tick)
	}
	for i, tick := range ticks {
		if tick != 3+i {
			t.Fatalf("after growing a wrapped ring, the decisions are ticks %v; want 3 to 19 in order", ticks)
		}
	}
}
