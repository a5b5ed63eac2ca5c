package pddl_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/pddl"
)

func TestTooManyTokens(t *testing.T) {
	src := "(define (domain d) (:constants " + strings.Repeat("a ", pddl.MaxTokens) + "))"
	_, err := pddl.ParseDomain("big.pddl", []byte(src))
	want := ": more than 1048576 tokens (names, numbers and parentheses) in the file"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestTooLarge(t *testing.T) {
	src := make([]byte, pddl.MaxSize+1)
	_, err := pddl.ParseProblem("huge.pddl", src)
	want := "huge.pddl: the file is 16777217 bytes, more than the limit of 16777216"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// TestLargestFilesAreCheap parses files just under MaxTokens that make
// the parser work hardest: every name an undefined one (an error and a
// map lookup each), every type a link in one chain (the cycle check), and
// reports time and memory.
func TestLargestFilesAreCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	n := pddl.MaxTokens/3 - 100
	var chain strings.Builder
	for i := range n {
		chain.WriteString("t")
		chain.WriteString(itoa(i))
		chain.WriteString(" - t")
		chain.WriteString(itoa(i + 1))
		chain.WriteString(" ")
	}
	cases := map[string]string{
		"undefined": "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (and " +
			strings.Repeat("(q) ", pddl.MaxTokens/3-100) + ") :effect (p)))",
		"type chain": "(define (domain d) (:types " + chain.String() + "))",
		"one list":   "(define (domain d) (:constants " + strings.Repeat("a ", pddl.MaxTokens-100) + "))",
		"nested":     "(define (domain d) (:action a :precondition " + strings.Repeat(strings.Repeat("(and ", 200)+strings.Repeat(")", 200), pddl.MaxTokens/402) + "))",
	}
	for name, src := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := pddl.ParseDomain("big.pddl", []byte(src))
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		first, _, _ := strings.Cut(errString(err), "\n")
		t.Logf("%-10s %8d bytes: %v, %d MiB allocated; %s", name, len(src), took.Round(time.Millisecond),
			(after.TotalAlloc-before.TotalAlloc)>>20, first)
		// Time is logged, not tested (machines are noisy, and the race
		// detector slows parsing tenfold); what a file may allocate is.
		if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 1<<30 {
			t.Errorf("%s allocated %d MiB", name, allocated>>20)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

func itoa(i int) string {
	var b [20]byte
	k := len(b)
	for {
		k--
		b[k] = byte('0' + i%10)
		if i /= 10; i == 0 {
			return string(b[k:])
		}
	}
}
