package agent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// crowd makes n agents in n toy worlds, all planning through q.
func crowd(t testing.TB, n int, q *agent.Queue, rec *agent.Recorder) ([]*agent.Agent, []*toy) {
	var agents []*agent.Agent
	var worlds []*toy
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		w := &toy{d: d, world: d.Initial(), duration: map[string]int{}, fail: map[string]bool{}, left: map[*agent.Agent]int{}}
		if i%3 == 0 {
			w.set("spare_crystals", false)
		}
		cfg := goapConfig(w, d, rec)
		if rec == nil {
			cfg.OnEvent = nil
		}
		cfg.Name = "mage" + string(rune('A'+i%26)) + string(rune('a'+i/26))
		cfg.Queue = q
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		agents = append(agents, a)
		worlds = append(worlds, w)
	}
	return agents, worlds
}

func TestQueueBoundsEachFrame(t *testing.T) {
	q := agent.NewQueue(2, 3)
	agents, worlds := crowd(t, 10, q, &agent.Recorder{})
	for _, a := range agents {
		a.Tick()
	}
	if q.Len() != 10 {
		t.Fatalf("%d requests waiting, want 10", q.Len())
	}
	for frame, want := range []int{3, 3, 3, 1, 0} {
		if got := q.Frame(); got != want {
			t.Fatalf("frame %d resolved %d, want %d", frame, got, want)
		}
	}
	for i, a := range agents {
		if a.Plan() == nil {
			t.Errorf("agent %d has no plan after the queue drained", i)
		}
	}
	// Run the fights to the end through the queue.
	for range 60 {
		for _, a := range agents {
			a.Tick()
		}
		q.Frame()
	}
	for i, w := range worlds {
		if !w.world.Has(mustFact(w.d, "enemy_dead")) {
			t.Errorf("agent %d never won", i)
		}
	}
}

// TestQueueIsDeterministic runs the same crowd twice, with workers racing,
// and compares the event logs byte for byte. Run it with -race.
func TestQueueIsDeterministic(t *testing.T) {
	log := func() string {
		var rec agent.Recorder
		q := agent.NewQueue(4, 5)
		agents, worlds := crowd(t, 12, q, &rec)
		for tick := 0; tick < 40; tick++ {
			if tick == 7 {
				worlds[4].set("healthy", false)
			}
			for _, a := range agents {
				a.Tick()
			}
			q.Frame()
		}
		var sb strings.Builder
		rec.WriteJSONL(&sb)
		return sb.String()
	}
	first := log()
	for i := 0; i < 5; i++ {
		if log() != first {
			t.Fatalf("run %d differs", i)
		}
	}
}

// BenchmarkQueueBattleMageReplans resolves a frame of battle-mage replans
// (Kill, a third of them with the crystals gone) on two workers, and reports
// how many agents can replan within one 16 ms frame at that rate.
func BenchmarkQueueBattleMageReplans(b *testing.B) {
	const n = 512
	q := agent.NewQueue(2, n)
	agents, _ := crowd(b, n, q, nil)
	resolved := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		for _, a := range agents {
			a.RequestReplan()
			a.Tick()
		}
		b.StartTimer()
		resolved += q.Frame()
	}
	perPlan := b.Elapsed() / time.Duration(resolved)
	b.ReportMetric(float64(16*time.Millisecond)/float64(perPlan), "agents/16ms-frame")
}

// TestQueueResolvesHTNAgents runs interrupting HTN agents through the
// queue: their decompositions and interruption checks are resolved on
// workers, and every mage still wins and heals.
func TestQueueResolvesHTNAgents(t *testing.T) {
	q := agent.NewQueue(2, 4)
	var agents []*agent.Agent
	var worlds []*toy
	for i := 0; i < 6; i++ {
		w, d, h := newToy(t)
		for _, name := range []string{"Approach", "TakeCover", "Recharge", "CastBolt"} {
			w.duration[name] = 2
		}
		a, err := agent.New(agent.Config{Name: "htn", Domain: d, HTN: h, HTNMode: agent.Interrupt, Behaviours: w.behaviours(), Sensor: w.sensor, Queue: q})
		if err != nil {
			t.Fatal(err)
		}
		agents, worlds = append(agents, a), append(worlds, w)
	}
	for tick := 0; tick < 80; tick++ {
		if tick == 5 {
			for _, w := range worlds {
				w.set("healthy", false)
			}
		}
		for _, a := range agents {
			a.Tick()
		}
		q.Frame()
	}
	for i, w := range worlds {
		if !w.world.Has(mustFact(w.d, "enemy_dead")) || !w.world.Has(mustFact(w.d, "healthy")) {
			t.Errorf("agent %d: %s", i, w.d.FormatState(w.world))
		}
		if s := agents[i].Stats(); s.Interruptions == 0 || s.TopLevelChanges == 0 {
			t.Errorf("agent %d was never interrupted: %+v", i, s)
		}
	}
}
