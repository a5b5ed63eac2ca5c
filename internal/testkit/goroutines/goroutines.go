// Package goroutines counts a test's goroutines once they have settled:
// a queue's helpers, and a coroutine that ends when its owner is
// collected, end only after a collection, on the runtime's cleanup
// goroutine.
package goroutines

import (
	"runtime"
	"time"
)

// Collected collects garbage until done reports true, or for a while, and
// returns done's last answer: for a test that waits for dropped objects'
// cleanups (runtime.AddCleanup) to have run.
func Collected(done func() bool) bool {
	for range 200 {
		if done() {
			return true
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	return done()
}

// Settled collects garbage until the number of goroutines is at most
// want, or has not changed over ten collections in a row, and returns it
// (Settled(0) waits for the count to stop falling).
func Settled(want int) int {
	n, same := runtime.NumGoroutine(), 0
	for range 500 {
		if n <= want {
			return n
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			if same++; same == 10 {
				break
			}
			continue
		}
		n, same = m, 0
	}
	return n
}
