package goap

import (
	"math/rand/v2"
	"testing"
)

// TestWordSetMatchesMap checks the closed set against a map over keys that
// include zero and all ones (the key kept aside), across growth and resets.
func TestWordSetMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var set wordSet
	for round := range 5 {
		set.reset()
		want := map[uint64]bool{}
		for i := range 5000 * (round + 1) {
			var key uint64
			switch i % 5 {
			case 0:
				key = 0
			case 1:
				key = ^uint64(0)
			default:
				key = r.Uint64() & 0xfffff // repeats often
			}
			if got := set.add(key); got != !want[key] {
				t.Fatalf("round %d: add(%#x) = %v, want %v", round, key, got, !want[key])
			}
			want[key] = true
		}
	}
}
