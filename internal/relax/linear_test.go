package relax

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ploy-ai/ploy/goap"
)

// chain is n actions in a chain over n+1 facts, listed last step first:
// action i needs fact i and sets fact i+1. With start set, fact 0 holds
// and every fact is reachable; else none is.
func chain(t *testing.T, n int, start bool) *goap.Domain {
	t.Helper()
	spec := goap.Spec{Name: "chain", Initial: map[string]bool{"f0": start}}
	for i := range n + 1 {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	for i := n - 1; i >= 0; i-- {
		spec.Actions = append(spec.Actions, goap.ActionSpec{
			Name:          fmt.Sprintf("a%d", i),
			Preconditions: map[string]bool{fmt.Sprintf("f%d", i): true},
			Effects:       map[string]bool{fmt.Sprintf("f%d", i+1): true},
			Cost:          goap.Const(1),
		})
	}
	d, err := goap.NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFromWorkGrowsLinearly: on a chain listed backwards, passes over every
// action until nothing changes take a pass per step, n² literals read;
// From must read each condition and effect literal a bounded number of
// times.
func TestFromWorkGrowsLinearly(t *testing.T) {
	prev := 0
	for _, n := range []int{500, 1000, 2000} {
		d := chain(t, n, true)
		r := From(d, d.Initial(), nil)
		last, _ := d.Fact(fmt.Sprintf("f%d", n))
		if !r.Has(Literal{last, true}) {
			t.Fatalf("n=%d: the chain's end is not reached", n)
		}
		if r.work > 4*n {
			t.Errorf("n=%d: From read %d literals, more than 4 a step", n, r.work)
		}
		if prev > 0 && r.work > prev*9/4 {
			t.Errorf("n=%d: doubling the chain took From from %d to %d literals", n, prev, r.work)
		}
		prev = r.work
	}
}

// naive is the closure by passes over every action until none adds a
// literal: the definition From must agree with.
func naive(d *goap.Domain, s goap.State, capable func(goap.ActionID) bool, free ...goap.Fact) []bool {
	reached := make([]bool, 2*d.NumFacts())
	for f := goap.Fact(0); int(f) < d.NumFacts(); f++ {
		reached[Literal{f, s.Has(f)}.index()] = true
	}
	for _, f := range free {
		reached[Literal{f, true}.index()], reached[Literal{f, false}.index()] = true, true
	}
	for changed := true; changed; {
		changed = false
		for a := goap.ActionID(0); int(a) < d.NumActions(); a++ {
			if capable != nil && !capable(a) {
				continue
			}
			ok := true
			for f, v := range d.Preconditions(a).Facts {
				ok = ok && reached[Literal{f, v}.index()]
			}
			if !ok {
				continue
			}
			for f, v := range d.Effects(a).Facts {
				if l := (Literal{f, v}).index(); !reached[l] {
					reached[l], changed = true, true
				}
			}
		}
	}
	return reached
}

func TestFromMatchesPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 20))
	for round := range 300 {
		facts := 1 + r.IntN(80)
		spec := goap.Spec{Name: "r", Initial: map[string]bool{}}
		for i := range facts {
			spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
			if r.IntN(4) == 0 {
				spec.Initial[spec.Facts[i]] = true
			}
		}
		cond := func(n int) map[string]bool {
			m := map[string]bool{}
			for range n {
				m[fmt.Sprintf("f%d", r.IntN(facts))] = r.IntN(2) == 0
			}
			return m
		}
		for i := range r.IntN(60) {
			spec.Actions = append(spec.Actions, goap.ActionSpec{Name: fmt.Sprintf("a%d", i), Preconditions: cond(r.IntN(4)), Effects: cond(1 + r.IntN(3)), Cost: goap.Const(1)})
		}
		d, err := goap.NewDomain(spec)
		if err != nil {
			t.Fatal(err)
		}
		capable := func(a goap.ActionID) bool { return a%3 != 1 }
		var free []goap.Fact
		if facts > 2 && r.IntN(2) == 0 {
			free = append(free, goap.Fact(r.IntN(facts)))
		}
		for _, c := range []func(goap.ActionID) bool{nil, capable} {
			got := From(d, d.Initial(), c, free...)
			want := naive(d, d.Initial(), c, free...)
			for l := range want {
				if got.reached[l] != want[l] {
					t.Fatalf("round %d (capable set: %v): literal %d reached %v, by passes %v", round, c != nil, l, got.reached[l], want[l])
				}
			}
		}
	}
}

// TestWhyIsBounded: the explanation of a literal at the end of a blocked
// chain of 5 000 steps stops past MaxWhy, and a literal of many achievers
// names the first few.
func TestWhyIsBounded(t *testing.T) {
	d := chain(t, 5000, false)
	r := From(d, d.Initial(), nil)
	last, _ := d.Fact("f5000")
	why := r.Why(Literal{last, true})
	if len(why) > MaxWhy+200 || !strings.HasSuffix(why, "…") || !strings.HasPrefix(why, "f5000: only a4999 makes it true; it needs f4999, which only a4998 makes true") {
		t.Errorf("%d bytes: %.200s … %s", len(why), why, why[max(0, len(why)-100):])
	}

	spec := goap.Spec{Name: "many", Facts: []string{"x", "y"}}
	for i := range 20 {
		spec.Actions = append(spec.Actions, goap.ActionSpec{Name: fmt.Sprintf("m%d", i), Preconditions: map[string]bool{"y": true}, Effects: map[string]bool{"x": true}, Cost: goap.Const(1)})
	}
	many, err := goap.NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := many.Fact("x")
	got := From(many, many.Initial(), nil).Why(Literal{x, true})
	if !strings.HasPrefix(got, "x: m0, m1, m2, m3, m4, m5, m6, m7 or others makes it true; m0 needs y, which is false and which no action makes true; m1 needs y, which is blocked in turn by the above") || strings.Contains(got, "m8") {
		t.Errorf("got %s", got)
	}
}
