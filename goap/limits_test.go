package goap_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/internal/testkit/randdomain"
)

// toggles is a domain of n facts, each set and cleared by its own action at
// the given cost, plus unused facts that only widen the state, and a goal,
// Never, that no action reaches: every search of it runs until a limit. Its
// one achiever needs a fact whose achiever needs a fact nothing sets, a
// chain longer than GoalCost looks down, so that no estimate but h_max sees
// through it at once.
func toggles(n, unused int, cost float64) goap.Spec {
	s := goap.Spec{Name: "toggles"}
	for i := 0; i < n+unused; i++ {
		s.Facts = append(s.Facts, randdomain.FactName(i))
	}
	s.Facts = append(s.Facts, "never", "blocked", "locked")
	s.Actions = append(s.Actions,
		goap.ActionSpec{Name: "finish", Preconditions: map[string]bool{"blocked": true}, Effects: map[string]bool{"never": true}, Cost: goap.Const(cost)},
		goap.ActionSpec{Name: "unblock", Preconditions: map[string]bool{"locked": true}, Effects: map[string]bool{"blocked": true}, Cost: goap.Const(cost)})
	for i := 0; i < n; i++ {
		f := randdomain.FactName(i)
		s.Actions = append(s.Actions,
			goap.ActionSpec{Name: "set_" + f, Preconditions: map[string]bool{f: false}, Effects: map[string]bool{f: true}, Cost: goap.Const(cost)},
			goap.ActionSpec{Name: "clear_" + f, Preconditions: map[string]bool{f: true}, Effects: map[string]bool{f: false}, Cost: goap.Const(cost)})
	}
	all := map[string]bool{"never": false}
	for i := 0; i < n; i++ {
		all[randdomain.FactName(i)] = true
	}
	s.Goals = []goap.GoalSpec{
		{Name: "Never", Conditions: map[string]bool{"never": true}},
		{Name: "All", Conditions: all}, // backward: regressing it explores 3^n partial states
	}
	return s
}

// TestEverySearchPathObeysTheMemoryCeiling runs each search path (the
// options and domain pick it) on a domain far larger than the ceiling,
// with an unbounded state budget: each must stop on the memory ceiling,
// having allocated a small multiple of it, where without the ceiling it
// would run to its work limit and allocate hundreds of megabytes.
func TestEverySearchPathObeysTheMemoryCeiling(t *testing.T) {
	const ceiling = 4 << 20
	cases := []struct {
		name string
		spec goap.Spec
		goal string
		opt  goap.Options
	}{
		{"wordSearch.forward", toggles(40, 0, 1.3), "Never", goap.Options{}},               // fractional cost: the hash-map search
		{"delayedSearch.forward", toggles(40, 0, 1), "Never", goap.Options{}},              // whole costs: delayed duplicates
		{"delayedSearch.forwardWide", toggles(40, 30, 1), "Never", goap.Options{}},         // two words
		{"forward", toggles(40, 0, 1), "Never", goap.Options{MaxDepth: 1000}},              // depth limit: the general search
		{"forward traced", toggles(40, 0, 1), "Never", goap.Options{Trace: &goap.Trace{}}}, // the trace shares the ceiling
		{"forward wide", toggles(40, 30, 1.3), "Never", goap.Options{}},                    // two words, fractional
		{"delayedSearch.backward", toggles(40, 0, 1), "All", goap.Options{Search: goap.Backward, Heuristic: goap.Blind}},
		{"backward", toggles(40, 0, 1), "All", goap.Options{Search: goap.Backward, Heuristic: goap.Blind, MaxDepth: 1000}}, // h_max would dive to the start in 40
		{"backward traced", toggles(40, 0, 1), "All", goap.Options{Search: goap.Backward, Heuristic: goap.Blind, Trace: &goap.Trace{}}},
	}
	for _, c := range cases {
		d := mustDomain(t, c.spec)
		start := d.NewState()
		c.opt.Budget = math.MaxInt
		c.opt.MaxBytes = ceiling
		c.opt.MaxWork = 1 << 23
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := goap.NewPlanner(d).Plan(nil, start, d.Goal(c.goal), c.opt)
		runtime.ReadMemStats(&after)
		var se *goap.SearchError
		if !errors.Is(err, goap.ErrBudgetExhausted) || !errors.As(err, &se) || se.Bound != goap.BoundBytes || se.Limit != ceiling || res.Bound != goap.BoundBytes {
			t.Errorf("%s: %+v, %v: want the memory ceiling reached", c.name, res, err)
			continue
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("memory ceiling of %d bytes", ceiling)) {
			t.Errorf("%s: error %q does not name the ceiling", c.name, err)
		}
		if res.Expanded == 0 {
			t.Errorf("%s: nothing expanded under a %d-byte ceiling", c.name, ceiling)
		}
		// Slices that grow by reallocation allocate about twice their final
		// size in all; the ceiling counts them at their capacity already.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*ceiling {
			t.Errorf("%s: %d bytes allocated under a %d-byte ceiling (%d expanded)", c.name, alloc, ceiling, res.Expanded)
		}
	}
}

