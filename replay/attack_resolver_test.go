package replay_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/internal/testkit/camp"
	"github.com/ploy-ai/ploy/replay"
	"github.com/ploy-ai/ploy/search"
)

// TestAttackCampGamesReplayExactly: camps whose game, between ticks,
// wounds and heals its survivors (SetProfile to the other kind's profile
// and back), asks for resolves (RequestReplan), cancels waiting ones and
// turns the trace level on and off, some agents under small limits, with
// no queue and on 1 and 2 workers: every decision replays with no change
// against survivor.yaml, the file their kinds come from.
func TestAttackCampGamesReplayExactly(t *testing.T) {
	f := survivorFile(t, nil)
	for seed := range uint64(3) {
		for _, workers := range []int{0, 1, 2} {
			t.Run(fmt.Sprintf("seed%d/workers%d", seed, workers), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 9))
				o := camp.Options{Agents: 8, Ticks: 200, Workers: workers,
					Configure: func(i int, cfg *agent.ResolverConfig) {
						if i%3 == 0 {
							cfg.Limits = search.Limits{Budget: int64(2 + r.IntN(6)), MaxWork: int64(50 + r.IntN(400))}
						}
					},
					Between: func(tick int, crowd []*agent.ResolverAgent, q *agent.Queue) {
						for _, a := range crowd {
							switch r.IntN(20) {
							case 0:
								// The other kind's profile, compiled against the
								// camp's own domain (a profile is its domain's).
								kp := f.EngineAgents[r.IntN(len(f.EngineAgents))].Profile
								if kp == nil {
									a.SetProfile(nil) // the domain as built
									break
								}
								p, err := a.Domain().NewProfile(kp.Spec())
								if err != nil {
									t.Fatal(err)
								}
								a.SetProfile(p)
							case 1:
								a.RequestReplan()
							case 2:
								if q != nil {
									q.Cancel(a)
								}
							case 3:
								a.Agent().SetTraceDecisions(r.IntN(2) == 0)
							}
						}
					}}
				rec := recording(t, o)
				rep := replay.New(replay.FromFile(f)).Run(rec.Decisions, 10)
				if rep.Decisions < 100 {
					t.Errorf("%d decisions", rep.Decisions)
				}
				for _, c := range rep.Changes {
					t.Errorf("decision %d (tick %d, %s) came out otherwise (%v): recorded %+v, now %+v", c.Index, c.Tick, c.Agent, c.What, c.Before, c.After)
				}
				own := 0
				for _, d := range rec.Decisions {
					if d.OwnProfile {
						own++
					}
				}
				if own == 0 {
					t.Errorf("no decision made with a profile of the agent's own")
				}
			})
		}
	}
}
