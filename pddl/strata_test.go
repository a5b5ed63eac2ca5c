package pddl_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/pddl"
)

// ruleBody is a random body of a derived rule, written as PDDL, with the
// dependencies it makes: the test's own account of polarity, kept apart
// from the parser's.
type ruleBody struct {
	src  string
	deps []ruleDep
}

type ruleDep struct {
	on       int
	negative bool
}

// randomBody builds a formula over derived predicates d0..d(n-1) and the
// basic predicate b, to a small depth.
func randomBody(r *rand.Rand, n, depth int, negative bool) ruleBody {
	if depth == 0 || r.IntN(3) == 0 {
		if r.IntN(4) == 0 {
			return ruleBody{src: "(b)"}
		}
		k := r.IntN(n)
		return ruleBody{src: fmt.Sprintf("(d%d)", k), deps: []ruleDep{{k, negative}}}
	}
	join := func(head string, parts ...ruleBody) ruleBody {
		out := ruleBody{src: "(" + head}
		for _, p := range parts {
			out.src += " " + p.src
			out.deps = append(out.deps, p.deps...)
		}
		out.src += ")"
		return out
	}
	switch r.IntN(6) {
	case 0:
		return join("and", randomBody(r, n, depth-1, negative), randomBody(r, n, depth-1, negative))
	case 1:
		return join("or", randomBody(r, n, depth-1, negative), randomBody(r, n, depth-1, negative))
	case 2:
		return join("not", randomBody(r, n, depth-1, !negative))
	case 3:
		// The premise of an implication is read negated.
		return join("imply", randomBody(r, n, depth-1, !negative), randomBody(r, n, depth-1, negative))
	case 4:
		return join("exists (?v)", randomBody(r, n, depth-1, negative))
	}
	return join("forall (?v)", randomBody(r, n, depth-1, negative))
}

// TestStratificationMatchesOracle parses random sets of derived rules and
// compares the verdict with a brute-force one: the rules are not
// stratified exactly where some negative dependency of a on b has a path
// of dependencies back from b to a. Where they are not, the cycle the
// error names must be a real one: each step a dependency of the stated
// polarity, closing on its start, one step negative at least.
func TestStratificationMatchesOracle(t *testing.T) {
	step := regexp.MustCompile(`^d(\d+) needs (not )?d(\d+)$`)
	refused := 0
	for seed := range 3000 {
		r := rand.New(rand.NewPCG(uint64(seed), 27))
		// Sparse sets as well as dense ones: long cycles, not only the
		// self-loops and pairs that dense sets are full of.
		n := 1 + r.IntN(8)
		var src strings.Builder
		src.WriteString("(define (domain s) (:predicates (b)")
		for i := range n {
			fmt.Fprintf(&src, " (d%d)", i)
		}
		src.WriteString(")\n")
		deps := make([][]ruleDep, n)
		for range 1 + r.IntN(2*n) {
			head := r.IntN(n)
			body := randomBody(r, n, r.IntN(4), false)
			deps[head] = append(deps[head], body.deps...)
			fmt.Fprintf(&src, " (:derived (d%d) %s)\n", head, body.src)
		}
		src.WriteString(")")

		reaches := func(from, to int) bool {
			seen := make([]bool, n)
			todo := []int{from}
			seen[from] = true
			for len(todo) > 0 {
				x := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				if x == to {
					return true
				}
				for _, d := range deps[x] {
					if !seen[d.on] {
						seen[d.on] = true
						todo = append(todo, d.on)
					}
				}
			}
			return false
		}
		want := false
		for a := range n {
			for _, d := range deps[a] {
				if d.negative && reaches(d.on, a) {
					want = true
				}
			}
		}
		_, err := pddl.ParseDomain("s.pddl", []byte(src.String()))
		if got := err != nil; got != want {
			t.Fatalf("seed %d: not stratified %v, want %v: %v\n%s", seed, got, want, err, src.String())
		}
		if err == nil {
			continue
		}
		refused++
		for _, e := range err.(pddl.ErrorList) {
			_, rest, ok := strings.Cut(e.Msg, "depends on its own negation (")
			cyc, _, ok2 := strings.Cut(rest, "): ")
			if !ok || !ok2 {
				t.Fatalf("seed %d: %v", seed, e)
			}
			first, last, negatives := -1, -1, 0
			for _, s := range strings.Split(cyc, ", ") {
				m := step.FindStringSubmatch(s)
				if m == nil {
					t.Fatalf("seed %d: step %q of %q", seed, s, cyc)
				}
				var from, to int
				fmt.Sscan(m[1], &from)
				fmt.Sscan(m[3], &to)
				neg := m[2] != ""
				if first < 0 {
					first = from
				} else if from != last {
					t.Fatalf("seed %d: the cycle %q breaks at %q", seed, cyc, s)
				}
				found := false
				for _, d := range deps[from] {
					found = found || (d.on == to && d.negative == neg)
				}
				if !found {
					t.Fatalf("seed %d: %q is no dependency (%v)", seed, s, deps[from])
				}
				if neg {
					negatives++
				}
				last = to
			}
			if last != first || negatives == 0 {
				t.Fatalf("seed %d: %q is not a cycle through a negation", seed, cyc)
			}
		}
	}
	t.Logf("%d of 3000 rule sets not stratified", refused)
	if refused < 300 || refused > 2700 {
		t.Errorf("%d of 3000 refused: the generator tests little", refused)
	}
}
