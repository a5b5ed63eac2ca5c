package agent

import "testing"

// TestSlicedReservesHoldAtMostPerFrame: between frames each worker's
// reserve holds at most PerFrame idle searches per domain (a frame
// suspends no more), and fills to that bound: searches that end are
// dealt out again rather than dropped while a reserve has room. Forty
// battle mages replan now and then through queues of 1 to 4 workers, so
// that a frame's searches, spread over its workers, leave more idle than
// one reserve takes.
func TestSlicedReservesHoldAtMostPerFrame(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 4} {
		const perFrame = 3
		q := NewQueue(workers, perFrame)
		q.SetSlice(2)
		mages := queuedMages(t, 40, q)
		full := 0
		for tick := range 600 {
			for i, a := range mages {
				if (tick*7+i*i)%5 == 0 {
					a.RequestReplan()
				}
				a.Tick()
			}
			q.Frame()
			for wi, w := range q.planners {
				for _, rs := range w.reserve {
					if len(rs) > perFrame {
						t.Fatalf("%d workers, tick %d: worker %d's reserve holds %d searches of a domain; at most %d", workers, tick, wi, len(rs), perFrame)
					}
					if len(rs) == perFrame {
						full++
					}
				}
			}
		}
		if full == 0 {
			t.Errorf("%d workers: no reserve ever filled to %d: the test shows nothing", workers, perFrame)
		}
	}
}

// TestSlicedFillReservesDealsUpToPerFrame: fillReserves, given more idle
// searches than the reserves take, fills each worker's to PerFrame in
// worker order, drops the rest, and adds nothing to a reserve that is
// full: the bound TestSlicedReservesHoldAtMostPerFrame checks on frames,
// whose spread over the workers depends on how they race.
func TestSlicedFillReservesDealsUpToPerFrame(t *testing.T) {
	const perFrame = 3
	q := NewQueue(2, perFrame)
	if len(q.planners) != 2 {
		t.Fatalf("a queue of 2 workers has %d planners", len(q.planners))
	}
	d := "domain"
	idle := func(n int) {
		if q.idle == nil {
			q.idle = map[any][]*slicedSearch{}
			q.domains = append(q.domains, d)
		}
		for range n {
			q.idle[d] = append(q.idle[d], &slicedSearch{})
		}
	}
	idle(2*perFrame + 2)
	q.fillReserves()
	for i, w := range q.planners {
		if n := len(w.reserve[d]); n != perFrame {
			t.Errorf("worker %d's reserve holds %d of %d idle searches; want %d", i, n, 2*perFrame+2, perFrame)
		}
	}
	if n := len(q.idle[d]); n != 0 {
		t.Errorf("%d idle searches kept after dealing; want those left over dropped", n)
	}
	idle(2)
	q.fillReserves()
	for i, w := range q.planners {
		if n := len(w.reserve[d]); n != perFrame {
			t.Errorf("a full reserve dealt 2 more: worker %d's holds %d; want %d", i, n, perFrame)
		}
	}
}
