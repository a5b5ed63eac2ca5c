package agent_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

const header = `{"format":"ploy-decisions","version":1,"domain":"toy","decisions":%d,"dropped":0}`

func rec(n int, lines ...string) string {
	return strings.Join(append([]string{strings.Replace(header, "%d", string(rune('0'+n)), 1)}, lines...), "\n") + "\n"
}

const aDecision = `{"tick":3,"asked":3,"agent":"ada","kind":"resolver","decided":"plan","reason":"start","goal":"Fed","snapshot":{"values":{"hunger":80},"at":{"X":0,"Y":0}},"plan":[{"action":"Eat","cost":1}],"cost":1,"status":"found","stats":{"expanded":1,"generated":1,"work":3,"peak_bytes":0,"depth":1}}`

// TestReadRecordingRefusesWhatIsNotOne: every way a file can fail to be
// a recording is an error naming the file and line, never a panic.
func TestReadRecordingRefusesWhatIsNotOne(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"empty", "", "rec.jsonl: empty"},
		{"not JSON", "hello\n", "rec.jsonl:1: not a decision recording's header"},
		{"another format", `{"format":"ploy-events","version":1,"decisions":0,"dropped":0}` + "\n", `rec.jsonl:1: format "ploy-events"`},
		{"a later version", `{"format":"ploy-decisions","version":2,"decisions":0,"dropped":0}` + "\n", "rec.jsonl:1: version 2; this ploy reads version 1"},
		{"negative count", `{"format":"ploy-decisions","version":1,"decisions":-1,"dropped":0}` + "\n", "must not be negative"},
		{"unknown field", rec(1, strings.Replace(aDecision, `"tick":3`, `"tick":3,"tock":4`, 1)), `rec.jsonl:2: not a decision: json: unknown field "tock"`},
		{"no agent", rec(1, strings.Replace(aDecision, `"agent":"ada"`, `"agent":""`, 1)), "rec.jsonl:2: a decision with no agent"},
		{"more than said", rec(1, aDecision, aDecision), "rec.jsonl:3: more decisions than the header's 1"},
		{"fewer than said", rec(2, aDecision), "the header says 2 decisions, the file has 1: cut short?"},
		{"two values on a line", rec(1, aDecision+" {}"), "rec.jsonl:2: not a decision: more than one JSON value"},
		{"a bad cost", rec(1, strings.Replace(aDecision, `"status"`, `"profile":{"costs":{"Eat":"cheap"}},"status"`, 1)), "rec.jsonl:2: not a decision"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := agent.ReadRecording(strings.NewReader(tc.file), "rec.jsonl", 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestReadRecordingIsBounded: a line past MaxRecordLine and a file past
// the byte bound are refused, without reading on; a file of exactly the
// bound is read.
func TestReadRecordingIsBounded(t *testing.T) {
	long := rec(1, `{"agent":"`+strings.Repeat("a", agent.MaxRecordLine)+`"}`)
	if _, err := agent.ReadRecording(strings.NewReader(long), "rec.jsonl", 0); err == nil || !strings.Contains(err.Error(), "rec.jsonl:2: a line longer than") {
		t.Fatalf("a long line: err = %v", err)
	}
	file := rec(1, aDecision)
	if got, err := agent.ReadRecording(strings.NewReader(file), "rec.jsonl", int64(len(file))); err != nil || len(got.Decisions) != 1 {
		t.Fatalf("a file of exactly the bound: %v", err)
	}
	endless := io.MultiReader(strings.NewReader(file), neverEnding{})
	if _, err := agent.ReadRecording(endless, "rec.jsonl", int64(len(file))); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("a file past the bound: err = %v", err)
	}
	// A bound that falls inside a line (the usual case: a file larger
	// than the bound) is said as the bound, not as the cut line being bad
	// JSON ("not a decision: unexpected EOF").
	two := rec(2, aDecision, aDecision)
	mid := int64(len(two) - len(aDecision)/2)
	if _, err := agent.ReadRecording(strings.NewReader(two), "rec.jsonl", mid); err == nil || err.Error() != fmt.Sprintf("rec.jsonl: longer than %d bytes", mid) {
		t.Fatalf("a file past the bound, the bound inside a line: err = %v", err)
	}
}

type neverEnding struct{}

func (neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestRecordingRoundTrips: what a FlightRecorder writes reads back to the
// same decisions, written again byte for byte.
func TestRecordingRoundTrips(t *testing.T) {
	fr := agent.NewFlightRecorder(1000, 1<<24)
	c := newCamp(t)
	c.values["hunger"] = 80
	cfg := c.config(nil)
	cfg.Decisions, cfg.TraceDecisions = fr, true
	tickResolver(mustResolverAgent(t, cfg), 40)
	var first bytes.Buffer
	if err := fr.WriteJSONL(&first, agent.RecordHeader{Domain: "toy"}); err != nil {
		t.Fatal(err)
	}
	got, err := agent.ReadRecording(bytes.NewReader(first.Bytes()), "rec.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Decisions) < 3 {
		t.Fatalf("%d decisions: the test covers less than it says", len(got.Decisions))
	}
	again := agent.NewFlightRecorder(1000, 1<<24)
	for i := range got.Decisions {
		again.RecordDecision(&got.Decisions[i])
	}
	var second bytes.Buffer
	if err := again.WriteJSONL(&second, agent.RecordHeader{Domain: "toy"}); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Fatalf("read back and written again, the recording differs:\n%s\n---\n%s", first.String(), second.String())
	}
}

// FuzzReadRecording: no input makes the reader panic or hang; what it
// accepts writes back as a recording it accepts again.
func FuzzReadRecording(f *testing.F) {
	f.Add([]byte(rec(1, aDecision)))
	f.Add([]byte(rec(0)))
	f.Add([]byte(rec(1, strings.Replace(aDecision, `"status"`, `"profile":{"capabilities":[],"costs":{"Eat":{"otherwise":2,"rules":[{"When":{"x":true},"Cost":1}]},"Hunt":"function"}},"status"`, 1))))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := agent.ReadRecording(bytes.NewReader(b), "fuzz.jsonl", 1<<20)
		if err != nil {
			return
		}
		fr := agent.NewFlightRecorder(max(1, len(got.Decisions)), 1<<30)
		for i := range got.Decisions {
			fr.RecordDecision(&got.Decisions[i])
		}
		var out bytes.Buffer
		if err := fr.WriteJSONL(&out, got.Header); err != nil {
			return // a value JSON cannot hold (NaN cost): refused, not a panic
		}
		if _, err := agent.ReadRecording(&out, "again.jsonl", 0); err != nil {
			t.Fatalf("written back, the recording is refused: %v\n%s", err, out.String())
		}
	})
}

// TestProfileNamesRoundTrip: a recorded profile's names survive JSON, a
// resolver agent that can do nothing ("capabilities": []) told from one
// that can do everything (no list).
func TestProfileNamesRoundTrip(t *testing.T) {
	for _, want := range []string{`{"capabilities":[]}`, `{}`, `{"capabilities":["Eat"],"costs":{"Eat":2}}`,
		`{"incapable":["Hunt"],"costs":{"Rest":{"otherwise":4,"rules":[{"When":{"tired":true},"Cost":1}]},"Think":"function"}}`} {
		var p agent.DecisionProfile
		if err := p.UnmarshalJSON([]byte(want)); err != nil {
			t.Fatal(err)
		}
		got, err := p.MarshalJSON()
		if err != nil || string(got) != want {
			t.Errorf("%s read and written: %s, %v", want, got, err)
		}
	}
}
