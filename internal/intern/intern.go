// Package intern maps fixed-width bitset keys (states, partial states) to
// dense integer ids, so that a search's open list and node arena hold
// integers rather than bitsets.
//
// Each key carries a value of type V, stored in the key's slot, so that a
// search can read and update what it knows of a state (its best cost, say)
// with the same memory access that found it.
//
// A Table is reused across searches: Reset is O(1), because slots carry the
// epoch they were written in and a slot from an older epoch reads as empty.
// A large search therefore does not make every later small one pay for
// clearing a large table.
package intern

import (
	"math/bits"
	"slices"
	"unsafe"
)

// slot holds a key's first word inline, so that a probe usually settles
// with one memory access: for one-word keys, always.
type slot[V any] struct {
	first uint64
	epoch uint32
	id    int32
	val   V
}

// Table interns keys of a fixed number of uint64 words.
type Table[V any] struct {
	width int
	keys  []uint64 // key of id i is keys[i*width : (i+1)*width]
	slots []slot[V]
	shift uint // 64 - log2(len(slots))
	epoch uint32
	n     int32
}

const minSlots = 64

// Reset empties the table and sets the key width in words (at least 1).
func (t *Table[V]) Reset(width int) {
	if width < 1 {
		panic("intern: key width must be at least 1")
	}
	t.width = width
	t.keys = t.keys[:0]
	t.n = 0
	if t.slots == nil {
		t.slots = make([]slot[V], minSlots)
		t.shift = 64 - uint(bits.TrailingZeros(minSlots))
	}
	t.epoch++
	if t.epoch == 0 { // wrapped: old slots could read as current
		clear(t.slots)
		t.epoch = 1
	}
}

// Len reports the number of keys interned since the last Reset.
func (t *Table[V]) Len() int { return int(t.n) }

// Key returns the key of id. The slice aliases the table's storage and is
// valid until the next Reset.
func (t *Table[V]) Key(id int32) []uint64 {
	i := int(id) * t.width
	return t.keys[i : i+t.width : i+t.width]
}

func hash(key []uint64) uint64 {
	h := uint64(len(key))
	for _, w := range key {
		h = (h ^ w) * 0xbf58476d1ce4e5b9
		h ^= h >> 29
	}
	return h * 0x9e3779b97f4a7c15
}

func equal(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Intern returns the id of key and a pointer to its value, adding the key
// (by copying it) with a zero value if it is new. The pointer is valid until
// the next call that adds a key.
func (t *Table[V]) Intern(key []uint64) (id int32, val *V, added bool) {
	return t.InternHashed(key, Hash(key))
}

// Slots returns the number of slots, for a caller deciding whether the
// table still fits in a cache.
func (t *Table[V]) Slots() int { return len(t.slots) }

// Hash returns the hash Intern uses for key, for InternHashed and Touch.
func Hash(key []uint64) uint64 { return hash(key) }

// Touch reads the slot where a key with hash h would start probing and
// returns a value derived from it. A search that touches the slots of all
// of a state's successors before interning any of them lets the processor
// overlap those cache misses instead of taking them one by one; the result
// exists only so that the read is not optimised away.
func (t *Table[V]) Touch(h uint64) uint64 {
	return t.slots[h>>t.shift].first
}

// InternHashed is Intern with the key's Hash already computed.
func (t *Table[V]) InternHashed(key []uint64, h uint64) (id int32, val *V, added bool) {
	key = key[:t.width]
	mask := uint64(len(t.slots) - 1)
	first := key[0]
	i := h >> t.shift
	for {
		s := &t.slots[i]
		if s.epoch != t.epoch {
			break
		}
		if s.first == first && (t.width == 1 || equal(t.Key(s.id)[1:], key[1:])) {
			return s.id, &s.val, false
		}
		i = (i + 1) & mask
	}
	id = t.n
	t.n++
	if len(t.keys)+t.width > cap(t.keys) {
		// Double: append grows a large slice by a quarter, which leaves
		// about four times the final size behind in garbage and address
		// space; doubling leaves one.
		t.keys = slices.Grow(t.keys, max(t.width, cap(t.keys)))
	}
	t.keys = append(t.keys, key...)
	t.slots[i] = slot[V]{first: first, epoch: t.epoch, id: id}
	if int(t.n)*2 > len(t.slots) {
		t.grow()
		i = uint64(t.slotOf(key))
	}
	return id, &t.slots[i].val, true
}

// slotOf returns the slot holding key, or -1.
func (t *Table[V]) slotOf(key []uint64) int {
	mask := uint64(len(t.slots) - 1)
	for i := hash(key) >> t.shift; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.epoch != t.epoch {
			return -1
		}
		if s.first == key[0] && equal(t.Key(s.id), key) {
			return int(i)
		}
	}
}

func (t *Table[V]) grow() {
	old := t.slots
	oldEpoch := t.epoch
	n := len(old) * 2
	t.slots = make([]slot[V], n)
	t.shift--
	t.epoch = 1
	mask := uint64(n - 1)
	for _, s := range old {
		if s.epoch != oldEpoch {
			continue
		}
		i := hash(t.Key(s.id)) >> t.shift
		for t.slots[i].epoch == t.epoch {
			i = (i + 1) & mask
		}
		s.epoch = t.epoch
		t.slots[i] = s
	}
}

// Reserve makes room for n keys of width words, so that interning them
// grows nothing, and touches the memory so that the first search does not
// pay for the operating system's page faults either. It empties the table.
func (t *Table[V]) Reserve(width, n int) {
	size := minSlots
	for size < 2*n {
		size *= 2
	}
	if len(t.slots) < size {
		t.slots = make([]slot[V], size)
		t.shift = 64 - uint(bits.TrailingZeros(uint(size)))
		t.epoch = 0
	}
	if cap(t.keys) < n*width {
		t.keys = make([]uint64, n*width)
		clear(t.keys) // fault the pages in now
	}
	t.Reset(width)
}

// Bytes returns the memory the table holds: its keys and slots, at their
// capacity.
func (t *Table[V]) Bytes() int64 {
	var s slot[V]
	return int64(cap(t.keys))*8 + int64(cap(t.slots))*int64(unsafe.Sizeof(s))
}
