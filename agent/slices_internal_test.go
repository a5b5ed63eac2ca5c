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
