package cli

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/resolver"
)

func runGraph(e *env, args []string) int {
	var format string
	fset := flagSet(e, "graph", "[FILE] [flags]",
		"Print the action graph of an engine-model file (keys:): for each condition of\neach goal and action, the actions whose effects serve it (a wish for more by an\nincrease, for less by a decrease, a boolean by setting it). The resolver\nchains over this graph; it is computed once, when the file is loaded. A\ncondition nothing serves can only be met by the world. Without FILE, the\nembedded survivor.yaml.",
		`  ploy graph
  ploy graph shopkeeper --format dot | dot -Tsvg > shop.svg
  ploy graph mydomain.yaml --format json
`)
	fset.StringVar(&format, "format", "text", "text, dot (Graphviz) or json")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	if format != "text" && format != "dot" && format != "json" {
		return usageErr(e, fset, "--format must be text, dot or json, not %q", format)
	}
	if len(positional) == 0 {
		positional = []string{defaultEngineFile}
	}
	f, st := load(e, fset, positional)
	if st >= 0 {
		return st
	}
	if !f.EngineModel() {
		return usageErr(e, fset, "%s is a state-space file (facts:): ploy graph shows an engine-model file's (keys:) action graph; ploy trace shows a state-space search", f.Path)
	}
	d := f.Resolver
	if format == "json" && e.out != nil {
		// A cut JSON document is of no use: a graph past the bound is
		// refused whole, its size counted before a byte is written.
		if size := report.GraphJSONSize(d); size > e.out.max {
			fmt.Fprintf(e.stderr, "ploy graph: the action graph of %s has %d edges, %d bytes of JSON, more than --max-output (%d): give conditions fewer actions to serve them, split the domain, or raise --max-output\n",
				f.Path, report.GraphEdges(d), size, e.out.max)
			return exitInvalid
		}
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	switch format {
	case "dot":
		writeGraphDot(w, d)
	case "json":
		// json.Encoder's bytes, written a piece at a time
		if err := report.WriteGraphJSON(w, d); err != nil && err != errOutputCut {
			fmt.Fprintf(e.stderr, "%s: %v\n", f.Path, err)
			return exitInvalid
		}
	default:
		writeGraphText(w, d)
	}
	return exitOK
}

func writeGraphText(w *bufio.Writer, d *resolver.Domain) {
	fmt.Fprintf(w, "%s: %d actions, %d goals, %d edges\n", d.Name(), d.NumActions(), len(d.Goals()), len(d.Edges()))
	servers := func(as []resolver.ActionID) string {
		if len(as) == 0 {
			return "nothing: only the world can meet it"
		}
		return strings.Join(chainNames(d, as), ", ")
	}
	for _, g := range d.Goals() {
		if _, err := fmt.Fprintf(w, "goal %s\n", g.Name()); err != nil {
			return // the output is cut: nothing more is written
		}
		for i, c := range g.Conditions() {
			fmt.Fprintf(w, "  %s <- %s\n", c, servers(g.Servers(i)))
		}
	}
	for a := range resolver.ActionID(d.NumActions()) {
		if _, err := fmt.Fprintf(w, "action %s", d.ActionName(a)); err != nil {
			return
		}
		if t := d.ActionTarget(a); t != resolver.NoTarget {
			fmt.Fprintf(w, " (at %s)", d.Targets()[t])
		}
		w.WriteByte('\n')
		conds := d.Conditions(a)
		if len(conds) == 0 {
			fmt.Fprintf(w, "  no conditions: it can always be the head\n")
		}
		for i, c := range conds {
			fmt.Fprintf(w, "  %s <- %s\n", c, servers(d.Servers(a, i)))
		}
	}
	if n := d.ServesNothing(); len(n) > 0 {
		fmt.Fprintf(w, "serving nothing: %s\n", strings.Join(chainNames(d, n), ", "))
	}
}

// writeGraphDot writes the graph for Graphviz: an edge from each serving
// action to the goal or action it serves, labelled with the condition.
// Nodes are named by index (g0, a0) and labelled with their names: goals
// and actions are named apart, and an action may be called "goal Warm".
func writeGraphDot(w *bufio.Writer, d *resolver.Domain) {
	fmt.Fprintf(w, "digraph %s {\n  rankdir=RL;\n", strconv.Quote(d.Name()))
	for i, g := range d.Goals() {
		fmt.Fprintf(w, "  g%d [label=%s, shape=box, style=bold];\n", i, strconv.Quote("goal "+g.Name()))
	}
	for a := range resolver.ActionID(d.NumActions()) {
		fmt.Fprintf(w, "  a%d [label=%s];\n", a, strconv.Quote(d.ActionName(a)))
	}
	for _, e := range d.Edges() {
		to := fmt.Sprintf("a%d", e.To)
		if e.To == resolver.NoAction {
			to = fmt.Sprintf("g%d", e.Goal)
		}
		if _, err := fmt.Fprintf(w, "  a%d -> %s [label=%s];\n", e.From, to, strconv.Quote(report.EdgeCondition(d, e).String())); err != nil {
			return
		}
	}
	w.WriteString("}\n")
}
