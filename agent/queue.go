package agent

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ploy-ai/ploy/goap"
)

// Queue resolves agents' planning requests on worker goroutines, a bounded
// number per frame, so that planning cannot swallow a frame: GOAP and HTN
// agents' plans and resolver agents' chains, side by side. The world is read when a request
// is submitted, on the agent's goroutine: a worker's search sees only a snapshot
// (facts, or a resolver.Snapshot's numbers), never the agent or the game. Results reach
// the agents in submission order as far as the game can tell, so a run is
// deterministic however the workers are scheduled: a result whose delivery
// runs the game's code (an event callback, a DecisionSink of the game's, a
// behaviour's Stop) is delivered on the goroutine that calls Frame, after
// every result submitted before it and before every one after it; the
// others are delivered by the workers while Frame runs, and all of them
// before Frame returns.
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
// neither number bounds anything alone. SetSlice bounds resolver and
// GOAP agents' by PerFrame × a slice of expansions per search, suspending a search
// that reaches it until the next frame. Its bookkeeping does not
// depend on how many requests wait: the waiting requests are a ring.
type Queue struct {
	workers  int
	perFrame int
	// minShare is the fewest requests a frame gives each worker it wakes
	// (SetMinShare); frameWorkers the workers the current or last frame
	// ran on, for LastFrame.
	minShare, frameWorkers int

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

	// slice is the most chains a resolver search, or states a GOAP
	// search, expands per frame (0: no limit); carried holds the searches suspended at the end of the
	// last frame, oldest first, which the next frame takes before the
	// ring's requests; lastFrame is what the last frame did; idle holds
	// per domain (a *resolver.Domain or a *goap.Domain; domains, in the
	// order first seen) the suspended searches' holders that no request
	// holds now (slices.go).
	slice     int
	carried   []request
	lastFrame FrameStats
	idle      map[any][]*slicedSearch
	domains   []any
	// coroutinesCarried lists the planners of the carried GOAP searches
	// and HTN decompositions, for the cleanup that abandons them if the
	// queue is dropped (slices.go).
	coroutinesCarried *suspendedPlanners
}

// crew is what a frame shares with the helper goroutines (workers 1 on;
// the goroutine that calls Frame is worker 0). Between frames it holds no
// pointer to the Queue or to an agent, so that an abandoned queue is
// collected; its cleanup then lets the helpers go.
type crew struct {
	batch    []request // the frame's requests, contiguous for the workers
	results  []result
	planners []*workerPlanners
	chunk    int         // requests a worker claims at a time this frame
	claimed  paddedInt   // end of the last chunk claimed this frame
	handed   paddedInt   // chunks, from the first, claimed for delivery this frame
	done     []chunkDone // per chunk: resolved or not, and who may deliver it
	// queue is the frame's queue, while a frame runs: a delivery checks
	// that the agent still waits in it.
	queue *Queue
	// fromRing: the batch is still in the ring, in runs[0] then runs[1]
	// (where the ring wraps), and each worker copies the chunks it claims
	// (fetch), so that moving the batch out of the ring is shared too;
	// runsAt is the batch index of runs[0]'s first request (the searches
	// carried from the last frame come before it).
	fromRing bool
	runs     [2][]request
	runsAt   int
	// slice is the queue's slice (SetSlice) this frame, which each
	// request gets as a worker claims it, carried searches included.
	slice int
	wake  []chan struct{}
	wg    sync.WaitGroup
	// failure is the first panic a helper recovered this frame (a
	// distance model or cost function of the game's that panicked on a
	// worker): Frame panics with it on its own goroutine, where the game
	// (or a binding's recover) can catch it, rather than the helper
	// taking the whole process down.
	failure atomic.Pointer[workerPanic]
}

// chunkDone says whether a chunk of the frame's batch is resolved (its
// results written) and, then, what delivering its results would touch
// beyond the agents themselves, which decides who may deliver it and
// when (see Frame). It is stored once per chunk per frame, after the
// chunk's results, so that a worker that reads it sees them.
type chunkDone = atomic.Uint32

