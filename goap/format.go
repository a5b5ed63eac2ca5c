package goap

import (
	"bufio"
	"fmt"
	"io"

	"github.com/ploy-ai/ploy/internal/costfmt"
)

// WriteText writes the trace as text, one expansion per block: the state
// with g, h and f, then what each action did there.
func (t *Trace) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	d := t.Domain
	fmt.Fprintf(bw, "%s search for %s: %s", t.Search, t.GoalName, StatusName(t.Status, t.Bound))
	if t.Status == Found {
		fmt.Fprintf(bw, ", cost %s", formatCost(t.Cost))
	}
	fmt.Fprintf(bw, ", %d expanded, %d nodes\n", len(t.Expansions), len(t.Nodes))
	width := 0
	for a := 0; a < d.NumActions(); a++ {
		width = max(width, len(d.ActionName(ActionID(a))))
	}
	for i, x := range t.Expansions {
		n := t.Nodes[x.Node]
		fmt.Fprintf(bw, "%d. #%d %s g=%s h=%s f=%s", i+1, x.Node, t.FormatNode(x.Node), formatCost(n.G), formatCost(n.H), formatCost(n.F()))
		if n.Action != NoAction {
			fmt.Fprintf(bw, " via %s from #%d", d.ActionName(n.Action), n.Parent)
		}
		bw.WriteByte('\n')
		for _, e := range t.Edges[x.FirstEdge:x.EndEdge] {
			fmt.Fprintf(bw, "   %-*s ", width, d.ActionName(e.Action))
			if e.Reason == Generated {
				c := t.Nodes[e.Node]
				fmt.Fprintf(bw, "-> #%d g=%s h=%s f=%s\n", e.Node, formatCost(c.G), formatCost(c.H), formatCost(c.F()))
				continue
			}
			fmt.Fprintf(bw, "x %s\n", e.Reason)
		}
	}
	if t.Goal >= 0 {
		n := t.Nodes[t.Goal]
		fmt.Fprintf(bw, "goal: #%d %s g=%s\n", t.Goal, t.FormatNode(t.Goal), formatCost(n.G))
	}
	return bw.Flush()
}

// formatCost writes a cost as every text output of ploy does.
func formatCost(c float64) string { return costfmt.Cost(c) }
