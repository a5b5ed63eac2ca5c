package cli

import (
	"encoding/json"
	"fmt"
	"io"
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
		"Show a GOAP search expansion by expansion (each state with g, h and f, and\nwhat every action did there), or with --htn an HTN decomposition step by step.\nThe dot format draws the explored states for Graphviz, the plan's path in red.",
		`  ploy trace --goal Kill
  ploy trace --goal Kill --format dot | dot -Tsvg > search.svg
  ploy trace --goal GetHealthy --unset healthy --format json
  ploy trace --htn --unset spare_crystals
`)
	sf.register(fset)
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
	f, st := load(e, fset, positional)
	if st >= 0 {
		return st
	}
	if useHTN {
		if format == "dot" {
			return usageErr(e, fset, "--format dot draws GOAP searches; use text or json with --htn")
		}
		if f.HTN == nil {
			fmt.Fprintf(e.stderr, "%s: the domain has no htn section\n", f.Path)
			return exitInvalid
		}
		s, st := startState(e, fset, f.GOAP, sf.set, sf.unset)
		if st >= 0 {
			return st
		}
		var tr htn.Trace
		var res htn.Result
		htn.NewPlanner(f.HTN).Plan(&res, s, htn.Options{MaxSteps: maxSteps, Trace: &tr})
		if format == "json" {
			writeHTNTraceJSON(e.stdout, &tr, &res)
		} else {
			tr.WriteText(e.stdout)
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
		fmt.Fprintf(e.stderr, "ploy trace: %v\n", err)
		return exitInvalid
	}
	switch format {
	case "json":
		writeTraceJSON(e.stdout, &tr)
	case "dot":
		writeTraceDOT(e.stdout, &tr)
	default:
		tr.WriteText(e.stdout)
	}
	if res.Status != goap.Found {
		return exitNoPlan
	}
	return exitOK
}

type traceNodeJSON struct {
	ID     int32           `json:"id"`
	Facts  []string        `json:"facts,omitempty"` // forward: the facts that hold
	Needs  map[string]bool `json:"needs,omitempty"` // backward: the facts still needed
	G      float64         `json:"g"`
	H      float64         `json:"h"`
	F      float64         `json:"f"`
	Parent int32           `json:"parent"`
	Action *string         `json:"action"`
	Depth  int32           `json:"depth"`
}

type traceEdgeJSON struct {
	Action  string `json:"action"`
	Outcome string `json:"outcome"`
	Node    *int32 `json:"node,omitempty"`
}

type traceExpansionJSON struct {
	Node    int32           `json:"node"`
	Actions []traceEdgeJSON `json:"actions"`
}

type traceJSON struct {
	Search     string               `json:"search"`
	Goal       string               `json:"goal"`
	Status     string               `json:"status"`
	Cost       float64              `json:"cost"`
	Nodes      []traceNodeJSON      `json:"nodes"`
	Expansions []traceExpansionJSON `json:"expansions"`
	Path       []int32              `json:"path"`
}

func writeTraceJSON(w io.Writer, tr *goap.Trace) {
	d := tr.Domain
	out := traceJSON{Search: tr.Search.String(), Goal: tr.GoalName, Status: tr.Status.String(), Cost: tr.Cost, Path: []int32{}}
	for i, n := range tr.Nodes {
		id := int32(i)
		tn := traceNodeJSON{ID: id, G: n.G, H: n.H, F: n.F(), Parent: n.Parent, Depth: n.Depth}
		if n.Action != goap.NoAction {
			name := d.ActionName(n.Action)
			tn.Action = &name
		}
		if tr.Search == goap.Backward {
			tn.Needs = map[string]bool{}
			for f, v := range tr.Partial(id).Facts {
				tn.Needs[d.FactName(f)] = v
			}
		} else {
			tn.Facts = []string{}
			s := tr.State(id)
			for f := goap.Fact(0); int(f) < d.NumFacts(); f++ {
				if s.Has(f) {
					tn.Facts = append(tn.Facts, d.FactName(f))
				}
			}
		}
		out.Nodes = append(out.Nodes, tn)
	}
	for _, x := range tr.Expansions {
		ex := traceExpansionJSON{Node: x.Node, Actions: []traceEdgeJSON{}}
		for _, edge := range tr.Edges[x.FirstEdge:x.EndEdge] {
			te := traceEdgeJSON{Action: d.ActionName(edge.Action), Outcome: edge.Reason.String()}
			if edge.Reason == goap.Generated {
				node := edge.Node
				te.Node = &node
			}
			ex.Actions = append(ex.Actions, te)
		}
		out.Expansions = append(out.Expansions, ex)
	}
	out.Path = append(out.Path, tr.Path()...)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}

// writeTraceDOT draws every node the search made: expanded states solid,
// states left on the open list dashed, edges labelled by action, and the
// plan's path in red.
func writeTraceDOT(w io.Writer, tr *goap.Trace) {
	d := tr.Domain
	onPath := map[int32]bool{}
	for _, n := range tr.Path() {
		onPath[n] = true
	}
	expanded := map[int32]int{}
	for i, x := range tr.Expansions {
		expanded[x.Node] = i + 1
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
		k, wasExpanded := expanded[id]
		if wasExpanded {
			lines = append(lines, fmt.Sprintf("expanded %d", k))
		}
		attrs := []string{"label=" + dotLabel(lines)}
		if !wasExpanded && id != tr.Goal {
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
		if onPath[int32(i)] && onPath[n.Parent] {
			attrs = append(attrs, "color=red", "penwidth=2")
		}
		fmt.Fprintf(w, "  n%d -> n%d [%s];\n", n.Parent, i, strings.Join(attrs, ", "))
	}
	fmt.Fprintln(w, "}")
}

// dotLabel quotes lines as one Graphviz string, a line per \n escape.
func dotLabel(lines []string) string {
	for i, l := range lines {
		lines[i] = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(l)
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

type htnTraceJSON struct {
	Status     string        `json:"status"`
	Steps      int           `json:"steps"`
	Backtracks int           `json:"backtracks"`
	Plan       []string      `json:"plan"`
	MTR        []int32       `json:"mtr"`
	Trace      []htnStepJSON `json:"trace"`
}

func writeHTNTraceJSON(w io.Writer, tr *htn.Trace, res *htn.Result) {
	d := tr.Domain
	out := htnTraceJSON{Status: res.Status.String(), Steps: res.Steps, Backtracks: res.Backtracks, Plan: []string{}, MTR: append([]int32{}, res.MTR...), Trace: []htnStepJSON{}}
	for _, a := range res.Plan {
		out.Plan = append(out.Plan, d.GOAP().ActionName(a))
	}
	step := 0
	for _, s := range tr.Steps {
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
		out.Trace = append(out.Trace, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
