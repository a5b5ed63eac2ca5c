package agent_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/internal/testkit/cputime"
)

// BenchmarkQueueWorkers measures how the queue scales with its workers:
// an op is one Frame that resolves and delivers every agent's request,
// for 20 000 battle mages replanning Kill (kind=goap, the crowd of
// BenchmarkQueueFrame20000) and for 10 000 survivors resolving a chain
// while their step runs on (kind=resolver, the crowd of
// BenchmarkResolverFrame10k). Submitting (the agents' ticks) is not
// timed. agents/16ms-frame is how many such agents one 16 ms frame holds
// at the mean frame time; cpu-ms is the CPU time a frame used over every
// thread, which a shared machine disturbs less than the wall time: on a
// quiet machine, cpu-ms close to workers × ns/op means the workers kept
// busy, and cpu-ms much above the one-worker figure means work the second
// worker added rather than took over. min-ms is the fastest frame: on a
// machine other processes keep busy, the frame that got both cores
// throughout, and so the best guess at a quiet machine's frame.
func BenchmarkQueueWorkers(b *testing.B) {
	kinds := []struct {
		name string
		n    int
		// crowd makes n agents planning through a queue of workers that
		// takes them all in one frame, and returns the queue and the
		// function that has every agent ask again.
		crowd func(b *testing.B, n, workers int) (*agent.Queue, func())
	}{
		{"goap", 20000, func(b *testing.B, n, workers int) (*agent.Queue, func()) {
			q := agent.NewQueue(workers, n)
			mages, _ := crowd(b, n, q, nil)
			return q, func() {
				for _, a := range mages {
					a.RequestReplan()
					a.Tick()
				}
			}
		}},
		{"resolver", 10000, func(b *testing.B, n, workers int) (*agent.Queue, func()) {
			fc := newFrameCrowd(b, n, workers)
			return fc.q, fc.submit
		}},
	}
	for _, kind := range kinds {
		for _, workers := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("kind=%s/workers=%d", kind.name, workers), func(b *testing.B) {
				q, submit := kind.crowd(b, kind.n, workers)
				// Warm frames: the agents' buffers and the workers'
				// planners grow here, not in the timed ones.
				for range 3 {
					submit()
					if got := q.Frame(); got != kind.n {
						b.Fatalf("a frame resolved %d, want %d", got, kind.n)
					}
				}
				runtime.GC()
				var cpu, wall time.Duration
				fastest := time.Duration(1<<63 - 1)
				frames := 0
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					submit()
					b.StartTimer()
					cpu0, _ := cputime.Process()
					start := time.Now()
					if got := q.Frame(); got != kind.n {
						b.Fatalf("a frame resolved %d, want %d", got, kind.n)
					}
					took := time.Since(start)
					wall += took
					fastest = min(fastest, took)
					cpu1, _ := cputime.Process()
					cpu += cpu1 - cpu0
					frames++
				}
				b.StopTimer()
				perFrame := wall / time.Duration(frames)
				b.ReportMetric(float64(kind.n)*float64(16*time.Millisecond)/float64(perFrame), "agents/16ms-frame")
				b.ReportMetric(float64(fastest)/float64(time.Millisecond), "min-ms")
				if _, ok := cputime.Process(); ok {
					b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(frames), "cpu-ms")
				}
			})
		}
	}
}
