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

// groundAttacks are domains and problems that parse but would ground into
// more than any memory or time: each must end with the error its want
// names, in a child process capped like the parser's attacks.
var groundAttacks = map[string]struct {
	files func() (domain, problem string)
	want  string
}{
	"12 parameters over 100 objects": {func() (string, string) {
		return paramsDomain(12, ""), objectsProblem(100, "")
	}, "(pddl.MaxGround"},
	"12 parameters and an equality no binding meets": {func() (string, string) {
		return paramsDomain(12, "(= ?x10 ?x11) (not (= ?x10 ?x11))"), objectsProblem(100, "")
	}, "(pddl.MaxJoinWork)"},
	"three atoms added per binding of three parameters": {func() (string, string) {
		return `(define (domain d) (:predicates (p ?a ?b ?c))
  (:action a :parameters (?a ?b ?c) :effect (and (p ?a ?b ?c) (p ?b ?c ?a) (p ?c ?a ?b))))`, objectsProblem(150, "")
	}, "(pddl.MaxGroundFacts)"},
	"objects of 100 000-letter names": {func() (string, string) {
		var sb strings.Builder
		sb.WriteString("(define (problem p) (:domain d) (:objects")
		for i := range 100 {
			fmt.Fprintf(&sb, " o%d%s", i, strings.Repeat("x", 100_000))
		}
		sb.WriteString(") (:goal (and)))")
		return `(define (domain d) (:predicates (p ?a ?b)) (:action a :parameters (?a ?b) :effect (p ?a ?b)))`, sb.String()
	}, "(pddl.MaxGroundSize)"},
	"a join of 200 000 static atoms with itself": {func() (string, string) {
		var init strings.Builder
		for i := range 200_000 {
			fmt.Fprintf(&init, " (s o%d o%d)", i%550, i/550)
		}
		return `(define (domain d) (:predicates (s ?a ?b) (t ?a) (u ?a ?b))
  (:action a :parameters (?a ?b ?c ?d) :precondition (and (t ?a) (s ?a ?b) (s ?c ?d)) :effect (u ?b ?d)))`,
			objectsProblem(550, init.String()+" (t o1)")
	}, "(pddl.MaxGroundActions"},
	"a universal effect over 8 million bindings": {func() (string, string) {
		return `(define (domain d) (:requirements :adl) (:predicates (p ?a ?b ?c))
  (:action a :parameters () :effect (forall (?a ?b ?c) (p ?a ?b ?c))))`, objectsProblem(200, "")
	}, "(pddl.MaxGround"},
	"a conditional effect of five variables its condition does not bind": {func() (string, string) {
		return `(define (domain d) (:requirements :adl) (:predicates (q ?a) (r ?a))
  (:action a :parameters () :effect (forall (?a ?b ?c ?d ?e) (when (q ?a) (r ?a)))))`, objectsProblem(100, "(q o1)")
	}, "(pddl.Max"},
	// A static condition leaves a million unconditional instances, which
	// join the action's own adds (once quadratic: a minute and more).
	"a million instances of an effect whose condition is static": {func() (string, string) {
		return `(define (domain d) (:requirements :adl) (:predicates (q ?a) (r ?a))
  (:action a :parameters () :effect (forall (?a ?b ?c ?d) (when (q ?a) (r ?a)))))`, objectsProblem(100, "(q o1)")
	}, ""},
	"universal conditions six deep, each written out": {func() (string, string) {
		return `(define (domain d) (:requirements :adl) (:predicates (p ?a ?b ?c ?d ?e ?f) (g))
  (:action a :parameters () :precondition (forall (?a) (forall (?b) (forall (?c) (forall (?d) (forall (?e) (forall (?f) (p ?a ?b ?c ?d ?e ?f)))))))
    :effect (g)))`, objectsProblem(16, "")
	}, "(pddl.MaxNormalWork)"},
	"an and of 60 disjunctions": {func() (string, string) {
		var pre strings.Builder
		for i := range 60 {
			fmt.Fprintf(&pre, " (or (p o%d) (q o%d))", i, i+1)
		}
		return `(define (domain d) (:requirements :adl) (:predicates (p ?a) (q ?a) (g)) (:constants` + objectNames(61) + `)
  (:action a :parameters () :precondition (and` + pre.String() + `) :effect (g)))`, "(define (problem p) (:domain d) (:init (p o1)) (:goal (g)))"
	}, ""},
	"a derived predicate of five free variables": {func() (string, string) {
		return `(define (domain d) (:requirements :adl :derived-predicates) (:predicates (p ?a) (d ?a ?b ?c ?e ?f) (g))
  (:derived (d ?a ?b ?c ?e ?f) (p ?a))
  (:action a :parameters () :precondition (exists (?x) (d ?x ?x ?x ?x ?x)) :effect (g)))`, objectsProblem(100, "(p o1)")
	}, "(pddl.Max"},
	"a recursive definition under a universal over 100 objects, three deep": {func() (string, string) {
		return `(define (domain d) (:requirements :adl :derived-predicates) (:predicates (e ?a ?b) (r ?a) (g))
  (:derived (r ?x) (forall (?a) (forall (?b) (forall (?c) (or (e ?a ?b) (r ?c))))))
  (:action a :parameters () :precondition (exists (?x) (r ?x)) :effect (g)))`, objectsProblem(100, "")
	}, "(pddl.MaxNormalWork)"},
	"a chain of 300 000 types": {func() (string, string) {
		var sb strings.Builder
		sb.WriteString("(define (domain d) (:requirements :typing) (:types")
		for i := range 299_999 {
			fmt.Fprintf(&sb, " t%d - t%d", i, i+1)
		}
		sb.WriteString(" t299999) (:predicates (p ?a - t299999)) (:action a :parameters (?a - t150000) :effect (p ?a)))")
		return sb.String(), "(define (problem p) (:domain d) (:objects a - t0 b - t200000) (:goal (p a)))"
	}, ""},
}

