package report

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

// CheckTraceCosts refuses a trace whose path costs passed the float range:
// JSON has no number for them. An infinite h is fine (null: a dead end).
func CheckTraceCosts(tr *goap.Trace) error {
	for i, n := range tr.Nodes {
		if math.IsInf(n.G, 0) || math.IsNaN(n.G) {
			return fmt.Errorf("node #%d costs %s to reach: the domain's costs add up past the float range; make them smaller", i, FormatCost(n.G))
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

// WriteTraceJSON writes {"search", "goal", "status", "cost", "nodes",
// "expansions", "path"}, a node and an expansion at a time: a search of a
// million nodes writes hundreds of MB, so each is encoded by hand into one
// reused buffer, names quoted once. The bytes are those of encoding/json
// indenting by two spaces (trace_json_test.go holds the structs that say
// so). The costs must have been checked (CheckTraceCosts).
func WriteTraceJSON(w *bufio.Writer, tr *goap.Trace) {
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
	o.field("status", goap.StatusName(tr.Status, tr.Bound))
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

// HTNStep is an entry of an HTN trace as `ploy trace --htn --format json`
// writes it.
type HTNStep struct {
	Step   int    `json:"step,omitempty"`
	Kind   string `json:"kind"`
	Task   string `json:"task"`
	Method string `json:"method,omitempty"`
	Number int32  `json:"number,omitempty"` // the method's 1-based number
	Holds  *bool  `json:"holds,omitempty"`
	Depth  int32  `json:"depth"`
}

// WriteHTNTraceJSON writes {"status", "steps", "backtracks", "plan", "mtr",
// "trace"}, a step at a time.
func WriteHTNTraceJSON(w *bufio.Writer, tr *htn.Trace, res *htn.Result) {
	d := tr.Domain
	o := &jsonObject{w: w}
	o.field("status", htn.StatusName(res.Status, res.Bound))
	o.field("steps", res.Steps)
	o.field("backtracks", res.Backtracks)
	o.array("plan", len(res.Plan), func(i int) any { return d.GOAP().ActionName(res.Plan[i]) })
	o.field("mtr", append([]int32{}, res.MTR...))
	step := 0
	o.array("trace", len(tr.Steps), func(i int) any { return HTNStepOf(d, tr.Steps[i], &step) })
	o.close()
}

// HTNStepOf is the entry for s, a step of a trace of d. Every entry but a
// backtrack is a step, numbered from 1: *steps counts them.
func HTNStepOf(d *htn.Domain, s htn.TraceStep, steps *int) HTNStep {
	js := HTNStep{Kind: s.Kind.String(), Task: d.TaskName(s.Task), Depth: s.Depth}
	if s.Kind != htn.Backtrack {
		*steps++
		js.Step = *steps
		holds := s.Holds
		js.Holds = &holds
	}
	if s.Kind != htn.TakeTask {
		js.Method = d.MethodName(s.Task, int(s.Method))
		js.Number = s.Method + 1
	}
	return js
}
