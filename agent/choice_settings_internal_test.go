package agent

import "testing"

// TestGoalChoiceKeepsTheRecordingSettings: the recording's settings (the
// trace level, whether the sink is the game's) share a word with the goal
// choice's notes, which every choice writes: a choice, with a commitment
// or without, must leave them as they were set.
func TestGoalChoiceKeepsTheRecordingSettings(t *testing.T) {
	for _, committed := range []bool{false, true} {
		for _, c := range []struct {
			name  string
			sink  DecisionSink
			trace bool
		}{
			{"flight recorder", NewFlightRecorder(100, 1<<20), false},
			{"flight recorder, traced", NewFlightRecorder(100, 1<<20), true},
			{"game's sink", &gameSink{}, false},
			{"game's sink, traced", &gameSink{}, true},
		} {
			cfg := mageConfig(t)
			cfg.Decisions, cfg.TraceDecisions = c.sink, c.trace
			if committed {
				cfg.Commitment = &Commitment{Margin: 0.5}
			}
			a, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for range 5 {
				a.Tick()
			}
			if a.choiceNotes().notes()&notedWeighed == 0 {
				t.Fatalf("%s (commitment %v): no goal choice in 5 ticks; the test tests nothing", c.name, committed)
			}
			_, game := c.sink.(*gameSink)
			if got, want := a.recordsToGameCode(), game; got != want {
				t.Errorf("%s (commitment %v): recordsToGameCode() = %v after goal choices, want %v", c.name, committed, got, want)
			}
			if got := a.tracesDecisions(); got != c.trace {
				t.Errorf("%s (commitment %v): tracesDecisions() = %v after goal choices, want %v", c.name, committed, got, c.trace)
			}
		}
	}
}

// TestNotedTellsTheInstantiationsApart: the two instantiations of goal
// choice differ only by noted, their type argument's size: an edit that
// made the two types the same size would turn an agent's notes on or off
// for every agent, silently.
func TestNotedTellsTheInstantiationsApart(t *testing.T) {
	if !noted[noting]() || noted[notNoting]() {
		t.Fatalf("noted[noting]() = %v, noted[notNoting]() = %v; want true, false", noted[noting](), noted[notNoting]())
	}
}
