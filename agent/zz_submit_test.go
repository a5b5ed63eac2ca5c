package agent_test

import (
	"fmt"
	"testing"
)

func BenchmarkZZSubmit(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			fc := newFrameCrowd(b, n, 1)
			for range 4 {
				fc.submit()
				fc.q.Frame()
			}
			for b.Loop() {
				fc.submit()
				b.StopTimer()
				fc.q.Frame()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/agent")
		})
	}
}
