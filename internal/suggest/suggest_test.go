package suggest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	facts := []string{"in_range", "in_cover", "staff_charged", "spare_crystals", "healthy"}
	for _, tc := range []struct{ name, want string }{
		{"spare_crystal", "spare_crystals"},
		{"in_rnage", "in_range"},
		{"Healthy", "healthy"},
		{"in_covr", "in_cover"},
		{"enemy_dead", ""},
		{"x", ""},
		{"healthy", "healthy"},
		{"HEALTHY", "healthy"},
		{"ÉTÉ", ""},
	} {
		if got := Closest(tc.name, facts); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Closest("été", []string{"ÉTÉ"}); got != "ÉTÉ" {
		t.Errorf("case folding beyond ASCII: got %q", got)
	}
	if got := Closest("ab", []string{"ba", "ab"}); got != "ab" {
		t.Errorf("an exact match must beat an earlier near one: got %q", got)
	}
	if got := Closest("abcd", []string{"abcx", "abcy"}); got != "abcx" {
		t.Errorf("ties go to the earlier candidate: got %q", got)
	}
}

// reference is the whole-table optimal-string-alignment distance, the
// oracle for the banded one.
func reference(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// TestWithinAgreesWithTheWholeTable checks the banded distance against the
// full table on random short strings over a small alphabet (so that
// matches and swaps are common), for every bound.
func TestWithinAgreesWithTheWholeTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() []rune {
		w := make([]rune, r.IntN(12))
		for i := range w {
			w[i] = rune('a' + r.IntN(3))
		}
		return w
	}
	for range 20000 {
		a, b := word(), word()
		want := reference(a, b)
		for bound := 0; bound <= 12; bound++ {
			d, ok := new(table).within(a, b, bound)
			if ok != (want <= bound) || ok && d != want {
				t.Fatalf("within(%q, %q, %d) = %d, %v; the distance is %d", string(a), string(b), bound, d, ok, want)
			}
		}
	}
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"precondition", "preconditions", 1},
	} {
		if got := reference([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("reference(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestWorkIsBounded asserts on the table cells computed, not on time: a
// 50 000-character name costs nothing, and misspelled names against
// 10 000 facts cost a few cells per pair, where the whole table would be
// about a hundred. (A file's loader asks for a bounded number of
// suggestions, so the pairs stay linear in the file.)
func TestWorkIsBounded(t *testing.T) {
	facts := make([]string, 10000)
	for i := range facts {
		facts[i] = fmt.Sprintf("fact_%05d", i)
	}
	long := strings.Repeat("fact_", 10000)
	cells.Store(0)
	if got := Closest(long, append(facts, long+"x")); got != "" {
		t.Errorf("a 50 000-character name got a suggestion: %q", got[:20])
	}
	if n := cells.Load(); n != 0 {
		t.Errorf("a name past MaxRunes cost %d cells", n)
	}

	const names = 100
	for _, misspell := range []func(i int) string{
		func(i int) string { return fmt.Sprintf("fcat_%05d", i) },    // found, near the end of the list
		func(i int) string { return fmt.Sprintf("zzzz_%05d", i) },    // nothing near
		func(i int) string { return fmt.Sprintf("fact_%05dxyz", i) }, // shares a long prefix with everything
	} {
		cells.Store(0)
		for i := range names {
			Closest(misspell(9999-i), facts)
		}
		pairs := int64(names * len(facts))
		whole := int64(len(misspell(0)) * len(facts[0]))
		if n := cells.Load(); n > pairs*whole/2 {
			t.Errorf("%s: %d cells for %d pairs; the banded table should stay far below the whole one", misspell(0), n, pairs)
		}
		t.Logf("%s: %.1f cells per pair", misspell(0), float64(cells.Load())/float64(pairs))
	}
}
