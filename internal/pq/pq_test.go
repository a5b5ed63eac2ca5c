package pq

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// byFHNode orders entries by f, then h, then node, written out here rather
// than taken from the package's less, so that a flipped tie-break there
// fails the tests instead of agreeing with itself.
func byFHNode(a, b Entry) int {
	if c := cmp.Compare(a.F, b.F); c != 0 {
		return c
	}
	if c := cmp.Compare(a.H, b.H); c != 0 {
		return c
	}
	return cmp.Compare(a.Node, b.Node)
}

// TestQueueOrderByHand: the order of a few entries, worked out by hand.
func TestQueueOrderByHand(t *testing.T) {
	var q Queue
	in := []Entry{{2, 1, 0}, {1, 1, 1}, {2, 0, 2}, {1, 0, 3}, {0, 0, 4}, {1, 1, 5}, {2, 1, 6}}
	for _, e := range in {
		q.Push(e)
	}
	want := []Entry{{0, 0, 4}, {1, 0, 3}, {1, 1, 1}, {1, 1, 5}, {2, 0, 2}, {2, 1, 0}, {2, 1, 6}}
	for i, w := range want {
		if got := q.Pop(); got != w {
			t.Fatalf("pop %d: got %+v, want %+v", i, got, w)
		}
	}
	var b Buckets
	b.Reset()
	for _, e := range in {
		b.Push(int(e.F), int(e.H), e.Node)
	}
	for i, w := range want {
		if f, n := b.Pop(); float64(f) != w.F || n != w.Node {
			t.Fatalf("buckets pop %d: got (%d, %d), want %+v", i, f, n, w)
		}
	}
}

func TestQueueOrdersByFThenNode(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		var q Queue
		var want []Entry
		n := r.IntN(64)
		for i := 0; i < n; i++ {
			// Few distinct f values, so that ties are common.
			e := Entry{F: float64(r.IntN(5)), H: float64(r.IntN(3)), Node: int32(i)}
			q.Push(e)
			want = append(want, e)
		}
		slices.SortFunc(want, byFHNode)
		for i, w := range want {
			if got := q.Pop(); got != w {
				t.Fatalf("round %d pop %d: got %+v, want %+v", round, i, got, w)
			}
		}
		if q.Len() != 0 {
			t.Fatalf("round %d: %d entries left", round, q.Len())
		}
	}
}

func TestQueueInterleaved(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var q Queue
	var ref []Entry
	for i := 0; i < 5000; i++ {
		if r.IntN(3) > 0 || len(ref) == 0 {
			e := Entry{F: float64(r.IntN(20)), H: float64(r.IntN(4)), Node: int32(i)}
			q.Push(e)
			ref = append(ref, e)
			continue
		}
		best := 0
		for j := range ref {
			if byFHNode(ref[j], ref[best]) < 0 {
				best = j
			}
		}
		if got := q.Pop(); got != ref[best] {
			t.Fatalf("step %d: got %+v, want %+v", i, got, ref[best])
		}
		ref = slices.Delete(ref, best, best+1)
	}
}

func TestQueuePushAllocatesNothingWhenWarm(t *testing.T) {
	var q Queue
	for i := 0; i < 100; i++ {
		q.Push(Entry{F: float64(i), H: float64(i % 3), Node: int32(i)})
	}
	allocs := testing.AllocsPerRun(100, func() {
		q.Reset()
		for i := 0; i < 100; i++ {
			q.Push(Entry{F: float64(100 - i), H: float64(i % 3), Node: int32(i)})
		}
		for q.Len() > 0 {
			q.Pop()
		}
	})
	if allocs != 0 {
		t.Fatalf("warm queue allocated %v times per run", allocs)
	}
}

// againstHeap runs steps of pushes (in increasing node order, as a search
// makes them) and pops on a heap and on b: push reports whether to push
// next and with which f and h, given the f last popped. It fails unless
// both pop the same entries.
func againstHeap(t *testing.T, b *Buckets, steps int, push func(last int) (bool, int, int)) {
	t.Helper()
	var q Queue
	var ref []Entry
	b.Reset()
	node, last := int32(0), 0
	for step := 0; step < steps; step++ {
		if ok, f, h := push(last); ok || q.Len() == 0 {
			e := Entry{F: float64(f), H: float64(h), Node: node}
			q.Push(e)
			b.Push(f, h, node)
			ref = append(ref, e)
			node++
			continue
		}
		e := q.Pop()
		f, n := b.Pop()
		if float64(f) != e.F || n != e.Node {
			t.Fatalf("step %d: buckets popped (%d, %d), heap (%g, %d)", step, f, n, e.F, e.Node)
		}
		// Neither is the reference: the least (f, h, node) queued is.
		best := slices.MinFunc(ref, byFHNode)
		if e != best {
			t.Fatalf("step %d: popped (%g, %d), least queued (%g, %d)", step, e.F, e.Node, best.F, best.Node)
		}
		ref = slices.DeleteFunc(ref, func(x Entry) bool { return x == best })
		last = f
	}
	if q.Len() != b.Len() {
		t.Fatalf("lengths %d and %d", q.Len(), b.Len())
	}
}

