package agent_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/goroutines"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// slicedCrowd is n survivors in camps of their own, as resolverCrowd
// makes them, each with a random node budget of 1 to 5 chains (a
// survivor's resolve takes about 5), resolving through q. It returns
// the agents and the largest budget.
func slicedCrowd(t testing.TB, n int, q *agent.Queue, rng *rand.Rand) ([]*agent.ResolverAgent, int) {
	base := newCamp(t)
	var agents []*agent.ResolverAgent
	most := 0
	for i := range n {
		c := newCamp(t)
		c.d = base.d
		c.values["warmth"] = int64(rng.IntN(80))
		c.values["hunger"] = int64(rng.IntN(80))
		c.at = resolver.Point{X: float64(rng.IntN(11) - 5), Y: float64(rng.IntN(11) - 5)}
		c.piles["wood_north"].logs = rng.IntN(3)
		cfg := c.config(nil)
		cfg.OnEvent = nil
		cfg.Name = fmt.Sprintf("survivor%02d", i)
		cfg.Policy = agent.Policy{Kind: agent.Reactive}
		budget := 1 + rng.IntN(5)
		most = max(most, budget)
		cfg.Limits = search.Limits{Budget: int64(budget)}
		cfg.Queue = q
		agents = append(agents, mustResolverAgent(t, cfg))
	}
	return agents, most
}

// slicedMages is n battle mages resolving through q, as crowd makes
// them, each with a random node budget of 1 to 12 states (Kill takes 7),
// so that some searches span frames and some run out. It returns the
// agents and the largest budget.
func slicedMages(t testing.TB, n int, q *agent.Queue, rng *rand.Rand, with ...func(i int, cfg *agent.Config)) ([]*agent.Agent, int) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	var mages []*agent.Agent
	most := 0
	for i := range n {
		w := &toy{d: d, world: d.Initial(), duration: map[string]int{}, fail: map[string]bool{}, left: map[*agent.Agent]int{}}
		cfg := goapConfig(w, d, nil)
		cfg.Name = fmt.Sprintf("mage%02d", i)
		budget := 1 + rng.IntN(12)
		most = max(most, budget)
		cfg.Limits = search.Limits{Budget: int64(budget)}
		cfg.Queue = q
		for _, f := range with {
			f(i, &cfg)
		}
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		mages = append(mages, a)
	}
	return mages, most
}

// slicedKnights is n battle mages that decompose the battle mage's HTN
// through q, each with a random step cap of 1 to 40 steps, so that some
// decompositions span frames and some run out. It returns the agents and
// the largest step cap.
func slicedKnights(t testing.TB, n int, q *agent.Queue, rng *rand.Rand, with ...func(i int, cfg *agent.Config)) ([]*agent.Agent, int) {
	var h *htn.Domain
	most := 0
	knight := func(i int, cfg *agent.Config) {
		if h == nil {
			var err error
			if h, err = htn.NewDomain(cfg.Domain, domains.BattleMageHTN()); err != nil {
				t.Fatal(err)
			}
		}
		cfg.Name, cfg.HTN, cfg.Goals = fmt.Sprintf("knight%02d", i), h, nil
		steps := 1 + rng.IntN(40)
		most = max(most, steps)
		cfg.Limits = search.Limits{MaxSteps: int64(steps)}
	}
	knights, _ := slicedMages(t, n, q, rng, append([]func(int, *agent.Config){knight}, with...)...)
	return knights, most
}

