// Package goroutines counts a test's goroutines once they have settled:
// a queue's helpers, and a coroutine that ends when its owner is
// collected, end only after a collection, on the runtime's cleanup
// goroutine.
package goroutines

import (
	"runtime"
	"time"
)

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
