package agent

import "testing"

// gameSink is a decision sink of the game's: its code runs on delivery.
type gameSink struct{ n int }

func (s *gameSink) RecordDecision(*Decision) { s.n++ }

// TestNoteReachTellsTheGamesSinkFromAFlightRecorder: a request's reach
// says what delivering it touches: an agent with no sink only itself, one
// recording into a FlightRecorder a recorder other agents share (worker 0
// delivers it in order), one recording into a sink of the game's the
// game's code (delivered once every worker is done).
func TestNoteReachTellsTheGamesSinkFromAFlightRecorder(t *testing.T) {
	for _, c := range []struct {
		name string
		sink DecisionSink
		want uint32
	}{
		{"none", nil, chunkPrivate},
		{"flight recorder", NewFlightRecorder(10, 1<<20), chunkOrdered},
		{"game's sink", &gameSink{}, chunkGameCode},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := mageConfig(t)
			cfg.Decisions = c.sink
			a, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var r request
			a.noteReach(&r)
			if uint32(r.reach) != c.want {
				t.Errorf("reach %d, want %d", r.reach, c.want)
			}
			if got, want := a.recordsToGameCode(), c.want == chunkGameCode; got != want {
				t.Errorf("recordsToGameCode() = %v, want %v", got, want)
			}
		})
	}
}