const (
	chunkWaiting uint32 = iota // not resolved yet
	// chunkPrivate: each delivery touches its own agent only, so any
	// worker may deliver the chunk, beside other such chunks.
	chunkPrivate
	// chunkOrdered: some delivery writes a decision into a recorder that
	// other agents share (a FlightRecorder): worker 0 delivers the
	// chunk, in order with the other ordered chunks, so that the
	// recorder's order is the submission order.
	chunkOrdered
	// chunkGameCode: some delivery runs the game's code (an event
	// callback, a decision sink of the game's, a behaviour's Stop),
	// which may look at any agent: the chunk and every one after it are
	// delivered in order once every worker is done.
	chunkGameCode
)

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
	q := &Queue{workers: workers, perFrame: max(perFrame, 1), minShare: 1, crew: &crew{}}
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
		c.work(w)
		c.wg.Done()
	}
}

// work is worker w's share of a frame: it resolves chunks until none is
// left and, after each, delivers the chunks whose turn has come (see
// Frame). A panic is recovered for Frame to raise on its own goroutine
// once every worker is done, so that the queue is left consistent.
func (c *crew) work(w int) {
	defer func() {
		if p := recover(); p != nil {
			c.failure.CompareAndSwap(nil, &workerPanic{value: p, stack: debug.Stack()})
		}
	}()
	for c.resolveChunk(w) {
		c.deliverReady(w)
	}
	c.deliverReady(w)
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
		q.done = make([]chunkDone, want) // a chunk holds a request at least
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
// resolved. With a slice (SetSlice) a resolver or GOAP search that reaches
// it is suspended rather than resolved: it goes on in the next Frame, first.
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
		c.done = make([]chunkDone, chunks)
	}
	done := c.done[:chunks] // a callback's submit may replace c.done (grow)
	c.claimed.n.Store(0)
	c.handed.n.Store(0)
	c.queue = q
	c.slice = q.slice
	helpers := max(min(q.workers, chunks, max(n/q.minShare, 1))-1, 0)
	q.frameWorkers = helpers + 1
	if helpers > 0 {
		q.startHelpers()
		c.wg.Add(helpers)
		for _, wake := range c.wake[:helpers] {
			wake <- struct{}{}
		}
	}
	// Delivering is a good part of a frame's work (a quarter of a resolver
	// crowd's), so the workers share it and do it while others still
	// search. They hand the chunks over from the first, in order, each as
	// soon as it is resolved: a chunk whose deliveries touch only their
	// agents to any worker, one that writes into a shared recorder to
	// worker 0 alone, so that the recorder sees the submission order. The
	// first chunk that would run the game's code stops that: it and the
	// rest are delivered in order below, once every worker is done, so
	// that an event callback sees every agent before its own with its
	// result and none after it. However the workers ran, the game sees
	// the same.
	c.work(0)
	c.wg.Wait()
	c.queue = nil
	from := min(int(c.handed.n.Load())*c.chunk, n) // delivered up to here
	if f := c.failure.Swap(nil); f != nil {
		c.fetch(min(int(c.claimed.n.Load()), n), n) // the chunks no worker claimed
		c.fromRing, c.runs = false, [2][]request{}
		// A chunk was left half resolved: deliver no more of the frame,
		// and let the agents not yet served ask again at their next tick,
		// as a cancelled request does: a suspended search's agent too,
		// its search dropped with the batch. (The served ones wait no
		// more, so withdraw passes over them; the chunks the workers
		// delivered hold no agent any more but their sliced searches'.)
		for i := range batch {
			if a := batch[i].agent; a != nil {
				a.withdraw(q)
			}
			if s := batch[i].search; s != nil {
				// Let its search go: a GOAP planner's suspended search
				// lives in a coroutine until it is abandoned.
				q.idleSearch(s)
			}
		}
		q.dropFrame()
		clear(batch)
		clear(results)
		clear(done)
		q.leave()
		panic(fmt.Sprintf("agent: a search on a queue worker panicked: %v\n\nits stack:\n%s", f.value, f.stack))
	}
	c.fromRing, c.runs = false, [2][]request{}
	// Delivery runs the agents' event callbacks, which may call Cancel or
	// Remove: the queue is consistent again, so let them in.
	q.leave()
	q.delivering = true
	defer func() { q.delivering = false }()
	for i := from; i < n; i++ {
		q.deliver(&batch[i], &results[i])
	}
	q.keepSuspended(batch, results)
	// Drop the references, so that the batch keeps no agent alive (the
	// workers dropped those of the chunks they delivered, keepSuspended
	// those of the sliced searches they left).
	clear(batch[from:])
	clear(results[from:])
	clear(done)
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

