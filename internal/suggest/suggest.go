// Package suggest finds the name a person probably meant, for "did you mean"
// hints in error messages.
//
// Its cost is bounded whatever it is handed: names longer than MaxRunes are
// not matched, candidates whose length alone puts them too far are skipped
// without work, and the edit distance is computed in a band of the allowed
// distance around the diagonal, stopping as soon as it cannot be met. One
// call costs at most O(len(candidates) · MaxRunes · MaxRunes/3) steps,
// and in practice a few per candidate.
package suggest

import (
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// MaxRunes is the longest name, in runes, that gets a suggestion: a longer
// one is no typo of a name a person wrote, and comparing it would cost time
// for nothing.
const MaxRunes = 64

// cells counts the edit-distance table cells computed, so that tests can
// assert on the work done rather than on time.
var cells atomic.Int64

// Closest returns the candidate nearest to name by edit distance, ignoring
// case, if it is near enough to be a plausible typo: at most a third of the
// longer name's length, and at least one edit. It returns "" otherwise.
// Ties go to the earlier candidate, so the answer is deterministic.
func Closest(name string, candidates []string) string {
	a, ok := fold(name, nil)
	if !ok {
		return ""
	}
	var b []rune
	var rows table
	best, bestDist := "", MaxRunes+1
	for _, c := range candidates {
		if bestDist == 0 {
			break
		}
		// A cheap length check first: a candidate is at least as far as
		// its length differs, in runes.
		n := utf8.RuneCountInString(c)
		if n > MaxRunes {
			continue
		}
		bound := min(limit(len(a), n), bestDist-1)
		if diff(len(a), n) > bound {
			continue
		}
		b, _ = fold(c, b[:0])
		if d, ok := rows.within(a, b, bound); ok {
			best, bestDist = c, d
		}
	}
	cells.Add(rows.work)
	return best
}

// limit is the largest edit distance that still reads as a typo between
// names of la and lb runes.
func limit(la, lb int) int {
	return max(max(la, lb)/3, 1)
}

func diff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// fold appends s's runes, lower-cased, to buf; ok is false if s is longer
// than MaxRunes runes.
func fold(s string, buf []rune) ([]rune, bool) {
	if len(s) <= MaxRunes {
		ascii := true
		for i := 0; i < len(s) && ascii; i++ {
			ascii = s[i] < utf8.RuneSelf
		}
		if ascii {
			for i := 0; i < len(s); i++ {
				c := s[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, rune(c))
			}
			return buf, true
		}
	}
	for _, r := range s {
		if len(buf) == MaxRunes {
			return buf, false
		}
		buf = append(buf, unicode.ToLower(r))
	}
	return buf, true
}

// table is the three rows of the edit-distance table that the
// optimal-string-alignment recurrence reads; one per Closest call, since
// clearing it for each candidate would cost more than the band.
type table struct {
	row  [3][MaxRunes + 1]int
	work int64 // cells computed
}

// within returns the optimal-string-alignment edit distance between a and
// b (insert, delete, substitute, swap adjacent) and true if it is at most
// bound, or false as soon as it is known to be larger. Only the cells
// within bound of the diagonal can lie on a path of cost <= bound, so only
// those are computed; cells outside the band count as bound+1.
func (rows *table) within(a, b []rune, bound int) (int, bool) {
	if bound < 0 || diff(len(a), len(b)) > bound {
		return 0, false
	}
	out := bound + 1 // stands for "more than bound"
	prev2, prev, cur := &rows.row[0], &rows.row[1], &rows.row[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = min(j, out)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-bound), min(len(b), i+bound)
		if lo > 1 {
			cur[lo-1] = out
		} else {
			cur[0] = min(i, out)
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			up := out
			if j <= i-1+bound {
				up = prev[j]
			}
			v := min(up+1, cur[j-1]+1, prev[j-1]+cost, out)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] && j-2 >= i-2-bound {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if hi < len(b) {
			cur[hi+1] = out
		}
		rows.work += int64(hi - lo + 1)
		if rowMin > bound {
			return 0, false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if d := prev[len(b)]; d <= bound {
		return d, true
	}
	return 0, false
}
