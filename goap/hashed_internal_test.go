package goap

import "testing"

// TestHashResetClearsAtTwoTo31: a top of exactly 2^31 clears the table and
// starts the marks again from zero (so that base plus one plus a cost up to
// MaxInt32 always fits in a mark); a top one below it is kept as the base.
func TestHashResetClearsAtTwoTo31(t *testing.T) {
	var hs hashSearch[uint32]
	hs.reset()
	hs.slots[3] = hashSlot[uint32]{key: 7, mark: 1<<31 - 1}
	hs.top = 1<<31 - 1
	hs.reset()
	if hs.base != 1<<31-1 || hs.slots[3].mark != 1<<31-1 {
		t.Fatalf("top 2^31-1: base %d, slot mark %d; want the base raised to the top, the table kept", hs.base, hs.slots[3].mark)
	}
	hs.top = 1 << 31
	hs.reset()
	if hs.base != 0 || hs.top != 0 || hs.slots[3].mark != 0 {
		t.Fatalf("top 2^31: base %d, top %d, slot mark %d; want the table cleared and the marks from zero", hs.base, hs.top, hs.slots[3].mark)
	}
}

// TestHashRoomGrowsToTheLeastTable: room grows the table to the least
// power of two that keeps the load at most a half, doubling as often as
// that takes. Less would leave a table that fills (and a probe that never
// ends); more would hold slots that nodeBytes, which counts a table at a
// load of at least a quarter, does not count against the memory ceiling.
func TestHashRoomGrowsToTheLeastTable(t *testing.T) {
	for _, c := range []struct{ filled, n, want int }{
		{0, 1, 1 << 10},
		{0, 512, 1 << 10},  // exactly a half: no growth
		{1, 512, 1 << 11},  // past a half: one doubling
		{0, 1024, 1 << 11}, // one doubling to exactly a half
		{0, 1025, 1 << 12},
		{0, 3000, 1 << 13}, // three doublings at once
		{100, 5000, 1 << 14},
	} {
		var hs hashSearch[uint32]
		hs.reset()
		for k := range c.filled { // claim filled distinct keys
			key := uint32(k + 1)
			s := hs.slot(key, wordHash(uint64(key))>>hs.shift)
			s.mark, s.node = hs.base+1, int32(k)
		}
		if hs.filled != c.filled {
			t.Fatalf("claimed %d keys, filled %d", c.filled, hs.filled)
		}
		hs.room(c.n)
		if len(hs.slots) != c.want {
			t.Errorf("%d filled, room(%d): %d slots, want %d", c.filled, c.n, len(hs.slots), c.want)
		}
		for k := range c.filled { // the filled slots moved with their marks
			key := uint32(k + 1)
			if s := hs.slot(key, wordHash(uint64(key))>>hs.shift); s.mark != hs.base+1 || s.node != int32(k) {
				t.Fatalf("%d filled, room(%d): key %d lost (%+v)", c.filled, c.n, key, *s)
			}
		}
	}
}

// TestHashReserveSizesForTheLastExpansion: reserve(n, actions) makes a
// table that n states and a last expansion of actions successors fit at a
// load of at most a half, so that the search grows nothing; and a second
// reserve of the same size keeps the table it made.
func TestHashReserveSizesForTheLastExpansion(t *testing.T) {
	var hs hashSearch[uint64]
	hs.reserve(1000, 100)
	slots := &hs.slots[0]
	hs.filled = 1000
	hs.room(100)
	if &hs.slots[0] != slots {
		t.Fatalf("reserve(1000, 100) made %d slots: room for the last 100 successors grew the table", len(hs.slots))
	}
	hs.reserve(1000, 100)
	if &hs.slots[0] != slots {
		t.Fatalf("a second reserve(1000, 100) replaced a table of %d slots", len(hs.slots))
	}
}
