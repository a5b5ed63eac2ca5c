package htn_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/testkit/fixture"
	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/search"
)

// oneAction is a GOAP domain of one fact and one action that sets it.
func oneAction(t testing.TB) *goap.Domain {
	t.Helper()
	g, err := goap.NewDomain(goap.Spec{Name: "one", Facts: []string{"a"}, Actions: []goap.ActionSpec{
		{Name: "Act", Effects: map[string]bool{"a": true}, Cost: goap.Const(1)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// selfCopies is a memory attack: a method holding n copies of its
// own task, plus a base method the planner never reaches, as the first
// method always applies.
func selfCopies(t testing.TB, n int) *htn.Domain {
	t.Helper()
	g := oneAction(t)
	many := make([]string, n)
	for i := range many {
		many[i] = "T"
	}
	d, err := htn.NewDomain(g, htn.Spec{Root: "T", Tasks: []htn.TaskSpec{{Name: "T", Methods: []htn.MethodSpec{
		{Name: "many", Subtasks: many},
		{Name: "base"},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// cycle is a ring of n compound tasks with no base case.
func cycle(n int) htn.Spec {
	spec := htn.Spec{Root: "T0"}
	for i := 0; i < n; i++ {
		spec.Tasks = append(spec.Tasks, htn.TaskSpec{Name: fmt.Sprintf("T%d", i), Methods: []htn.MethodSpec{
			{Name: "m", Subtasks: []string{fmt.Sprintf("T%d", (i+1)%n)}},
		}})
	}
	return spec
}

func TestMemoryLimit(t *testing.T) {
	// The attack at its full size, under the default cap, runs in a child
	// process (TestAttackSelfCopiesIsBoundedInMemory); this one is small
	// enough to be harmless should the cap stop working.
	d := selfCopies(t, 100)
	var res htn.Result
	err := htn.NewPlanner(d).Plan(&res, d.GOAP().Initial(), htn.Options{MaxMemory: 64 << 10})
	var ml *htn.MemoryLimitError
	if !errors.Is(err, htn.ErrMemoryLimit) || !errors.As(err, &ml) || res.Status != htn.LimitReached || res.Bound != search.Bytes || len(res.Plan) != 0 || len(res.MTR) != 0 {
		t.Fatalf("status %v plan %d MTR %d err %v: want the memory limit and no plan", res.Status, len(res.Plan), len(res.MTR), err)
	}
	// Each decomposition of T pushes 100 tasks of 4 bytes: 64 KiB holds at
	// most 163 of them, each open inside the one before, a few less as the
	// undo log and choice points count too.
	if ml.Limit != 64<<10 || ml.Task != "T" || ml.Repeats > 163 || ml.Repeats < 140 {
		t.Errorf("limit %d task %q repeats %d; want 65536, T, 140 to 163", ml.Limit, ml.Task, ml.Repeats)
	}
	if want := fmt.Sprintf(`htn: memory limit of 65536 bytes reached decomposing "T": task "T" was open %d times, each inside the last`, ml.Repeats); !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want it to start with %q", err, want)
	}

	// The lesson's plans fit a small cap, and a cap below what one needs
	// stops it.
	bm := battleMage(t)
	p := htn.NewPlanner(bm)
	if err := p.Plan(&res, bm.GOAP().Initial(), htn.Options{MaxMemory: 1 << 10}); err != nil || res.Status != htn.Found {
		t.Errorf("default state within 1 KiB: %v %v", res.Status, err)
	}
	if err := p.Plan(&res, bm.GOAP().Initial(), htn.Options{MaxMemory: 64}); !errors.Is(err, htn.ErrMemoryLimit) || res.Status != htn.LimitReached || res.Bound != search.Bytes {
		t.Errorf("default state within 64 bytes: %v %v, want the memory limit", res.Status, err)
	}
}

func TestStepLimitNamesTheRepeatingTask(t *testing.T) {
	g := oneAction(t)
	// Guard's first method starts with Guard again: no progress, ever.
	d, err := htn.NewDomain(g, htn.Spec{Root: "Guard", Tasks: []htn.TaskSpec{{Name: "Guard", Methods: []htn.MethodSpec{
		{Name: "Arm", Subtasks: []string{"Guard", "Act"}},
		{Name: "Rest"},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	var res htn.Result
	err = htn.NewPlanner(d).Plan(&res, g.Initial(), htn.Options{})
	var sl *htn.StepLimitError
	if !errors.As(err, &sl) || res.Status != htn.LimitReached || res.Bound != search.Steps {
		t.Fatalf("%v %v: want the step limit", res.Status, err)
	}
	// Two steps per level (take Guard, test Arm): 50 000 levels open.
	if sl.Task != "Guard" || sl.Repeats != htn.DefaultMaxSteps/2 {
		t.Errorf("task %q repeats %d, want Guard %d", sl.Task, sl.Repeats, htn.DefaultMaxSteps/2)
	}
	if want := `htn: step limit of 100000 reached decomposing "Guard": task "Guard" was open 50000 times, each inside the last; does it recurse without end?`; err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}

	// A and B call each other, open 25 000 times each at the limit: a tie,
	// which goes to the outermost, where the recursion began.
	d, err = htn.NewDomain(g, htn.Spec{Root: "A", Tasks: []htn.TaskSpec{
		{Name: "B", Methods: []htn.MethodSpec{{Name: "call", Subtasks: []string{"A"}}}},
		{Name: "A", Methods: []htn.MethodSpec{{Name: "call", Subtasks: []string{"B"}}, {Name: "stop"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	err = htn.NewPlanner(d).Plan(&res, g.Initial(), htn.Options{})
	if !errors.As(err, &sl) || sl.Task != "A" || sl.Repeats != htn.DefaultMaxSteps/4 {
		t.Errorf("A and B: %v", err)
	}

	// Stopped after backtracking, testing CloseIn's methods inside Fight
	// inside BeABattleMage: no task is open twice, and the message says
	// so and names the task worked on, three deep.
	bm := battleMage(t)
	err = htn.NewPlanner(bm).Plan(&res, fixture.StateWith(t, bm.GOAP(), "!spare_crystals"), htn.Options{MaxSteps: 16})
	if !errors.As(err, &sl) || sl.Repeats != 1 || sl.Task != "CloseIn" || sl.Depth != 3 || sl.Recursion() {
		t.Errorf("battle mage at 16 steps: %v (task %q, repeats %d, depth %d)", err, sl.Task, sl.Repeats, sl.Depth)
	}
	if want := `htn: step limit of 16 reached decomposing "BeABattleMage": no task was open inside itself, so this is no endless recursion: the decomposition needs more steps (it was 3 tasks deep, working on "CloseIn")`; err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
}

func TestPlanRejectsForeignStates(t *testing.T) {
	d := battleMage(t) // 8 facts: bits 8 to 63 of its one word are not facts
	p := htn.NewPlanner(d)
	var res htn.Result
	for _, tc := range []struct {
		name  string
		state goap.State
		opt   htn.Options
		want  string
	}{
		{"high bit", goap.StateFromWords([]uint64{1 << 8}), htn.Options{}, "htn: state has bit 8 set, beyond the domain's 8 facts: it comes from another domain"},
		{"top bit", goap.StateFromWords([]uint64{1<<63 | 1}), htn.Options{}, "htn: state has bit 63 set, beyond the domain's 8 facts"},
		{"two words", goap.StateFromWords([]uint64{0, 0}), htn.Options{}, "htn: state has 2 words, the domain's 8 facts need 1"},
		{"no words", goap.StateFromWords(nil), htn.Options{}, "htn: state has 0 words"},
		{"root out of range", d.GOAP().Initial(), htn.Options{Root: 6, HasRoot: true}, "htn: Options.Root 6 is not a compound task of the domain (it has 6"},
		{"primitive root", d.GOAP().Initial(), htn.Options{Root: htn.Primitive(0), HasRoot: true}, "htn: Options.Root -1 is not a compound task"},
	} {
		func() {
			defer func() {
				msg := fmt.Sprint(recover())
				if !strings.HasPrefix(msg, tc.want) {
					t.Errorf("%s: panic %q, want %q", tc.name, msg, tc.want)
				}
			}()
			p.Plan(&res, tc.state, tc.opt)
		}()
	}
	// Every fact set, and nothing beyond: planned as usual.
	if err := p.Plan(&res, goap.StateFromWords([]uint64{1<<8 - 1}), htn.Options{}); err != nil {
		t.Errorf("all facts set: %v", err)
	}
	// A domain of exactly 64 facts has no stray bits to check.
	facts := make([]string, 64)
	for i := range facts {
		facts[i] = fmt.Sprintf("f%d", i)
	}
	g, err := goap.NewDomain(goap.Spec{Name: "wide", Facts: facts, Actions: []goap.ActionSpec{{Name: "Act", Effects: map[string]bool{"f63": true}, Cost: goap.Const(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	wide, err := htn.NewDomain(g, htn.Spec{Root: "R", Tasks: []htn.TaskSpec{{Name: "R", Methods: []htn.MethodSpec{{Name: "m", Subtasks: []string{"Act"}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := htn.NewPlanner(wide).Plan(&res, goap.StateFromWords([]uint64{^uint64(0)}), htn.Options{}); err != nil || res.Status != htn.Found {
		t.Errorf("64 facts all set: %v %v", res.Status, err)
	}
}

// The attacks run in a child process (this test binary again), limited to
// 4 GB of address space, so that a regression fails the test instead of
// taking the machine down; the parent asserts the child's peak resident
// memory and kills it after a minute, where the fixed code takes well
// under a second.
const attackEnv = "PLOY_HTN_ATTACK"

func TestAttackChild(t *testing.T) {
	name := os.Getenv(attackEnv)
	if name == "" {
		return // only as a child of runAttack
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30}); err != nil {
		t.Fatal(err)
	}
	switch name {
	case "copies":
		d := selfCopies(t, 10_000)
		var res htn.Result
		err := htn.NewPlanner(d).Plan(&res, d.GOAP().Initial(), htn.Options{})
		fmt.Printf("outcome: %v: %v\n", res.Status, err)
	case "misspelled":
		_, err := htn.NewDomain(oneAction(t), misspelled(30_000))
		var es htn.Errors
		errors.As(err, &es)
		fmt.Printf("outcome: %d errors\n", len(es))
	case "cycle":
		_, err := htn.NewDomain(oneAction(t), cycle(100_000))
		var es htn.Errors
		errors.As(err, &es)
		fmt.Printf("outcome: %d errors\n", len(es))
	}
}

func runAttack(t *testing.T, name string) (outcome string, peakMB int64) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs a child process")
	}
	if race.Enabled {
		t.Skip("the race detector's shadow memory defeats the limits; run without -race")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestAttackChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), attackEnv+"="+name)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("attack %s: still running after a minute", name)
	}
	if err != nil {
		t.Fatalf("attack %s: %v\n%s", name, err, out)
	}
	for line := range strings.Lines(string(out)) {
		if s, ok := strings.CutPrefix(line, "outcome: "); ok {
			outcome = strings.TrimSpace(s)
		}
	}
	return outcome, int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) >> 10
}

func TestAttackSelfCopiesIsBoundedInMemory(t *testing.T) {
	outcome, peak := runAttack(t, "copies")
	t.Logf("%s; peak %d MB", outcome, peak)
	if !strings.HasPrefix(outcome, `limit_reached: htn: memory limit of 268435456 bytes reached decomposing "T": task "T" was open `) {
		t.Errorf("outcome %q, want the default memory limit (search.DefaultMaxBytes)", outcome)
	}
	// 256 MiB counted; the stack's slice grows by doubling, and while it
	// grows the old array is live too, and the collector lets the heap
	// grow past what is live: 934 MB measured. Without the cap: 6.8 GB.
	if peak > 1200 {
		t.Errorf("peak resident memory %d MB, want under 1200", peak)
	}
}

func TestAttackLongCycleIsCheckedInLinearTime(t *testing.T) {
	// The quadratic check took 46 s for 30 000 tasks; a minute is the
	// hang guard.
	outcome, peak := runAttack(t, "cycle")
	t.Logf("%s; peak %d MB", outcome, peak)
	if outcome != "100000 errors" {
		t.Errorf("outcome %q, want every task of the ring reported", outcome)
	}
}

// naiveBaseCases is the quadratic check the linear one replaced, read from
// the spec: a fixpoint by repeated sweeps, then for each task that cannot
// finish a walk to see whether it leads back to itself.
func naiveBaseCases(g *goap.Domain, spec htn.Spec) []string {
	index := map[string]int{}
	for i, ts := range spec.Tasks {
		index[ts.Name] = i
	}
	compound := func(name string) (int, bool) {
		if _, isAction := g.ActionByName(name); isAction {
			return 0, false
		}
		i, ok := index[name]
		return i, ok
	}
	finishes := make([]bool, len(spec.Tasks))
	for changed := true; changed; {
		changed = false
		for i, ts := range spec.Tasks {
			for _, m := range ts.Methods {
				all := true
				for _, s := range m.Subtasks {
					if j, ok := compound(s); ok && !finishes[j] {
						all = false
					}
				}
				if all && !finishes[i] {
					finishes[i], changed = true, true
				}
			}
		}
	}
	var out []string
	for i, ts := range spec.Tasks {
		if finishes[i] {
			continue
		}
		seen := make([]bool, len(spec.Tasks))
		var reaches func(j int) bool
		reaches = func(j int) bool {
			for _, m := range spec.Tasks[j].Methods {
				for _, s := range m.Subtasks {
					k, ok := compound(s)
					if !ok || finishes[k] {
						continue
					}
					if k == i {
						return true
					}
					if !seen[k] {
						seen[k] = true
						if reaches(k) {
							return true
						}
					}
				}
			}
			return false
		}
		kind := "can never finish"
		if reaches(i) {
			kind = "recurses with no base case"
		}
		out = append(out, ts.Name+" "+kind)
	}
	return out
}

func TestBaseCaseCheckAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 3))
	g := oneAction(t)
	rejected, cyclic := 0, 0
	for i := 0; i < 3000; i++ {
		n := 1 + r.IntN(8)
		spec := htn.Spec{Root: "T0"}
		for j := 0; j < n; j++ {
			ts := htn.TaskSpec{Name: fmt.Sprintf("T%d", j)}
			for m := 1 + r.IntN(2); m > 0; m-- {
				ms := htn.MethodSpec{Name: fmt.Sprintf("m%d", m)}
				for k := r.IntN(3); k > 0; k-- {
					if r.IntN(5) == 0 {
						ms.Subtasks = append(ms.Subtasks, "Act")
					} else {
						ms.Subtasks = append(ms.Subtasks, fmt.Sprintf("T%d", r.IntN(n)))
					}
				}
				ts.Methods = append(ts.Methods, ms)
			}
			spec.Tasks = append(spec.Tasks, ts)
		}
		want := naiveBaseCases(g, spec)
		_, err := htn.NewDomain(g, spec)
		var got []string
		var es htn.Errors
		errors.As(err, &es)
		for _, e := range es {
			name, _, _ := strings.Cut(strings.TrimPrefix(e.Msg, "task "), " ")
			kind := "can never finish"
			if strings.Contains(e.Msg, "recurses with no base case: every method leads back") {
				kind = "recurses with no base case"
				cyclic++
			}
			got = append(got, strings.Trim(name, `"`)+" "+kind)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("spec %d %+v:\ngot  %v\nwant %v", i, spec, got, want)
		}
		if len(want) > 0 {
			rejected++
		}
	}
	t.Logf("%d of 3000 rejected, %d tasks on cycles", rejected, cyclic)
	if rejected < 300 || cyclic < 300 {
		t.Errorf("the random specs hardly exercise the check")
	}
}

func TestRecursionsWithoutProgress(t *testing.T) {
	g := oneAction(t)
	method := func(name string, subtasks ...string) htn.MethodSpec {
		return htn.MethodSpec{Name: name, Subtasks: subtasks}
	}
	for _, tc := range []struct {
		name  string
		tasks []htn.TaskSpec
		want  string
	}{
		{"own task first", []htn.TaskSpec{{Name: "Guard", Methods: []htn.MethodSpec{method("Arm", "Guard", "Act"), method("Rest")}}},
			"Guard.Arm"},
		{"an action in front", []htn.TaskSpec{{Name: "Guard", Methods: []htn.MethodSpec{method("Arm", "Act", "Guard"), method("Rest")}}},
			""},
		{"behind a task that can finish without acting", []htn.TaskSpec{
			{Name: "Guard", Methods: []htn.MethodSpec{method("Arm", "Ready", "Guard"), method("Rest")}},
			{Name: "Ready", Methods: []htn.MethodSpec{method("Act", "Act"), method("Already")}},
		}, "Guard.Arm"},
		{"behind a task that always acts", []htn.TaskSpec{
			{Name: "Guard", Methods: []htn.MethodSpec{method("Arm", "Ready", "Guard"), method("Rest")}},
			{Name: "Ready", Methods: []htn.MethodSpec{method("Act", "Act")}},
		}, ""},
		{"through another task", []htn.TaskSpec{
			{Name: "Root", Methods: []htn.MethodSpec{method("go", "Act", "Attack")}},
			{Name: "Attack", Methods: []htn.MethodSpec{method("Shoot", "Act"), method("Arm", "Ready", "Act")}},
			{Name: "Ready", Methods: []htn.MethodSpec{method("Nothing"), method("Again", "Attack")}},
		}, "Attack.Arm → Ready.Again"},
	} {
		d, err := htn.NewDomain(g, htn.Spec{Root: tc.tasks[0].Name, Tasks: tc.tasks})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var cycles []string
		for _, c := range d.RecursionsWithoutProgress() {
			var steps []string
			for _, m := range c {
				steps = append(steps, d.TaskName(m.Task)+"."+d.MethodName(m.Task, m.Method))
			}
			cycles = append(cycles, strings.Join(steps, " → "))
		}
		if got := strings.Join(cycles, "; "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if c := battleMage(t).RecursionsWithoutProgress(); len(c) != 0 {
		t.Errorf("the battle mage: %v", c)
	}
}

// misspelled is n tasks, each with a subtask that names nothing but is one
// letter away from a task.
func misspelled(n int) htn.Spec {
	spec := htn.Spec{Root: "Task0"}
	for i := 0; i < n; i++ {
		spec.Tasks = append(spec.Tasks, htn.TaskSpec{Name: fmt.Sprintf("Task%d", i), Methods: []htn.MethodSpec{
			{Name: "m", Subtasks: []string{fmt.Sprintf("Tusk%d", i)}},
		}})
	}
	return spec
}

func TestOnlyTheFirstUnknownSubtasksGetSuggestions(t *testing.T) {
	// Each suggestion compares the name with every task: 30 000 of them
	// took 30 000 passes over 30 000 names.
	_, err := htn.NewDomain(oneAction(t), misspelled(150))
	var es htn.Errors
	if !errors.As(err, &es) || len(es) != 150 {
		t.Fatalf("%d errors, want 150: %v", len(es), err)
	}
	suggested := 0
	for _, e := range es {
		if strings.Contains(e.Msg, "; did you mean") {
			suggested++
		}
	}
	if suggested != 10 || !strings.HasSuffix(es[0].Msg, `did you mean "Task0"?`) {
		t.Errorf("%d suggestions, the first %q; want 10, Task0", suggested, es[0].Msg)
	}
}

func TestAttackManyMisspelledSubtasks(t *testing.T) {
	outcome, peak := runAttack(t, "misspelled")
	t.Logf("%s; peak %d MB", outcome, peak)
	if outcome != "30000 errors" {
		t.Errorf("outcome %q, want every misspelled subtask reported", outcome)
	}
}

func TestMemoryLimitCountsTheTrace(t *testing.T) {
	// Twenty tasks of two methods each, the last failing: about 2^21
	// backtracking steps over a stack that stays small. A trace of them
	// would take tens of megabytes; the cap counts it.
	g := oneAction(t)
	spec := htn.Spec{Root: "T0"}
	for i := 0; i < 20; i++ {
		next := fmt.Sprintf("T%d", i+1)
		spec.Tasks = append(spec.Tasks, htn.TaskSpec{Name: fmt.Sprintf("T%d", i), Methods: []htn.MethodSpec{
			{Name: "left", Subtasks: []string{next}}, {Name: "right", Subtasks: []string{next}},
		}})
	}
	spec.Tasks = append(spec.Tasks, htn.TaskSpec{Name: "T20", Methods: []htn.MethodSpec{
		{Name: "never", Conditions: map[string]bool{"a": true}},
	}})
	d, err := htn.NewDomain(g, spec)
	if err != nil {
		t.Fatal(err)
	}
	var tr htn.Trace
	var res htn.Result
	err = htn.NewPlanner(d).Plan(&res, g.Initial(), htn.Options{MaxSteps: 1 << 30, MaxMemory: 64 << 10, Trace: &tr})
	if !errors.Is(err, htn.ErrMemoryLimit) || len(tr.Steps) > 64<<10/16 {
		t.Errorf("%v after %d steps, a trace of %d entries: want the memory limit within 64 KiB", err, res.Steps, len(tr.Steps))
	}
	// Without a trace the same search is small, and ends.
	if err := htn.NewPlanner(d).Plan(&res, g.Initial(), htn.Options{MaxSteps: 1 << 30, MaxMemory: 64 << 10}); err != nil || res.Status != htn.NoPlan {
		t.Errorf("without a trace: %v %v after %d steps", res.Status, err, res.Steps)
	}
}

func TestConditionsOverManyFactsAreCapped(t *testing.T) {
	facts := make([]string, 10_000) // 157 words a bitset
	for i := range facts {
		facts[i] = fmt.Sprintf("f%d", i)
	}
	g, err := goap.NewDomain(goap.Spec{Name: "wide", Facts: facts, Actions: []goap.ActionSpec{{Name: "Act", Effects: map[string]bool{"f0": true}, Cost: goap.Const(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	spec := func(methods int) htn.Spec {
		ts := htn.TaskSpec{Name: "T"}
		for i := 0; i < methods; i++ {
			ts.Methods = append(ts.Methods, htn.MethodSpec{Name: fmt.Sprintf("m%d", i), Conditions: map[string]bool{facts[i%len(facts)]: true}})
		}
		// Methods without a condition share one and are not counted.
		for i := 0; i < 100_000; i++ {
			ts.Methods = append(ts.Methods, htn.MethodSpec{Name: "free"})
		}
		return htn.Spec{Root: "T", Tasks: []htn.TaskSpec{ts}}
	}
	// 27 000 conditions of two 157-word bitsets: 64.7 MiB, past the cap.
	_, err = htn.NewDomain(g, spec(27_000))
	want := "htn: htn.tasks: the 27000 method conditions over 10000 facts would take 64.7 MiB once compiled; at most 64 MiB"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	if _, err := htn.NewDomain(g, spec(1000)); err != nil {
		t.Errorf("1 000 conditions: %v", err)
	}
}
