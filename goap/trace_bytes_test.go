package goap

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestTraceBytesCountWholeTrace checks what a traced search counts against
// its memory ceiling (Options.MaxBytes): the trace's size constants are
// the sizes of its types, Trace.bytes counts every slice at twice its
// length, and the room kept for the next expansion covers the largest
// expansion the search really made. An undercount here lets a traced
// search run past its ceiling; no plan changes, so no other test sees it.
func TestTraceBytesCountWholeTrace(t *testing.T) {
	if traceNodeBytes != int(unsafe.Sizeof(TraceNode{})) ||
		traceExpansionBytes != int(unsafe.Sizeof(TraceExpansion{})) ||
		traceEdgeBytes != int(unsafe.Sizeof(TraceEdge{})) {
		t.Fatalf("trace sizes %d, %d, %d; the types are %d, %d, %d bytes",
			traceNodeBytes, traceExpansionBytes, traceEdgeBytes,
			unsafe.Sizeof(TraceNode{}), unsafe.Sizeof(TraceExpansion{}), unsafe.Sizeof(TraceEdge{}))
	}

	// Six actions that always apply, over 130 facts (three words a state):
	// the start's expansion generates a node by every action, the largest
	// expansion there can be.
	spec := Spec{Name: "toggles", Initial: map[string]bool{}}
	for i := range 130 {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	all := map[string]bool{}
	for i := range 6 {
		f := fmt.Sprintf("f%d", 20*i)
		all[f] = true
		spec.Actions = append(spec.Actions, ActionSpec{Name: fmt.Sprintf("set%d", i), Effects: map[string]bool{f: true}, Cost: Const(1)})
	}
	spec.Goals = []GoalSpec{{Name: "All", Conditions: all}}
	d, err := NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	if d.words < 2 {
		t.Fatalf("the domain has %d words a state; the test wants several", d.words)
	}
	p := NewPlanner(d)
	for _, search := range []Search{Forward, Backward} {
		var tr Trace
		if _, err := p.Plan(nil, d.Initial(), d.Goal("All"), Options{Search: search, Heuristic: Blind, Trace: &tr}); err != nil {
			t.Fatal(err)
		}
		if len(tr.Nodes) == 0 || len(tr.words) == 0 || len(tr.Expansions) == 0 || len(tr.Edges) == 0 {
			t.Fatalf("%v: an empty part in the trace: %d nodes, %d words, %d expansions, %d edges", search, len(tr.Nodes), len(tr.words), len(tr.Expansions), len(tr.Edges))
		}
		want := 2 * (len(tr.Nodes)*int(unsafe.Sizeof(TraceNode{})) + len(tr.words)*8 +
			len(tr.Expansions)*int(unsafe.Sizeof(TraceExpansion{})) + len(tr.Edges)*int(unsafe.Sizeof(TraceEdge{})))
		if got := tr.bytes(); got != want {
			t.Errorf("%v: the trace counts %d bytes; twice what its %d nodes, %d words, %d expansions and %d edges hold is %d",
				search, got, len(tr.Nodes), len(tr.words), len(tr.Expansions), len(tr.Edges), want)
		}

		// The room the search keeps, as forward and backward ask for it.
		var m meter
		nActions, nCases := len(d.actions), len(d.base.cases)
		if search == Forward {
			m.traced(nActions, nActions, d.words)
		} else {
			m.traced(nActions+nCases, nCases, 2*d.words)
		}
		largest := 0
		for _, e := range tr.Expansions {
			grew := int(unsafe.Sizeof(TraceExpansion{})) + int(e.EndEdge-e.FirstEdge)*int(unsafe.Sizeof(TraceEdge{}))
			for _, edge := range tr.Edges[e.FirstEdge:e.EndEdge] {
				if edge.Node >= 0 {
					grew += int(unsafe.Sizeof(TraceNode{})) + 8*tr.width
				}
			}
			largest = max(largest, grew)
		}
		if m.worstBytes < 2*largest {
			t.Errorf("%v: the search keeps %d bytes for the trace's next expansion; its largest expansion added %d, counted twice %d",
				search, m.worstBytes, largest, 2*largest)
		}
	}
}

// TestTraceStateOfWideNodes: Trace.State of each node of a forward search
// over states of three words is its parent's state with its action
// applied.
func TestTraceStateOfWideNodes(t *testing.T) {
	spec := Spec{Name: "wide", Initial: map[string]bool{}}
	for i := range 150 {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	all := map[string]bool{}
	for i := range 4 {
		f := fmt.Sprintf("f%d", 40*i+3)
		all[f] = true
		spec.Actions = append(spec.Actions, ActionSpec{Name: fmt.Sprintf("set%d", i), Effects: map[string]bool{f: true}, Cost: Const(1)})
	}
	spec.Goals = []GoalSpec{{Name: "All", Conditions: all}}
	d, err := NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	var tr Trace
	if _, err := NewPlanner(d).Plan(nil, d.Initial(), d.Goal("All"), Options{Heuristic: Blind, Trace: &tr}); err != nil {
		t.Fatal(err)
	}
	if len(tr.Nodes) < 10 {
		t.Fatalf("%d nodes", len(tr.Nodes))
	}
	if !tr.State(0).Equal(d.Initial()) {
		t.Errorf("node 0 is %s, want the start", d.FormatState(tr.State(0)))
	}
	for i := 1; i < len(tr.Nodes); i++ {
		n := tr.Nodes[i]
		want := tr.State(n.Parent).Clone()
		d.Apply(n.Action, want)
		if got := tr.State(int32(i)); !got.Equal(want) {
			t.Fatalf("node %d is %s; its parent %d with %s applied is %s", i, d.FormatState(got), n.Parent, d.ActionName(n.Action), d.FormatState(want))
		}
	}
}
