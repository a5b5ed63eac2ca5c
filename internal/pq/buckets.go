package pq

import "math"

// Buckets is an open list for whole-number f values: one FIFO list per f,
// linked through the nodes. Push and Pop are O(1) amortized and touch a few
// words, where a heap's sift-down walks log n levels with an unpredictable
// branch at each.
//
// Pushing nodes in increasing index order makes its order exactly the
// heap's: least f first, and among equal f the lowest node index (the node
// generated first).
//
// The lists form a ring indexed by f modulo its size, which only has to
// span the f values queued together: a search whose f climbs into the
// millions (a thousand steps of cost a thousand) needs a ring as wide as
// one step's rise, not a list per f.
type Buckets struct {
	lists []list  // a ring: f's list is lists[f&mask]
	mask  int     // len(lists) - 1, a power of two less one
	next  []int32 // per node: the next node with the same f
	cur   int     // every queued f is in [cur, cur+len(lists))
	n     int
}

// list is one f's FIFO: its first and last node, head -1 if empty.
type list struct{ head, tail int32 }

// Reset empties the list, keeping its storage.
func (b *Buckets) Reset() {
	if b.n > 0 {
		for i := range b.lists {
			b.lists[i].head = -1
		}
	}
	b.n = 0
	b.cur = math.MaxInt // no f is in range: the next Push calls extend
}

// Len returns the number of nodes in the list.
func (b *Buckets) Len() int { return b.n }

// Push adds node with the given f, which must not be negative.
func (b *Buckets) Push(f int, node int32) {
	if uint(f-b.cur) >= uint(len(b.lists)) || int(node) >= len(b.next) {
		b.extend(f, node)
	}
	b.next[node] = -1
	l := &b.lists[f&b.mask]
	if l.head < 0 {
		l.head = node
	} else {
		b.next[l.tail] = node
	}
	l.tail = node
	b.n++
}

// extend makes room for node, and for f in the ring, outside Push so that
// Push inlines. A ring too small for the f values queued with f is
// replaced by one twice as wide or more, each queued f's list moved to its
// new place.
func (b *Buckets) extend(f int, node int32) {
	if int(node) >= len(b.next) {
		b.next = append(b.next, make([]int32, max(int(node)+1, 2*len(b.next))-len(b.next))...)
	}
	if b.n == 0 { // every list is empty: the ring may start anywhere
		if len(b.lists) == 0 {
			b.resize(16)
		}
		b.cur = f
		return
	}
	top := b.cur + len(b.lists) - 1
	for top > b.cur && b.lists[top&b.mask].head < 0 {
		top--
	}
	lo, hi := min(b.cur, f), max(top, f)
	if hi-lo >= len(b.lists) {
		size := 2 * len(b.lists)
		for hi-lo >= size {
			size *= 2
		}
		old, oldMask := b.lists, b.mask
		b.resize(size)
		for g := b.cur; g <= top; g++ {
			b.lists[g&b.mask] = old[g&oldMask]
		}
	}
	b.cur = lo
}

// resize replaces the ring with an empty one of size lists.
func (b *Buckets) resize(size int) {
	b.lists = make([]list, size)
	for i := range b.lists {
		b.lists[i].head = -1
	}
	b.mask = size - 1
}

// Pop removes and returns the node with the least f, the earliest pushed
// among equals. It panics on an empty list.
func (b *Buckets) Pop() (f int, node int32) {
	if b.n == 0 {
		panic("pq: Pop on empty Buckets")
	}
	for b.lists[b.cur&b.mask].head < 0 {
		b.cur++
	}
	f = b.cur
	l := &b.lists[f&b.mask]
	node = l.head
	l.head = b.next[node]
	b.n--
	return f, node
}
