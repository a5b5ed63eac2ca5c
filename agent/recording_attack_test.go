package agent_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/agent"
)

// craftedRecording is a header and n copies of line.
func craftedRecording(n int, line string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"format":"ploy-decisions","version":1,"decisions":%d,"dropped":0}`+"\n", n)
	for range n {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestAttackRecordingThatSwellsInMemoryIsRefused: a recording's bytes
// bound what reading it takes in memory. Lines of empty objects ({}, a
// 72-byte goal option for 3 bytes of JSON) or of bare decisions
// ({"agent":"a"}, a whole Decision for 14 bytes) would hold 20 to 90
// times the file in memory (a 1 GiB file, the most ploy replay reads:
// tens of GiB): they are refused, at the line where the memory held passes
// the bound, while a recording a recorder writes reads back.
func TestAttackRecordingThatSwellsInMemoryIsRefused(t *testing.T) {
	options := "[" + strings.Repeat("{},", 50_000) + "{}]"
	for _, tc := range []struct {
		name string
		src  []byte
	}{
		{"empty options", craftedRecording(20, `{"agent":"a","kind":"goap","options":`+options+`}`)},
		{"empty steps", craftedRecording(20, `{"agent":"a","kind":"goap","plan":`+options+`}`)},
		{"bare decisions", craftedRecording(100_000, `{"agent":"a"}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := agent.ReadRecording(bytes.NewReader(tc.src), "x.jsonl", 0)
			if err == nil {
				t.Fatalf("a %d-byte recording read whole", len(tc.src))
			}
			if !strings.HasPrefix(err.Error(), "x.jsonl:") || !strings.Contains(err.Error(), "memory") {
				t.Errorf("error %q: want it positioned, saying memory", err)
			}
		})
	}
}
