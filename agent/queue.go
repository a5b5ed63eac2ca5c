package agent

import (
	"sync"
	"sync/atomic"
)

// Queue resolves agents' planning requests on worker goroutines, a bounded
// number per frame (seed 003's plan queue): GOAP and HTN agents' plans and
// resolver agents' chains, side by side. The world is read when a request
// is submitted, on the agent's goroutine: a worker sees only a snapshot
// (facts, or a resolver.Snapshot's numbers), never the agent or the game. Results are delivered to
// the agents in submission order, on the goroutine that calls Frame, so a
// run is deterministic however the workers are scheduled.
//
// A Queue is not safe for concurrent use. Frame hands results to the
// agents, so the goroutine that calls it must own them: tick the agents
// that share a queue and call Frame, Cancel and Remove from one goroutine
// at a time (normally the game loop's; moving between goroutines with the
// usual synchronisation is fine). The queue's own workers are its
// business. Overlapping calls that the queue notices panic with a message
// saying so, as the standard library's maps do; the race detector finds
// the rest.
//
// A frame's planning work is bounded by PerFrame × the agents' search
// budgets (for resolver agents, resolves per frame × node budget):
// neither number bounds anything alone. Its bookkeeping does not
// depend on how many requests wait: the waiting requests are a ring.
type Queue struct {
	workers  int
	perFrame int

	// ring holds the waiting requests, oldest at head; its length is a
	// power of two. A cancelled request stays in its slot with no agent
	// until a frame passes over it.
	ring  []request
	head  int
	size  int    // occupied slots, cancelled ones included
	live  int    // requests still waiting
	first uint64 // ticket of the request at head
	next  uint64 // ticket of the next request submitted

	batch    []request // the frame's requests, contiguous for the workers
	results  []result
	planners []*planners
	wg       sync.WaitGroup

	busy       atomic.Bool // set while a call is in the queue, to catch overlaps
	delivering bool        // Frame is handing results to the agents

	// slotsVisited counts the ring slots frames have read, for the test
	// that a frame's cost does not grow with the backlog.
	slotsVisited int
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

func (q *Queue) enter(call string) {
	if !q.busy.CompareAndSwap(false, true) {
		panic("agent: Queue." + call + " called while another call is in the queue: a Queue and its agents belong to one goroutine at a time")
	}
}

func (q *Queue) leave() { q.busy.Store(false) }

// submit appends r and returns its ticket, by which it can be cancelled.
func (q *Queue) submit(r request) uint64 {
	q.enter("submit (Agent.Tick)")
	defer q.leave()
	if q.size == len(q.ring) {
		q.grow()
	}
	r.ticket = q.next
	q.ring[(q.head+q.size)&(len(q.ring)-1)] = r
	q.size++
	q.live++
	t := q.next
	q.next++
	return t
}

// grow doubles the ring, unwrapping it so that head is slot 0.
func (q *Queue) grow() {
	bigger := make([]request, max(2*len(q.ring), 16))
	n := copy(bigger, q.ring[q.head:])
	copy(bigger[n:], q.ring[:q.head])
	q.ring, q.head = bigger, 0
}

// Len returns the number of requests waiting (cancelled ones not counted).
func (q *Queue) Len() int { return q.live }

// Cancel withdraws a's waiting request, if it has one, and reports whether
// it had. The agent no longer waits: on its next tick it asks again for
// the plan it wanted, from the facts of then, at the back of the queue; a
// cancelled interruption check is dropped and the running plan goes on.
// A game cancels a request whose snapshot it knows is stale, or an agent's
// it is about to despawn (see Remove).
func (q *Queue) Cancel(a Queued) bool {
	q.enter("Cancel")
	defer q.leave()
	return q.cancel(a)
}

// Queued is an agent that can wait in a Queue: an *Agent or a
// *ResolverAgent.
type Queued interface {
	// withdraw forgets the agent's request waiting in q, if it has one,
	// and returns its ticket.
	withdraw(q *Queue) (ticket uint64, ok bool)
	// detach makes the agent plan inline from now on, if q was its queue.
	detach(q *Queue)
}

func (a *Agent) withdraw(q *Queue) (uint64, bool) {
	if !a.pending || a.queuedIn != q {
		return 0, false
	}
	a.pending, a.queuedIn = false, nil
	a.wantPlan = a.queuedReplan
	return a.ticket, true
}

func (a *Agent) detach(q *Queue) {
	if a.cfg.Queue == q {
		a.cfg.Queue = nil
	}
}

func (q *Queue) cancel(a Queued) bool {
	ticket, ok := a.withdraw(q)
	if !ok {
		return false
	}
	if ticket >= q.first { // still in the ring, not in a frame's batch
		slot := (q.head + int(ticket-q.first)) & (len(q.ring) - 1)
		q.ring[slot] = request{}
		q.live--
	}
	return true
}

// Remove cancels a's waiting request and detaches a from the queue: an
// agent leaving the game leaves nothing behind. If a is ticked again it
// plans inline, on the goroutine that ticks it.
func (q *Queue) Remove(a Queued) {
	q.enter("Remove")
	defer q.leave()
	q.cancel(a)
	a.detach(q)
}

// Frame resolves up to PerFrame of the oldest requests, spread over the
// workers, delivers each result to its agent, and returns how many it
// resolved.
func (q *Queue) Frame() int {
	q.enter("Frame")
	if q.delivering {
		q.leave()
		panic("agent: Queue.Frame called from an event callback during Frame")
	}
	batch := q.take()
	n := len(batch)
	if cap(q.results) < n {
		q.results = make([]result, n)
	}
	results := q.results[:n]
	// The calling goroutine takes worker 0's share: with one worker a
	// frame starts no goroutine and allocates nothing.
	for w := 1; w < q.workers && w < n; w++ {
		q.wg.Add(1)
		go q.work(w, n)
	}
	q.resolveShare(0, n)
	q.wg.Wait()
	// Delivery runs the agents' event callbacks, which may call Cancel or
	// Remove: the queue is consistent again, so let them in.
	q.leave()
	q.delivering = true
	defer func() { q.delivering = false }()
	for i := range batch {
		r := &batch[i]
		// A request cancelled after this frame took it is dropped here.
		if r.job != nil {
			r.job.deliver(q, r.ticket)
		} else if r.agent.pending && r.agent.queuedIn == q && r.agent.ticket == r.ticket {
			r.agent.queuedIn = nil
			r.agent.apply(*r, results[i])
		}
		*r = request{}
		results[i] = result{}
	}
	return n
}

// work resolves worker w's share of the frame's n requests on its own
// goroutine.
func (q *Queue) work(w, n int) {
	defer q.wg.Done()
	q.resolveShare(w, n)
}

// resolveShare resolves every workers-th request of the batch from w, with
// worker w's planners.
func (q *Queue) resolveShare(w, n int) {
	for i := w; i < n; i += q.workers {
		if job := q.batch[i].job; job != nil {
			job.run(q.planners[w])
			continue
		}
		q.results[i] = resolve(q.planners[w], q.batch[i])
	}
}

// take moves up to perFrame live requests from the head of the ring into
// the batch, passing over cancelled slots: each slot is read once in its
// life, so a frame costs its batch and the cancellations since the last
// frame, never the backlog.
func (q *Queue) take() []request {
	batch := q.batch[:0]
	for len(batch) < q.perFrame && q.size > 0 {
		slot := &q.ring[q.head]
		q.slotsVisited++
		if slot.agent != nil || slot.job != nil {
			batch = append(batch, *slot)
			q.live--
		}
		*slot = request{}
		q.head = (q.head + 1) & (len(q.ring) - 1)
		q.size--
		q.first++
	}
	q.batch = batch
	return batch
}
