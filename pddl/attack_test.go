//go:build unix

package pddl_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/internal/testkit/race"
	"github.com/ploy-ai/ploy/pddl"
)

// attacks are hostile inputs at the parser's limits: deep, huge, repeated,
// cyclic and malformed. Each must end, in a child process capped at 2 GB
// of address space and killed after a minute, with its error (or parse),
// having taken well under a gigabyte from the system.
var attacks = map[string]func() (domain, problem string){
	"a million open parentheses": func() (string, string) {
		return strings.Repeat("(", 1_000_000), ""
	},
	"nesting at the depth limit, repeated": func() (string, string) {
		deep := strings.Repeat("(and ", pddl.MaxDepth-8) + strings.Repeat(")", pddl.MaxDepth-8)
		return "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition " +
			strings.Repeat(deep, (pddl.MaxSize-200)/len(deep)) + " :effect (p)))", ""
	},
	"a million undefined predicates": func() (string, string) {
		return "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (and " +
			strings.Repeat("(qq) ", 1_000_000) + ") :effect (p)))", ""
	},
	"a cycle of 200 000 types": func() (string, string) {
		var sb strings.Builder
		sb.WriteString("(define (domain d) (:requirements :typing) (:types")
		for i := range 200_000 {
			fmt.Fprintf(&sb, " t%d - t%d", i, (i+1)%200_000)
		}
		sb.WriteString("))")
		return sb.String(), ""
	},
	"300 000 objects and atoms": func() (string, string) {
		var sb strings.Builder
		sb.WriteString("(define (problem p) (:domain d) (:objects")
		for i := range 300_000 {
			fmt.Fprintf(&sb, " o%d", i)
		}
		sb.WriteString(") (:init")
		for i := range 300_000 {
			fmt.Fprintf(&sb, " (p o%d)", i)
		}
		sb.WriteString(") (:goal (p o0)))")
		return "(define (domain d) (:predicates (p ?x)))", sb.String()
	},
	"16 MiB of bytes that are not PDDL": func() (string, string) {
		return strings.Repeat("\x00\xff(", pddl.MaxSize/3), ""
	},
}

type attackOutcome struct {
	Errors      int
	MaxRSS, Sys uint64
	Seconds     float64
}

func TestAttacksEndWithinLimits(t *testing.T) {
	if os.Getenv("PDDL_ATTACK") != "" {
		t.Skip("the child runs the attack")
	}
	// The race detector's shadow memory needs terabytes of address space:
	// under it, the peak the child reports is the only memory bound.
	capped := []string{"prlimit", "--as=2000000000"}
	if race.Enabled {
		capped = nil
	} else if _, err := exec.LookPath("prlimit"); err != nil {
		t.Fatalf("prlimit is needed to cap the child's memory: %v", err)
	}
	for name := range attacks {
		t.Run(name, func(t *testing.T) {
			var got attackOutcome
			runCappedChild(t, capped, "TestAttackChild", "PDDL_ATTACK="+name, &got)
			if got.Sys > 1<<30 || !race.Enabled && got.MaxRSS > 1<<30 {
				t.Errorf("%d MB taken by the runtime, %d MB peak resident", got.Sys>>20, got.MaxRSS>>20)
			}
			t.Logf("%+v", got)
		})
	}
}

// TestAttackChild is TestAttacksEndWithinLimits' child: it parses the
// attack PDDL_ATTACK names and prints what it cost as JSON.
func TestAttackChild(t *testing.T) {
	name := os.Getenv("PDDL_ATTACK")
	if name == "" {
		t.Skip("run by TestAttacksEndWithinLimits")
	}
	domSrc, probSrc := attacks[name]()
	t0 := time.Now()
	errs := 0
	d, err := pddl.ParseDomain("domain.pddl", []byte(domSrc))
	if err != nil {
		errs++
	}
	if probSrc != "" {
		p, err := pddl.ParseProblem("problem.pddl", []byte(probSrc))
		if err != nil {
			errs++
		} else if d != nil {
			if err := p.Check(d); err != nil {
				errs++
			}
		}
	}
	seconds := time.Since(t0).Seconds()
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b, _ := json.Marshal(attackOutcome{Errors: errs, MaxRSS: uint64(ru.Maxrss) << 10, Sys: ms.Sys, Seconds: seconds})
	fmt.Println(string(b))
}

// runCappedChild runs the test binary's test named child, capped as the
// capped command prefix says (prlimit, or nothing), with env set, kills it
// after a minute, and decodes the JSON line it prints into outcome.
func runCappedChild(t *testing.T, capped []string, child, env string, outcome any) {
	t.Helper()
	args := append(append([]string{}, capped...), os.Args[0], "-test.run=^"+child+"$")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), env)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	i := strings.Index(out.String(), "{")
	if err != nil || i < 0 || json.Unmarshal([]byte(strings.SplitN(out.String()[i:], "\n", 2)[0]), outcome) != nil {
		t.Fatalf("child: %v\n%s", err, out.String())
	}
}
