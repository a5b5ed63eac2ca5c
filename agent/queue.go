package agent

import "sync"

// Queue resolves agents' planning requests on worker goroutines, a bounded
// number per frame (seed 003's plan queue). The world is read when a
// request is submitted, on the agent's goroutine: a worker sees only a
// snapshot of facts, never the agent or the game. Results are delivered to
// the agents in submission order, on the goroutine that calls Frame, so a
// run is deterministic however the workers are scheduled.
//
// A frame's planning work is bounded by PerFrame × the agents' search
// budgets: neither number bounds anything alone.
type Queue struct {
	workers  int
	perFrame int
	waiting  []request
	results  []result
	planners []*planners
}

// NewQueue returns a queue with the given number of workers that resolves
// at most perFrame requests per Frame.
func NewQueue(workers, perFrame int) *Queue {
	workers = max(workers, 1)
	q := &Queue{workers: workers, perFrame: max(perFrame, 1)}
	for range workers {
		q.planners = append(q.planners, &planners{})
	}
	return q
}

func (q *Queue) submit(r request) { q.waiting = append(q.waiting, r) }

// Len returns the number of requests waiting.
func (q *Queue) Len() int { return len(q.waiting) }

// Frame resolves up to PerFrame of the oldest requests, spread over the
// workers, delivers each result to its agent, and returns how many it
// resolved.
func (q *Queue) Frame() int {
	n := min(q.perFrame, len(q.waiting))
	if n == 0 {
		return 0
	}
	batch := q.waiting[:n]
	if cap(q.results) < n {
		q.results = make([]result, n)
	}
	results := q.results[:n]
	var wg sync.WaitGroup
	for w := 0; w < q.workers && w < n; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += q.workers {
				results[i] = resolve(q.planners[w], batch[i])
			}
		}(w)
	}
	wg.Wait()
	for i := range batch {
		batch[i].agent.apply(batch[i], results[i])
		results[i] = result{}
	}
	rest := copy(q.waiting, q.waiting[n:])
	clear(q.waiting[rest:])
	q.waiting = q.waiting[:rest]
	return n
}
