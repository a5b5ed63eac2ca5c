package pddl_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/pddl"
)

// TestADLLargestFilesAreCheap parses ADL files near MaxTokens that make
// the ADL front end work hardest, and checks what each allocates and the
// error it gets (time is logged: machines are noisy):
//   - many foralls and whens under a chain of them nested to near
//     MaxDepth, each of which would copy the chain's variables and
//     conditions into its flattened entry: refused past maxFlattened;
//   - a chain of derived predicates, each negating the next, closed into
//     one cycle: the stratification check is linear, and its error names
//     a few steps of the cycle, not all;
//   - quantifiers nested to near MaxDepth, each binding many variables.
func TestADLLargestFilesAreCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	const depth = 120 // a forall and a when per level: 240 parentheses and more
	var deep strings.Builder
	deep.WriteString("(define (domain d) (:predicates (p ?x) (s))\n (:action a :parameters () :precondition (and) :effect ")
	for i := range depth {
		fmt.Fprintf(&deep, "(forall (?v%d) (when (p ?v%d) ", i, i)
	}
	deep.WriteString("(and")
	for range (pddl.MaxTokens - 20*depth) / 12 {
		deep.WriteString(" (when (s) (s))")
	}
	deep.WriteString(")" + strings.Repeat("))", depth) + "))")

	var chain strings.Builder
	chain.WriteString("(define (domain d) (:predicates")
	n := pddl.MaxTokens / 16
	for i := range n {
		fmt.Fprintf(&chain, " (d%d)", i)
	}
	chain.WriteString(")\n")
	for i := range n {
		fmt.Fprintf(&chain, " (:derived (d%d) (not (d%d)))", i, (i+1)%n)
	}
	chain.WriteString(")")

	var quant strings.Builder
	quant.WriteString("(define (domain d) (:predicates (p ?x)) (:action a :parameters () :precondition ")
	const vars, levels = 3000, 120 // an exists and an and per level
	for i := range levels {
		quant.WriteString("(exists (")
		for k := range vars {
			fmt.Fprintf(&quant, "?x%d ", k)
		}
		fmt.Fprintf(&quant, ") (and (p ?x%d) ", i)
	}
	quant.WriteString(strings.Repeat("))", levels) + " :effect (p ?x0)))")

	for _, c := range []struct{ name, src, want string }{
		{"nested effects", deep.String(), "the foralls and whens nest too much"},
		{"derived chain", chain.String(), `derived predicate "d0" depends on its own negation (d0 needs not d1, d1 needs not d2,`},
		{"quantifiers", quant.String(), `undefined variable "?x0": not a parameter of the action`},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := pddl.ParseDomain("big.pddl", []byte(c.src))
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		msg := errString(err)
		first, _, _ := strings.Cut(msg, "\n")
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("%-14s %8d bytes: %v, %d MiB allocated; %s", c.name, len(c.src), took.Round(time.Millisecond), allocated>>20, first)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: got %s, want %s", c.name, msg, c.want)
		}
		if len(first) > 400 {
			t.Errorf("%s: an error of %d bytes", c.name, len(first))
		}
		if allocated > 1<<30 {
			t.Errorf("%s allocated %d MiB", c.name, allocated>>20)
		}
	}
}
