package agent

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/goroutines"
)

// queuedMages returns n battle mages planning Kill through q (mageConfig).
func queuedMages(t testing.TB, n int, q *Queue) []*Agent {
	cfg := mageConfig(t)
	cfg.Queue = q
	agents := make([]*Agent, n)
	for i := range agents {
		var err error
		if agents[i], err = New(cfg); err != nil {
			t.Fatal(err)
		}
	}
	return agents
}

// mageConfig is a battle mage planning Kill, with behaviours that
// succeed at once and no sensor.
func mageConfig(t testing.TB) Config {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	behaviours := map[string]Behaviour{}
	for id := range d.NumActions() {
		behaviours[d.ActionName(goap.ActionID(id))] = Funcs{}
	}
	return Config{Name: "mage", Domain: d, Goals: []GoalOption{{Goal: d.Goal("Kill"), Priority: 1}}, Behaviours: behaviours}
}

// TestFrameCostIsIndependentOfTheBacklog drains a backlog one request per
// frame and counts the ring slots the frames read: one per request, not
// one per request still waiting (which would be n²/2).
func TestFrameCostIsIndependentOfTheBacklog(t *testing.T) {
	const n = 5000
	q := NewQueue(1, 1)
	agents := queuedMages(t, n, q)
	for _, a := range agents {
		a.Tick()
	}
	for i := 5; i < n; i += 7 { // cancelled slots are passed over once too
		q.Cancel(agents[i])
	}
	frames := 0
	for q.Len() > 0 {
		before := q.slotsVisited
		if q.Frame() != 1 {
			t.Fatalf("frame %d resolved nothing with %d waiting", frames, q.Len())
		}
		frames++
		if visited := q.slotsVisited - before; visited > 2 {
			t.Fatalf("frame %d read %d slots to resolve one request", frames, visited)
		}
	}
	if q.slotsVisited != n {
		t.Errorf("draining %d requests read %d slots", n, q.slotsVisited)
	}
	for i, a := range agents {
		if cancelled := i >= 5 && (i-5)%7 == 0; (a.Plan() == nil) != cancelled {
			t.Fatalf("agent %d: plan %v, cancelled %v", i, a.Plan(), cancelled)
		}
	}
}

// TestOverlappingCallsPanicClearly: a call that finds another in the queue
// (another goroutine's, in real misuse) panics with a message naming the
// rule rather than corrupting the ring.
func TestOverlappingCallsPanicClearly(t *testing.T) {
	q := NewQueue(1, 1)
	agents := queuedMages(t, 1, q)
	q.busy.Store(true) // as if another goroutine were inside Frame
	for name, call := range map[string]func(){
		"Frame":       func() { q.Frame() },
		"Cancel":      func() { q.Cancel(agents[0]) },
		"Remove":      func() { q.Remove(agents[0]) },
		"submit":      func() { agents[0].Tick() },
		"SetSlice":    func() { q.SetSlice(2) },
		"SetMinShare": func() { q.SetMinShare(2) },
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, "one goroutine at a time") {
					t.Errorf("%s during another call: panic %q", name, msg)
				}
			}()
			call()
		}()
	}
}

// BenchmarkQueueFrameWithBacklog resolves one request per frame with a
// backlog kept at 1 000 and at 100 000 (the resolved agent asks again): a
// frame costs the same either way.
func BenchmarkQueueFrameWithBacklog(b *testing.B) {
	for _, backlog := range []int{1000, 100000} {
		b.Run(fmt.Sprint(backlog), func(b *testing.B) {
			q := NewQueue(1, 1)
			agents := queuedMages(b, backlog, q)
			for _, a := range agents {
				a.Tick()
			}
			next := 0
			b.ReportAllocs()
			for b.Loop() {
				q.Frame()
				a := agents[next]
				next = (next + 1) % backlog
				a.RequestReplan()
				a.Tick()
			}
		})
	}
}