// paramsDomain is an action of n parameters, no precondition but pre.
func paramsDomain(n int, pre string) string {
	var params strings.Builder
	for i := range n {
		fmt.Fprintf(&params, " ?x%d", i)
	}
	return "(define (domain d) (:requirements :equality) (:predicates (p ?a))" +
		" (:action a :parameters (" + params.String() + ") :precondition (and " + pre + ") :effect (p ?x0)))"
}

// objectNames is " o0 o1 ..." of n objects.
func objectNames(n int) string {
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, " o%d", i)
	}
	return sb.String()
}

func objectsProblem(n int, init string) string {
	var sb strings.Builder
	sb.WriteString("(define (problem p) (:domain d) (:objects")
	for i := range n {
		fmt.Fprintf(&sb, " o%d", i)
	}
	sb.WriteString(") (:init " + init + ") (:goal (and)))")
	return sb.String()
}

type groundOutcome struct {
	Error       string
	MaxRSS, Sys uint64
	Seconds     float64
}

func TestGroundAttacks(t *testing.T) {
	if os.Getenv("PDDL_GROUND_ATTACK") != "" {
		t.Skip("the child runs the attack")
	}
	if race.Enabled {
		t.Skip("grounding runs on one goroutine, and its attacks take a minute under the race detector")
	}
	capped := []string{"prlimit", "--as=2000000000"}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Fatalf("prlimit is needed to cap the child's memory: %v", err)
	}
	for name, attack := range groundAttacks {
		t.Run(name, func(t *testing.T) {
			var got groundOutcome
			runCappedChild(t, capped, "TestGroundAttackChild", "PDDL_GROUND_ATTACK="+name, &got)
			if attack.want == "" && got.Error != "" || !strings.Contains(got.Error, attack.want) {
				t.Errorf("error %q, want one with %q", got.Error, attack.want)
			}
			if got.Sys > 1<<30 || got.MaxRSS > 1<<30 {
				t.Errorf("%d MB taken by the runtime, %d MB peak resident", got.Sys>>20, got.MaxRSS>>20)
			}
			t.Logf("%.2fs, %d MB peak resident: %s", got.Seconds, got.MaxRSS>>20, got.Error)
		})
	}
}

// TestGroundAttackChild is TestGroundAttacks' child: it parses and grounds
// the attack PDDL_GROUND_ATTACK names, and prints the outcome as JSON.
func TestGroundAttackChild(t *testing.T) {
	name := os.Getenv("PDDL_GROUND_ATTACK")
	if name == "" {
		t.Skip("run by TestGroundAttacks")
	}
	dom, prob := groundAttacks[name].files()
	d, err := pddl.ParseDomain("domain.pddl", []byte(dom))
	if err != nil {
		t.Fatal(err)
	}
	p, err := pddl.ParseProblem("problem.pddl", []byte(prob))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(d); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	_, err = pddl.Ground(d, p)
	seconds := time.Since(t0).Seconds()
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b, _ := json.Marshal(groundOutcome{Error: msg, MaxRSS: uint64(ru.Maxrss) << 10, Sys: ms.Sys, Seconds: seconds})
	fmt.Println(string(b))
}
