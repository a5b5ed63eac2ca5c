package pq

import (
	"math"
	"unsafe"
)

// Buckets is an open list for whole-number f and h values, in the heap's
// order: least f, then least h, then the node pushed first. Each f has a
// short chain of groups, one per h queued at that f, in increasing h, and
// each group is a FIFO list linked through the nodes. Push and Pop touch a
// few words where a heap's sift-down walks log n levels with an
// unpredictable branch at each; a push walks its f's chain, which is as
// long as the distinct estimates queued at that f (a handful), and the
// common push, a successor one step closer to the goal, lands at its head.
//
// Nodes must be pushed in increasing index order, as a search makes them,
// for the FIFO lists to keep the heap's tie-break on the node.
//
// The f values form a ring indexed by f modulo its size, which only has to
// span the f values queued together: a search whose f climbs into the
// millions (a thousand steps of cost a thousand) needs a ring as wide as
// one step's rise, not a chain per f.
type Buckets struct {
	ring   []int32 // f's first group is ring[f&mask], -1 if none
	mask   int     // len(ring) - 1, a power of two less one
	groups []group // a pool; free groups are chained from free
	free   int32
	next   []int32 // per node: the next node of its group
	cur    int     // every queued f is in [cur, cur+len(ring))
	n      int
}

// group is the FIFO list of one (f, h): its first and last node, and the
// group of the next larger h at the same f.
type group struct {
	h                int
	head, tail, link int32
}

// Reset empties the list, keeping its storage.
func (b *Buckets) Reset() {
	if b.n > 0 {
		for i := range b.ring {
			b.ring[i] = -1
		}
	}
	b.groups = b.groups[:0]
	b.free = -1
	b.n = 0
	b.cur = math.MaxInt // no f is in range: the next Push calls extend
}

// Bytes returns the memory the list holds: its ring, groups and links.
func (b *Buckets) Bytes() int64 {
	return int64(cap(b.ring))*4 + int64(cap(b.groups))*int64(unsafe.Sizeof(group{})) + int64(cap(b.next))*4
}

// Len returns the number of nodes in the list.
func (b *Buckets) Len() int { return b.n }

// Push adds node with the given f and h, neither negative.
func (b *Buckets) Push(f, h int, node int32) {
	if uint(f-b.cur) >= uint(len(b.ring)) || int(node) >= len(b.next) {
		b.extend(f, node)
	}
	b.next[node] = -1
	b.n++
	slot := f & b.mask
	prev, gi := int32(-1), b.ring[slot]
	for gi >= 0 && b.groups[gi].h < h {
		prev, gi = gi, b.groups[gi].link
	}
	if gi >= 0 && b.groups[gi].h == h {
		g := &b.groups[gi]
		b.next[g.tail] = node
		g.tail = node
		return
	}
	gi = b.newGroup(h, node, gi)
	if prev < 0 {
		b.ring[slot] = gi
	} else {
		b.groups[prev].link = gi
	}
}

// newGroup returns a group for h holding node, linked before link, taken
// from the free chain when it can be, so that a warm list allocates nothing.
func (b *Buckets) newGroup(h int, node, link int32) int32 {
	gi := b.free
	if gi >= 0 {
		b.free = b.groups[gi].link
	} else {
		gi = int32(len(b.groups))
		b.groups = append(b.groups, group{})
	}
	b.groups[gi] = group{h: h, head: node, tail: node, link: link}
	return gi
}

// extend makes room for node, and for f in the ring, outside Push so that
// Push stays small. A ring too small for the f values queued with f is
// replaced by one twice as wide or more, each queued f's chain moved to its
// new place.
func (b *Buckets) extend(f int, node int32) {
	if int(node) >= len(b.next) {
		b.next = append(b.next, make([]int32, max(int(node)+1, 2*len(b.next))-len(b.next))...)
	}
	if b.n == 0 { // every chain is empty: the ring may start anywhere
		if len(b.ring) == 0 {
			b.resize(16)
		}
		b.cur = f
		return
	}
	top := b.cur + len(b.ring) - 1
	for top > b.cur && b.ring[top&b.mask] < 0 {
		top--
	}
	lo, hi := min(b.cur, f), max(top, f)
	if hi-lo >= len(b.ring) {
		size := 2 * len(b.ring)
		for hi-lo >= size {
			size *= 2
		}
		old, oldMask := b.ring, b.mask
		b.resize(size)
		for g := b.cur; g <= top; g++ {
			b.ring[g&b.mask] = old[g&oldMask]
		}
	}
	b.cur = lo
}

// resize replaces the ring with an empty one of size chains.
func (b *Buckets) resize(size int) {
	b.ring = make([]int32, size)
	for i := range b.ring {
		b.ring[i] = -1
	}
	b.mask = size - 1
}

// Pop removes and returns the node with the least f, then the least h, the
// earliest pushed among equals. It panics on an empty list.
func (b *Buckets) Pop() (f int, node int32) {
	if b.n == 0 {
		panic("pq: Pop on empty Buckets")
	}
	for b.ring[b.cur&b.mask] < 0 {
		b.cur++
	}
	f = b.cur
	slot := &b.ring[f&b.mask]
	gi := *slot
	g := &b.groups[gi]
	node = g.head
	if node == g.tail { // the group's last node: the group goes free
		*slot = g.link
		g.link = b.free
		b.free = gi
	} else {
		g.head = b.next[node]
	}
	b.n--
	return f, node
}

// Peek returns the node Pop would return next, without removing it, or
// -1 if the list is empty: a search reads that node's state ahead, while
// it expands the one before, so that the cache miss is over when its turn
// comes.
func (b *Buckets) Peek() int32 {
	if b.n == 0 {
		return -1
	}
	for f := b.cur; ; f++ {
		if gi := b.ring[f&b.mask]; gi >= 0 {
			return b.groups[gi].head
		}
	}
}

// Reserve makes room for nodes 0 to n-1 and for as many groups, touching
// the memory. It empties the list.
func (b *Buckets) Reserve(n int) {
	if len(b.next) < n {
		b.next = make([]int32, n)
		clear(b.next)
	}
	b.groups = reserved(b.groups, n)
	if len(b.ring) == 0 {
		b.resize(16)
	}
	b.Reset()
}