// TestReservedQueueStartsWarm: after Reserve, a new queue's first frame
// allocates no more than a warm frame does; without it, the first frame
// makes the workers' planners and grows their arenas. The agents are
// warmed on another queue first, so that only the queue's first frame is
// new.
func TestReservedQueueStartsWarm(t *testing.T) {
	const n = 64
	warmUp := NewQueue(2, n)
	agents := queuedMages(t, n, warmUp)
	d := agents[0].cfg.Domain
	replan := func() {
		for _, a := range agents {
			a.RequestReplan()
			a.Tick()
		}
	}
	for range 3 {
		replan()
		warmUp.Frame()
	}
	// frame moves the agents to q and counts the allocations of one of
	// q's frames.
	frame := func(q *Queue) uint64 {
		for _, a := range agents {
			a.cfg.Queue = q
		}
		replan()
		runtime.GC() // so that none runs inside the frame
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if got := q.Frame(); got != n {
			t.Fatalf("a frame resolved %d, want %d", got, n)
		}
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs
	}
	// Mallocs counts the whole program's allocations, the runtime's own
	// included: the least of a few tries is the frame's.
	cold := frame(NewQueue(2, n))
	first, warm := ^uint64(0), ^uint64(0)
	for range 3 {
		q := NewQueue(2, n)
		q.Reserve(d, 64)
		first = min(first, frame(q))
		for range 3 {
			warm = min(warm, frame(q))
		}
	}
	t.Logf("allocations: a new queue's first frame %d, a reserved one's %d, a warm frame %d", cold, first, warm)
	if first > warm {
		t.Errorf("a reserved queue's first frame allocates %d times, a warm frame %d", first, warm)
	}
	if cold <= warm {
		t.Errorf("a new queue's first frame allocates %d times, a warm frame %d: the test measures nothing", cold, warm)
	}
}

