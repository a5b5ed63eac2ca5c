package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

func runTrace(e *env, args []string) int {
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
		htn.NewPlanner(f.HTN).Plan(&res, s, htn.Options{MaxSteps: maxSteps, Trace: &tr})
		if format == "json" {
			writeHTNTraceJSON(w, &tr, &res)
		} else {
			tr.WriteText(w)
		}
		if res.Status != htn.Found {
			return exitNoPlan
		}
		return exitOK
	}
	pr, st := sf.resolve(e, fset, f.GOAP)
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
		if err := checkTraceCosts(&tr); err != nil {
			fmt.Fprintf(e.stderr, "ploy trace: %v\n", err)
			return exitInvalid
		}
		writeTraceJSON(w, &tr)
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
	fmt.Fprintf(w, "%s search for %s: %s", t.Search, t.GoalName, t.Status)
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

// checkTraceCosts refuses a trace whose path costs passed the float range:
// JSON has no number for them. An infinite h is fine (null: a dead end).
func checkTraceCosts(tr *goap.Trace) error {
	for i, n := range tr.Nodes {
		if math.IsInf(n.G, 0) || math.IsNaN(n.G) {
			return fmt.Errorf("node #%d costs %s to reach: the domain's costs add up past the float range; make them smaller", i, formatCost(n.G))
		}
	}
	return nil
}

// jsonObject writes one indented JSON object a field at a time, and arrays
// an element at a time, so that a large trace never sits in memory twice.
// Its bytes are those of a json.Encoder indenting by two spaces.
type jsonObject struct {
	w      *bufio.Writer
	fields int
}

func (o *jsonObject) key(name string) {
	if o.fields == 0 {
		o.w.WriteString("{\n")
	} else {
		o.w.WriteString(",\n")
	}
	o.fields++
	o.w.WriteString("  ")
	b, _ := json.Marshal(name)
	o.w.Write(b)
	o.w.WriteString(": ")
}

// field writes a small value; values are checked beforehand, so that an
// error cannot leave half an object.
func (o *jsonObject) field(name string, v any) {
	o.key(name)
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		b = []byte("null")
	}
	o.w.Write(b)
}

// array writes n elements, elem(i) making the i-th when it is written.
func (o *jsonObject) array(name string, n int, elem func(i int) any) {
	o.rawArray(name, n, func(i int) []byte {
		b, err := json.MarshalIndent(elem(i), "    ", "  ")
		if err != nil {
			return []byte("null")
		}
		return b
	})
}

// rawArray writes n elements, elem(i) returning the i-th already encoded
// and indented for its place; the bytes are written before the next call.
func (o *jsonObject) rawArray(name string, n int, elem func(i int) []byte) {
	o.key(name)
	if n == 0 {
		o.w.WriteString("[]")
		return
	}
	o.w.WriteString("[\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			o.w.WriteString(",\n")
		}
		o.w.WriteString("    ")
		o.w.Write(elem(i))
	}
	o.w.WriteString("\n  ]")
}

func (o *jsonObject) close() { o.w.WriteString("\n}\n") }

