package intern

import (
	"math/rand/v2"
	"testing"
)

func TestInternAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var tab Table[int]
	for round := 0; round < 50; round++ {
		width := 1 + r.IntN(4)
		tab.Reset(width)
		ref := map[[4]uint64]int32{}
		for i := 0; i < 3000; i++ {
			var k [4]uint64
			for w := 0; w < width; w++ {
				k[w] = uint64(r.IntN(40)) << (w * 7) // many repeats
			}
			id, val, added := tab.Intern(k[:width])
			want, seen := ref[k]
			if seen == added {
				t.Fatalf("round %d key %v: added=%v but seen=%v", round, k, added, seen)
			}
			if seen && id != want {
				t.Fatalf("round %d key %v: id %d, want %d", round, k, id, want)
			}
			if seen && *val != int(want)+1 {
				t.Fatalf("round %d key %v: value %d, want %d", round, k, *val, want+1)
			}
			if !seen {
				*val = int(id) + 1
				if id != int32(len(ref)) {
					t.Fatalf("round %d: ids not dense: got %d after %d keys", round, id, len(ref))
				}
				ref[k] = id
			}
		}
		if tab.Len() != len(ref) {
			t.Fatalf("round %d: Len %d, want %d", round, tab.Len(), len(ref))
		}
		for k, id := range ref {
			got, val, added := tab.Intern(k[:width])
			if added || got != id || *val != int(id)+1 {
				t.Fatalf("round %d: Intern(%v) again = %d, added %v; want %d, false", round, k, got, added, id)
			}
			if key := tab.Key(id); !equal(key, k[:width]) {
				t.Fatalf("round %d: Key(%d) = %v, want %v", round, id, key, k[:width])
			}
		}
	}
}

func TestResetForgetsKeys(t *testing.T) {
	var tab Table[int]
	tab.Reset(1)
	for i := uint64(0); i < 1000; i++ {
		tab.Intern([]uint64{i})
	}
	tab.Reset(1)
	if id, _, added := tab.Intern([]uint64{5}); !added || id != 0 {
		t.Fatalf("after Reset: Intern = %d, %v; want 0, true", id, added)
	}
}

func TestEpochWrapClearsSlots(t *testing.T) {
	var tab Table[int]
	tab.Reset(1)
	tab.Intern([]uint64{42})
	tab.epoch = ^uint32(0) // next Reset wraps
	for i := range tab.slots {
		tab.slots[i] = slot[int]{first: 42, epoch: 1, id: 0}
	}
	tab.Reset(1)
	if _, _, added := tab.Intern([]uint64{42}); !added {
		t.Fatal("stale slot read as current after epoch wrap")
	}
}

func TestWarmInternAllocatesNothing(t *testing.T) {
	var tab Table[int]
	tab.Reset(2)
	key := make([]uint64, 2)
	for i := uint64(0); i < 500; i++ {
		key[0] = i
		tab.Intern(key)
	}
	allocs := testing.AllocsPerRun(50, func() {
		tab.Reset(2)
		for i := uint64(0); i < 500; i++ {
			key[0], key[1] = i, i*3
			tab.Intern(key)
		}
	})
	if allocs != 0 {
		t.Fatalf("warm table allocated %v times per run", allocs)
	}
}
