package pq

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// byFThenNode orders entries by f, then by node, written out here rather
// than taken from the package's less, so that a flipped tie-break there
// fails the tests instead of agreeing with itself.
func byFThenNode(a, b Entry) int {
	if c := cmp.Compare(a.F, b.F); c != 0 {
		return c
	}
	return cmp.Compare(a.Node, b.Node)
}

// TestQueueOrderByHand: the order of a few entries, worked out by hand.
func TestQueueOrderByHand(t *testing.T) {
	var q Queue
	for _, e := range []Entry{{2, 0}, {1, 1}, {2, 2}, {1, 3}, {0, 4}, {1, 5}} {
		q.Push(e)
	}
	want := []Entry{{0, 4}, {1, 1}, {1, 3}, {1, 5}, {2, 0}, {2, 2}}
	for i, w := range want {
		if got := q.Pop(); got != w {
			t.Fatalf("pop %d: got %+v, want %+v", i, got, w)
		}
	}
	var b Buckets
	b.Reset()
	for _, e := range []Entry{{2, 0}, {1, 1}, {2, 2}, {1, 3}, {0, 4}, {1, 5}} {
		b.Push(int(e.F), e.Node)
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
			e := Entry{F: float64(r.IntN(5)), Node: int32(i)}
			q.Push(e)
			want = append(want, e)
		}
		slices.SortFunc(want, byFThenNode)
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
			e := Entry{F: float64(r.IntN(20)), Node: int32(i)}
			q.Push(e)
			ref = append(ref, e)
			continue
		}
		best := 0
		for j := range ref {
			if byFThenNode(ref[j], ref[best]) < 0 {
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
		q.Push(Entry{F: float64(i), Node: int32(i)})
	}
	allocs := testing.AllocsPerRun(100, func() {
		q.Reset()
		for i := 0; i < 100; i++ {
			q.Push(Entry{F: float64(100 - i), Node: int32(i)})
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
// next and with which f, given the f last popped. It fails unless both pop
// the same entries.
func againstHeap(t *testing.T, b *Buckets, steps int, push func(last int) (bool, int)) {
	t.Helper()
	var q Queue
	var ref []Entry
	b.Reset()
	node, last := int32(0), 0
	for step := 0; step < steps; step++ {
		if ok, f := push(last); ok || q.Len() == 0 {
			q.Push(Entry{F: float64(f), Node: node})
			b.Push(f, node)
			ref = append(ref, Entry{F: float64(f), Node: node})
			node++
			continue
		}
		e := q.Pop()
		f, n := b.Pop()
		if float64(f) != e.F || n != e.Node {
			t.Fatalf("step %d: buckets popped (%d, %d), heap (%g, %d)", step, f, n, e.F, e.Node)
		}
		// Neither is the reference: the least (f, node) queued is.
		best := slices.MinFunc(ref, byFThenNode)
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
		againstHeap(t, &b, 500, func(int) (bool, int) { return r.IntN(3) > 0, r.IntN(12) })
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
		againstHeap(t, &b, 20000, func(last int) (bool, int) {
			f := last + 1000 + r.IntN(2000)
			if wild && r.IntN(100) == 0 {
				f = max(0, last-r.IntN(3000)) // below the window
			}
			return r.IntN(2) > 0, f
		})
		if !wild && len(b.lists) > 1<<13 {
			t.Fatalf("round %d: a ring of %d lists", round, len(b.lists))
		}
	}
}