// TestSlicedQueueKeepsItsBoundsAndPromises runs crowds of survivors, with
// battle mages among them (both with node budgets of a few expansions)
// and HTN knights (with step caps of a few dozen steps),
// through queues of 1 and 2 workers, 1 to 5 requests a frame and slices
// of 1 to 7 expansions, and checks what Queue.SetSlice promises: no
// frame's searches expand more than PerFrame × Slice chains, states and
// steps; every chain, state and step a frame spent reaches an agent (the
// frames' sums are the agents' once the line is drained); and a request
// with p − 1 others ahead of it when asked is answered within
// ⌈p / PerFrame⌉ × ⌈B / Slice⌉ frames, B the largest budget or step cap
// (the mages' small searches never hand over, so B is not doubled); and
// that some requests wait that long: the bound is the worst case, not a
// guess.
func TestSlicedQueueKeepsItsBoundsAndPromises(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 26))
	tightest := 0.0 // the longest wait seen, as a fraction of its bound
	spanned, mageStates, mageSpanned, knightSteps, knightSpanned := 0, 0, 0, 0, 0
	for round := range 24 {
		workers, perFrame, slice := 1+rng.IntN(2), 1+rng.IntN(5), []int{1, 2, 3, 7}[rng.IntN(4)]
		q := agent.NewQueue(workers, perFrame)
		q.SetSlice(slice)
		survivors, most := slicedCrowd(t, 6+rng.IntN(20), q, rng)
		mages, mostMage := slicedMages(t, rng.IntN(4), q, rng)
		knights, mostKnight := slicedKnights(t, rng.IntN(4), q, rng)
		perSearch := (max(most, mostMage, mostKnight) + slice - 1) / slice
		type asked struct {
			frame, place, plans int
		}
		waiting := map[*agent.Agent]asked{}
		frame, chains, states, steps := 0, 0, 0, 0
		tick := func(a *agent.Agent) {
			plans, before := a.Stats().Plans, q.Len()
			a.Tick()
			if q.Len() == before+1 {
				waiting[a] = asked{frame: frame, place: q.Len(), plans: plans}
			}
		}
		runFrame := func() {
			q.Frame()
			frame++
			st := q.LastFrame()
			where := fmt.Sprintf("round %d (%d workers, %d a frame, slice %d), frame %d", round, workers, perFrame, slice, frame)
			if st.Chains+st.States+st.Steps > perFrame*slice {
				t.Fatalf("%s: %d chains, %d states and %d steps spent, more than %d × %d", where, st.Chains, st.States, st.Steps, perFrame, slice)
			}
			if st.Taken > perFrame || st.Ended+st.Suspended != st.Taken {
				t.Fatalf("%s: %+v", where, st)
			}
			chains += st.Chains
			states += st.States
			steps += st.Steps
			for a, w := range waiting {
				if a.Stats().Plans == w.plans {
					continue
				}
				delete(waiting, a)
				waited, bound := frame-w.frame, ((w.place+perFrame-1)/perFrame)*perSearch
				if waited > bound {
					t.Fatalf("%s: %s asked with %d ahead and was answered after %d frames, more than the bound of %d", where, a.Name(), w.place-1, waited, bound)
				}
				tightest = max(tightest, float64(waited)/float64(bound))
				if waited > 1 {
					spanned++
					if strings.HasPrefix(a.Name(), "mage") {
						mageSpanned++
					}
					if strings.HasPrefix(a.Name(), "knight") {
						knightSpanned++
					}
				}
			}
		}
		for range 60 {
			for _, a := range survivors {
				tick(a.Agent())
			}
			for _, m := range mages {
				tick(m)
			}
			for _, k := range knights {
				tick(k)
			}
			runFrame()
		}
		for q.Len() > 0 {
			runFrame()
		}
		if len(waiting) > 0 {
			t.Fatalf("round %d: the line is empty and %d agents still wait", round, len(waiting))
		}
		if n, bytes := q.Suspended(); n != 0 || bytes != 0 {
			t.Fatalf("round %d: %d searches suspended in %d bytes after the line drained", round, n, bytes)
		}
		expanded := 0
		for _, a := range survivors {
			expanded += a.Stats().Expanded
		}
		if expanded != chains {
			t.Fatalf("round %d: the frames expanded %d chains, the agents were answered with %d", round, chains, expanded)
		}
		expanded = 0
		for _, m := range mages {
			expanded += m.Stats().Expanded
		}
		if expanded != states {
			t.Fatalf("round %d: the frames expanded %d states, the mages were answered with %d", round, states, expanded)
		}
		mageStates += states
		spent := 0
		for _, k := range knights {
			spent += k.Stats().Steps
		}
		if spent != steps {
			t.Fatalf("round %d: the frames took %d steps, the knights were answered with %d", round, steps, spent)
		}
		knightSteps += steps
	}
	if mageStates == 0 || mageSpanned == 0 {
		t.Errorf("the mages' searches expanded %d states, %d answers waited more than a frame: the test sliced no GOAP search", mageStates, mageSpanned)
	}
	if knightSteps == 0 || knightSpanned == 0 {
		t.Errorf("the knights' decompositions took %d steps, %d answers waited more than a frame: the test sliced no HTN decomposition", knightSteps, knightSpanned)
	}
	t.Logf("longest wait %.2f of its bound; %d answers waited more than a frame", tightest, spanned)
	if spanned < 200 || tightest < 0.9 {
		t.Errorf("longest wait %.2f of its bound, %d answers waited more than a frame: the test did not load the queue", tightest, spanned)
	}
}

