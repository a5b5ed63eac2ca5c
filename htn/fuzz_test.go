package htn_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/search"
)

// fuzzGOAP is the small GOAP domain the fuzzed HTNs are built over.
var fuzzGOAP = goap.Spec{
	Name:  "fuzz",
	Facts: []string{"a", "b", "c"},
	Actions: []goap.ActionSpec{
		{Name: "SetA", Effects: map[string]bool{"a": true}, Cost: goap.Const(1)},
		{Name: "NeedA", Preconditions: map[string]bool{"a": true}, Effects: map[string]bool{"b": true, "a": false}, Cost: goap.Const(1)},
		{Name: "NeedNotB", Preconditions: map[string]bool{"b": false}, Effects: map[string]bool{"c": true}, Cost: goap.Const(1)},
	},
}

// byteReader hands out the fuzzer's bytes as small choices, zeros once
// they run out.
type byteReader struct{ data []byte }

func (r *byteReader) pick(n int) int {
	if len(r.data) == 0 || n <= 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return int(b) % n
}

// fuzzSpec reads an HTN spec from the bytes: up to 6 tasks of up to 3
// methods, names drawn from the tasks, the actions and a few that name
// nothing or clash, so that invalid specs are drawn as well as valid ones.
func fuzzSpec(r *byteReader) htn.Spec {
	n := 1 + r.pick(6)
	names := func(i int) string {
		switch i {
		case n:
			return "SetA" // a task named like an action, or a primitive subtask
		case n + 1:
			return "NeedA"
		case n + 2:
			return "NeedNotB"
		case n + 3:
			return "Nope"
		case n + 4:
			return ""
		}
		return fmt.Sprintf("T%d", i)
	}
	facts := []string{"a", "b", "c", "zz"}
	spec := htn.Spec{Root: names(r.pick(n + 5))}
	for i := 0; i < n; i++ {
		name := names(i)
		if r.pick(16) == 0 {
			name = names(r.pick(n + 5))
		}
		ts := htn.TaskSpec{Name: name}
		for m := r.pick(4); m > 0; m-- {
			ms := htn.MethodSpec{Name: fmt.Sprintf("m%d", m), Conditions: map[string]bool{}}
			for c := r.pick(3); c > 0; c-- {
				ms.Conditions[facts[r.pick(len(facts)+4)%len(facts)]] = r.pick(2) == 0
			}
			for k := r.pick(6); k > 0; k-- {
				ms.Subtasks = append(ms.Subtasks, names(r.pick(n+5)))
			}
			ts.Methods = append(ts.Methods, ms)
		}
		spec.Tasks = append(spec.Tasks, ts)
	}
	return spec
}

// FuzzDecompose builds HTN specs from the fuzzer's bytes, compiles them,
// and plans the valid ones from a state also drawn from the bytes, with
// small caps. Nothing may panic; a plan found must replay, and a cap must
// come with its typed error.
func FuzzDecompose(f *testing.F) {
	g, err := goap.NewDomain(fuzzGOAP)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{})
	f.Add([]byte{0, 0, 1, 0, 0, 2, 0})
	f.Add([]byte{2, 0, 2, 0, 2, 1, 7, 0, 1, 1, 1, 0, 3, 0, 1, 2})
	f.Add([]byte("a method holding its own task, again and again"))
	f.Add([]byte{5, 0, 3, 1, 0, 5, 0, 0, 0, 0, 0, 2, 0, 1, 1, 3, 9, 9, 9, 1, 0, 4, 2, 3, 4, 5, 6, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &byteReader{data: data}
		spec := fuzzSpec(r)
		d, err := htn.NewDomain(g, spec)
		if err != nil {
			var es htn.Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("NewDomain: %v, not a list of *htn.Error", err)
			}
			for _, e := range es {
				if !strings.HasPrefix(e.Path, "htn.") || e.Msg == "" {
					t.Fatalf("error without a path or message: %q", e.Error())
				}
			}
			return
		}
		for _, c := range d.RecursionsWithoutProgress() {
			if len(c) == 0 {
				t.Fatal("an empty cycle")
			}
		}
		s := g.NewState()
		s.Words()[0] = uint64(r.pick(8))
		var res htn.Result
		var tr htn.Trace
		err = htn.NewPlanner(d).Plan(&res, s, htn.Options{MaxSteps: 200, MaxMemory: 2048, Trace: &tr})
		tr.WriteText(io.Discard)
		switch res.Status {
		case htn.Found:
			if err != nil || len(res.MTR) != len(res.Tasks) || res.Steps > 200 {
				t.Fatalf("found with err %v, MTR %v, tasks %v, %d steps", err, res.MTR, res.Tasks, res.Steps)
			}
			replay := s.Clone()
			for _, a := range res.Plan {
				if !g.Applicable(a, replay) {
					t.Fatalf("plan %v: %s does not apply", res.Plan, g.ActionName(a))
				}
				g.Apply(a, replay)
			}
		case htn.NoPlan:
			if err != nil || len(res.Plan) != 0 {
				t.Fatalf("no plan with err %v, plan %v", err, res.Plan)
			}
		case htn.LimitReached:
			switch {
			case res.Bound == search.Steps:
				if !errors.Is(err, htn.ErrStepLimit) || !errors.Is(err, search.ErrLimit) || res.Steps != 200 {
					t.Fatalf("step limit: err %v, %d steps", err, res.Steps)
				}
			case res.Bound == search.Bytes:
				if !errors.Is(err, htn.ErrMemoryLimit) || !errors.Is(err, search.ErrLimit) {
					t.Fatalf("memory limit: err %v", err)
				}
			default:
				t.Fatalf("limit reached on %v", res.Bound)
			}
		default:
			t.Fatalf("status %v", res.Status)
		}
	})
}
