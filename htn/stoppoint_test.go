package htn_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/search"
)

// binaryTree is a decomposition n levels deep and 2^n actions wide, with
// no recursion: each task Li has one method whose subtasks are two L(i+1),
// and the last level's are two Act.
func binaryTree(t testing.TB, n int) *htn.Domain {
	t.Helper()
	var tasks []htn.TaskSpec
	for i := range n {
		sub := fmt.Sprintf("L%d", i+1)
		if i == n-1 {
			sub = "Act"
		}
		tasks = append(tasks, htn.TaskSpec{Name: fmt.Sprintf("L%d", i), Methods: []htn.MethodSpec{{Name: "split", Subtasks: []string{sub, sub}}}})
	}
	d, err := htn.NewDomain(oneAction(t), htn.Spec{Root: "L0", Tasks: tasks})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A deep and wide decomposition that needs more steps than the limit is
// no recursion, though its finished subtrees leave thousands of method
// choices of one task held for backtracking (16 662 of L19 at the default
// limit): the message says what happened instead of asking whether it
// recurses without end.
func TestStepLimitOfAWideTreeIsNoRecursion(t *testing.T) {
	// At 20 levels, the case that was misreported, against the default limit
	// and a few others: never called a recursion, never deeper than the tree.
	const deep = 20
	d := binaryTree(t, deep)
	p := htn.NewPlanner(d)
	var res htn.Result
	var sl *htn.StepLimitError
	for _, limit := range []int{1, 2, 3, 41, 42, 43, 44, 1000, htn.DefaultMaxSteps, 1_000_000} {
		err := p.Plan(&res, d.GOAP().Initial(), htn.Options{MaxSteps: limit})
		if !errors.As(err, &sl) || sl.Recursion() || sl.Repeats > 1 || sl.Depth > deep || strings.Contains(err.Error(), "recurse without end") {
			t.Errorf("limit %d: %v (%+v)", limit, err, sl)
		}
	}
	err := p.Plan(&res, d.GOAP().Initial(), htn.Options{})
	if want := `htn: step limit of 100000 reached decomposing "L0": no task was open inside itself, so this is no endless recursion: the decomposition needs more steps`; !strings.HasPrefix(fmt.Sprint(err), want) {
		t.Errorf("message\n%v\nwant it to start\n%s", err, want)
	}
	// The memory limit too.
	err = p.Plan(&res, d.GOAP().Initial(), htn.Options{MaxMemory: 4096})
	var ml *htn.MemoryLimitError
	if !errors.As(err, &ml) || ml.Recursion() || ml.Depth > deep || ml.Depth < 1 || !strings.Contains(err.Error(), "the decomposition needs more memory") {
		t.Errorf("memory limit: %v (%+v)", err, ml)
	}

	// At 16 levels, the whole tree fits the default memory cap, so the
	// exact step count can be checked both ways.
	const n = 16
	d = binaryTree(t, n)
	g := d.GOAP()
	p = htn.NewPlanner(d)

	// The whole decomposition takes 2 steps per compound task (take it,
	// test its method) and 1 per action: 2(2^n-1) + 2^n.
	total := 3<<n - 2
	if err := p.Plan(&res, g.Initial(), htn.Options{MaxSteps: total}); err != nil || res.Status != htn.Found || len(res.Plan) != 1<<n {
		t.Fatalf("with %d steps: %v, %d actions, want found, %d", total, err, len(res.Plan), 1<<n)
	}

	// One step short, the last Act is still on the stack: all 16 levels
	// are in progress (each the last subtask of the one before), and L15
	// was decomposed 2^15 times.
	err = p.Plan(&res, g.Initial(), htn.Options{MaxSteps: total - 1})
	if !errors.As(err, &sl) || res.Status != htn.LimitReached || res.Bound != search.Steps {
		t.Fatalf("one step short: %v %v, want the step limit", res.Status, err)
	}
	want := htn.StepLimitError{Root: "L0", Limit: total - 1, Task: "L15", Repeats: 1, Depth: n, MostDecomposed: "L15", Decompositions: 1 << (n - 1)}
	if *sl != want {
		t.Errorf("one step short: %+v\nwant %+v", *sl, want)
	}
	if sl.Recursion() {
		t.Error("one step short: Recursion() is true")
	}
	if want := `htn: step limit of 196605 reached decomposing "L0": no task was open inside itself, so this is no endless recursion: the decomposition needs more steps (it was 16 tasks deep, working on "L15"; "L15" was decomposed the most, 32768 times)`; err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}

}

// A recursion inside a wide tree is still found: the recursive task is
// open inside itself, under siblings that finished.
func TestStepLimitFindsARecursionBelowFinishedSiblings(t *testing.T) {
	d, err := htn.NewDomain(oneAction(t), htn.Spec{Root: "Top", Tasks: []htn.TaskSpec{
		{Name: "Top", Methods: []htn.MethodSpec{{Name: "m", Subtasks: []string{"Leaf", "Leaf", "Leaf", "Loop"}}}},
		{Name: "Leaf", Methods: []htn.MethodSpec{{Name: "act", Subtasks: []string{"Act"}}}},
		{Name: "Loop", Methods: []htn.MethodSpec{{Name: "again", Subtasks: []string{"Leaf", "Loop"}}, {Name: "stop"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var res htn.Result
	err = htn.NewPlanner(d).Plan(&res, d.GOAP().Initial(), htn.Options{MaxSteps: 1000})
	var sl *htn.StepLimitError
	if !errors.As(err, &sl) || !sl.Recursion() || sl.Task != "Loop" {
		t.Fatalf("%v (%+v), want Loop open inside itself", err, sl)
	}
	// Each round of Loop takes 5 steps: take Loop, test again, take Leaf,
	// test act, take Act; 3 Leafs take 3 steps each before.
	if want := (1000 - 2 - 3*3) / 5; sl.Repeats < want || sl.Repeats > want+1 || sl.Depth < sl.Repeats+1 || sl.Depth > sl.Repeats+2 {
		t.Errorf("Loop open %d times, depth %d; want %d or %d, depth one or two more (Top, and a Leaf begun)", sl.Repeats, sl.Depth, want, want+1)
	}
	if !strings.HasSuffix(err.Error(), "each inside the last; does it recurse without end?") {
		t.Errorf("message %s", err)
	}
}