// deliverReady delivers, as worker w, the chunks whose turn has come:
// from the first not yet handed over, while each is resolved and its
// deliveries run none of the game's code. A chunk that only worker 0 may
// deliver (chunkOrdered) stops the other workers there until worker 0
// has taken it.
func (c *crew) deliverReady(w int) {
	chunks := (len(c.batch) + c.chunk - 1) / c.chunk
	for {
		next := c.handed.n.Load()
		if int(next) >= chunks {
			return
		}
		switch c.done[next].Load() {
		case chunkPrivate:
		case chunkOrdered:
			if w != 0 {
				return
			}
		default: // waiting, or the game's code: not now
			return
		}
		if c.handed.n.CompareAndSwap(next, next+1) {
			c.deliverChunk(int(next))
		}
	}
}

// deliverChunk delivers chunk k's results to their agents, in order, and
// drops the chunk's references to them. A sliced search's request stays
// for keepSuspended, after the frame's deliveries: a suspended one is
// not delivered but carried to the next frame, an ended one's resolver
// taken back.
func (c *crew) deliverChunk(k int) {
	start := k * c.chunk
	end := min(start+c.chunk, len(c.batch))
	for i := start; i < end; i++ {
		r, res := &c.batch[i], &c.results[i]
		c.queue.deliver(r, res)
		if r.search == nil {
			*r, *res = request{}, result{}
		}
	}
}

// resolveChunk claims the next chunk of the batch, if any is left,
// resolves it with worker w's planners, marks it done with what its
// deliveries would touch, and reports whether it did.
func (c *crew) resolveChunk(w int) bool {
	n := len(c.batch)
	end := int(c.claimed.n.Add(int64(c.chunk)))
	start := end - c.chunk
	if start >= n {
		return false
	}
	c.fetch(start, min(end, n))
	p := &c.planners[w].planners
	reach := chunkPrivate
	for i := start; i < min(end, n); i++ {
		r, res := &c.batch[i], &c.results[i]
		r.slice = c.slice
		resolve(p, r, res)
		reach = max(reach, deliveryReach(r, res))
	}
	c.done[start/c.chunk].Store(reach)
	return true
}

// fetch copies the batch's requests start to end from the ring, if the
// batch is still there, and clears their slots, so that the ring keeps no
// agent alive.
func (c *crew) fetch(start, end int) {
	if !c.fromRing {
		return
	}
	offset := c.runsAt // the batch index of the run's first request
	for _, run := range c.runs {
		if lo, hi := max(start, offset), min(end, offset+len(run)); lo < hi {
			piece := run[lo-offset : hi-offset]
			copy(c.batch[lo:hi], piece)
			clear(piece)
		}
		offset += len(run)
	}
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
	// With no cancelled slot in the ring (the common case), the oldest
	// requests fill consecutive slots, in two runs at most where the ring
	// wraps: the batch's rest is left there, after the carried searches,
	// for the workers to copy and clear chunk by chunk as they claim them
	// (fetch), rather than copied here while they wait. Nothing writes to
	// the ring until they are done.
	if q.size == q.live && q.size > 0 && len(batch) < q.perFrame {
		carried := len(batch)
		n := min(q.perFrame-carried, q.size)
		first := min(n, len(q.ring)-q.head)
		q.runs = [2][]request{q.ring[q.head : q.head+first], q.ring[:n-first]}
		q.fromRing, q.runsAt = true, carried
		batch = slices.Grow(batch, n)[:carried+n]
		q.slotsVisited += n
		q.head = (q.head + n) & (len(q.ring) - 1)
		q.size -= n
		q.live -= n
		q.first += uint64(n)
	}
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
	q.batch = batch
	return batch
}
