package replay_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
	"github.com/ploy-ai/ploy/internal/testkit/replaycheck"
	"github.com/ploy-ai/ploy/replay"
	"github.com/ploy-ai/ploy/search"
)

// TestAttackRandomGamesReplayExactly: seeded random GOAP games with
// everything a game may do between ticks (its facts changed under the
// agents, RequestReplan, SetProfile, a queue's Cancel and Remove, goal
// options of one goal twice, When and Utility closures of the game's,
// ties, NaN and infinite scores, small search limits, the trace level
// turned on and off), with no queue and
// with a queue of 1 and 2 workers resolving fewer requests a frame than
// are asked: every recorded decision replays with no change.
func TestAttackRandomGamesReplayExactly(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := range uint64(seeds) {
		for _, workers := range []int{0, 1, 2} {
			t.Run(fmt.Sprintf("seed%d/workers%d", seed, workers), func(t *testing.T) {
				d, fr := randomGame(t, seed, workers)
				replaycheck.Reproduces(t, fr, replay.Domain{GOAP: d}, 20)
			})
		}
	}
}

func randomGame(t *testing.T, seed uint64, workers int) (*goap.Domain, *agent.FlightRecorder) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 22))
	d, err := goap.NewDomain(randdomain.Spec(r, randdomain.Config{Facts: 8, Actions: 14, MaxPre: 2, MaxEff: 3, MaxCost: 5, RuleProb: 0.4, Goals: 4, GoalFacts: 2}))
	if err != nil {
		t.Fatal(err)
	}
	var q *agent.Queue
	if workers > 0 {
		q = agent.NewQueue(workers, 2)
	}
	fr := agent.NewFlightRecorder(100_000, 256<<20)
	var profiles []*goap.Profile
	for range 3 {
		costs := map[string]goap.Cost{}
		var incapable []string
		for id := range d.NumActions() {
			switch r.IntN(4) {
			case 0:
				costs[d.ActionName(goap.ActionID(id))] = goap.Const(float64(1 + r.IntN(9)))
			case 1:
				if len(incapable) < 2 {
					incapable = append(incapable, d.ActionName(goap.ActionID(id)))
				}
			}
		}
		p, err := d.NewProfile(goap.ProfileSpec{Costs: costs, Incapable: incapable})
		if err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, p, nil)
	}
	type mind struct {
		a     *agent.Agent
		world goap.State
		left  int
		mood  []float64 // the game's inputs to its options' closures
	}
	var minds []*mind
	scores := []float64{1, 2, 2, 5, math.NaN(), math.Inf(1), -1}
	for i := range 8 {
		m := &mind{world: d.Initial(), mood: make([]float64, 6)}
		var goals []agent.GoalOption
		for j := range 2 + r.IntN(4) {
			o := agent.GoalOption{Goal: d.Goal(fmt.Sprintf("g%d", r.IntN(4))), Priority: float64(r.IntN(3))}
			switch r.IntN(3) {
			case 0:
				o.When = func(*agent.Agent) bool { return m.mood[j] > 0.3 }
			case 1:
				o.Utility = func(*agent.Agent) float64 { return scores[int(m.mood[j]*float64(len(scores)))%len(scores)] }
			}
			goals = append(goals, o)
		}
		beh := map[string]agent.Behaviour{}
		for id := range d.NumActions() {
			act := goap.ActionID(id)
			beh[d.ActionName(act)] = agent.Funcs{
				StartFunc: func(*agent.Agent) { m.left = 1 + r.IntN(3) },
				TickFunc: func(*agent.Agent) agent.Status {
					if m.left--; m.left > 0 {
						return agent.Running
					}
					if r.IntN(8) == 0 {
						return agent.Failure
					}
					d.Apply(act, m.world)
					return agent.Success
				},
			}
		}
		cfg := agent.Config{Name: fmt.Sprintf("m%d", i), Domain: d, Goals: goals, Behaviours: beh, Queue: q, Decisions: fr,
			Sensor:     func(_ *agent.Agent, f goap.State) { f.CopyFrom(m.world) },
			RetryAfter: 1 + r.IntN(3), Profile: profiles[r.IntN(len(profiles))]}
		if i%3 == 0 {
			cfg.Limits = search.Limits{MaxWork: int64(20 + r.IntN(200)), Budget: int64(2 + r.IntN(20))}
		}
		if i%4 == 1 {
			cfg.Policy = agent.Policy{Kind: agent.Proactive, Interval: 3}
		}
		m.a, err = agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		minds = append(minds, m)
	}
	for tick := 0; tick < 300; tick++ {
		for _, m := range minds {
			for j := range m.mood {
				if r.IntN(5) == 0 {
					m.mood[j] = r.Float64()
				}
			}
			if r.IntN(6) == 0 {
				m.world.Set(goap.Fact(r.IntN(d.NumFacts())), r.IntN(2) == 0)
			}
			switch r.IntN(30) {
			case 0:
				m.a.RequestReplan()
			case 1:
				m.a.SetProfile(profiles[r.IntN(len(profiles))])
			case 2:
				if q != nil {
					q.Cancel(m.a)
				}
			case 3, 4:
				m.a.SetTraceDecisions(r.IntN(2) == 0) // between frames, with requests waiting
			}
			m.a.Tick()
		}
		if q != nil {
			q.Frame()
		}
	}
	return d, fr
}
