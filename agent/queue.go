package agent

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/resolver"
)

// Queue resolves agents' planning requests on worker goroutines, a bounded
// number per frame, so that planning cannot swallow a frame: GOAP and HTN
// agents' plans and resolver agents' chains, side by side. The world is read when a request
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
// neither number bounds anything alone. SetSlice bounds resolver agents'
// by PerFrame × a slice of expansions per search, suspending a search
// that reaches it until the next frame. Its bookkeeping does not
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

	*crew // the frame's batch and results, shared with the workers

	busy       atomic.Bool // set while a call is in the queue, to catch overlaps
	delivering bool        // Frame is handing results to the agents

	// slotsVisited counts the ring slots frames have read, for the test
	// that a frame's cost does not grow with the backlog.
	slotsVisited int

	// slice is the most chains a resolver search expands per frame (0:
	// no limit); carried holds the searches suspended at the end of the
	// last frame, oldest first, which the next frame takes before the
	// ring's requests; lastFrame is what the last frame did; idle holds
	// per domain (domains, in the order first seen) the suspended
	// searches' holders that no request holds now (slices.go).
	slice     int
	carried   []request
	lastFrame FrameStats
	idle      map[*resolver.Domain][]*slicedSearch
	domains   []*resolver.Domain
}

// crew is what a frame shares with the helper goroutines (workers 1 on;
// the goroutine that calls Frame is worker 0). It holds no pointer to the
// Queue, and between frames none to an agent, so that an abandoned queue
// is collected; its cleanup then lets the helpers go.
type crew struct {
	batch    []request // the frame's requests, contiguous for the workers
	results  []result
	planners []*workerPlanners
	chunk    int           // requests a worker claims at a time this frame
	claimed  paddedInt     // end of the last chunk claimed this frame
	done     []atomic.Bool // per chunk: resolved, its results written
	wake     []chan struct{}
	wg       sync.WaitGroup
	// failure is the first panic a helper recovered this frame (a
	// distance model or cost function of the game's that panicked on a
	// worker): Frame panics with it on its own goroutine, where the game
	// (or a binding's recover) can catch it, rather than the helper
	// taking the whole process down.
	failure atomic.Pointer[workerPanic]
}

// workerPanic is what a helper recovered: the value and where it was.
type workerPanic struct {
	value any
	stack []byte
}

// workerPlanners is a worker's planners, padded so that no two workers
// write to one cache line.
type workerPlanners struct {
	planners
	_ [cacheLine]byte
}

// paddedInt is an atomic counter on a cache line of its own: the workers
// hammer it, and the fields around it should not move with it.
type paddedInt struct {
	_ [cacheLine]byte
	n atomic.Int64
	_ [cacheLine - 8]byte
}

const cacheLine = 64

// NewQueue returns a queue with the given number of workers that resolves
// at most perFrame requests per Frame. The goroutine that calls Frame is
// one of the workers; the others are goroutines that the queue starts in
// the first frame that needs them (or in Reserve) and that wait for
// frames until the queue is collected.
func NewQueue(workers, perFrame int) *Queue {
	workers = max(workers, 1)
	q := &Queue{workers: workers, perFrame: max(perFrame, 1), crew: &crew{}}
	for range workers {
		q.planners = append(q.planners, &workerPlanners{})
	}
	return q
}

// startHelpers starts the helper goroutines, once: they wait for frames
// for as long as the queue lives, so that a frame starts no goroutine.
func (q *Queue) startHelpers() {
	if q.wake != nil || q.workers == 1 {
		return
	}
	c := q.crew
	for w := 1; w < q.workers; w++ {
		wake := make(chan struct{}, 1)
		c.wake = append(c.wake, wake)
		go c.help(w, wake)
	}
	runtime.AddCleanup(q, func(wake []chan struct{}) {
		for _, ch := range wake {
			close(ch)
		}
	}, c.wake)
}

// help is helper w's life: one share of each frame it is woken for.
func (c *crew) help(w int, wake <-chan struct{}) {
	for range wake {
		c.helpFrame(w)
		c.wg.Done()
	}
}

