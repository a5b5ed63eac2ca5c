package strips

import (
	"bufio"
	"fmt"
	"io"
	"unsafe"
)

// Trace records a search's expansions, in order, when it is
// Options.Trace: the hook goap, htn and the resolver take as theirs. Set
// it, search, then read it or write it with WriteText. The expansions it
// holds count against the search's memory limit (Result.Bytes includes
// them), so a traced search stops at its limit as an untraced one does,
// sooner by what the trace holds. A Portfolio search cannot be traced: its
// two searches are not one sequence of expansions.
//
// A Trace is reused from search to search: a search clears it first and
// keeps its memory.
type Trace struct {
	Task      *Task
	Heuristic Heuristic
	// Status, Bound and Cost are the search's, as its Result has them.
	Status Status
	Bound  Bound
	Cost   int64
	// Expansions are the states expanded, in order.
	Expansions []TraceExpansion
}

// TraceExpansion is one expanded state, as Options.OnExpand sees it
// without the state itself (a trace of a million expansions would hold a
// million states).
type TraceExpansion struct {
	N    int64 // 1 for the first state expanded
	G, H int64
	// Op is the operator that reached the state on its cheapest known
	// path, -1 for the start; Reopened says it was expanded before, at a
	// greater g.
	Op       int32
	Reopened bool
}

// traceExpansionBytes is what one recorded expansion holds, as the memory
// limit counts it.
const traceExpansionBytes = int64(unsafe.Sizeof(TraceExpansion{}))

func (t *Trace) reset(task *Task, h Heuristic) {
	*t = Trace{Task: task, Heuristic: h, Status: NoPlan, Expansions: t.Expansions[:0]}
}

// bytes is the memory the trace holds, as the limit counts it.
func (t *Trace) bytes() int64 { return int64(cap(t.Expansions)) * traceExpansionBytes }

// growth is what recording one more expansion adds to the trace's memory:
// the next array when the current one is full, nothing otherwise.
func (t *Trace) growth() int64 {
	if len(t.Expansions) < cap(t.Expansions) {
		return 0
	}
	return int64(max(2*cap(t.Expansions), 64)) * traceExpansionBytes
}

func (t *Trace) add(e TraceExpansion) {
	if len(t.Expansions) == cap(t.Expansions) {
		grown := make([]TraceExpansion, len(t.Expansions), max(2*cap(t.Expansions), 64))
		copy(grown, t.Expansions)
		t.Expansions = grown
	}
	t.Expansions = append(t.Expansions, e)
}

// WriteText writes one line per expansion, as `ploy pddl trace` prints
// them: its number, g, h and f, and the operator that reached it.
func (t *Trace) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, x := range t.Expansions {
		via := "the start"
		if x.Op >= 0 && t.Task != nil && int(x.Op) < len(t.Task.Ops) {
			via = "after " + t.Task.Ops[x.Op].Name
		}
		again := ""
		if x.Reopened {
			again = " (reopened)"
		}
		fmt.Fprintf(bw, "%6d  g %d  h %d  f %d  %s%s\n", x.N, x.G, x.H, x.G+x.H, via, again)
	}
	return bw.Flush()
}
