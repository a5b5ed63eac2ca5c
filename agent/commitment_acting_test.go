package agent_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/goap"
)

// TestCommitmentActingIsFalseBetweenSteps: a goal choice made while the
// agent has a goal but no step under way (its plan done, the next goal
// chosen) records that the commitment was not applied to a running step.
func TestCommitmentActingIsFalseBetweenSteps(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 0.5})
			w.dur = 1 // each step succeeds on its first tick
			// Tick 1: A chosen, PrepA done; tick 2: DoA done, the plan
			// with it; tick 3: A holds, B is chosen with no step running.
			if n := w.switchTick("B", 10); n != 3 {
				t.Fatalf("B chosen after %d ticks, want 3", n)
			}
			d := w.sink.d[len(w.sink.d)-1]
			if d.Goal != "B" || d.Current != "A" {
				t.Fatalf("last record: goal %q, current %q; want B, A", d.Goal, d.Current)
			}
			if d.Commitment.Acting {
				t.Errorf("record of the choice made after A's plan was done: commitment %+v, want not Acting", d.Commitment)
			}
		})
	}
}

// TestCommitmentKeptIsRecordedOnEachHold: commitment holding the goal
// against a rival is recorded on the first tick of each run of such
// ticks: held, let go (the rival falls back), held again gives two
// records, not one.
func TestCommitmentKeptIsRecordedOnEachHold(t *testing.T) {
	for _, k := range commitKinds {
		t.Run(k.name, func(t *testing.T) {
			w := k.make(t, &agent.Commitment{Margin: 0.5})
			w.run(3)
			kept := func() int {
				n := 0
				for _, d := range w.sink.d {
					if d.Reason == agent.ReasonCommitment {
						n++
					}
				}
				return n
			}
			for i, score := range []float64{2.4, 1, 2.4} { // A scores 2: held, free, held
				w.score["B"] = score
				w.run(3)
				if g := w.goal(); g != "A" {
					t.Fatalf("phase %d: goal %q, want A kept", i, g)
				}
			}
			if n := kept(); n != 2 {
				t.Errorf("%d records of commitment keeping A over two runs of holds, want 2", n)
			}
		})
	}
}

// TestRecordingChoosesAsNotRecording: goal choice is compiled twice, with
// the notes of an agent that records its decisions and without
// (chooseGoal): both must choose alike. The same game, with scores, whens
// and facts changing at random, gives the same events tick for tick with
// and without a decision sink, without a commitment and with commitments
// of every rule.
func TestRecordingChoosesAsNotRecording(t *testing.T) {
	for _, k := range commitKinds {
		for _, c := range []*agent.Commitment{nil, {Margin: 0.5}, {MinTicks: 4}, {FinishAction: true}, {Margin: 0.3, MinTicks: 3, FinishAction: true, Exempt: []string{"Heal"}}} {
			play := func(record bool) string {
				w := newCommitWorld(t)
				if !record {
					w.sink = nil
				}
				switch k.name {
				case "goap":
					w.goapAgent(c)
				default:
					w.resolverAgent(c)
				}
				w.dur = 2
				r := rand.New(rand.NewPCG(3, 17))
				for range 600 {
					for _, g := range commitGoals {
						if r.IntN(4) == 0 {
							// Quarters: a rival within a margin of 0.5 is held.
							w.score[g] = float64(r.IntN(9)) / 4
						}
						if r.IntN(15) == 0 {
							w.off[g] = !w.off[g]
						}
					}
					if r.IntN(9) == 0 {
						clear(w.facts) // the world undoes the goals
					}
					w.tick()
				}
				if record && len(w.sink.d) < 50 {
					t.Fatalf("%s, commitment %+v: only %d decisions recorded", k.name, c, len(w.sink.d))
				}
				var sb strings.Builder
				w.rec.WriteJSONL(&sb)
				return sb.String()
			}
			without := play(false)
			if n := strings.Count(without, `"goal_chosen"`); n < 60 {
				t.Fatalf("%s, commitment %+v: only %d goal choices", k.name, c, n)
			}
			if with := play(true); with != without {
				t.Errorf("%s, commitment %+v: recording changes the game's events", k.name, c)
			}
		}
	}
}

// TestRecordingWaitsOutNoPlanAlike: an option that finds no plan (Z,
// which nothing makes true, the highest score) is passed over for
// RetryAfter ticks, with and without a decision sink alike: goal choice
// with notes must leave the option's wait (goalMemory.blockedUntil) as
// the one without notes does.
func TestRecordingWaitsOutNoPlanAlike(t *testing.T) {
	for _, c := range []*agent.Commitment{nil, {Margin: 0.5}} {
		play := func(record bool) string {
			spec := goap.Spec{Name: "z", Facts: []string{"a", "z"},
				Actions: []goap.ActionSpec{{Name: "DoA", Effects: map[string]bool{"a": true}, Cost: goap.Const(1)}},
				Goals:   []goap.GoalSpec{{Name: "A", Conditions: map[string]bool{"a": true}}, {Name: "Z", Conditions: map[string]bool{"z": true}}}}
			d, err := goap.NewDomain(spec)
			if err != nil {
				t.Fatal(err)
			}
			facts := map[string]bool{}
			var rec agent.Recorder
			score := map[string]float64{"A": 1, "Z": 2}
			cfg := agent.Config{Domain: d, RetryAfter: 5, Commitment: c, OnEvent: rec.Record,
				Behaviours: map[string]agent.Behaviour{"DoA": agent.Funcs{TickFunc: func(*agent.Agent) agent.Status { facts["a"] = true; return agent.Success }}},
				Sensor: func(_ *agent.Agent, s goap.State) {
					for f := range goap.Fact(d.NumFacts()) {
						s.Set(f, facts[d.FactName(f)])
					}
				}}
			for _, g := range []string{"A", "Z"} {
				cfg.Goals = append(cfg.Goals, agent.GoalOption{Goal: d.Goal(g), Utility: func(*agent.Agent) float64 { return score[g] }})
			}
			if record {
				cfg.Decisions = &keptDecisions{}
			}
			a, err := agent.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 2))
			for range 200 {
				if r.IntN(3) == 0 {
					clear(facts) // A undone
				}
				a.Tick()
			}
			var sb strings.Builder
			rec.WriteJSONL(&sb)
			return sb.String()
		}
		without := play(false)
		if n := strings.Count(without, "no plan"); n < 5 {
			t.Fatalf("commitment %+v: Z found no plan %d times; the test tests little", c, n)
		}
		if with := play(true); with != without {
			t.Errorf("commitment %+v: recording changes the game's events", c)
		}
	}
}