// TestWorkLimit: many applicable actions per state make each expansion
// dear; the work limit stops the search long before the state budget.
func TestWorkLimit(t *testing.T) {
	d := mustDomain(t, toggles(40, 0, 1.3))
	const limit = 1 << 20
	for _, search := range searches {
		goal := d.Goal("Never")
		if search == goap.Backward {
			goal = d.Goal("All")
		}
		res, err := goap.NewPlanner(d).Plan(nil, d.NewState(), goal, goap.Options{Search: search, Heuristic: goap.Blind, Budget: math.MaxInt, MaxWork: limit})
		var se *goap.SearchError
		if !errors.As(err, &se) || se.Bound != goap.BoundWork || se.Limit != limit || !strings.Contains(err.Error(), "work limit of 1048576") {
			t.Fatalf("%v: %+v, %v: want the work limit reached", search, res, err)
		}
		// Forward: 82 actions tested (the toggles, finish and unblock) and
		// at most 40 successors of 2 units per expansion, so no more than
		// limit/82 expansions and at least limit/162 - 1 (the last one's
		// worst case must fit).
		if search == goap.Forward && (res.Expanded > limit/82 || res.Expanded < limit/162-1) {
			t.Errorf("forward: %d expanded under a work limit of %d", res.Expanded, limit)
		}
	}
}

// TestWorkLimitCountsRelaxations: forward HMax runs a relaxation per
// successor, a pass over every operator and literal until nothing changes,
// which dwarfs the rest of an expansion; the work limit must count it.
func TestWorkLimitCountsRelaxations(t *testing.T) {
	d := mustDomain(t, toggles(40, 0, 1.3))
	const limit = 1 << 20
	res, err := goap.NewPlanner(d).Plan(nil, d.NewState(), d.Goal("All"), goap.Options{Heuristic: goap.HMax, Budget: math.MaxInt, MaxWork: limit})
	if res.Bound != goap.BoundWork || !errors.Is(err, goap.ErrBudgetExhausted) {
		t.Fatalf("%+v, %v: want the work limit reached", res, err)
	}
	// An expansion here makes at least one new node, whose relaxation
	// passes at least twice (one that changes, one that confirms) over 80
	// operators and 160 literals: at least 480 units an expansion.
	if res.Expanded > limit/480+1 {
		t.Errorf("%d expanded under a work limit of %d: relaxations not counted", res.Expanded, limit)
	}
}

// TestBudgetCannotOutgrowMemory: a budget of a trillion states is bounded
// by the default memory ceiling, and the status says so.
func TestBudgetCannotOutgrowMemory(t *testing.T) {
	d := mustDomain(t, toggles(24, 0, 1))
	res, err := goap.NewPlanner(d).Plan(nil, d.NewState(), d.Goal("Never"), goap.Options{Budget: min(1e12, math.MaxInt), MaxBytes: 1 << 20})
	if res.Status != goap.LimitReached || res.Bound != goap.BoundBytes || !errors.Is(err, goap.ErrBudgetExhausted) {
		t.Fatalf("%+v, %v: want budget exhausted on bytes", res, err)
	}
	// The state budget, when it is the smaller, still decides and says so.
	res, err = goap.NewPlanner(d).Plan(nil, d.NewState(), d.Goal("Never"), goap.Options{Budget: 10})
	var se *goap.SearchError
	if res.Bound != goap.BoundStates || !errors.As(err, &se) || se.Bound != goap.BoundStates || se.Limit != 10 || res.Expanded != 10 {
		t.Fatalf("%+v, %v: want the state budget of 10 spent", res, err)
	}
}

// TestAnExpansionThatCannotFitIsNotStarted: with a ceiling smaller than
// one expansion's worst case, the search stops before the first one.
func TestAnExpansionThatCannotFitIsNotStarted(t *testing.T) {
	d := mustDomain(t, domains.BattleMage())
	for _, search := range searches {
		res, err := goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Search: search, MaxBytes: 64})
		if res.Status != goap.LimitReached || res.Bound != goap.BoundBytes || res.Expanded != 0 || err == nil {
			t.Errorf("%v: %+v, %v: want bytes exhausted before any expansion", search, res, err)
		}
		// A start state that meets the goal needs no expansion at all.
		res, err = goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goal("GetHealthy"), goap.Options{Search: search, MaxBytes: 64})
		if res.Status != goap.Found || err != nil {
			t.Errorf("%v: goal already met: %+v, %v", search, res, err)
		}
	}
}

