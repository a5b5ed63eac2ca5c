// Package suggest finds the name a person probably meant, for "did you mean"
// hints in error messages.
package suggest

import "strings"

// Closest returns the candidate nearest to name by edit distance, ignoring
// case, if it is near enough to be a plausible typo: at most a third of the
// longer name's length, and at least one edit. It returns "" otherwise.
// Ties go to the earlier candidate, so the answer is deterministic.
func Closest(name string, candidates []string) string {
	best, bestDist := "", -1
	lname := strings.ToLower(name)
	for _, c := range candidates {
		d := distance(lname, strings.ToLower(c))
		limit := max(len(name), len(c)) / 3
		if limit < 1 {
			limit = 1
		}
		if d > limit {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// distance is the optimal-string-alignment edit distance (insert, delete,
// substitute, swap adjacent), over bytes.
func distance(a, b string) int {
	if a == b {
		return 0
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
