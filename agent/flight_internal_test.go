package agent

import "testing"

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