// TestCancelDropsASuspendedSearch: a search suspended at the end of a
// frame is the queue's until it ends; Cancel and Remove let it go at
// once, and the agent asks again from the world of then.
func TestCancelDropsASuspendedSearch(t *testing.T) {
	q := agent.NewQueue(1, 8)
	q.SetSlice(1)
	survivors, _ := resolverCrowd(t, 8, q, nil, 5)
	for _, a := range survivors {
		a.Tick()
	}
	asked := q.Len()
	q.Frame()
	if n, bytes := q.Suspended(); n != asked || n < 3 || bytes <= 0 || q.Len() != asked || q.LastFrame().Suspended != asked {
		t.Fatalf("after a frame of one chain each: %d suspended in %d bytes, %d waiting, %+v; want the %d that asked (3 at least)", n, bytes, q.Len(), q.LastFrame(), asked)
	}
	var waiting []*agent.ResolverAgent
	for _, a := range survivors {
		if q.Cancel(a) {
			waiting = append(waiting, a)
			break
		}
	}
	if n, _ := q.Suspended(); n != asked-1 || q.Len() != asked-1 {
		t.Fatalf("after Cancel: %d suspended, %d waiting; want %d", n, q.Len(), asked-1)
	}
	removed := 0
	for _, a := range survivors {
		if a == waiting[0] {
			continue
		}
		before, _ := q.Suspended()
		q.Remove(a)
		if after, _ := q.Suspended(); after < before {
			removed++
			break
		}
	}
	if n, _ := q.Suspended(); removed != 1 || n != asked-2 || q.Len() != asked-2 {
		t.Fatalf("after Remove: %d suspended, %d waiting; want %d", n, q.Len(), asked-2)
	}
	for q.Len() > 0 {
		q.Frame()
	}
	if n, bytes := q.Suspended(); n != 0 || bytes != 0 {
		t.Fatalf("%d searches in %d bytes suspended after the line drained", n, bytes)
	}
	cancelled := waiting[0]
	if cancelled.Chain() != nil || cancelled.Stats().Plans != 0 {
		t.Fatal("the cancelled agent got an answer")
	}
	cancelled.Tick() // asks again
	if q.Len() != 1 {
		t.Fatalf("%d waiting; want the cancelled agent's new request", q.Len())
	}
}

// TestSetSliceMisuse: a negative slice is refused with a message saying
// what a slice is.
func TestSetSliceMisuse(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "agent: Queue.SetSlice(-1)") {
			t.Fatalf("recovered %v", r)
		}
	}()
	agent.NewQueue(1, 1).SetSlice(-1)
}

// TestWarmSlicedQueueAllocatesNothing: once warm, a queue whose searches
// span frames allocates nothing: the searches it makes (at most PerFrame)
// go from request to request, on 1 worker or 2.
func TestWarmSlicedQueueAllocatesNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		q := agent.NewQueue(workers, 8)
		q.SetSlice(1)
		survivors, _ := resolverCrowd(t, 40, q, nil, 3)
		ended, suspended := 0, 0
		frame := func() {
			for _, a := range survivors {
				a.RequestReplan()
				a.Tick()
			}
			q.Frame()
			ended += q.LastFrame().Ended
			suspended += q.LastFrame().Suspended
		}
		for range 200 {
			frame()
		}
		if n := testing.AllocsPerRun(500, frame); n != 0 {
			t.Errorf("%d workers: %v allocations per frame", workers, n)
		}
		if ended < 500 || suspended < 500 {
			t.Errorf("%d workers: %d searches ended and %d suspended: too few to test", workers, ended, suspended)
		}
	}
}