// TestAbandonedQueueLetsItsWorkersGo: a queue's worker goroutines wait
// for frames as long as the queue lives, and end once it is collected.
func TestAbandonedQueueLetsItsWorkersGo(t *testing.T) {
	before := settledGoroutines()
	func() {
		q := NewQueue(4, 8)
		agents := queuedMages(t, 8, q)
		for _, a := range agents {
			a.Tick()
		}
		q.Frame()
		if got := runtime.NumGoroutine(); got < before+3 {
			t.Fatalf("%d goroutines during the queue's life, want %d at least", got, before+3)
		}
	}()
	for range 200 {
		if runtime.NumGoroutine() <= before {
			return
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	t.Errorf("%d goroutines after the queue was dropped, %d before", runtime.NumGoroutine(), before)
}

// settledGoroutines returns the number of goroutines once it has stopped
// falling: earlier tests' abandoned queues end their workers only after a
// collection, and a count taken while they wind down would be too high.
func settledGoroutines() int { return goroutines.Settled(0) }

// TestQueueStartsOneHelperPerExtraWorker checks that a queue of three
// workers starts two helper goroutines: the goroutine calling Frame is
// the third. A helper too many would wait for frames that never wake it,
// for as long as the queue lives.
func TestQueueStartsOneHelperPerExtraWorker(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		q := NewQueue(workers, 8)
		agents := queuedMages(t, 4, q)
		for _, a := range agents {
			a.Tick()
		}
		q.Frame()
		if got := len(q.crew.wake); got != workers-1 {
			t.Errorf("%d workers: %d helper goroutines started, want %d", workers, got, workers-1)
		}
	}
}

// TestSmallFramesWakeNoHelper: with a share of 32 (SetMinShare), frames
// of fewer than 64 requests run on the goroutine that calls Frame alone,
// and the queue starts no helper goroutine at all; the first frame of 64
// starts and wakes one; and once it is started, a small frame does not
// wake it (as in a game whose first frames are large, every agent
// asking, and the later ones small).
func TestSmallFramesWakeNoHelper(t *testing.T) {
	q := NewQueue(2, 64)
	q.SetMinShare(32)
	agents := queuedMages(t, 64, q)
	for _, n := range []int{1, 10, 63} {
		for _, a := range agents[:n] {
			a.RequestReplan()
			a.Tick()
		}
		if got := q.Frame(); got != n {
			t.Fatalf("a frame resolved %d, want %d", got, n)
		}
		if q.crew.wake != nil || q.LastFrame().Workers != 1 {
			t.Fatalf("a frame of %d requests: %d helpers started, ran on %d workers; want none, 1", n, len(q.crew.wake), q.LastFrame().Workers)
		}
	}
	for _, a := range agents {
		a.RequestReplan()
		a.Tick()
	}
	if got := q.Frame(); got != 64 {
		t.Fatalf("a frame resolved %d, want 64", got)
	}
	if len(q.crew.wake) != 1 || q.LastFrame().Workers != 2 {
		t.Fatalf("a frame of 64 requests: %d helpers started, ran on %d workers; want 1, 2", len(q.crew.wake), q.LastFrame().Workers)
	}

	// The helper started, small frames still leave it asleep: a relay
	// on its wake channel counts the frames that wake it and passes each
	// wake on. (The queue's cleanup closes the relay's channel, and the
	// relay then the helper's.)
	var woken atomic.Int64
	relay, helper := make(chan struct{}, 1), q.crew.wake[0]
	q.crew.wake[0] = relay
	go func() {
		defer close(helper)
		for range relay {
			woken.Add(1)
			helper <- struct{}{}
		}
	}()
	for _, n := range []int{1, 63, 64, 10} {
		before := woken.Load()
		for _, a := range agents[:n] {
			a.RequestReplan()
			a.Tick()
		}
		if got := q.Frame(); got != n {
			t.Fatalf("a frame resolved %d, want %d", got, n)
		}
		want := int64(0)
		if n >= 64 {
			want = 1
		}
		if w := woken.Load() - before; w != want || q.LastFrame().Workers != int(want)+1 {
			t.Fatalf("a frame of %d after the helper started: woke it %d times, ran on %d workers; want %d, %d", n, w, q.LastFrame().Workers, want, want+1)
		}
	}
}

// TestTakeKeepsSubmissionOrderAcrossTheRingsEnd: a frame takes the oldest
// waiting requests in submission order, passing over cancelled ones, when
// they wrap round the end of the ring, and leaves in the ring no reference
// to a request it took (which would keep a departed agent alive). With no
// cancellation the batch is left in the ring for the workers to fetch, with
// one it is copied slot by slot: both ways are checked, and the first with
// two suspended searches carried from the last frame (SetSlice), which
// come first, before the ring's run.
func TestTakeKeepsSubmissionOrderAcrossTheRingsEnd(t *testing.T) {
	for _, mode := range []string{"none", "cancel", "carried"} {
		cancel := mode == "cancel"
		q := NewQueue(1, 5)
		agents := queuedMages(t, 22, q)
		carried := agents[20:]
		agents = agents[:20]
		var waiting []*Agent // in submission order
		submit := func(as []*Agent) {
			for _, a := range as {
				a.Tick()
				waiting = append(waiting, a)
			}
		}
		submit(agents[:12])
		q.Frame()
		q.Frame()
		waiting = waiting[10:]
		submit(agents[12:]) // slots 10 to 15, then 0 to 3
		if q.head+q.size <= len(q.ring) {
			t.Fatalf("head %d, %d waiting in %d slots: the requests do not wrap", q.head, q.size, len(q.ring))
		}
		if cancel {
			q.Cancel(waiting[3])
			waiting = append(waiting[:3], waiting[4:]...)
		}
		if mode == "carried" {
			for _, a := range carried {
				q.carried = append(q.carried, request{agent: a, ticket: a.ticket})
			}
			waiting = append(carried, waiting...)
		}
		for len(waiting) > 0 {
			batch := q.take()
			q.fetch(0, len(batch)) // the workers' part, when the batch is left in the ring
			want := waiting[:min(q.perFrame, len(waiting))]
			waiting = waiting[len(want):]
			if len(batch) != len(want) {
				t.Fatalf("%s: took %d requests, want %d", mode, len(batch), len(want))
			}
			for i := range batch {
				if batch[i].agent != want[i] || batch[i].ticket != want[i].ticket {
					t.Fatalf("%s: request %d of the batch is not the next submitted", mode, i)
				}
			}
			for slot := range q.ring {
				if inUse := (slot-q.head)&(len(q.ring)-1) < q.size; !inUse && q.ring[slot].agent != nil {
					t.Fatalf("%s: slot %d still holds a request after take", mode, slot)
				}
			}
		}
		q.fromRing, q.runs = false, [2][]request{}
		if q.size != 0 || q.live != 0 || q.first != q.next {
			t.Errorf("%s: size %d, live %d, first %d, next %d after taking every request", mode, q.size, q.live, q.first, q.next)
		}
	}
}