// TestBucketsMatchTheHeap checks the order on small f values.
func TestBucketsMatchTheHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var b Buckets
	for range 100 {
		againstHeap(t, &b, 500, func(int) (bool, int, int) { return r.IntN(3) > 0, r.IntN(12), r.IntN(5) })
	}
}

// TestBucketsWindow pushes f values one to three thousand above the last
// one popped, as a search of dear actions does, so that f climbs into the
// millions, and in odd rounds now and then one below the window; it checks
// the order against the heap and that the ring stays as narrow as the f
// values queued together.
func TestBucketsWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 20; round++ {
		var b Buckets // a ring widened by the last round would hide a leak
		wild := round%2 == 1
		againstHeap(t, &b, 20000, func(last int) (bool, int, int) {
			f := last + 1000 + r.IntN(2000)
			if wild && r.IntN(100) == 0 {
				f = max(0, last-r.IntN(3000)) // below the window
			}
			return r.IntN(2) > 0, f, r.IntN(3) * 500
		})
		if !wild && len(b.ring) > 1<<13 {
			t.Fatalf("round %d: a ring of %d chains", round, len(b.ring))
		}
	}
}

// TestBucketsWarmAllocatesNothing: groups freed by pops are reused, so a
// warm list's pushes and pops allocate nothing.
func TestBucketsWarmAllocatesNothing(t *testing.T) {
	var b Buckets
	run := func() {
		b.Reset()
		for i := range 200 {
			b.Push(i/10+i%4, i%7, int32(i))
			if i%3 == 0 {
				b.Pop()
			}
		}
		for b.Len() > 0 {
			b.Pop()
		}
	}
	run()
	if allocs := testing.AllocsPerRun(50, run); allocs != 0 {
		t.Fatalf("warm buckets allocated %v times per run", allocs)
	}
}

// TestKeysInterleaved: random pushes and pops against a linear scan for
// the least key, duplicates included, and a warm heap allocates nothing.
func TestKeysInterleaved(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var q Keys
	var ref []uint64
	for i := 0; i < 20000; i++ {
		if r.IntN(3) > 0 || len(ref) == 0 {
			k := r.Uint64N(64) << 40 // few distinct keys: equal keys are common
			if r.IntN(2) == 0 {
				k = r.Uint64()
			}
			q.Push(k)
			ref = append(ref, k)
			continue
		}
		best := 0
		for j := range ref {
			if ref[j] < ref[best] {
				best = j
			}
		}
		if got := q.Pop(); got != ref[best] {
			t.Fatalf("step %d: got %#x, want %#x", i, got, ref[best])
		}
		ref = slices.Delete(ref, best, best+1)
		if q.Len() != len(ref) {
			t.Fatalf("step %d: Len %d, want %d", i, q.Len(), len(ref))
		}
	}
	q.Reset()
	if allocs := testing.AllocsPerRun(10, func() {
		for i := range 1000 {
			q.Push(uint64(i * 7919 % 1000))
		}
		for q.Len() > 0 {
			q.Pop()
		}
	}); allocs != 0 {
		t.Errorf("a warm heap allocated %v times per run", allocs)
	}
}

// TestBucketsPeekIsTheNextPop: on random pushes and pops, Peek names the
// node the next Pop returns, and -1 on an empty list.
func TestBucketsPeekIsTheNextPop(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var b Buckets
	b.Reset()
	if got := b.Peek(); got != -1 {
		t.Fatalf("Peek on an empty list: %d, want -1", got)
	}
	node, f := int32(0), 0
	for step := 0; step < 20000; step++ {
		if b.Len() == 0 || r.IntN(3) > 0 {
			b.Push(f+r.IntN(40), r.IntN(5), node) // f spread past the ring's first 16 slots
			node++
			continue
		}
		want := b.Peek()
		var got int32
		f, got = b.Pop() // later pushes come at f or above, as a search's do
		if got != want {
			t.Fatalf("step %d: Peek said %d, Pop returned %d", step, want, got)
		}
	}
}

// TestKeysBytes: a heap's Bytes is its capacity in 8-byte keys, none
// before its first push, and Reset keeps it (the storage is kept).
func TestKeysBytes(t *testing.T) {
	var q Keys
	if b := q.Bytes(); b != 0 {
		t.Fatalf("empty heap: %d bytes", b)
	}
	q.Reserve(1000)
	if b := q.Bytes(); b != 8*int64(cap(q.items)) || b < 8000 {
		t.Fatalf("after Reserve(1000): %d bytes for a capacity of %d keys", b, cap(q.items))
	}
	before := q.Bytes()
	for i := range 3000 {
		q.Push(uint64(i))
	}
	if b := q.Bytes(); b != 8*int64(cap(q.items)) || b < 24000 {
		t.Fatalf("after 3 000 pushes: %d bytes for a capacity of %d keys", b, cap(q.items))
	}
	grown := q.Bytes()
	q.Reset()
	if b := q.Bytes(); b != grown || b <= before {
		t.Fatalf("after Reset: %d bytes, want the %d it held", b, grown)
	}
}