// TestWarmSlicedGoapQueueAllocatesNothing: battle mages and HTN knights
// whose searches fit in the queue's slice (Kill expands 7 states, the
// knights' decompositions take 13 steps) run sliced, each search begun
// on the worker's planner, and once warm a frame allocates nothing: the
// planners keep their coroutines from search to search.
func TestWarmSlicedGoapQueueAllocatesNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		q := agent.NewQueue(workers, 64)
		q.SetSlice(16)
		rng := rand.New(rand.NewPCG(3, 3))
		unlimited := func(i int, cfg *agent.Config) { cfg.Limits = search.Limits{} }
		mages, _ := slicedMages(t, 20, q, rng, unlimited)
		knights, _ := slicedKnights(t, 20, q, rng, unlimited)
		states, steps := 0, 0
		frame := func() {
			for i := range mages {
				mages[i].RequestReplan()
				mages[i].Tick()
				knights[i].RequestReplan()
				knights[i].Tick()
			}
			q.Frame()
			st := q.LastFrame()
			if st.Suspended != 0 {
				t.Fatalf("%d workers: %+v: a search that fits its slice was suspended", workers, st)
			}
			states += st.States
			steps += st.Steps
		}
		for range 50 {
			frame()
		}
		if n := testing.AllocsPerRun(200, frame); n != 0 {
			t.Errorf("%d workers: %v allocations per frame", workers, n)
		}
		if states < 1000 || steps < 1000 {
			t.Errorf("%d workers: %d states and %d steps spent: too few to test", workers, states, steps)
		}
	}
}

// TestSlicedQueueIsDeterministic is TestResolverQueueIsDeterministic on
// a queue whose searches span frames: survivors and battle mages, workers
// racing, cancels and a removal among suspended searches; the event logs
// must be the same byte for byte. Run it with -race.
func TestSlicedQueueIsDeterministic(t *testing.T) {
	log := func() (string, int) {
		var rec agent.Recorder
		q := agent.NewQueue(4, 5)
		q.SetSlice(2)
		survivors, camps := resolverCrowd(t, 12, q, &rec, 1)
		mages, _ := crowd(t, 4, q, &rec)
		suspended := 0
		for tick := 0; tick < 40; tick++ {
			if tick == 9 {
				camps[2].piles["wood_south"].logs = 0
				q.Cancel(survivors[5])
			}
			if tick == 15 {
				q.Remove(survivors[7])
			}
			for _, a := range survivors {
				a.Tick()
			}
			for _, m := range mages {
				m.Tick()
			}
			q.Frame()
			suspended += q.LastFrame().Suspended
		}
		var sb strings.Builder
		rec.WriteJSONL(&sb)
		return sb.String(), suspended
	}
	first, suspended := log()
	if suspended < 20 || !strings.Contains(first, `"kind":"step_done"`) {
		t.Fatalf("%d searches suspended; the log:\n%s", suspended, first)
	}
	for i := 0; i < 3; i++ {
		if again, _ := log(); again != first {
			t.Fatalf("run %d differs", i)
		}
	}
}

// BenchmarkSlicedQueue runs three crowds of 2 000 survivors asking again
// every tick, each on a one-worker queue taking 500 requests a frame:
// one with no slice (each search whole), one with a slice of 4 chains
// (a survivor's searches fit it: nothing is suspended) and one with a
// slice of 1. Each op is one tick and one Frame of each crowd, in turn,
// so that the machine's load falls on the three alike; the metrics are
// each queue's median time in Frame and its chains per frame. The price
// of slicing is slice=4's rise over slice=0, and that of suspending and
// resuming slice=1's time per chain.
func BenchmarkSlicedQueue(b *testing.B) {
	benchSlicedCrowds(b, []int{0, 4, 1}, "chains", func(q *agent.Queue) []ticker {
		agents, _ := resolverCrowd(b, 2000, q, nil, 9)
		out := make([]ticker, len(agents))
		for i, a := range agents {
			out[i] = a
		}
		return out
	}, func(s agent.FrameStats) int { return s.Chains })
}

// BenchmarkSlicedGoapQueue is BenchmarkSlicedQueue for battle mages: three
// crowds of 2 000 on one-worker queues of 500 a frame, with no slice, a
// slice of 16 (which every mage's search fits: each still runs through
// Begin, in a coroutine) and a slice of 2, interleaved.
func BenchmarkSlicedGoapQueue(b *testing.B) {
	benchSlicedCrowds(b, []int{0, 16, 2}, "states", func(q *agent.Queue) []ticker {
		agents, _ := slicedMages(b, 2000, q, rand.New(rand.NewPCG(9, 9)), func(i int, cfg *agent.Config) {
			cfg.Limits = search.Limits{}
		})
		out := make([]ticker, len(agents))
		for i, a := range agents {
			out[i] = a
		}
		return out
	}, func(s agent.FrameStats) int { return s.States })
}

