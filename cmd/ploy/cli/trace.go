package cli

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/report"
	"github.com/ploy-ai/ploy/search"
)

func runTrace(e *env, args []string) int {
	if isPDDL(args) {
		return runPDDL(e, "trace", args)
	}
	var sf searchFlags
	var format string
	var useHTN bool
	var maxSteps int
	fset := flagSet(e, "trace", "[FILE] --goal NAME [flags] | ploy trace --htn [FILE] [flags]",
		"Show a GOAP search expansion by expansion (each state with g, h and f, and\nwhat every action did there), or with --htn an HTN decomposition step by step.\nThe dot format draws the explored states for Graphviz, the plan's path in red.\nOn an engine-model file (keys:), show the resolve: each partial chain expanded,\nevery action considered in front of it and what became of it (conditions\nunmet, not capable, already in the chain, too deep, no target found, not\ncheaper, candidate), and the chain chosen; --set takes KEY=VALUE there, and\n--budget and --max-depth default to the resolver's.",
		`  ploy trace --goal Kill
  ploy trace --goal Kill --format dot | dot -Tsvg > search.svg
  ploy trace --goal GetHealthy --unset healthy --format json
  ploy trace --htn --unset spare_crystals
  ploy trace survivor --goal Warm --format json
`)
	sf.register(fset)
	var ef engineFlags
	ef.register(fset)
	fset.StringVar(&format, "format", "text", "output format: text, json or dot (dot is for GOAP searches)")
	fset.BoolVar(&useHTN, "htn", false, "trace the HTN decomposition of the root task instead of a GOAP search")
	fset.IntVar(&maxSteps, "max-steps", htn.DefaultMaxSteps, "with --htn: most decomposition steps")
	positional, st := parse(e, fset, args)
	if st >= 0 {
		return st
	}
	switch format {
	case "text", "json", "dot":
	default:
		return usageErr(e, fset, "--format must be text, json or dot, not %q", format)
	}
	if maxSteps < 1 || maxSteps > maxHTNSteps {
		return usageErr(e, fset, "--max-steps must be from 1 to %d, not %d", maxHTNSteps, maxSteps)
	}
	if useHTN && format == "dot" {
		return usageErr(e, fset, "--format dot draws GOAP searches; use text or json with --htn")
	}
	ep, st := parseEngineFlags(e, fset, ef, sf.set, sf.unset)
	if st >= 0 {
		return st
	}
	f, st := load(e, fset, positional)
	if st >= 0 {
		return st
	}
	if st := checkFlagsForKind(e, fset, f); st >= 0 {
		return st
	}
	if f.EngineModel() && !useHTN {
		if format == "dot" {
			return usageErr(e, fset, "--format dot draws GOAP searches; use text or json for an engine-model file")
		}
		pr, st := engineFromSearchFlags(e, fset, f, sf, ef, ep)
		if st >= 0 {
			return st
		}
		w := bufio.NewWriter(e.stdout)
		defer w.Flush()
		return traceEngine(e, w, pr, format)
	}
	// A trace can be large: write it through a buffer, a piece at a time,
	// never as one string.
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if useHTN {
		s, st := htnStart(e, fset, f, sf)
		if st >= 0 {
			return st
		}
		var tr htn.Trace
		var res htn.Result
		err := htn.NewPlanner(f.HTN).Plan(&res, s, htn.Options{Limits: search.Limits{MaxSteps: int64(maxSteps), MaxBytes: htnMaxBytes}, Trace: &tr})
		if format == "json" {
			report.WriteHTNTraceJSON(w, &tr, &res)
		} else {
			tr.WriteText(w)
		}
		if err != nil {
			// The trace says only step_limit: say where it stopped.
			fmt.Fprintf(e.stderr, "ploy trace: %s\n", htnLimitText(err, false))
		}
		if res.Status != htn.Found {
			return exitNoPlan
		}
		return exitOK
	}
	pr, st := sf.resolve(e, fset, f)
	if st >= 0 {
		return st
	}
	var tr goap.Trace
	pr.opt.Trace = &tr
	res, err := goap.NewPlanner(pr.d).Plan(nil, pr.start, pr.goal, pr.opt)
	if res.Status == goap.Unsupported {
		fmt.Fprintf(e.stderr, "ploy trace: %s\n", errorText(err))
		return exitInvalid
	}
	if st := checkCost(e, "trace", res); st >= 0 {
		return st
	}
	switch format {
	case "json":
		if err := report.CheckTraceCosts(&tr); err != nil {
			fmt.Fprintf(e.stderr, "ploy trace: %v\n", err)
			return exitInvalid
		}
		report.WriteTraceJSON(w, &tr)
	case "dot":
		writeTraceDOT(w, &tr)
	default:
		writeTraceText(w, &tr)
	}
	if res.Status != goap.Found {
		return exitNoPlan
	}
	return exitOK
}

// maxUnmetShown is how many unmet preconditions a trace line names; a
// generated domain's action can have thousands.
const maxUnmetShown = 5

