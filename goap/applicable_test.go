package goap

import (
	"math/rand/v2"
	"testing"
)

// TestApplicableWordMatchesPreconditions checks the fail tables, and the
// per-action test used where a table would be too large, against each
// action's preconditions, on random one-word domains of 1 to 300 actions.
func TestApplicableWordMatchesPreconditions(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tables := 0
	for i := 0; i < 300; i++ {
		facts := 1 + r.IntN(64)
		all := uint64(1)<<facts - 1
		if facts == 64 {
			all = ^uint64(0)
		}
		d := &Domain{}
		for range 1 + i {
			mask := r.Uint64() & r.Uint64() & all
			d.one = append(d.one, oneWordAction{preMask: mask, preValue: r.Uint64() & mask})
		}
		var ok bool
		d.fails, ok = newFailTable(d.one)
		if ok {
			tables++
		}
		app := make([]uint64, (len(d.one)+63)/64)
		for range 20 {
			s := r.Uint64() & all
			d.applicableWord(s, app)
			for ai, a := range d.one {
				got := app[ai>>6]>>(uint(ai)&63)&1 == 1
				if want := s&a.preMask == a.preValue; got != want {
					t.Fatalf("%d facts, %d actions (table %v), state %#x: action %d applicable %v, want %v", facts, len(d.one), ok, s, ai, got, want)
				}
			}
			for b := len(d.one); b < 64*len(app); b++ {
				if app[b>>6]>>(uint(b)&63)&1 == 1 {
					t.Fatalf("%d actions: bit %d set past the last action", len(d.one), b)
				}
			}
		}
	}
	if tables == 0 || tables == 300 {
		t.Fatalf("%d of 300 domains had a table: both cases must be tested", tables)
	}
}