// ticker is an agent of either kind, as the benchmarks drive them.
type ticker interface {
	RequestReplan()
	Tick()
}

// benchSlicedCrowds runs one crowd per slice, each on a one-worker queue
// of 500 requests a frame, made by crowd; each op ticks and frames every
// crowd in turn, starting with the next one each op (the one run first
// runs after the others touched other memory, which made it 10 % slower
// or faster). It reports each queue's median time in Frame and its work
// per frame, as counted names it.
func benchSlicedCrowds(b *testing.B, sliceSizes []int, counted string, crowd func(q *agent.Queue) []ticker, count func(agent.FrameStats) int) {
	type run struct {
		slice   int
		q       *agent.Queue
		agents  []ticker
		inFrame []time.Duration
		work    int
	}
	var runs []*run
	for _, slice := range sliceSizes {
		q := agent.NewQueue(1, 500)
		q.SetSlice(slice)
		runs = append(runs, &run{slice: slice, q: q, agents: crowd(q)})
	}
	frame := func(c *run) time.Duration {
		for _, a := range c.agents {
			a.RequestReplan()
			a.Tick()
		}
		start := time.Now()
		c.q.Frame()
		c.work += count(c.q.LastFrame())
		return time.Since(start)
	}
	for range 20 {
		for _, c := range runs {
			frame(c)
		}
	}
	for _, c := range runs {
		c.work = 0
	}
	b.ReportAllocs()
	for op := 0; b.Loop(); op++ {
		for k := range runs {
			c := runs[(op+k)%len(runs)]
			c.inFrame = append(c.inFrame, frame(c))
		}
	}
	for _, c := range runs {
		slices.Sort(c.inFrame)
		median := c.inFrame[len(c.inFrame)/2]
		b.ReportMetric(float64(median.Nanoseconds())/1e3, fmt.Sprintf("frame-µs/slice=%d", c.slice))
		b.ReportMetric(float64(c.work)/float64(len(c.inFrame)), fmt.Sprintf("%s/slice=%d", counted, c.slice))
	}
}

// TestCancelDuringDeliveryDropsASuspendedSearch: an event callback that
// cancels, while Frame delivers, an agent whose search the same frame
// suspended drops that search too: it is not carried into the next frame.
func TestCancelDuringDeliveryDropsASuspendedSearch(t *testing.T) {
	q := agent.NewQueue(1, 16)
	q.SetSlice(1)
	survivors, _ := resolverCrowd(t, 8, q, nil, 5)
	target := firstOf(tickAsking(q, survivors))
	asked := q.Len()
	cancelled := 0
	mage := mageEndingAtOnce(t, q, func() {
		if q.Cancel(target) {
			cancelled++
		}
	})
	mage.Tick()
	if target == nil || q.Len() != asked+1 {
		t.Fatalf("%d waiting; want the survivors' %d requests (one at least) and the mage's", q.Len(), asked)
	}
	q.Frame()
	if st := q.LastFrame(); cancelled != 1 || st.Suspended != asked || st.Ended != 1 {
		t.Fatalf("cancelled %d times, %+v: want the %d survivors' searches suspended, one of them cancelled during delivery", cancelled, st, asked)
	}
	if n, _ := q.Suspended(); n != asked-1 || q.Len() != asked-1 {
		t.Fatalf("%d searches suspended, %d waiting after the cancel; want %d", n, q.Len(), asked-1)
	}
}

