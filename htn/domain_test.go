package htn_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
)

func TestDomainErrorsAllAtOnce(t *testing.T) {
	g, _ := goap.NewDomain(domains.BattleMage())
	spec := htn.Spec{
		Root: "BeABattlemage",
		Tasks: []htn.TaskSpec{
			{Name: "BeABattleMage", Methods: []htn.MethodSpec{
				{Name: "Fight", Conditions: map[string]bool{"enemy_ded": false}, Subtasks: []string{"Figth"}},
			}},
			{Name: "Fight"},
			{Name: "Fight", Methods: []htn.MethodSpec{{Name: "x"}}},
			{Name: "Approach", Methods: []htn.MethodSpec{{Name: "y"}}},
		},
	}
	_, err := htn.NewDomain(g, spec)
	want := []string{
		`htn: htn.tasks[2].name: task "Fight" is defined twice`,
		`htn: htn.tasks[3].name: task "Approach" has the name of an action; a compound task needs a name of its own`,
		`htn: htn.tasks[0].methods[0].conditions.enemy_ded: unknown fact "enemy_ded"; did you mean "enemy_dead"?`,
		`htn: htn.tasks[0].methods[0].subtasks[0]: subtask "Figth" names no task or action; did you mean "Fight"?`,
		`htn: htn.tasks[1].methods: task "Fight" has no methods`,
		`htn: htn.root: root "BeABattlemage" is not a compound task; did you mean "BeABattleMage"?`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	var one *htn.Error
	if !errors.As(err, &one) {
		t.Errorf("errors.As(*htn.Error) failed on %v", err)
	}
}

func TestRecursionWithoutBaseCase(t *testing.T) {
	g, _ := goap.NewDomain(domains.BattleMage())
	spec := htn.Spec{
		Root: "Root",
		Tasks: []htn.TaskSpec{
			{Name: "Root", Methods: []htn.MethodSpec{{Name: "go", Subtasks: []string{"Loop"}}}},
			{Name: "Loop", Methods: []htn.MethodSpec{
				{Name: "again", Subtasks: []string{"Approach", "Loop"}},
				{Name: "other", Subtasks: []string{"Spin"}},
			}},
			{Name: "Spin", Methods: []htn.MethodSpec{{Name: "spin", Subtasks: []string{"Loop"}}}},
			{Name: "Fine", Methods: []htn.MethodSpec{{Name: "recurse", Subtasks: []string{"Approach", "Fine"}}, {Name: "stop"}}},
		},
	}
	_, err := htn.NewDomain(g, spec)
	want := strings.Join([]string{
		`htn: htn.tasks[0]: task "Root" can never finish: every method needs a task that recurses with no base case`,
		`htn: htn.tasks[1]: task "Loop" recurses with no base case: every method leads back to "Loop"`,
		`htn: htn.tasks[2]: task "Spin" recurses with no base case: every method leads back to "Spin"`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
}

func TestSharedDomainManyGoroutines(t *testing.T) {
	d := battleMage(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := htn.NewPlanner(d)
			var res htn.Result
			for j := 0; j < 300; j++ {
				if err := p.Plan(&res, d.GOAP().Initial(), htn.Options{}); err != nil || res.Steps != 13 {
					t.Errorf("goroutine %d: %d steps err %v", i, res.Steps, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestProfileMakesIncapablePrimitivesFail(t *testing.T) {
	d := battleMage(t)
	noCover, err := d.GOAP().NewProfile(goap.ProfileSpec{Incapable: []string{"TakeCover"}})
	if err != nil {
		t.Fatal(err)
	}
	var res htn.Result
	htn.NewPlanner(d).Plan(&res, d.GOAP().Initial(), htn.Options{Profile: noCover})
	// Every Fight recipe takes cover unless the staff is charged: the mage
	// cannot fight, so it falls through to restocking its potion.
	if res.Status != htn.Found || res.MTR.String() != "3" {
		t.Errorf("without TakeCover: %v MTR %s, want the restock method 3", res.Status, res.MTR)
	}
}
