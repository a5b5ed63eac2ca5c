package agent_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
)

// recordedOptions returns each decision's goal options, by the goal
// names and priorities its JSON gives them, from a FlightRecorder's
// recording.
func recordedOptions(t *testing.T, fr *agent.FlightRecorder) [][]agent.GoalScore {
	t.Helper()
	var b bytes.Buffer
	if err := fr.WriteJSONL(&b, agent.RecordHeader{}); err != nil {
		t.Fatal(err)
	}
	var out [][]agent.GoalScore
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n")[1:] {
		var d agent.Decision
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d.Options)
	}
	return out
}

// TestRecordsKeepTheGoalOptionsAsTheyWere: a game may retune a goal
// option's priority or swap its goal between ticks (the agent reads its
// options live). Each record shows the options as they were when it was
// made, in a FlightRecorder (which makes its GoalScores only when the
// recording is written) as in a game's own sink: a record made before
// the change keeps the old values, one made after shows the new.
func TestRecordsKeepTheGoalOptionsAsTheyWere(t *testing.T) {
	t.Run("goap priority", func(t *testing.T) {
		w, d, _ := newToy(t)
		cfg := goapConfig(w, d, nil)
		fr, kept := agent.NewFlightRecorder(100, 1<<20), &keptDecisions{}
		cfg.Decisions = fr
		goals := cfg.Goals // GetHealthy 10, Kill 5
		a, err := agent.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg2 := goapConfig(w, d, nil)
		cfg2.Decisions = kept
		goals2 := cfg2.Goals
		b, err := agent.New(cfg2)
		if err != nil {
			t.Fatal(err)
		}
		a.Tick()
		b.Tick()
		goals[1].Priority, goals2[1].Priority = 50, 50
		a.RequestReplan()
		b.RequestReplan()
		a.Tick()
		b.Tick()
		checkRetuned(t, recordedOptions(t, fr), "Kill", 5, 50)
		var fromSink [][]agent.GoalScore
		for _, d := range kept.d {
			fromSink = append(fromSink, d.Options)
		}
		checkRetuned(t, fromSink, "Kill", 5, 50)
	})
	t.Run("resolver goal swapped", func(t *testing.T) {
		c := newCamp(t)
		c.values["hunger"] = 80
		cfg := c.config(nil)
		fr := agent.NewFlightRecorder(100, 1<<20)
		cfg.Decisions = fr
		cfg.Goals = []agent.ResolverGoal{{Goal: c.d.Goal("Warm"), Priority: 1}}
		a := mustResolverAgent(t, cfg)
		a.Tick()
		cfg.Goals[0].Goal, cfg.Goals[0].Priority = c.d.Goal("Fed"), 3
		a.RequestReplan()
		a.Tick()
		recs := recordedOptions(t, fr)
		if len(recs) < 2 {
			t.Fatalf("%d records, want at least 2", len(recs))
		}
		first, last := recs[0], recs[len(recs)-1]
		if len(first) != 1 || first[0].Goal != "Warm" || first[0].Priority != 1 {
			t.Errorf("first record's options %+v, want Warm at priority 1", first)
		}
		if len(last) != 1 || last[0].Goal != "Fed" || last[0].Priority != 3 {
			t.Errorf("last record's options %+v, want Fed at priority 3", last)
		}
	})
}

// checkRetuned checks that the first record gives goal the priority
// before and the last the priority after.
func checkRetuned(t *testing.T, recs [][]agent.GoalScore, goal string, before, after float64) {
	t.Helper()
	if len(recs) < 2 {
		t.Fatalf("%d records, want at least 2", len(recs))
	}
	priority := func(opts []agent.GoalScore) float64 {
		for _, o := range opts {
			if o.Goal == goal {
				return o.Priority
			}
		}
		t.Fatalf("no option %s in %+v", goal, opts)
		return 0
	}
	if got := priority(recs[0]); got != before {
		t.Errorf("first record: %s's priority %v, want %v (as it was then)", goal, got, before)
	}
	if got := priority(recs[len(recs)-1]); got != after {
		t.Errorf("last record: %s's priority %v, want %v (as retuned)", goal, got, after)
	}
}

