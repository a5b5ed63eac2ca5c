// Package pq is the open list of ploy's A* searches: a binary min-heap of
// (f, node) entries, typed so that a push allocates nothing once the backing
// array has grown (container/heap boxes every element in an interface).
package pq

// Entry is one open-list item: f = g + h, the estimate h, and the search
// node's index, which is also its generation order. Entries are taken by
// least f, then least h, then least node. Among states of equal f, the one
// with the least estimate is the one the search believes closest to the
// goal (it is the deepest in cost so far): taking it first dives towards a
// goal instead of sweeping every state of that f in the order made, which
// on a goal of n independent facts is the difference between n expansions
// and 2^n. The node index then makes the order total, so every search is
// deterministic.
type Entry struct {
	F, H float64
	Node int32
}

func less(a, b Entry) bool {
	if a.F != b.F {
		return a.F < b.F
	}
	if a.H != b.H {
		return a.H < b.H
	}
	return a.Node < b.Node
}

// Queue is a min-heap of entries. The zero value is an empty queue.
type Queue struct {
	items []Entry
}

// Reset empties the queue, keeping its storage.
func (q *Queue) Reset() { q.items = q.items[:0] }

// Len reports the number of entries.
func (q *Queue) Len() int { return len(q.items) }

// Push adds an entry.
func (q *Queue) Push(e Entry) {
	q.items = append(q.items, e)
	items := q.items
	i := len(items) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !less(e, items[parent]) {
			break
		}
		items[i] = items[parent]
		i = parent
	}
	items[i] = e
}

// Pop removes and returns the least entry. It panics on an empty queue.
func (q *Queue) Pop() Entry {
	items := q.items
	top := items[0]
	last := items[len(items)-1]
	items = items[:len(items)-1]
	q.items = items
	n := len(items)
	if n == 0 {
		return top
	}
	i := 0
	for {
		child := 2*i + 1
		if child >= n {
			break
		}
		if r := child + 1; r < n && less(items[r], items[child]) {
			child = r
		}
		if !less(items[child], last) {
			break
		}
		items[i] = items[child]
		i = child
	}
	items[i] = last
	return top
}

// Cap reports how many entries the queue holds room for.
func (q *Queue) Cap() int { return cap(q.items) }

// Reserve makes room for n entries, touching the memory.
func (q *Queue) Reserve(n int) { q.items = reserved(q.items, n) }
