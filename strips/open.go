package strips

import "github.com/ploy-ai/ploy/internal/pq"

// ringSpan is the widest range of f values the open list keeps in
// pq.Buckets' ring, whose width is that range: 4 Mi slots, 16 MiB. Costs
// in the millions (parcprinter's are) or estimates that far apart would
// make the ring gigabytes wide; past this span the list moves to a heap.
const ringSpan = 1 << 22

// openList is A*'s open list: entries ordered by least f, then least h,
// then first pushed, in pq.Buckets while the queued f values span less
// than ringSpan, else in a binary heap in the same order, so that which
// one holds them never changes what a search does.
type openList struct {
	ring   pq.Buckets
	heap   []openEntry
	inHeap bool
	// lo and hi bound the f values queued in the ring: lo the least f
	// popped or pushed since the ring was last empty, hi the greatest.
	lo, hi int64
	// hOf gives a queued entry's h, which the ring does not keep, when
	// its entries move to the heap.
	hOf func(e int32) int64
}

type openEntry struct {
	f, h int64
	e    int32
}

func (o *openList) Len() int {
	if o.inHeap {
		return len(o.heap)
	}
	return o.ring.Len()
}

func (o *openList) Reset() {
	o.ring.Reset()
	o.heap, o.inHeap = o.heap[:0], false
}

// Bytes is the memory the list holds.
func (o *openList) Bytes() int64 {
	return o.ring.Bytes() + int64(cap(o.heap))*16
}

// Push queues entry e, which must be greater than every entry pushed
// before, at f and h.
func (o *openList) Push(f, h int64, e int32) {
	if !o.inHeap {
		if o.ring.Len() == 0 {
			o.lo, o.hi = f, f
		}
		o.lo, o.hi = min(o.lo, f), max(o.hi, f)
		if o.hi-o.lo < ringSpan {
			o.ring.Push(int(f), int(h), e)
			return
		}
		o.toHeap()
	}
	o.heap = append(o.heap, openEntry{f, h, e})
	o.up(len(o.heap) - 1)
}

// toHeap moves the ring's entries to the heap, in order: a sorted array
// is a heap.
func (o *openList) toHeap() {
	o.inHeap = true
	for o.ring.Len() > 0 {
		f, e := o.ring.Pop()
		o.heap = append(o.heap, openEntry{int64(f), o.hOf(e), e})
	}
	o.ring.Reset()
}

// Pop removes and returns the least entry.
func (o *openList) Pop() (f int64, e int32) {
	if !o.inHeap {
		fi, e := o.ring.Pop()
		o.lo = int64(fi)
		return int64(fi), e
	}
	top := o.heap[0]
	last := len(o.heap) - 1
	o.heap[0] = o.heap[last]
	o.heap = o.heap[:last]
	if last > 0 {
		o.down(0)
	}
	return top.f, top.e
}

func (a openEntry) less(b openEntry) bool {
	if a.f != b.f {
		return a.f < b.f
	}
	if a.h != b.h {
		return a.h < b.h
	}
	return a.e < b.e
}

func (o *openList) up(i int) {
	h := o.heap
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (o *openList) down(i int) {
	h := o.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
