package htn_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/search"
)

// TestMemoryCapCountsSavedFacts plans 100 primitives over 4 096 facts. The
// planner saves the facts before each primitive (64 words, 512 bytes) to
// undo it on backtracking, so the plan needs about 51 200 bytes of saved
// facts and a few kilobytes besides: a 32 KiB cap must stop it, and 1 MiB
// must not. A cap that counted the saved facts short would let a wide
// domain's plan run far past MaxMemory.
func TestMemoryCapCountsSavedFacts(t *testing.T) {
	spec := goap.Spec{Name: "wide"}
	for i := range 4096 {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	spec.Actions = []goap.ActionSpec{{Name: "Act", Effects: map[string]bool{"f4095": true}, Cost: goap.Const(1)}}
	g, err := goap.NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	steps := make([]string, 100)
	for i := range steps {
		steps[i] = "Act"
	}
	d, err := htn.NewDomain(g, htn.Spec{Root: "T", Tasks: []htn.TaskSpec{{Name: "T", Methods: []htn.MethodSpec{{Name: "all", Subtasks: steps}}}}})
	if err != nil {
		t.Fatal(err)
	}
	p := htn.NewPlanner(d)
	var res htn.Result
	if err := p.Plan(&res, g.Initial(), htn.Options{MaxMemory: 1 << 20}); err != nil || res.Status != htn.Found || len(res.Plan) != 100 {
		t.Fatalf("under 1 MiB: status %v, %d steps, err %v; want the 100-step plan", res.Status, len(res.Plan), err)
	}
	err = p.Plan(&res, g.Initial(), htn.Options{MaxMemory: 32 << 10})
	if !errors.Is(err, htn.ErrMemoryLimit) || res.Status != htn.LimitReached || res.Bound != search.Bytes {
		t.Fatalf("under 32 KiB: status %v, %d steps, err %v; want the memory limit (the saved facts alone take 51 200 bytes)", res.Status, len(res.Plan), err)
	}
}
