package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"math"
	"testing"

	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// The contract of `ploy trace --format json`, as encoding/json structs:
// WriteTraceJSON writes it by hand and must write the same bytes.
type traceNodeJSON struct {
	ID     int32           `json:"id"`
	Facts  []string        `json:"facts,omitempty"` // forward: the facts that hold
	Needs  map[string]bool `json:"needs,omitempty"` // backward: the facts still needed
	G      float64         `json:"g"`
	H      *float64        `json:"h"` // null: the heuristic proves the goal unreachable
	F      *float64        `json:"f"`
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

func finite(v float64) *float64 {
	if math.IsInf(v, 1) {
		return nil
	}
	return &v
}

func referenceTraceJSON(t *testing.T, tr *goap.Trace) []byte {
	d := tr.Domain
	out := traceJSON{Search: tr.Search.String(), Goal: tr.GoalName, Status: tr.Status.String(), Cost: tr.Cost, Nodes: []traceNodeJSON{}, Expansions: []traceExpansionJSON{}, Path: []int32{}}
	for i, n := range tr.Nodes {
		id := int32(i)
		tn := traceNodeJSON{ID: id, G: n.G, H: finite(n.H), F: finite(n.F()), Parent: n.Parent, Depth: n.Depth}
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestTraceJSONMatchesEncodingJSON checks the hand-written trace encoder
// against encoding/json on every shipped domain and goal, both searches,
// every heuristic (hmax's dead ends are null), and names and costs that
// need escaping or an exponent.
func TestTraceJSONMatchesEncodingJSON(t *testing.T) {
	var ds []*goap.Domain
	entries, err := fs.ReadDir(domains.Files, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src, err := fs.ReadFile(domains.Files, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		f, err := domain.Parse(e.Name(), src)
		if err != nil {
			t.Fatal(err)
		}
		if !f.EngineModel() {
			ds = append(ds, f.GOAP)
		}
	}
	odd, err := goap.NewDomain(goap.Spec{
		Name:  "odd",
		Facts: []string{`quo"te`, "<b>&", "é\u2028", "zed", "alpha"},
		Actions: []goap.ActionSpec{
			{Name: `A"<1>`, Effects: map[string]bool{`quo"te`: true}, Cost: goap.Const(1e-7)},
			{Name: "B&", Preconditions: map[string]bool{`quo"te`: true}, Effects: map[string]bool{"<b>&": true, "alpha": true}, Cost: goap.Const(1e21)},
			{Name: "C", Preconditions: map[string]bool{"zed": true}, Effects: map[string]bool{"é\u2028": true}, Cost: goap.Const(0.1)},
			{Name: "D", Effects: map[string]bool{"zed": false, "alpha": false}, Cost: goap.Const(123456789.125)},
		},
		Goals: []goap.GoalSpec{
			{Name: "Reach", Conditions: map[string]bool{"<b>&": true, "alpha": true, "zed": false}},
			{Name: "Never", Conditions: map[string]bool{"é\u2028": true}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ds = append(ds, odd)
	compared := 0
	for _, d := range ds {
		for _, goal := range d.Goals() {
			for _, search := range []goap.Search{goap.Forward, goap.Backward} {
				for _, h := range []goap.Heuristic{goap.GoalCount, goap.GoalCost, goap.HMax, goap.Blind} {
					var tr goap.Trace
					_, err := goap.NewPlanner(d).Plan(nil, d.Initial(), goal, goap.Options{Search: search, Heuristic: h, Trace: &tr})
					if err != nil && len(tr.Nodes) == 0 {
						continue // a search that cannot run (a Go cost backward)
					}
					var got bytes.Buffer
					w := bufio.NewWriter(&got)
					WriteTraceJSON(w, &tr)
					w.Flush()
					want := referenceTraceJSON(t, &tr)
					if !bytes.Equal(got.Bytes(), want) {
						t.Errorf("%s, goal %s, %s, %v: the trace's JSON differs from encoding/json's:\n got: %s\nwant: %s", d.Name(), goal.Name(), search, h, firstDiff(got.Bytes(), want), firstDiff(want, got.Bytes()))
					}
					compared++
				}
			}
		}
	}
	if compared < 20 {
		t.Fatalf("only %d traces compared", compared)
	}
}

// firstDiff is a's text around where it first differs from b.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return string(a[max(0, i-80):min(len(a), i+80)])
}
