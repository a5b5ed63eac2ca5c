package goap

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// wideSpec is a chain of actions over facts facts, with goals goals a few
// steps to many steps along it (the shape of internal/testkit/widefile's files):
// action i needs fact i mod facts and sets fact i+1, goal j wants fact
// 7j+1.
func wideSpec(goals, actions, facts int) Spec {
	spec := Spec{Name: "wide", Initial: map[string]bool{"f0": true}}
	for i := range facts {
		spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
	}
	for i := range actions {
		spec.Actions = append(spec.Actions, ActionSpec{
			Name:          fmt.Sprintf("a%d", i),
			Preconditions: map[string]bool{fmt.Sprintf("f%d", i%facts): true},
			Effects:       map[string]bool{fmt.Sprintf("f%d", (i+1)%facts): true},
			Cost:          Const(float64(1 + i%3)),
		})
	}
	for j := range goals {
		spec.Goals = append(spec.Goals, GoalSpec{Name: fmt.Sprintf("g%d", j), Conditions: map[string]bool{fmt.Sprintf("f%d", (7*j+1)%facts): true}})
	}
	return spec
}

// TestBuildWorkGrowsLinearly builds domains of growing size and checks that
// NewDomain's counted work (mask words and literals written and read)
// doubles, not quadruples, when the goals and actions double, and when the
// facts do. Counting goals × actions × words (a per-goal pass over every
// action, as the goal-count bound once was) quadruples it in the first.
// Actions and facts doubling together quadruple it, and must: every action
// holds masks as wide as the facts, which MaxMaskBytes bounds.
func TestBuildWorkGrowsLinearly(t *testing.T) {
	work := func(goals, actions, facts int) int {
		d, err := NewDomain(wideSpec(goals, actions, facts))
		if err != nil {
			t.Fatal(err)
		}
		return d.buildWork
	}
	for _, c := range []struct {
		name  string
		shape func(n int) (int, int, int)
	}{
		{"goals and actions", func(n int) (int, int, int) { return n, n, 2048 }},
		{"facts", func(n int) (int, int, int) { return 300, 300, 8 * n }},
	} {
		prev := 0
		for _, n := range []int{256, 512, 1024} {
			w := work(c.shape(n))
			t.Logf("%s, n=%d: %d units", c.name, n, w)
			if prev > 0 && w > prev*9/4 {
				t.Errorf("%s: doubling n took the build from %d to %d units of work (%.2fx): more than linear", c.name, prev, w, float64(w)/float64(prev))
			}
			prev = w
		}
	}
}

// TestMostFixedMatchesDefinition checks the goal-count bound's divisor,
// counted from the achievers, against its definition: the most goal facts
// one action sets to their goal value, over every action.
func TestMostFixedMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	for round := range 200 {
		facts := 1 + r.IntN(150)
		spec := Spec{Name: "r"}
		for i := range facts {
			spec.Facts = append(spec.Facts, fmt.Sprintf("f%d", i))
		}
		randomCondition := func(n int) map[string]bool {
			m := map[string]bool{}
			for range n {
				m[fmt.Sprintf("f%d", r.IntN(facts))] = r.IntN(2) == 0
			}
			return m
		}
		for i := range r.IntN(30) {
			spec.Actions = append(spec.Actions, ActionSpec{Name: fmt.Sprintf("a%d", i), Effects: randomCondition(r.IntN(8)), Cost: Const(1)})
		}
		for j := range 5 {
			spec.Goals = append(spec.Goals, GoalSpec{Name: fmt.Sprintf("g%d", j), Conditions: randomCondition(1 + r.IntN(12))})
		}
		d, err := NewDomain(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range d.Goals() {
			want := 0
			for i := range d.actions {
				a := &d.actions[i]
				n := 0
				for w := range g.cond.mask {
					n += popcount(a.effMask[w] & g.cond.mask[w] &^ (a.effValue[w] ^ g.cond.value[w]))
				}
				want = max(want, n)
			}
			if got := g.mostFixed(); got != want {
				t.Fatalf("round %d, goal %s: %d goal facts fixed by one action, want %d", round, g.Name(), got, want)
			}
		}
	}
}

// TestMaxMaskBytes checks that a domain whose masks would pass
// MaxMaskBytes is refused before they are made, with the figures.
func TestMaxMaskBytes(t *testing.T) {
	// 65 536 facts make masks of 8 KiB: 8 192 actions take 4*8192+2 of
	// them, 256 MiB and 16 KiB.
	spec := wideSpec(0, 8192, 1<<16)
	if got := maskBytes(spec, 1024); got <= MaxMaskBytes {
		t.Fatalf("the test's domain takes %d bytes of masks, not past the limit", got)
	}
	_, err := NewDomain(spec)
	if err == nil || !strings.Contains(err.Error(), "goap.MaxMaskBytes") || !strings.Contains(err.Error(), fmt.Sprint(maskBytes(spec, 1024))) {
		t.Fatalf("NewDomain: %v, want the mask limit with the bytes", err)
	}
	spec.Actions = spec.Actions[:8000] // 32 002 masks: under it
	if got := maskBytes(spec, 1024); got > MaxMaskBytes {
		t.Fatalf("%d actions take %d bytes", len(spec.Actions), got)
	}
}
