package goap

import (
	"math/bits"
	"strings"
)

// Fact is a dense fact index, resolved from a fact's name when a domain is
// built. Fact i is bit i%64 of word i/64 of a state.
type Fact int

// State is a world state: one bit per fact, a fact that is not set being
// false. States made by a domain have one word per 64 facts; a state that a
// planner passes to a cost function is a read-only view into the planner's
// storage, valid only for the duration of the call.
type State struct {
	words []uint64
}

// Has reports whether fact f holds in s.
func (s State) Has(f Fact) bool {
	return s.words[f>>6]&(1<<(uint(f)&63)) != 0
}

// Set makes fact f hold (v true) or not (v false), in place.
func (s State) Set(f Fact, v bool) {
	if v {
		s.words[f>>6] |= 1 << (uint(f) & 63)
	} else {
		s.words[f>>6] &^= 1 << (uint(f) & 63)
	}
}

// Clone returns a copy of s that shares no storage with it.
func (s State) Clone() State {
	return State{words: append([]uint64(nil), s.words...)}
}

// CopyFrom sets s to src in place; both must come from the same domain.
func (s State) CopyFrom(src State) { copy(s.words, src.words) }

// Equal reports whether s and t hold the same facts.
func (s State) Equal(t State) bool { return wordsEqual(s.words, t.words) }

// Count returns the number of facts that hold.
func (s State) Count() int {
	n := 0
	for _, w := range s.words {
		n += bits.OnesCount64(w)
	}
	return n
}

// Words returns the state's words, fact i being bit i%64 of word i/64. The
// slice aliases s.
func (s State) Words() []uint64 { return s.words }

// StateFromWords wraps words as a state. The state aliases words. Nothing
// is checked here, as the state has no domain yet: Domain.CheckState says
// whether it suits one, and Plan panics on a state that does not.
func StateFromWords(words []uint64) State { return State{words: words} }

// Condition is a set of facts required to hold or not to hold: it is met by a
// state s when s&Mask == Value, word by word. Conditions are made by a domain
// and compare bits, never names.
type Condition struct {
	mask, value []uint64
}

// Holds reports whether s meets c.
func (c Condition) Holds(s State) bool { return holds(s.words, c.mask, c.value) }

// Len returns the number of facts c constrains.
func (c Condition) Len() int {
	n := 0
	for _, w := range c.mask {
		n += bits.OnesCount64(w)
	}
	return n
}

// Unmet returns how many of c's facts s gets wrong.
func (c Condition) Unmet(s State) int { return unmet(s.words, c.mask, c.value) }

// Get reports whether c constrains f and, if so, to which value.
func (c Condition) Get(f Fact) (value, constrained bool) {
	w, b := f>>6, uint64(1)<<(uint(f)&63)
	if c.mask[w]&b == 0 {
		return false, false
	}
	return c.value[w]&b != 0, true
}

// Facts calls yield for each fact c constrains, in index order.
func (c Condition) Facts(yield func(f Fact, value bool) bool) {
	for wi, m := range c.mask {
		for m != 0 {
			b := bits.TrailingZeros64(m)
			m &= m - 1
			if !yield(Fact(wi*64+b), c.value[wi]&(1<<b) != 0) {
				return
			}
		}
	}
}

func holds(s, mask, value []uint64) bool {
	for i, m := range mask {
		if s[i]&m != value[i] {
			return false
		}
	}
	return true
}

func unmet(s, mask, value []uint64) int {
	n := 0
	for i, m := range mask {
		n += bits.OnesCount64((s[i] ^ value[i]) & m)
	}
	return n
}

func wordsEqual(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// formatFacts writes the facts set in words, by name, as {a, b}.
func formatFacts(sb *strings.Builder, names []string, words []uint64) {
	sb.WriteByte('{')
	first := true
	for wi, w := range words {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			if !first {
				sb.WriteString(", ")
			}
			first = false
			sb.WriteString(names[wi*64+b])
		}
	}
	sb.WriteByte('}')
}

// formatCondition writes a condition as {a, !b}.
func formatCondition(sb *strings.Builder, names []string, mask, value []uint64) {
	sb.WriteByte('{')
	first := true
	for wi, m := range mask {
		for m != 0 {
			b := bits.TrailingZeros64(m)
			m &= m - 1
			if !first {
				sb.WriteString(", ")
			}
			first = false
			if value[wi]&(1<<b) == 0 {
				sb.WriteByte('!')
			}
			sb.WriteString(names[wi*64+b])
		}
	}
	sb.WriteByte('}')
}

func popcount(w uint64) int { return bits.OnesCount64(w) }
