package coroutine

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/internal/testkit/goroutines"
)

// TestRunSlices: a search that pauses after each of its steps runs one
// step a Resume, in order, and Resume reports its end once it returns.
func TestRunSlices(t *testing.T) {
	var r Run
	var did []int
	r.Start(func() {
		for i := range 3 {
			did = append(did, i)
			if !r.Pause() {
				return
			}
		}
	})
	if !r.Running() || len(did) != 0 {
		t.Fatalf("after Start: running %v, did %v; want a run not yet begun", r.Running(), did)
	}
	for want := 1; want <= 3; want++ {
		if r.Resume() || len(did) != want {
			t.Fatalf("Resume %d: did %v, want %d steps and a pause", want, did, want)
		}
	}
	if !r.Resume() || r.Running() || !slices.Equal(did, []int{0, 1, 2}) {
		t.Fatalf("the last Resume: running %v, did %v; want the end", r.Running(), did)
	}
}

// TestStopEndsTheSearch: Stop makes the waiting Pause return false, and
// the search has returned when Stop does; a stopped or ended run stops
// again harmlessly.
func TestStopEndsTheSearch(t *testing.T) {
	var r Run
	paused, returned := 0, false
	r.Start(func() {
		for r.Pause() {
			paused++
		}
		returned = true
	})
	r.Resume()
	r.Resume()
	r.Stop()
	if !returned || r.Running() || paused != 1 {
		t.Fatalf("after Stop: returned %v, running %v, %d pauses resumed; want the search over after 1", returned, r.Running(), paused)
	}
	r.Stop()
	var never Run
	never.Stop()
}

// TestPanicEndsTheRun: a panic in the search comes out of Resume and the
// run is over.
func TestPanicEndsTheRun(t *testing.T) {
	var r Run
	r.Start(func() {
		r.Pause()
		panic("a cost function's")
	})
	r.Resume()
	func() {
		defer func() {
			if p := recover(); p != "a cost function's" {
				t.Fatalf("recovered %v", p)
			}
		}()
		r.Resume()
		t.Fatal("Resume did not panic")
	}()
	if r.Running() {
		t.Fatal("a run whose search panicked still runs")
	}
}

// TestRunKeepsItsCoroutine: searches run one after another on one Run
// share one coroutine (the goroutine count does not grow, and a warm
// search that ends in its first slice allocates nothing); Close ends it,
// and a closed Run runs the next search on a new one.
func TestRunKeepsItsCoroutine(t *testing.T) {
	var r Run
	steps := 0
	job := func() {
		steps++
		if r.Pause() {
			steps++
		}
	}
	search := func() {
		r.Start(job)
		for !r.Resume() {
		}
	}
	search()
	// The earlier tests' Runs end their coroutines when collected, on the
	// runtime's schedule: counted while one of them ends, this test saw
	// a goroutine fewer than before (CI, 4 December). Collected first.
	before := goroutines.Settled(0)
	if n := testing.AllocsPerRun(100, search); n != 0 {
		t.Errorf("a search on a warm Run allocated %.0f times", n)
	}
	if now := runtime.NumGoroutine(); now != before || steps != 2*102 {
		t.Fatalf("after 101 more searches: %d goroutines, %d before; %d steps", now, before, steps)
	}
	r.Close()
	if now := settled(before - 1); now != before-1 {
		t.Fatalf("after Close: %d goroutines, want %d", now, before-1)
	}
	search()
	if steps != 2*103 {
		t.Fatalf("a closed Run ran %d steps of its next search", steps-2*102)
	}
	r.Close()
}

// settled returns the goroutine count once it reaches want, or after a
// while: an ended coroutine's goroutine exits on its own schedule.
func settled(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 1000 && n != want; i++ {
		time.Sleep(time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}
