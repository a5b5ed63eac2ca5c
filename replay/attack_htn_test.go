package replay_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/replaycheck"
	"github.com/ploy-ai/ploy/replay"
	"github.com/ploy-ai/ploy/search"
)

// TestAttackHTNGamesReplayExactly: battle mages on the HTN, interrupting
// and replanning on break, some with small limits, their facts flipped
// under them, replanning on request and cancelled in a queue resolving
// one request a frame: every decomposition and every interruption, taken
// or refused, replays with no change.
func TestAttackHTNGamesReplayExactly(t *testing.T) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	h, err := htn.NewDomain(d, domains.BattleMageHTN())
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{0, 1, 2} {
		t.Run(fmt.Sprintf("workers%d", workers), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(workers), 5))
			var q *agent.Queue
			if workers > 0 {
				q = agent.NewQueue(workers, 1)
			}
			fr := agent.NewFlightRecorder(100_000, 256<<20)
			type mage struct {
				a     *agent.Agent
				world goap.State
				left  int
			}
			var mages []*mage
			for i := range 6 {
				m := &mage{world: d.Initial()}
				beh := map[string]agent.Behaviour{}
				for id := range d.NumActions() {
					act := goap.ActionID(id)
					beh[d.ActionName(act)] = agent.Funcs{
						StartFunc: func(*agent.Agent) { m.left = 1 + r.IntN(3) },
						TickFunc: func(*agent.Agent) agent.Status {
							if m.left--; m.left > 0 {
								return agent.Running
							}
							d.Apply(act, m.world)
							return agent.Success
						},
					}
				}
				cfg := agent.Config{Name: fmt.Sprintf("h%d", i), Domain: d, HTN: h, HTNMode: agent.HTNMode(i % 2), Behaviours: beh, Queue: q, Decisions: fr,
					Sensor: func(_ *agent.Agent, f goap.State) { f.CopyFrom(m.world) }, RetryAfter: 2}
				if i%3 == 2 {
					cfg.Limits = search.Limits{MaxSteps: int64(3 + r.IntN(10))}
				}
				if m.a, err = agent.New(cfg); err != nil {
					t.Fatal(err)
				}
				mages = append(mages, m)
			}
			for range 300 {
				for _, m := range mages {
					if r.IntN(5) == 0 {
						m.world.Set(goap.Fact(r.IntN(d.NumFacts())), r.IntN(2) == 0)
					}
					switch r.IntN(25) {
					case 0:
						m.a.RequestReplan()
					case 1:
						if q != nil {
							q.Cancel(m.a)
						}
					}
					m.a.Tick()
				}
				if q != nil {
					q.Frame()
				}
			}
			rep := replaycheck.Reproduces(t, fr, replay.Domain{GOAP: d, HTN: h}, 50)
			n := map[string]int{}
			for _, dd := range replaycheck.Reread(t, fr, agent.RecordHeader{}).Decisions {
				n[fmt.Sprintf("%s/%v/%s", dd.Decided, dd.Taken, dd.Status)]++
			}
			t.Logf("%d decisions: %v", rep.Decisions, n)
			if n["interruption/true/found"] == 0 || n["interruption/false/found"] == 0 {
				t.Errorf("interruptions taken and refused: %v", n)
			}
		})
	}
}