// leadFrame is worker 0's share of a frame: it resolves chunks and
// delivers, between them, the results ready so far (see Frame), and
// returns how many it delivered. A panic is recovered for Frame to raise
// once the helpers are done, so that the queue is left consistent.
func (q *Queue) leadFrame() (delivered int) {
	c := q.crew
	defer func() {
		if p := recover(); p != nil {
			c.failure.CompareAndSwap(nil, &workerPanic{value: p, stack: debug.Stack()})
		}
	}()
	early := true
	for c.resolveChunk(0) {
		if early {
			delivered, early = q.deliverQuiet(delivered)
		}
	}
	return delivered
}

// helpFrame resolves chunks until none is left, recovering a panic for
// Frame to raise.
func (c *crew) helpFrame(w int) {
	defer func() {
		if p := recover(); p != nil {
			c.failure.CompareAndSwap(nil, &workerPanic{value: p, stack: debug.Stack()})
		}
	}()
	for c.resolveChunk(w) {
	}
}

func (q *Queue) enter(call string) {
	if q == nil || q.crew == nil {
		panic("agent: Queue not made by NewQueue: a nil or zero Queue has no workers; call agent.NewQueue(workers, perFrame)")
	}
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

// grow doubles the ring, unwrapping it so that head is slot 0, and the
// frame's buffers up to the ring's length or perFrame.
func (q *Queue) grow() {
	bigger := make([]request, max(2*len(q.ring), 16))
	n := copy(bigger, q.ring[q.head:])
	copy(bigger[n:], q.ring[:q.head])
	q.ring, q.head = bigger, 0
	// The frame's buffers grow with the ring, here on the agents'
	// goroutine, so that Frame allocates nothing of its own. (During a
	// delivery, Frame goes on with the arrays it took.)
	if want := min(q.perFrame, len(q.ring)); cap(q.batch) < want {
		q.batch = make([]request, 0, want)
		q.results = make([]result, want)
		q.done = make([]atomic.Bool, want) // a chunk holds a request at least
	}
}

// Reserve readies the queue's workers for searches on d that generate up
// to successors states each (a search's goap.Result.Generated; a battle
// mage's generate about 40): each worker makes its planner for d now and
// reserves its arena (goap.Planner.Reserve). The workers keep their
// planners from frame to frame anyway; Reserve moves the cost of a cold
// planner's first searches, which grow the arena and touch its pages for
// the first time and run several times slower than warm ones, out of the
// first frames and into a loading screen. It starts the worker
// goroutines too, which a queue otherwise starts in the first frame that
// needs them (they live as long as the queue). Call it from the goroutine
// that owns the queue, like Frame.
func (q *Queue) Reserve(d *goap.Domain, successors int) {
	q.enter("Reserve")
	defer q.leave()
	for _, w := range q.planners {
		w.goapFor(d).Reserve(successors)
	}
	q.startHelpers()
}

// Len returns the number of requests waiting (cancelled ones not
// counted), suspended searches (SetSlice) included.
func (q *Queue) Len() int { return q.live + len(q.carried) }

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
	a.wantPlan = reasonOf(a.queuedReplan)
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
	} else {
		q.dropSuspended(ticket)
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
// resolved. With a slice (SetSlice) a resolver search that reaches it is
// suspended rather than resolved: it goes on in the next Frame, first.
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
	// The workers claim chunks of the batch as they go rather than fixed
	// shares, so that a worker the machine delays (or wakes late) holds up
	// the frame by a chunk at most; contiguous chunks keep the workers'
	// results on different cache lines.
	c := q.crew
	c.chunk = min(max(n/(8*q.workers), 1), 64)
	chunks := (n + c.chunk - 1) / c.chunk
	if len(c.done) < chunks {
		c.done = make([]atomic.Bool, chunks)
	}
	c.claimed.n.Store(0)
	if helpers := min(q.workers, chunks) - 1; helpers > 0 {
		q.startHelpers()
		c.wg.Add(helpers)
		for _, wake := range c.wake[:helpers] {
			wake <- struct{}{}
		}
	}
	// Worker 0 delivers, between its chunks, the results ready so far, in
	// order, as long as delivering them runs none of the game's code: a
	// frame's delivery then overlaps the other workers' searches rather
	// than following them. The first agent with an event callback or a step
	// to stop ends that; the rest wait for every worker.
	delivered := q.leadFrame()
	c.wg.Wait()
	if f := c.failure.Swap(nil); f != nil {
		// A chunk was left half resolved: deliver no more of the frame,
		// and let the agents not yet served ask again at their next tick,
		// as a cancelled request does.
		for i := range n {
			if i >= delivered || results[i].suspended {
				batch[i].agent.withdraw(q)
			}
		}
		q.dropFrame()
		clear(batch)
		clear(results)
		clear(c.done[:chunks])
		q.leave()
		panic(fmt.Sprintf("agent: a search on a queue worker panicked: %v\n\nits stack:\n%s", f.value, f.stack))
	}
	// Delivery runs the agents' event callbacks, which may call Cancel or
	// Remove: the queue is consistent again, so let them in.
	q.leave()
	q.delivering = true
	defer func() { q.delivering = false }()
	for i := delivered; i < n; i++ {
		q.deliver(&batch[i], &results[i])
	}
	q.keepSuspended(batch, results)
	// Drop the references, so that the batch keeps no agent alive.
	clear(batch)
	clear(results)
	clear(c.done[:chunks])
	return q.lastFrame.Ended
}

