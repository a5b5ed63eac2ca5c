package pq

// Buckets is an open list for whole-number f values: one FIFO list per f,
// linked through the nodes. Push and Pop are O(1) amortized and touch a few
// words, where a heap's sift-down walks log n levels with an unpredictable
// branch at each.
//
// Pushing nodes in increasing index order makes its order exactly the
// heap's: least f first, and among equal f the lowest node index (the node
// generated first).
type Buckets struct {
	lists []list  // per f
	next  []int32 // per node: the next node with the same f
	cur   int     // no list below cur holds a node
	n     int
}

// list is one f's FIFO: its first and last node, head -1 if empty.
type list struct{ head, tail int32 }

// Reset empties the list, keeping its storage.
func (b *Buckets) Reset() {
	for i := range b.lists {
		b.lists[i].head = -1
	}
	b.cur, b.n = 0, 0
}

// Len returns the number of nodes in the list.
func (b *Buckets) Len() int { return b.n }

// Push adds node with the given f, which must not be negative.
func (b *Buckets) Push(f int, node int32) {
	if f >= len(b.lists) || int(node) >= len(b.next) {
		b.grow(f, node)
	}
	b.next[node] = -1
	l := &b.lists[f]
	if l.head < 0 {
		l.head = node
	} else {
		b.next[l.tail] = node
	}
	l.tail = node
	b.cur = min(b.cur, f)
	b.n++
}

// grow makes room for f and node, outside Push so that Push inlines.
func (b *Buckets) grow(f int, node int32) {
	for f >= len(b.lists) {
		b.lists = append(b.lists, list{head: -1, tail: -1})
	}
	if int(node) >= len(b.next) {
		b.next = append(b.next, make([]int32, max(int(node)+1, 2*len(b.next))-len(b.next))...)
	}
}

// Pop removes and returns the node with the least f, the earliest pushed
// among equals. It panics on an empty list.
func (b *Buckets) Pop() (f int, node int32) {
	for b.lists[b.cur].head < 0 {
		b.cur++
	}
	f = b.cur
	node = b.lists[f].head
	b.lists[f].head = b.next[node]
	b.n--
	return f, node
}