// TestSlicedQueueWorkersRecordAsOne is TestQueueWorkersRecordAsOne on a
// queue whose searches span frames: survivors who record into one
// FlightRecorder, listen to their own events or do neither, 150 a frame
// of 600 (so that each frame takes the searches carried from the last
// first, then a run of the line), a slice of 2 chains (a survivor's
// resolve takes about 5). The workers deliver chunks early while others
// still search, and a chunk holds suspended searches among the ended
// ones: on 2 and 4 workers the recording, the events, what each frame did
// and what each agent was answered are those of 1 worker; and every
// chain the frames expanded reached an agent, so no suspended search was
// delivered or lost. Run it with -race.
func TestSlicedQueueWorkersRecordAsOne(t *testing.T) {
	const n, perFrame = 600, 150
	type run struct {
		decisions, events []byte
		frames            []agent.FrameStats
		answers           []string
	}
	record := func(workers int) run {
		recorder := agent.NewFlightRecorder(100_000, 256<<20)
		var rec agent.Recorder
		q := agent.NewQueue(workers, perFrame)
		q.SetSlice(2)
		survivors, camps := resolverCrowd(t, n, q, &rec, 5, func(i int, cfg *agent.ResolverConfig) {
			cfg.OnEvent = nil
			if (i/50)%2 == 1 {
				cfg.Decisions = recorder
			}
			if i >= n*5/6 && i%4 == 0 {
				cfg.OnEvent = rec.Record
			}
		})
		var r run
		chains := 0
		frame := func() {
			q.Frame()
			st := q.LastFrame()
			st.Workers = 0 // the one count that may differ with the workers
			r.frames = append(r.frames, st)
			chains += st.Chains
		}
		for tick := range 24 {
			if tick == 9 {
				for i := 0; i < n; i += 7 {
					camps[i].piles["wood_south"].logs = 0
				}
			}
			for _, a := range survivors {
				a.Tick()
			}
			frame()
		}
		for q.Len() > 0 {
			frame()
		}
		expanded := 0
		for _, a := range survivors {
			st := a.Stats()
			expanded += st.Expanded
			r.answers = append(r.answers, fmt.Sprintf("%s %v plans %d expanded %d no plan %d steps %d", a.Name(), a.Chain(), st.Plans, st.Expanded, st.NoPlan, st.StepsDone))
		}
		if expanded != chains {
			t.Errorf("%d workers: the frames expanded %d chains, the agents were answered with %d", workers, chains, expanded)
		}
		var dec, ev bytes.Buffer
		if err := recorder.WriteJSONL(&dec, agent.RecordHeader{Domain: "survivor"}); err != nil {
			t.Fatal(err)
		}
		rec.WriteJSONL(&ev)
		r.decisions, r.events = dec.Bytes(), ev.Bytes()
		return r
	}
	one := record(1)
	// The frames that took carried searches and then requests from the
	// line, which the workers fetch from the ring.
	suspended, carriedAndLine := 0, 0
	for f, st := range one.frames {
		suspended += st.Suspended
		if f > 0 && one.frames[f-1].Suspended > 0 && st.Taken > one.frames[f-1].Suspended {
			carriedAndLine++
		}
	}
	lines := bytes.Count(one.decisions, []byte("\n"))
	t.Logf("one worker: %d frames, %d searches suspended, %d frames carried and took from the line, %d lines recorded", len(one.frames), suspended, carriedAndLine, lines)
	if lines < n/4 || len(one.events) == 0 || suspended < n || carriedAndLine < 10 {
		t.Fatal("too little to compare")
	}
	for _, workers := range []int{2, 4} {
		r := record(workers)
		if !bytes.Equal(r.decisions, one.decisions) {
			l := firstDifferentLine(r.decisions, one.decisions)
			t.Errorf("%d workers: the recording differs from one worker's at line %d:\n%s\none worker's:\n%s", workers, l, lineOf(r.decisions, l), lineOf(one.decisions, l))
		}
		if !bytes.Equal(r.events, one.events) {
			t.Errorf("%d workers: the events differ from one worker's at line %d", workers, firstDifferentLine(r.events, one.events))
		}
		if !slices.Equal(r.frames, one.frames) {
			t.Errorf("%d workers: the frames did %v, one worker's %v", workers, r.frames, one.frames)
		}
		for i := range r.answers {
			if r.answers[i] != one.answers[i] {
				t.Errorf("%d workers: %s; one worker's %s", workers, r.answers[i], one.answers[i])
				break
			}
		}
	}
}