// deliver hands a resolved request to its agent, unless it was cancelled
// after this frame took it.
func (q *Queue) deliver(r *request, res *result) {
	if res.suspended {
		return // it goes on in the next frame (keepSuspended)
	}
	if a := r.agent; a.pending && a.queuedIn == q && a.ticket == r.ticket {
		a.queuedIn = nil
		a.apply(r, res)
	}
}

// deliverQuiet delivers, from the batch's request i on, the results whose
// chunks are resolved, while the workers may still be searching. It stops
// at a request whose delivery could run the game's code (an event
// callback, a behaviour's Stop), which could
// touch agents whose requests are being resolved, and reports false
// then. It returns where it stopped.
func (q *Queue) deliverQuiet(i int) (int, bool) {
	for ; i < len(q.batch); i++ {
		if !q.done[i/q.chunk].Load() {
			return i, true
		}
		r := &q.batch[i]
		if r.agent.cfg.OnEvent != nil || r.agent.log != nil && r.agent.log.gameCode || r.agent.running {
			return i, false
		}
		q.deliver(r, &q.results[i])
	}
	return i, true
}

// resolveChunk claims the next chunk of the batch, if any is left,
// resolves it with worker w's planners, and reports whether it did.
func (c *crew) resolveChunk(w int) bool {
	n := len(c.batch)
	end := int(c.claimed.n.Add(int64(c.chunk)))
	start := end - c.chunk
	if start >= n {
		return false
	}
	p := &c.planners[w].planners
	for i := start; i < min(end, n); i++ {
		resolve(p, &c.batch[i], &c.results[i])
	}
	c.done[start/c.chunk].Store(true)
	return true
}

// take moves up to perFrame live requests from the head of the ring into
// the batch, passing over cancelled slots: each slot is read once in its
// life, so a frame costs its batch and the cancellations since the last
// frame, never the backlog.
func (q *Queue) take() []request {
	// The searches suspended last frame first: they keep their place.
	batch := append(q.batch[:0], q.carried...)
	clear(q.carried)
	q.carried = q.carried[:0]
	for len(batch) < q.perFrame && q.size > 0 {
		slot := &q.ring[q.head]
		q.slotsVisited++
		if slot.agent != nil {
			batch = append(batch, *slot)
			q.live--
		}
		*slot = request{}
		q.head = (q.head + 1) & (len(q.ring) - 1)
		q.size--
		q.first++
	}
	for i := range batch {
		batch[i].slice = q.slice
	}
	q.batch = batch
	return batch
}