// writeTraceJSON writes {"search", "goal", "status", "cost", "nodes",
// "expansions", "path"}, a node and an expansion at a time: a search of a
// million nodes writes hundreds of MB, so each is encoded by hand into one
// reused buffer, names quoted once. The bytes are those of encoding/json
// indenting by two spaces (trace_json_test.go holds the structs that say
// so). The costs must have been checked (checkTraceCosts).
func writeTraceJSON(w *bufio.Writer, tr *goap.Trace) {
	d := tr.Domain
	factNames := quoteAll(d.NumFacts(), func(i int) string { return d.FactName(goap.Fact(i)) })
	actionNames := quoteAll(d.NumActions(), func(i int) string { return d.ActionName(goap.ActionID(i)) })
	var outcomes [][]byte
	for r := goap.Reason(0); r.String() != "reason(?)"; r++ {
		outcomes = append(outcomes, quote(r.String()))
	}
	var needs []needJSON
	o := &jsonObject{w: w}
	o.field("search", tr.Search.String())
	o.field("goal", tr.GoalName)
	o.field("status", tr.Status.String())
	o.field("cost", tr.Cost)
	var b []byte
	o.rawArray("nodes", len(tr.Nodes), func(i int) []byte {
		n := tr.Nodes[i]
		id := int32(i)
		b = append(b[:0], "{\n      \"id\": "...)
		b = strconv.AppendInt(b, int64(id), 10)
		if tr.Search == goap.Backward {
			needs = needs[:0]
			for f, v := range tr.Partial(id).Facts {
				needs = append(needs, needJSON{d.FactName(f), factNames[f], v})
			}
			if len(needs) > 0 {
				// encoding/json writes a map's keys sorted
				slices.SortFunc(needs, func(a, b needJSON) int { return strings.Compare(a.name, b.name) })
				b = append(b, ",\n      \"needs\": {"...)
				for k, nd := range needs {
					if k > 0 {
						b = append(b, ',')
					}
					b = append(b, "\n        "...)
					b = append(b, nd.quoted...)
					b = strconv.AppendBool(append(b, ": "...), nd.value)
				}
				b = append(b, "\n      }"...)
			}
		} else {
			s := tr.State(id)
			first := true
			for f := goap.Fact(0); int(f) < d.NumFacts(); f++ {
				if !s.Has(f) {
					continue
				}
				if first {
					b = append(b, ",\n      \"facts\": ["...)
					first = false
				} else {
					b = append(b, ',')
				}
				b = append(b, "\n        "...)
				b = append(b, factNames[f]...)
			}
			if !first {
				b = append(b, "\n      ]"...)
			}
		}
		b = appendJSONFloat(append(b, ",\n      \"g\": "...), n.G)
		b = appendEstimate(append(b, ",\n      \"h\": "...), n.H)
		b = appendEstimate(append(b, ",\n      \"f\": "...), n.F())
		b = strconv.AppendInt(append(b, ",\n      \"parent\": "...), int64(n.Parent), 10)
		b = append(b, ",\n      \"action\": "...)
		if n.Action == goap.NoAction {
			b = append(b, "null"...)
		} else {
			b = append(b, actionNames[n.Action]...)
		}
		b = strconv.AppendInt(append(b, ",\n      \"depth\": "...), int64(n.Depth), 10)
		return append(b, "\n    }"...)
	})
	o.rawArray("expansions", len(tr.Expansions), func(i int) []byte {
		x := tr.Expansions[i]
		b = strconv.AppendInt(append(b[:0], "{\n      \"node\": "...), int64(x.Node), 10)
		edges := tr.Edges[x.FirstEdge:x.EndEdge]
		if len(edges) == 0 {
			b = append(b, ",\n      \"actions\": []"...)
		} else {
			b = append(b, ",\n      \"actions\": ["...)
			for k, edge := range edges {
				if k > 0 {
					b = append(b, ',')
				}
				b = append(b, "\n        {\n          \"action\": "...)
				b = append(b, actionNames[edge.Action]...)
				b = append(b, ",\n          \"outcome\": "...)
				if int(edge.Reason) < len(outcomes) {
					b = append(b, outcomes[edge.Reason]...)
				} else {
					b = append(b, quote(edge.Reason.String())...)
				}
				if edge.Reason == goap.Generated {
					b = strconv.AppendInt(append(b, ",\n          \"node\": "...), int64(edge.Node), 10)
				}
				b = append(b, "\n        }"...)
			}
			b = append(b, "\n      ]"...)
		}
		return append(b, "\n    }"...)
	})
	o.field("path", append([]int32{}, tr.Path()...))
	o.close()
}

type needJSON struct {
	name   string
	quoted []byte
	value  bool
}

// quote is s as a JSON string, escaped as encoding/json escapes it.
func quote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

func quoteAll(n int, name func(i int) string) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = quote(name(i))
	}
	return out
}

// appendJSONFloat appends f as encoding/json writes a float64: the
// shortest representation, with an exponent only for very small or large
// magnitudes.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9, as encoding/json does
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendEstimate appends a heuristic value: +Inf, a state the heuristic
// proves cannot reach the goal, is null.
func appendEstimate(b []byte, v float64) []byte {
	if math.IsInf(v, 1) {
		return append(b, "null"...)
	}
	return appendJSONFloat(b, v)
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

type htnStepJSON struct {
	Step   int    `json:"step,omitempty"`
	Kind   string `json:"kind"`
	Task   string `json:"task"`
	Method string `json:"method,omitempty"`
	Number int32  `json:"number,omitempty"` // the method's 1-based number
	Holds  *bool  `json:"holds,omitempty"`
	Depth  int32  `json:"depth"`
}

// writeHTNTraceJSON writes {"status", "steps", "backtracks", "plan", "mtr",
// "trace"}, a step at a time.
func writeHTNTraceJSON(w *bufio.Writer, tr *htn.Trace, res *htn.Result) {
	d := tr.Domain
	o := &jsonObject{w: w}
	o.field("status", res.Status.String())
	o.field("steps", res.Steps)
	o.field("backtracks", res.Backtracks)
	o.array("plan", len(res.Plan), func(i int) any { return d.GOAP().ActionName(res.Plan[i]) })
	o.field("mtr", append([]int32{}, res.MTR...))
	step := 0
	o.array("trace", len(tr.Steps), func(i int) any {
		s := tr.Steps[i]
		js := htnStepJSON{Kind: s.Kind.String(), Task: d.TaskName(s.Task), Depth: s.Depth}
		if s.Kind != htn.Backtrack {
			step++
			js.Step = step
			holds := s.Holds
			js.Holds = &holds
		}
		if s.Kind != htn.TakeTask {
			js.Method = d.MethodName(s.Task, int(s.Method))
			js.Number = s.Method + 1
		}
		return js
	})
	o.close()
}
