package pq

// Keys is a min-heap of packed uint64 keys: a search that can pack its
// order (f, then h, then node) into one integer compares entries with one
// instruction and moves 8 bytes per step. The zero value is an empty heap.
type Keys struct {
	items []uint64
}

// Reset empties the heap, keeping its storage.
func (q *Keys) Reset() { q.items = q.items[:0] }

// Len reports the number of keys.
func (q *Keys) Len() int { return len(q.items) }

// Bytes returns the memory the heap holds, at its capacity.
func (q *Keys) Bytes() int64 { return int64(cap(q.items)) * 8 }

// Push adds k.
func (q *Keys) Push(k uint64) {
	items := append(q.items, k)
	i := len(items) - 1
	for i > 0 {
		parent := (i - 1) >> 1
		if items[parent] <= k {
			break
		}
		items[i] = items[parent]
		i = parent
	}
	items[i] = k
	q.items = items
}

// Pop removes and returns the least key. It panics on an empty heap.
//
// The hole left at the root sinks along the lesser children all the way to
// a leaf, one comparison per level instead of two, and the last key, which
// usually belongs near the bottom, rises from there.
func (q *Keys) Pop() uint64 {
	items := q.items
	top := items[0]
	n := len(items) - 1
	last := items[n]
	items = items[:n]
	q.items = items
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && items[c+1] < items[c] {
			c++
		}
		items[i] = items[c]
		i = c
	}
	for i > 0 {
		parent := (i - 1) >> 1
		if items[parent] <= last {
			break
		}
		items[i] = items[parent]
		i = parent
	}
	items[i] = last
	return top
}

// Reserve makes room for n keys, touching the memory.
func (q *Keys) Reserve(n int) { q.items = reserved(q.items, n) }

// reserved returns s emptied, with a capacity of at least n whose memory has
// been written once, so that a first search does not pay for page faults.
func reserved[E any](s []E, n int) []E {
	if cap(s) < n {
		s = make([]E, n)
		clear(s)
	}
	return s[:0]
}
