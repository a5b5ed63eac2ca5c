package agent_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/search"
)

// panickyCtx is a context whose Err panics once *armed.
type panickyCtx struct{ armed *bool }

func (c panickyCtx) Err() error {
	if *c.armed {
		panic("the game's context failed")
	}
	return nil
}
func (panickyCtx) Done() <-chan struct{}       { return nil }
func (panickyCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (panickyCtx) Value(any) any               { return nil }

var _ context.Context = panickyCtx{}

// TestReviewAWorkerPanicWithdrawsSuspendedDecompositions is
// TestAWorkerPanicWithdrawsSuspendedGoapSearches for HTN knights: their
// decompositions are suspended in the first frame; a later frame's
// panics in some knights' contexts; no decomposition stays suspended, no
// coroutine lives on, and once mended the knights are answered as a
// queue that never failed answers them.
func TestReviewAWorkerPanicWithdrawsSuspendedDecompositions(t *testing.T) {
	const n, failFrom = 24, 18
	armed := false
	knights := func(q *agent.Queue) []*agent.Agent {
		ks, _ := slicedKnights(t, n, q, rand.New(rand.NewPCG(9, 9)), func(i int, cfg *agent.Config) {
			cfg.Limits = search.Limits{}
			if i >= failFrom {
				cfg.Context = panickyCtx{&armed}
			}
		})
		return ks
	}
	newQueue := func() *agent.Queue {
		q := agent.NewQueue(2, n)
		q.SetSlice(1)
		return q
	}
	tickAll := func(as []*agent.Agent) {
		for _, a := range as {
			a.Tick()
		}
	}
	cq := newQueue()
	control := knights(cq)
	tickAll(control)
	for cq.Len() > 0 {
		cq.Frame()
	}
	base := settledCount()
	q := newQueue()
	ks := knights(q)
	tickAll(ks)
	q.Frame()
	if st := q.LastFrame(); st.Suspended != n {
		t.Fatalf("first frame %+v: want all %d decompositions suspended", st, n)
	}
	armed = true
	got := func() (p any) {
		defer func() { p = recover() }()
		for q.Len() > 0 {
			q.Frame()
		}
		return nil
	}()
	if s, _ := got.(string); !strings.Contains(s, "the game's context failed") {
		t.Fatalf("Frame raised %v", got)
	}
	if searches, _ := q.Suspended(); searches != 0 || q.Len() != 0 {
		t.Fatalf("after the panic: %d suspended, %d waiting", searches, q.Len())
	}
	armed = false
	tickAll(ks)
	for q.Len() > 0 {
		q.Frame()
	}
	for i, a := range ks {
		if got, want := fmt.Sprint(a.Plan()), fmt.Sprint(control[i].Plan()); got != want || a.Stats().Plans == 0 {
			t.Fatalf("knight %d after the queue recovered: %s (%d answers), want %s", i, got, a.Stats().Plans, want)
		}
	}
	// A withdrawn decomposition left suspended would keep its planner,
	// and the planner's coroutine, alive: once the queue and its knights
	// are dropped, every planner's coroutine ends with the planner.
	q, ks = nil, nil
	if now := settledCount(); now > base {
		t.Fatalf("%d goroutines once the queue was dropped, %d before it", now, base)
	}
}
