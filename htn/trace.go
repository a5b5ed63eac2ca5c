package htn

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/ploy-ai/ploy/search"
)

// StepKind says what one trace entry records.
type StepKind uint8

const (
	// TakeTask: a task was taken off the list (a step). For a primitive,
	// Holds says whether its preconditions held and it was applied.
	TakeTask StepKind = iota
	// TestMethod: a method's condition was tested (a step), Holds its outcome.
	TestMethod
	// Backtrack: the choice of Method for Task was undone.
	Backtrack
)

func (k StepKind) String() string {
	switch k {
	case TakeTask:
		return "take"
	case TestMethod:
		return "test"
	case Backtrack:
		return "backtrack"
	}
	return "step(?)"
}

// TraceStep is one entry of a decomposition trace.
type TraceStep struct {
	Kind   StepKind
	Task   Task
	Method int32 // 0-based, for TestMethod and Backtrack
	Holds  bool
	Depth  int32 // method choices open at the time
}

// Trace records a decomposition step by step. Pass one in Options to fill
// it; it is reset by each decomposition and reuses its storage.
type Trace struct {
	Domain     *Domain
	Steps      []TraceStep
	Status     Status
	Bound      Bound // the limit that stopped it, when Status is LimitReached
	StepsTaken int   // alias of Result.Steps, for the record
	Backtracks int
}

func (t *Trace) reset(d *Domain) {
	t.Domain = d
	t.Steps = t.Steps[:0]
	t.Status, t.Bound = NoPlan, search.NoBound
	t.StepsTaken, t.Backtracks = 0, 0
}

func (t *Trace) add(s TraceStep) { t.Steps = append(t.Steps, s) }

// WriteText writes the trace, one entry per line, indented by depth and
// numbered by step as Result.Steps counts them.
func (t *Trace) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	d := t.Domain
	fmt.Fprintf(bw, "decomposition: %s, %d steps, %d backtracks\n", StatusName(t.Status, t.Bound), t.StepsTaken, t.Backtracks)
	step := 0
	for _, s := range t.Steps {
		indent := strings.Repeat("  ", int(s.Depth))
		switch s.Kind {
		case TakeTask:
			step++
			fmt.Fprintf(bw, "%3d %stake %s", step, indent, d.TaskName(s.Task))
			if s.Task.IsPrimitive() {
				if s.Holds {
					bw.WriteString(": applied")
				} else {
					bw.WriteString(": preconditions unmet, fails")
				}
			}
		case TestMethod:
			step++
			outcome := "fails"
			if s.Holds {
				outcome = "holds, chosen"
			}
			fmt.Fprintf(bw, "%3d %s  test %s method %d %s: %s", step, indent, d.TaskName(s.Task), s.Method+1, d.MethodName(s.Task, int(s.Method)), outcome)
		case Backtrack:
			fmt.Fprintf(bw, "    %sbacktrack out of %s method %d %s", indent, d.TaskName(s.Task), s.Method+1, d.MethodName(s.Task, int(s.Method)))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
