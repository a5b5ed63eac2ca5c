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
	head, tail []int32 // per f: first and last node, -1 if empty
	next       []int32 // per node: the next node with the same f
	cur        int     // no bucket below cur holds a node
	n          int
}

// Reset empties the list, keeping its storage.
func (b *Buckets) Reset() {
	for i := range b.head {
		b.head[i] = -1
	}
	b.cur, b.n = 0, 0
}

// Len returns the number of nodes in the list.
func (b *Buckets) Len() int { return b.n }

// Push adds node with the given f, which must not be negative.
func (b *Buckets) Push(f int, node int32) {
	for f >= len(b.head) {
		b.head = append(b.head, -1)
		b.tail = append(b.tail, -1)
	}
	if int(node) >= len(b.next) {
		b.next = append(b.next, make([]int32, int(node)+1-len(b.next))...)
	}
	b.next[node] = -1
	if b.head[f] < 0 {
		b.head[f] = node
	} else {
		b.next[b.tail[f]] = node
	}
	b.tail[f] = node
	if f < b.cur {
		b.cur = f
	}
	b.n++
}

// Pop removes and returns the node with the least f, the earliest pushed
// among equals. It panics on an empty list.
func (b *Buckets) Pop() (f int, node int32) {
	for b.head[b.cur] < 0 {
		b.cur++
	}
	f = b.cur
	node = b.head[f]
	b.head[f] = b.next[node]
	b.n--
	return f, node
}