// TestSlicedGoapQueueWorkersRecordAsOne is TestSlicedQueueWorkersRecordAsOne
// with battle mages and HTN knights beside the survivors in one queue, a
// slice of 2 expansions or steps (a mage's Kill takes 7 states, a
// knight's decomposition a few dozen steps): some mages and knights record their
// decisions, traced, into a FlightRecorder, some listen to their own
// events; every mage's world changes as its plan runs. On 2 and 4 workers
// the mages' recording, the events, what each frame did and what each
// agent was answered are those of 1 worker, and every state the frames
// expanded reached a mage.
func TestSlicedGoapQueueWorkersRecordAsOne(t *testing.T) {
	const n, perFrame = 240, 60
	type run struct {
		decisions, events []byte
		frames            []agent.FrameStats
		answers           []string
	}
	record := func(workers int) run {
		recorder := agent.NewFlightRecorder(100_000, 256<<20)
		var rec agent.Recorder
		q := agent.NewQueue(workers, perFrame)
		q.SetSlice(2)
		survivors, _ := resolverCrowd(t, n/4, q, nil, 7, func(i int, cfg *agent.ResolverConfig) { cfg.OnEvent = nil })
		mages, _ := slicedMages(t, n, q, rand.New(rand.NewPCG(7, 7)), func(i int, cfg *agent.Config) {
			cfg.Limits = search.Limits{Budget: int64(4 + i%40)} // some run out
			if (i/20)%2 == 1 {
				cfg.Decisions = recorder
				cfg.TraceDecisions = i%3 == 0
			}
			if i%5 == 0 {
				cfg.OnEvent = rec.Record
			}
		})
		knights, _ := slicedKnights(t, n/4, q, rand.New(rand.NewPCG(8, 8)), func(i int, cfg *agent.Config) {
			cfg.Name = fmt.Sprintf("knight%03d", i)
			if i%2 == 1 {
				cfg.Decisions = recorder
			}
			if i%5 == 0 {
				cfg.OnEvent = rec.Record
			}
		})
		var r run
		states := 0
		frame := func() {
			q.Frame()
			st := q.LastFrame()
			st.Workers = 0 // the one count that may differ with the workers
			r.frames = append(r.frames, st)
			states += st.States
		}
		for range 40 {
			for i, a := range mages {
				a.Tick()
				if i < len(survivors) {
					survivors[i].Tick()
				}
				if i < len(knights) {
					knights[i].Tick()
				}
			}
			frame()
		}
		for q.Len() > 0 {
			frame()
		}
		expanded := 0
		for _, a := range mages {
			st := a.Stats()
			expanded += st.Expanded
			r.answers = append(r.answers, fmt.Sprintf("%s %v plans %d expanded %d no plan %d steps %d", a.Name(), a.Plan(), st.Plans, st.Expanded, st.NoPlan, st.StepsDone))
		}
		for _, a := range survivors {
			st := a.Stats()
			r.answers = append(r.answers, fmt.Sprintf("%s %v plans %d expanded %d", a.Name(), a.Chain(), st.Plans, st.Expanded))
		}
		for _, a := range knights {
			st := a.Stats()
			r.answers = append(r.answers, fmt.Sprintf("%s %v plans %d steps %d no plan %d done %d", a.Name(), a.Plan(), st.Plans, st.Steps, st.NoPlan, st.StepsDone))
		}
		if expanded != states {
			t.Errorf("%d workers: the frames expanded %d states, the mages were answered with %d", workers, states, expanded)
		}
		var dec, ev bytes.Buffer
		if err := recorder.WriteJSONL(&dec, agent.RecordHeader{Domain: "battle_mage"}); err != nil {
			t.Fatal(err)
		}
		rec.WriteJSONL(&ev)
		r.decisions, r.events = dec.Bytes(), ev.Bytes()
		return r
	}
	one := record(1)
	suspended, plans := 0, 0
	for _, st := range one.frames {
		suspended += st.Suspended
	}
	for _, a := range one.answers {
		if strings.Contains(a, " plans ") && !strings.Contains(a, " plans 0 ") {
			plans++
		}
	}
	lines := bytes.Count(one.decisions, []byte("\n"))
	t.Logf("one worker: %d frames, %d searches suspended, %d lines recorded, %d bytes of events", len(one.frames), suspended, lines, len(one.events))
	if lines < n/4 || len(one.events) == 0 || suspended < n || !bytes.Contains(one.decisions, []byte("rejected")) || !bytes.Contains(one.decisions, []byte(`"agent":"knight`)) {
		t.Fatal("too little to compare")
	}
	for _, workers := range []int{2, 4} {
		r := record(workers)
		if !bytes.Equal(r.decisions, one.decisions) {
			l := firstDifferentLine(r.decisions, one.decisions)
			t.Errorf("%d workers: the recording differs from one worker's at line %d:\n%s\none worker's:\n%s", workers, l, lineOf(r.decisions, l), lineOf(one.decisions, l))
		}
		if !bytes.Equal(r.events, one.events) {
			t.Errorf("%d workers: the events differ from one worker's at line %d", workers, firstDifferentLine(r.events, one.events))
		}
		if !slices.Equal(r.frames, one.frames) {
			t.Errorf("%d workers: the frames did %v, one worker's %v", workers, r.frames, one.frames)
		}
		for i := range r.answers {
			if r.answers[i] != one.answers[i] {
				t.Errorf("%d workers: %s; one worker's %s", workers, r.answers[i], one.answers[i])
				break
			}
		}
	}
}

