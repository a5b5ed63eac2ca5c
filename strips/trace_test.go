package strips

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/search"
)

// TestTraceRecordsWhatOnExpandStreams: a Trace holds every expansion
// OnExpand sees, in order, with the search's status, bound and cost; a
// reused Trace holds only the latest search's.
func TestTraceRecordsWhatOnExpandStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var tr Trace
	for i := range 20 {
		task := randomTask(rng, 12, 30)
		for _, h := range []Heuristic{Blind, LMCut, HMax} {
			var streamed []TraceExpansion
			opt := Options{Heuristic: h, Trace: &tr, OnExpand: func(e Expansion) {
				streamed = append(streamed, TraceExpansion{N: e.N, G: e.G, H: e.H, Op: e.Op, Reopened: e.Reopened})
			}}
			if i%3 == 0 {
				opt.Limits.Budget = 5
			}
			res, _ := Search(task, opt)
			what := fmt.Sprintf("task %d, %v", i, h)
			if len(tr.Expansions) != len(streamed) || int64(len(tr.Expansions)) != res.Expanded {
				t.Fatalf("%s: the trace holds %d expansions, OnExpand saw %d, the result counts %d", what, len(tr.Expansions), len(streamed), res.Expanded)
			}
			for j := range streamed {
				if tr.Expansions[j] != streamed[j] {
					t.Fatalf("%s: expansion %d traced %+v, streamed %+v", what, j, tr.Expansions[j], streamed[j])
				}
			}
			if tr.Status != res.Status || tr.Bound != res.Bound || tr.Cost != res.Cost || tr.Heuristic != h || tr.Task != task {
				t.Errorf("%s: trace says %v/%v cost %d by %v; the result %v/%v cost %d", what, tr.Status, tr.Bound, tr.Cost, tr.Heuristic, res.Status, res.Bound, res.Cost)
			}
		}
	}
}

// TestTraceCountsAgainstMemory: what a trace holds is part of the search's
// memory, in its Result and against its limit: a search whose limit leaves
// no room for the trace stops at the limit where the untraced one finds
// its plan.
func TestTraceCountsAgainstMemory(t *testing.T) {
	task := counterTask(10)
	plain, err := Search(task, Options{Heuristic: Blind})
	if err != nil || plain.Status != Found {
		t.Fatalf("untraced: %v %v", plain.Status, err)
	}
	var tr Trace
	traced, err := Search(task, Options{Heuristic: Blind, Trace: &tr})
	if err != nil || traced.Status != Found {
		t.Fatalf("traced: %v %v", traced.Status, err)
	}
	if want := plain.Bytes + tr.bytes(); traced.Bytes != want || tr.bytes() == 0 {
		t.Errorf("traced search holds %d bytes; untraced %d plus the trace's %d is %d", traced.Bytes, plain.Bytes, tr.bytes(), want)
	}
	tight, err := Search(task, Options{Heuristic: Blind, Trace: &Trace{}, Limits: search.Limits{MaxBytes: plain.Bytes}})
	if tight.Status != LimitReached || tight.Bound != search.Bytes || err == nil {
		t.Errorf("traced within the untraced search's bytes: %v/%v %v; want LimitReached by bytes", tight.Status, tight.Bound, err)
	}
	// Whatever the limit, a traced search never holds more than it, also
	// when the trace's array grows late in the search (a new Trace each
	// time, so that it grows as the search goes).
	for limit := plain.Bytes; limit <= traced.Bytes+4096; limit += 1024 {
		res, _ := Search(task, Options{Heuristic: Blind, Trace: &Trace{}, Limits: search.Limits{MaxBytes: limit}})
		if res.Bytes > limit {
			t.Fatalf("a traced search limited to %d bytes held %d (%v/%v)", limit, res.Bytes, res.Status, res.Bound)
		}
	}
}

// TestPortfolioRefusesTrace: a portfolio's two searches are not one
// sequence of expansions.
func TestPortfolioRefusesTrace(t *testing.T) {
	if _, err := Search(counterTask(3), Options{Heuristic: Portfolio, Trace: &Trace{}}); err == nil || !strings.Contains(err.Error(), "cannot be traced") {
		t.Errorf("a traced portfolio: %v", err)
	}
}

// TestTraceWriteText: one line per expansion, the start first, each named
// by the operator that reached it.
func TestTraceWriteText(t *testing.T) {
	var tr Trace
	task := counterTask(2)
	if _, err := Search(task, Options{Heuristic: Blind, Trace: &tr}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(tr.Expansions) || !strings.HasSuffix(lines[0], "the start") {
		t.Fatalf("WriteText:\n%s", b.String())
	}
	for i, x := range tr.Expansions[1:] {
		if want := "after " + task.Ops[x.Op].Name; !strings.HasSuffix(lines[i+1], want) {
			t.Errorf("line %d %q does not end %q", i+2, lines[i+1], want)
		}
	}
}