// writeTraceText writes the trace as text, one expansion per block: the
// state with g, h and f, then what each action did there, naming the
// preconditions an action missed.
func writeTraceText(w *bufio.Writer, t *goap.Trace) {
	d := t.Domain
	fmt.Fprintf(w, "%s search for %s: %s", t.Search, t.GoalName, goap.StatusName(t.Status, t.Bound))
	if t.Status == goap.Found {
		fmt.Fprintf(w, ", cost %s", formatCost(t.Cost))
	}
	fmt.Fprintf(w, ", %d expanded, %d nodes\n", len(t.Expansions), len(t.Nodes))
	width := 0
	for a := 0; a < d.NumActions(); a++ {
		width = max(width, len(d.ActionName(goap.ActionID(a))))
	}
	// A trace has millions of edge lines: their action columns are made
	// once, and the numbers appended to one reused buffer.
	column := make([]string, d.NumActions())
	for a := range column {
		column[a] = fmt.Sprintf("   %-*s ", width, d.ActionName(goap.ActionID(a)))
	}
	var b []byte
	for i, x := range t.Expansions {
		n := t.Nodes[x.Node]
		fmt.Fprintf(w, "%d. #%d %s g=%s h=%s f=%s", i+1, x.Node, t.FormatNode(x.Node), formatCost(n.G), formatCost(n.H), formatCost(n.F()))
		if n.Action != goap.NoAction {
			fmt.Fprintf(w, " via %s from #%d", d.ActionName(n.Action), n.Parent)
		}
		w.WriteByte('\n')
		for _, edge := range t.Edges[x.FirstEdge:x.EndEdge] {
			b = append(b[:0], column[edge.Action]...)
			switch {
			case edge.Reason == goap.Generated:
				c := t.Nodes[edge.Node]
				b = strconv.AppendInt(append(b, "-> #"...), int64(edge.Node), 10)
				b = strconv.AppendFloat(append(b, " g="...), c.G, 'g', -1, 64)
				b = strconv.AppendFloat(append(b, " h="...), c.H, 'g', -1, 64)
				b = strconv.AppendFloat(append(b, " f="...), c.F(), 'g', -1, 64)
			case edge.Reason == goap.PreconditionsUnmet && t.Search == goap.Forward:
				b = append(append(b, "x "...), edge.Reason.String()...)
				b = appendUnmet(append(b, ": "...), d, edge.Action, t.State(x.Node))
			default:
				b = append(append(b, "x "...), edge.Reason.String()...)
			}
			w.Write(append(b, '\n'))
		}
	}
	if t.Goal >= 0 {
		n := t.Nodes[t.Goal]
		fmt.Fprintf(w, "goal: #%d %s g=%s\n", t.Goal, t.FormatNode(t.Goal), formatCost(n.G))
	}
}

// appendUnmet appends the preconditions of a that s does not meet, a fact
// required false marked !, as in "in_range, !in_cover".
func appendUnmet(b []byte, d *goap.Domain, a goap.ActionID, s goap.State) []byte {
	shown, missed := 0, 0
	for f, v := range d.Preconditions(a).Facts {
		if s.Has(f) == v {
			continue
		}
		missed++
		if shown == maxUnmetShown {
			continue
		}
		if shown > 0 {
			b = append(b, ", "...)
		}
		if !v {
			b = append(b, '!')
		}
		b = append(b, d.FactName(f)...)
		shown++
	}
	if more := missed - shown; more > 0 {
		b = strconv.AppendInt(append(b, ", and "...), int64(more), 10)
		b = append(b, " more"...)
	}
	return b
}

// writeTraceDOT draws every node the search made: expanded states solid,
// states left on the open list dashed, edges labelled by action, and the
// plan's path in red.
func writeTraceDOT(w *bufio.Writer, tr *goap.Trace) {
	d := tr.Domain
	onPath := make([]bool, len(tr.Nodes))
	for _, n := range tr.Path() {
		onPath[n] = true
	}
	expanded := make([]int32, len(tr.Nodes)) // 1-based expansion number, 0 if never expanded
	for i, x := range tr.Expansions {
		expanded[x.Node] = int32(i + 1)
	}
	fmt.Fprintf(w, "digraph %s {\n", dotLabel([]string{tr.Search.String() + " search for " + tr.GoalName}))
	fmt.Fprintln(w, "  rankdir=LR;")
	fmt.Fprintln(w, `  node [shape=box, fontname="Helvetica", fontsize=10];`)
	fmt.Fprintln(w, `  edge [fontname="Helvetica", fontsize=9];`)
	for i, n := range tr.Nodes {
		id := int32(i)
		lines := []string{fmt.Sprintf("#%d", id)}
		lines = append(lines, strings.Split(strings.Trim(tr.FormatNode(id), "{}"), ", ")...)
		lines = append(lines, fmt.Sprintf("g=%s h=%s f=%s", formatCost(n.G), formatCost(n.H), formatCost(n.F())))
		k := expanded[id]
		if k > 0 {
			lines = append(lines, fmt.Sprintf("expanded %d", k))
		}
		attrs := []string{"label=" + dotLabel(lines)}
		if k == 0 && id != tr.Goal {
			attrs = append(attrs, "style=dashed")
		}
		if onPath[id] {
			attrs = append(attrs, "color=red", "penwidth=2")
		}
		if id == tr.Goal {
			attrs = append(attrs, "peripheries=2")
		}
		fmt.Fprintf(w, "  n%d [%s];\n", id, strings.Join(attrs, ", "))
	}
	for i, n := range tr.Nodes {
		if n.Parent < 0 {
			continue
		}
		attrs := []string{"label=" + dotLabel([]string{d.ActionName(n.Action)})}
		if onPath[i] && onPath[n.Parent] {
			attrs = append(attrs, "color=red", "penwidth=2")
		}
		fmt.Fprintf(w, "  n%d -> n%d [%s];\n", n.Parent, i, strings.Join(attrs, ", "))
	}
	fmt.Fprintln(w, "}")
}

var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// dotLabel quotes lines as one Graphviz string, a line per \n escape.
func dotLabel(lines []string) string {
	for i, l := range lines {
		lines[i] = dotEscaper.Replace(l)
	}
	return `"` + strings.Join(lines, `\n`) + `"`
}
