package htn_test

import (
	"fmt"
	"testing"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
)

func benchPlan(b *testing.B, d *htn.Domain, s goap.State) {
	p := htn.NewPlanner(d)
	var res htn.Result
	if err := p.Plan(&res, s, htn.Options{}); err != nil || res.Status != htn.Found {
		b.Fatalf("%v %v", res.Status, err)
	}
	steps := 0
	b.ReportAllocs()
	for b.Loop() {
		p.Plan(&res, s, htn.Options{})
		steps += res.Steps
	}
	b.ReportMetric(float64(res.Steps), "steps/op")
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

func BenchmarkHTNBattleMageDefault(b *testing.B) {
	d := battleMage(b)
	benchPlan(b, d, d.GOAP().Initial())
}

func BenchmarkHTNBattleMageCrystalsOff(b *testing.B) {
	d := battleMage(b)
	benchPlan(b, d, fixture.StateWith(b, d.GOAP(), "!spare_crystals"))
}

// deepDomain is a chain of depth compound tasks, each with a first method
// that fails after some work (its last subtask needs a fact nothing sets)
// and a second that works and recurses, so that the planner backtracks at
// every level and the task stack and undo log grow to the full depth.
func deepDomain(b *testing.B, depth int) *htn.Domain {
	g, err := goap.NewDomain(goap.Spec{
		Name:  "deep",
		Facts: []string{"done", "never"},
		Actions: []goap.ActionSpec{
			{Name: "Work", Effects: map[string]bool{"done": true}, Cost: goap.Const(1)},
			{Name: "Impossible", Preconditions: map[string]bool{"never": true}, Effects: map[string]bool{"done": true}, Cost: goap.Const(1)},
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	spec := htn.Spec{Root: "T0"}
	for i := 0; i < depth; i++ {
		steady := []string{"Work"}
		if i+1 < depth {
			steady = append(steady, fmt.Sprintf("T%d", i+1))
		}
		spec.Tasks = append(spec.Tasks, htn.TaskSpec{Name: fmt.Sprintf("T%d", i), Methods: []htn.MethodSpec{
			{Name: "greedy", Subtasks: []string{"Work", "Work", "Impossible"}},
			{Name: "steady", Subtasks: steady},
		}})
	}
	d, err := htn.NewDomain(g, spec)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func BenchmarkHTNDeep(b *testing.B) {
	d := deepDomain(b, 200)
	benchPlan(b, d, d.GOAP().Initial())
}