// TestAttacksEndWithinLimits runs resource attacks on the planner at the
// default limits in a child process whose address space is capped at 2 GB
// and which is killed after a minute (the fixed code takes a few seconds):
// each must end with the limit reached on the bound named, its peak memory
// well under the cap. Before the limits, each ran the machine out of memory
// or for minutes.
func TestAttacksEndWithinLimits(t *testing.T) {
	// The child's address space is capped at 2 GB, except under the race
	// detector, whose shadow memory needs terabytes of it: there the peak
	// resident memory the child reports is the only memory bound.
	cap := []string{"prlimit", "--as=2000000000"}
	if race.Enabled {
		cap = nil
	} else if _, err := exec.LookPath("prlimit"); err != nil {
		t.Fatalf("prlimit is needed to cap the child's memory: %v", err)
	}
	hangGuard := time.Minute
	if race.Enabled {
		hangGuard = 10 * time.Minute // the detector slows the searches tenfold
	}
	for _, c := range []struct {
		attack string
		bound  goap.Bound
	}{
		{"wide", goap.BoundBytes},     // 20 toggles and 100 000 unused facts: 12.5 KB states
		{"trillion", goap.BoundBytes}, // Budget 1e12 on 40 toggles
		{"trace", goap.BoundBytes},    // a traced search of 200 actions
		{"actions", goap.BoundWork},   // 100 000 actions
	} {
		t.Run(c.attack, func(t *testing.T) {
			args := append(cap, os.Args[0], "-test.run=^$")
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Env = append(os.Environ(), "GOAP_ATTACK="+c.attack)
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			timer := time.AfterFunc(hangGuard, func() { cmd.Process.Kill() })
			err := cmd.Wait()
			timer.Stop()
			var got attackResult
			i := strings.Index(out.String(), "{")
			if err != nil || i < 0 || json.Unmarshal([]byte(strings.SplitN(out.String()[i:], "\n", 2)[0]), &got) != nil {
				t.Fatalf("child: %v\n%s", err, out.String())
			}
			if got.Status != goap.LimitReached.String() || got.Bound != c.bound.String() {
				t.Errorf("%s: %+v, want the limit reached on %v", c.attack, got, c.bound)
			}
			// Sys is what the Go runtime took from the system; the race
			// detector's shadow memory, outside it, inflates the peak
			// resident size fivefold, so that is only checked without it.
			if got.Sys > 1<<30 || !race.Enabled && got.MaxRSS > 1<<30 {
				t.Errorf("%s: %d MB taken by the runtime, %d MB peak resident", c.attack, got.Sys>>20, got.MaxRSS>>20)
			}
			t.Logf("%+v", got)
		})
	}
}

type attackResult struct {
	Status, Bound, Error string
	Expanded             int
	MaxRSS, Sys          uint64
	Seconds              float64
}

// TestMain runs TestAttacksEndWithinLimits' child when GOAP_ATTACK names
// an attack, instead of the tests.
func TestMain(m *testing.M) {
	if name := os.Getenv("GOAP_ATTACK"); name != "" {
		runAttack(name)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runAttack runs one attack and prints its outcome as JSON.
func runAttack(name string) {
	var spec goap.Spec
	var opt goap.Options
	switch name {
	case "wide":
		spec = toggles(20, 100_000, 1)
	case "trillion":
		spec, opt.Budget = toggles(40, 0, 1), min(1e12, math.MaxInt)
	case "trace":
		spec, opt.Trace = toggles(100, 0, 1), &goap.Trace{}
	case "actions":
		spec = goap.Spec{Name: "many", Facts: []string{"never", "blocked", "locked"}}
		for i := 0; i < 32; i++ {
			spec.Facts = append(spec.Facts, randdomain.FactName(i))
		}
		for i := 0; i < 100_000; i++ {
			spec.Actions = append(spec.Actions, goap.ActionSpec{Name: fmt.Sprintf("a%d", i),
				Effects: map[string]bool{randdomain.FactName(i % 32): true, randdomain.FactName((i/32)%32 ^ 1): false}, Cost: goap.Const(float64(1 + i%3))})
		}
		spec.Actions = append(spec.Actions,
			goap.ActionSpec{Name: "finish", Preconditions: map[string]bool{"blocked": true}, Effects: map[string]bool{"never": true}, Cost: goap.Const(1)},
			goap.ActionSpec{Name: "unblock", Preconditions: map[string]bool{"locked": true}, Effects: map[string]bool{"blocked": true}, Cost: goap.Const(1)})
		spec.Goals = []goap.GoalSpec{{Name: "Never", Conditions: map[string]bool{"never": true}}}
	default:
		panic("unknown attack " + name)
	}
	t0 := time.Now()
	d, err := goap.NewDomain(spec)
	if err != nil {
		panic(err)
	}
	res, err := goap.NewPlanner(d).Plan(nil, d.NewState(), d.Goal("Never"), opt)
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	out, _ := json.Marshal(attackResult{Status: res.Status.String(), Bound: res.Bound.String(), Error: fmt.Sprint(err),
		Expanded: res.Expanded, MaxRSS: uint64(ru.Maxrss) << 10, Sys: ms.Sys, Seconds: time.Since(t0).Seconds()})
	fmt.Printf("%s\n", out)
}