// TestFlightRecorderWritesWhatAGameSinkGets: a FlightRecorder keeps a
// resolver agent's records in a form of its own (the goal options as
// noted, the snapshot's targets as the search read them, found or not,
// the chain's actions without their steps' names and costs) and makes
// the Decision only when it writes the recording. Two like camps, one
// agent recording into a FlightRecorder and one into a game's sink, must
// give the same lines: plans with a target that is not found (an emptied
// wood pile), and a goal choice that leaves nothing to do, whose snapshot
// is the live one; with straight lines, with a profile's own costs, and
// with a distance model of the game's that answers differently every
// tick (a recorder that priced its steps when it writes, not when the
// record is made, would show the last tick's distances), and with an
// action priced by a cost function of the game's, which writing the
// recording must not call: the game's code runs on the game's goroutines.
func TestFlightRecorderWritesWhatAGameSinkGets(t *testing.T) {
	for _, setup := range []string{"straight lines", "a profile's costs", "a changing distance model", "a cost function"} {
		t.Run(setup, func(t *testing.T) {
			fr, kept := agent.NewFlightRecorder(100, 1<<20), &keptDecisions{}
			var camps [2]*camp
			var agents [2]*agent.ResolverAgent
			var models [2]*stretchedDistance
			calls := 0 // of the cost function
			for i, sink := range []agent.DecisionSink{fr, kept} {
				c := newCamp(t)
				c.piles["wood_north"].logs = 0 // not found
				if setup == "a cost function" {
					spec := domains.Survivor()
					for j := range spec.Actions {
						if spec.Actions[j].Name == "GatherWoodSouth" {
							spec.Actions[j].CostFunc = func(s *resolver.Snapshot) float64 {
								calls++
								return 1 + float64(s.Values[0])/8 + s.At.Y*s.At.Y
							}
						}
					}
					d, err := resolver.NewDomain(spec)
					if err != nil {
						t.Fatal(err)
					}
					c.d = d
				}
				cfg := c.config(nil)
				cfg.Decisions = sink
				switch setup {
				case "a profile's costs":
					p, err := c.d.NewProfile(resolver.ProfileSpec{Costs: map[string]float64{"GatherWoodSouth": 7.25, "LightFire": 0.5}})
					if err != nil {
						t.Fatal(err)
					}
					cfg.Profile = p
				case "a changing distance model":
					models[i] = &stretchedDistance{by: 1}
					cfg.Distance = models[i]
				}
				camps[i], agents[i] = c, mustResolverAgent(t, cfg)
			}
			for tick := range 40 {
				for i, a := range agents {
					if tick == 25 {
						// Warm and Fed both hold: no option applies.
						camps[i].values["warmth"], camps[i].values["hunger"] = 100, 0
					}
					if tick%7 == 0 {
						a.RequestReplan()
					}
					a.Tick()
					if models[i] != nil {
						models[i].by++
					}
				}
			}
			var b bytes.Buffer
			before := calls
			if err := fr.WriteJSONL(&b, agent.RecordHeader{}); err != nil {
				t.Fatal(err)
			}
			if calls != before {
				t.Errorf("writing the recording called the game's cost function %d times", calls-before)
			}
			lines := strings.Split(strings.TrimSpace(b.String()), "\n")[1:]
			if len(lines) != len(kept.d) {
				t.Fatalf("the recorder wrote %d decisions, the game's sink got %d", len(lines), len(kept.d))
			}
			noGoal, withTarget := false, false
			for i, line := range lines {
				want, err := json.Marshal(&kept.d[i])
				if err != nil {
					t.Fatal(err)
				}
				if line != string(want) {
					t.Errorf("decision %d:\nrecorder %s\ngame     %s", i, line, want)
				}
				// Both go through the same naming: what they show must also be
				// the camp's, the emptied pile missing and the fireplace there.
				targets := kept.d[i].Snapshot.TargetMap()
				if _, ok := targets["wood_north"]; ok {
					t.Errorf("decision %d shows the emptied wood_north among the targets found", i)
				}
				if at, ok := targets["fireplace"]; !ok || at != (resolver.Point{Y: 2}) {
					t.Errorf("decision %d shows the fireplace at %v (found %v), want (0, 2)", i, at, ok)
				}
				noGoal = noGoal || kept.d[i].Decided == "goal"
				for _, s := range kept.d[i].Plan {
					withTarget = withTarget || s.Action == "GatherWoodSouth"
				}
			}
			if len(lines) < 3 || !noGoal || !withTarget {
				t.Errorf("%d records, one of a choice with no goal: %v, a plan walking to wood_south: %v; the test tests less than it says", len(lines), noGoal, withTarget)
			}
		})
	}
}

// stretchedDistance is a game's distance model whose answers the game
// changes: straight lines, times by.
type stretchedDistance struct{ by float64 }

func (s *stretchedDistance) Distance(from, to resolver.Point) float64 {
	return s.by * math.Hypot(to.X-from.X, to.Y-from.Y)
}
