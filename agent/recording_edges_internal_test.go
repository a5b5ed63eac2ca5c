package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// TestAnAgentWithOneGoalOptionRecordsIt: an agent with a single goal
// option records it, chosen, whatever its sink: a game's sink gets the
// GoalScores made at once, a FlightRecorder writes them from the notes
// its slot keeps. One option is the edge of both paths (a list of one
// note is not an empty one, and the chosen index 0 is an option's).
func TestAnAgentWithOneGoalOptionRecordsIt(t *testing.T) {
	want := GoalScore{Goal: "Kill", Priority: 1, Score: 1, Chosen: true, Why: "highest score"}
	check := func(t *testing.T, options []GoalScore) {
		t.Helper()
		if len(options) != 1 || options[0] != want {
			t.Errorf("the first record's options: %+v; want [%+v]", options, want)
		}
	}

	t.Run("game sink", func(t *testing.T) {
		var first []GoalScore
		recorded := false
		cfg := mageConfig(t)
		cfg.Decisions = sinkFunc(func(d *Decision) {
			if !recorded {
				first, recorded = append([]GoalScore(nil), d.Options...), true
			}
		})
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a.Tick()
		if !recorded {
			t.Fatal("no decision recorded on the first tick")
		}
		check(t, first)
	})

	t.Run("flight recorder", func(t *testing.T) {
		f := NewFlightRecorder(100, 1<<20)
		cfg := mageConfig(t)
		cfg.Decisions = f
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a.Tick()
		var b bytes.Buffer
		if err := f.WriteJSONL(&b, RecordHeader{}); err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(&b)
		s.Buffer(nil, 1<<20)
		s.Scan() // the header
		if !s.Scan() {
			t.Fatal("no decision written after the first tick")
		}
		var d struct {
			Options []GoalScore `json:"options"`
		}
		if err := json.Unmarshal(s.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		check(t, d.Options)
	})
}

// TestWriteJSONLReportsARecordItCannotEncode: a game may hand a
// FlightRecorder a decision of its own, and one holding a number JSON
// cannot write (a NaN cost) makes WriteJSONL fail, not skip the record
// and carry on as if the recording were whole.
func TestWriteJSONLReportsARecordItCannotEncode(t *testing.T) {
	f := NewFlightRecorder(10, 1<<20)
	f.RecordDecision(&Decision{Tick: 1, Cost: math.NaN()})
	f.RecordDecision(&Decision{Tick: 2})
	var b bytes.Buffer
	if err := f.WriteJSONL(&b, RecordHeader{}); err == nil {
		t.Errorf("WriteJSONL of a record with a NaN cost: no error; wrote %q", b.String())
	}
}
