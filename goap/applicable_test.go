package goap

import (
	"math/rand/v2"
	"testing"
)

// TestApplicableMatchesPreconditions checks the fail tables, and the
// per-action test used where a table would be too large, against each
// action's preconditions, on random domains of 1 to 300 actions over states
// of one to four words.
func TestApplicableMatchesPreconditions(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tables := map[bool]int{}
	for i := 0; i < 400; i++ {
		W := 1 + i%4
		n := 1 + r.IntN(300)
		facts := 64*(W-1) + 1 + r.IntN(64)
		d := &Domain{words: W, actions: make([]action, n)}
		for range n {
			var pre [2][]uint64
			for w := 0; w < W; w++ {
				mask := r.Uint64() & r.Uint64() & r.Uint64()
				if w == W-1 && facts%64 != 0 {
					mask &= 1<<(facts%64) - 1
				}
				pre[0] = append(pre[0], mask)
				pre[1] = append(pre[1], r.Uint64()&mask)
			}
			d.masks = append(d.masks, pre[0]...)
			d.masks = append(d.masks, pre[1]...)
			d.masks = append(d.masks, make([]uint64, 2*W)...) // effects, unused
			if W == 1 {
				d.one = append(d.one, oneWordAction{preMask: pre[0][0], preValue: pre[1][0]})
			}
		}
		var ok bool
		d.fails, ok = newFailTable(d.masks, W, n)
		tables[ok]++
		app := make([]uint64, (n+63)/64)
		for range 20 {
			s := make([]uint64, W)
			for w := range s {
				s[w] = r.Uint64()
			}
			if W == 1 {
				d.applicableWord(s[0], app)
			} else {
				d.applicableWide(s, app)
			}
			for ai := 0; ai < n; ai++ {
				m := d.masks[ai*4*W : ai*4*W+2*W]
				want := true
				for w := 0; w < W; w++ {
					want = want && s[w]&m[w] == m[W+w]
				}
				if got := app[ai>>6]>>(uint(ai)&63)&1 == 1; got != want {
					t.Fatalf("%d words, %d actions (table %v), state %#x: action %d applicable %v, want %v", W, n, ok, s, ai, got, want)
				}
			}
			for b := n; b < 64*len(app); b++ {
				if app[b>>6]>>(uint(b)&63)&1 == 1 {
					t.Fatalf("%d actions: bit %d set past the last action", n, b)
				}
			}
		}
	}
	if tables[true] == 0 || tables[false] == 0 {
		t.Fatalf("tables built %d times, refused %d: both cases must be tested", tables[true], tables[false])
	}
}
