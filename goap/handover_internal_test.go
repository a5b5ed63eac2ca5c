package goap

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestHandOverLetsGoOfTheFastSearch: a fast search that hands over to the
// general one keeps none of its storage, so that the planner holds one
// search's memory, not two: the general search may grow to MaxBytes by
// itself. (Found by an attack: a delayed search's queue and closed set,
// kept after its hand-over, had a paused search's Bytes at twice a 256 MiB
// ceiling.) Each fast path is made to hand over early (its node limit
// lowered), plans the same as it does without the hand-over, and holds
// nothing of its own once the general search runs: looked at in every
// pause of a sliced search and after an unsliced Plan.
func TestHandOverLetsGoOfTheFastSearch(t *testing.T) {
	cases := []struct {
		name   string
		d      *Domain
		search Search
		path   string
		lower  func(p *Planner)
	}{
		{"delayed forward", wideLadder(t), Forward, "delayed.forwardWide then forward", func(p *Planner) { p.delayed.limit = 3 }},
		{"delayed backward", wideLadder(t), Backward, "delayed.backward then backward", func(p *Planner) { p.delayed.limit = 3 }},
		{"dense", ladder(t, 1), Forward, "dense then word", func(p *Planner) { p.wordNodes = 12 }},
		{"hash32", idleLadder(t, 10), Forward, "hash32 then word", func(p *Planner) { p.wordNodes = 12 }},
		{"hash64", idleLadder(t, 30), Forward, "hash64 then word", func(p *Planner) { p.wordNodes = 12 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := Options{Heuristic: Blind, Search: c.search}
			goal := c.d.Goal("Top")
			want, err := NewPlanner(c.d).Plan(nil, c.d.Initial(), goal, opt)
			if err != nil || want.Status != Found {
				t.Fatalf("without a hand-over: %v, %v", want.Status, err)
			}

			p := NewPlanner(c.d)
			c.lower(p)
			got, err := p.Plan(nil, c.d.Initial(), goal, opt)
			if path := SearchPath(p); path != c.path {
				t.Fatalf("path %q, want %q: the case no longer reaches its hand-over", path, c.path)
			}
			if err != nil || got.Status != Found || got.Cost != want.Cost || !slices.Equal(got.Plan, want.Plan) {
				t.Fatalf("after a hand-over: %v at %v, %v (%v); want %v at %v", got.Status, got.Cost, got.Plan, err, want.Plan, want.Cost)
			}
			if b := fastBytes(p, strings.HasSuffix(c.path, "word")); b != 0 {
				t.Fatalf("after Plan the fast searches still hold %d bytes", b)
			}

			// Sliced, one expansion a slice: every pause after the
			// hand-over finds the fast storage gone, and Bytes counts
			// no more than the general search's own.
			p = NewPlanner(c.d)
			c.lower(p)
			p.Begin(nil, c.d.Initial(), goal, opt)
			after := 0
			for !p.Continue(1) {
				if p.slicer.handed == 0 {
					continue
				}
				after++
				if b := fastBytes(p, strings.HasSuffix(c.path, "word")); b != 0 {
					t.Fatalf("paused after the hand-over, the fast searches still hold %d bytes", b)
				}
			}
			if after == 0 {
				t.Fatalf("no pause after the hand-over (path %s)", SearchPath(p))
			}
			if res, _ := p.Result(); res.Status != Found || !slices.Equal(res.Plan, want.Plan) {
				t.Fatalf("sliced after a hand-over: %v, %v; want %v", res.Status, res.Plan, want.Plan)
			}
		})
	}
}

// fastBytes is what the fast searches hold that the general searches
// taking over from them do not use: the delayed searches' closed set,
// nodes, states and bucketed queue, the dense search's nodes and heap,
// the hashed searches' tables; and the bucketed queue unless word, which
// takes over from the one-word searches, uses it too.
func fastBytes(p *Planner, word bool) int64 {
	n := p.delayed.closedWide.Bytes() + sliceBytes(p.delayed.wideNodes) + sliceBytes(p.delayed.wideWords)
	n += sliceBytes(p.dense.nodes) + p.dense.open.Bytes()
	n += p.hash32.bytes() + p.hash64.bytes()
	if !word {
		n += p.buckets.Bytes() // word's own queue, when it takes over
	}
	return n
}

// idleLadder is ladder at cost 1 with idle facts more that no action
// touches: 10 make it a hash32 domain, 30 a hash64 one.
func idleLadder(t *testing.T, idle int) *Domain {
	spec := ladderSpec(1)
	for i := range idle {
		spec.Facts = append(spec.Facts, fmt.Sprintf("idle%d", i))
	}
	d, err := NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
