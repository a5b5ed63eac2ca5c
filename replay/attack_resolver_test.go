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

// TestSlicedCampGamesReplayExactly: camps on a queue whose searches span
// frames (a slice of 1 or 2 chains a frame), whose game cancels waiting
// requests (suspended searches among them), asks for resolves and turns
// tracing on and off, some agents under small limits: every decision
// replays with no change, the replay resolving each whole.
func TestSlicedCampGamesReplayExactly(t *testing.T) {
	f := survivorFile(t, nil)
	droppedSuspended := 0
	for seed := range uint64(2) {
		for _, workers := range []int{1, 2} {
			for _, slice := range []int{1, 2} {
				t.Run(fmt.Sprintf("seed%d/workers%d/slice%d", seed, workers, slice), func(t *testing.T) {
					r := rand.New(rand.NewPCG(seed, 26))
					suspended := 0
					o := camp.Options{Agents: 8, Ticks: 200, Workers: workers, Slice: slice,
						Configure: func(i int, cfg *agent.ResolverConfig) {
							if i%3 == 0 {
								cfg.Limits = search.Limits{Budget: int64(2 + r.IntN(6)), MaxWork: int64(50 + r.IntN(400))}
							}
						},
						Between: func(tick int, crowd []*agent.ResolverAgent, q *agent.Queue) {
							suspended += q.LastFrame().Suspended
							for _, a := range crowd {
								switch r.IntN(20) {
								case 0:
									a.RequestReplan()
								case 1:
									before, _ := q.Suspended()
									q.Cancel(a)
									if after, _ := q.Suspended(); after < before {
										droppedSuspended++
									}
								case 2:
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
					spanned := 0
					for _, d := range rec.Decisions {
						if d.Tick > d.Asked+1 {
							spanned++
						}
					}
					// The searches this test is about spanned frames (a
					// survivor's take about 5 expansions).
					t.Logf("%d searches suspended; %d decisions answered after more than a frame", suspended, spanned)
					if suspended < 10 || spanned < 5 {
						t.Errorf("%d searches suspended, %d decisions answered after more than a frame: too few to test", suspended, spanned)
					}
				})
			}
		}
	}
	if droppedSuspended == 0 {
		t.Errorf("no suspended search was cancelled")
	}
}
