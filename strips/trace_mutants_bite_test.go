package strips

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/search"
)

// Tests for the mutants of the Trace and its memory check that lived in
// the issue-21 mutation sample (docs/testing.md).

// TestTraceGrowthIsWhatRecordingAdds: growth() is the array that
// recording one more expansion makes, 0 when the current one has room:
// after the recording the trace holds exactly that array (the check before
// an expansion counts it beside the old one, live while it is copied), at
// every size the trace's array goes through.
func TestTraceGrowthIsWhatRecordingAdds(t *testing.T) {
	var tr Trace
	for i := range 1000 {
		before, grows := tr.bytes(), tr.growth()
		tr.add(TraceExpansion{N: int64(i + 1)})
		want := before
		if grows > 0 {
			want = grows
		}
		if got := tr.bytes(); got != want {
			t.Fatalf("expansion %d (capacity now %d): held %d, growth said %d, recording holds %d", i+1, cap(tr.Expansions), before, grows, got)
		}
	}
}

// TestTracedSearchStopsOnlyPastItsLimit: a traced search refuses an
// expansion only when recording it would take the search past its limit.
// On this task the trace is what decides whether the 129th expansion
// happens (its array, full at 128, must double; the rest of the search
// has room): the smallest limit that lets it happen is what the search
// held when it stopped one byte short, plus the next array, no more.
func TestTracedSearchStopsOnlyPastItsLimit(t *testing.T) {
	task := counterTask(9) // 511 expansions before the goal, blind
	const k = 128
	run := func(limit int64) (Result, *Trace) {
		tr := &Trace{}
		res, _ := Search(task, Options{Heuristic: Blind, Trace: tr, Limits: search.Limits{MaxBytes: limit}})
		return res, tr
	}
	lo, hi := int64(1), int64(64<<20)
	if res, _ := run(hi); res.Status != Found {
		t.Fatalf("within %d bytes: %v/%v", hi, res.Status, res.Bound)
	}
	for lo < hi { // the smallest limit past k expansions
		mid := lo + (hi-lo)/2
		if res, _ := run(mid); res.Expanded > k {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	short, tr := run(lo - 1)
	if short.Status != LimitReached || short.Bound != search.Bytes || short.Expanded != k || cap(tr.Expansions) != k {
		t.Fatalf("limit %d: %v/%v after %d expansions, the trace's array of %d; want the memory limit at %d, the array full",
			lo-1, short.Status, short.Bound, short.Expanded, cap(tr.Expansions), k)
	}
	if next := tr.growth(); lo != short.Bytes+next {
		t.Errorf("expansion %d needs a limit of %d; the search held %d and the trace's next array takes %d, so %d should do",
			k+1, lo, short.Bytes, next, short.Bytes+next)
	}
	if at, _ := run(lo); at.Bytes > lo {
		t.Errorf("limit %d: the traced search held %d", lo, at.Bytes)
	}
}

// TestTraceWriteTextFields: each line gives the expansion's number, g, h
// and f = g + h (LM-cut, so that h is not 0).
func TestTraceWriteTextFields(t *testing.T) {
	var tr Trace
	if _, err := Search(counterTask(4), Options{Heuristic: LMCut, Trace: &tr}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(tr.Expansions) {
		t.Fatalf("%d lines for %d expansions:\n%s", len(lines), len(tr.Expansions), b.String())
	}
	sawH := false
	for i, x := range tr.Expansions {
		var n, g, h, f int64
		if _, err := fmt.Sscanf(lines[i], "%d g %d h %d f %d", &n, &g, &h, &f); err != nil {
			t.Fatalf("line %d %q: %v", i+1, lines[i], err)
		}
		if n != x.N || g != x.G || h != x.H || f != x.G+x.H {
			t.Errorf("line %d %q; want n %d, g %d, h %d, f %d", i+1, lines[i], x.N, x.G, x.H, x.G+x.H)
		}
		sawH = sawH || x.H > 0
	}
	if !sawH {
		t.Fatal("no expansion has h > 0: the test cannot tell f = g+h from g-h")
	}
}

// TestTraceWriteTextOperatorOutOfRange: a Trace is plain data a caller may
// build or keep past its task; an operator index the task does not have
// is written as no operator, never read past the task's list.
func TestTraceWriteTextOperatorOutOfRange(t *testing.T) {
	task := counterTask(2)
	tr := Trace{Task: task, Expansions: []TraceExpansion{{N: 1, Op: int32(len(task.Ops))}, {N: 2, Op: 0}}}
	var b bytes.Buffer
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 2 || strings.Contains(lines[0], "after") || !strings.HasSuffix(lines[1], "after "+task.Ops[0].Name) {
		t.Errorf("WriteText:\n%s", b.String())
	}
}