// lineOf returns line l (from 1) of b.
func lineOf(b []byte, l int) string {
	lines := bytes.Split(b, []byte("\n"))
	if l < 1 || l > len(lines) {
		return ""
	}
	return string(lines[l-1])
}

// TestADroppedQueueEndsItsSuspendedCoroutines: a game that drops a queue,
// and its agents, while GOAP searches and HTN decompositions are
// suspended leaves no goroutine behind: each one's coroutine is abandoned
// by the queue's cleanup once the queue is collected.
func TestADroppedQueueEndsItsSuspendedCoroutines(t *testing.T) {
	const n = 40
	base := settledCount()
	func() {
		q := agent.NewQueue(1, 2*n)
		q.SetSlice(1)
		mages, _ := slicedMages(t, n, q, rand.New(rand.NewPCG(4, 4)), func(i int, cfg *agent.Config) {
			cfg.Limits = search.Limits{}
		})
		knights, _ := slicedKnights(t, n, q, rand.New(rand.NewPCG(4, 4)), func(i int, cfg *agent.Config) {
			cfg.Limits = search.Limits{}
		})
		for i := range mages {
			mages[i].Tick()
			knights[i].Tick()
		}
		q.Frame()
		if st := q.LastFrame(); st.Suspended != 2*n || runtime.NumGoroutine() < base+2*n {
			t.Fatalf("%+v, %d goroutines (%d before): want %d searches and decompositions suspended, each in its coroutine", st, runtime.NumGoroutine(), base, 2*n)
		}
	}()
	// The cleanup runs after a collection finds the queue unreachable, on
	// the runtime's cleanup goroutine.
	if now := settledCount(); now > base {
		t.Fatalf("%d goroutines after the queue was dropped, %d before it: the suspended searches' coroutines live on", now, base)
	}
}

// settledCount returns the number of goroutines once it has stopped
// falling (settledGoroutines, for this package's external tests): earlier
// tests' dropped queues end their helpers, and their searches'
// coroutines, only after a collection.
func settledCount() int { return goroutines.Settled(0) }

// tickAsking ticks the survivors once and returns those whose tick asked
// q for a chain, in order.
func tickAsking(q *agent.Queue, survivors []*agent.ResolverAgent) []*agent.ResolverAgent {
	var asked []*agent.ResolverAgent
	for _, a := range survivors {
		before := q.Len()
		a.Tick()
		if q.Len() > before {
			asked = append(asked, a)
		}
	}
	return asked
}

// firstOf returns the first of the agents, nil if there is none.
func firstOf(agents []*agent.ResolverAgent) *agent.ResolverAgent {
	if len(agents) == 0 {
		return nil
	}
	return agents[0]
}

// mageEndingAtOnce returns a battle mage planning through q whose search
// ends in its first slice of one state (its budget is one), with no
// plan: its delivery runs noPlan in the frame that takes it.
func mageEndingAtOnce(t *testing.T, q *agent.Queue, noPlan func()) *agent.Agent {
	t.Helper()
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	w := &toy{d: d, world: d.Initial(), duration: map[string]int{}, fail: map[string]bool{}, left: map[*agent.Agent]int{}}
	cfg := goapConfig(w, d, nil)
	cfg.Limits = search.Limits{Budget: 1}
	cfg.Queue = q
	cfg.OnEvent = func(e agent.Event) {
		if e.Kind == agent.NoPlanFound {
			noPlan()
		}
	}
	mage, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return mage
}

// replanEachFrame returns a frame in which a asks again, ticks and q
// runs a frame, and counters of the searches the frames ended and
// suspended.
func replanEachFrame(a interface {
	RequestReplan()
	Tick()
}, q *agent.Queue) (frame func(), ended, suspended *int) {
	ended, suspended = new(int), new(int)
	return func() {
		a.RequestReplan()
		a.Tick()
		q.Frame()
		*ended += q.LastFrame().Ended
		*suspended += q.LastFrame().Suspended
	}, ended, suspended
}
