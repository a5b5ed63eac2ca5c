package goap

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestHandOverLetsGoOfTheFastSearch: a fast search that hands over to the
// general one keeps none of its storage, so that the planner holds one
// search's memory, not two: the general search may grow to MaxBytes by
// itself. (Found by an attack: a delayed search's queue and closed set,
// kept after its hand-over, had a paused search's Bytes at twice a 256 MiB
// ceiling.) Each fast path is made to hand over at the earliest and the
// latest point its search allows (its node limit lowered), and must plan
// as it does without the hand-over, hold nothing of its own once the
// general search runs (looked at in every pause of a sliced search and
// after Plan), stay within its node limit, and report the PeakBytes and
// Work of both searches.
func TestHandOverLetsGoOfTheFastSearch(t *testing.T) {
	delayedLimit := func(p *Planner, n int) { p.delayed.limit = n }
	wordLimit := func(p *Planner, n int) { p.wordNodes = n }
	cases := []struct {
		name     string
		d        *Domain
		search   Search
		path     string
		setLimit func(p *Planner, n int)
		least    int // the least limit the search starts under
		heur     Heuristic
	}{
		{"delayed forward", wideLadder(t), Forward, "delayed.forwardWide then forward", delayedLimit, 3, Blind},
		{"delayed backward", wideLadder(t), Backward, "delayed.backward then backward", delayedLimit, 3, Blind},
		{"dense", ladder(t, 1), Forward, "dense then word", wordLimit, 12, Blind},
		{"hash32", idleLadder(t, 10), Forward, "hash32 then word", wordLimit, 12, Blind},
		{"hash64", idleLadder(t, 30), Forward, "hash64 then word", wordLimit, 12, Blind},
		// A fan's start expands into a node per action: at a limit of
		// the action count a one-word search hands over before its first
		// expansion, which would make one node too many.
		{"dense fan", fan(t, 8), Forward, "dense then word", wordLimit, 8, GoalCount},
		{"hash32 fan", fan(t, 20), Forward, "hash32 then word", wordLimit, 20, GoalCount},
		{"hash64 fan", fan(t, 40), Forward, "hash64 then word", wordLimit, 40, GoalCount},
	}
	for _, c := range cases {
		opt := Options{Heuristic: c.heur, Search: c.search}
		goal := c.d.Goal("Top")
		// The latest hand-over: the largest limit under which the fast
		// search still hands over. There the fast search holds more than
		// the general one (the delayed searches keep every duplicate),
		// so that PeakBytes must be its.
		latest := c.least
		for ; latest < 1<<16; latest++ {
			p := NewPlanner(c.d)
			c.setLimit(p, latest+1)
			p.Plan(nil, c.d.Initial(), goal, opt)
			if SearchPath(p) != c.path {
				break
			}
		}
		for _, limit := range []int{c.least, latest} {
			t.Run(fmt.Sprintf("%s/limit=%d", c.name, limit), func(t *testing.T) {
				most := 0 // the one-word searches number nodes in bits they must fit
				if strings.HasSuffix(c.path, "word") {
					most = limit
				}
				k := testHandOver(t, c.d, goal, opt, c.path, most, func(p *Planner) { c.setLimit(p, limit) })
				// A fan at a limit of its action count hands over at
				// once; one more node of room, and its start fits, so it
				// must expand it first: no hand-over sooner than needed.
				if c.heur == GoalCount && limit == c.least {
					if k != 0 {
						t.Fatalf("limit %d: %d expansions before the hand-over, want 0", limit, k)
					}
					if k := testHandOver(t, c.d, goal, opt, c.path, most+1, func(p *Planner) { c.setLimit(p, limit+1) }); k == 0 {
						t.Fatalf("limit %d: handed over before its first expansion, which fits", limit+1)
					}
				}
			})
		}
	}
}

// testHandOver is TestHandOverLetsGoOfTheFastSearch for one search, which
// lower makes hand over on path; the fast search must make at most most
// nodes, if not 0. It returns the states the fast search expanded.
func testHandOver(t *testing.T, d *Domain, goal *Goal, opt Options, path string, most int, lower func(p *Planner)) int {
	want, err := NewPlanner(d).Plan(nil, d.Initial(), goal, opt)
	if err != nil || want.Status != Found {
		t.Fatalf("without a hand-over: %v, %v", want.Status, err)
	}

	whole := NewPlanner(d)
	lower(whole)
	got, err := whole.Plan(nil, d.Initial(), goal, opt)
	if taken := SearchPath(whole); taken != path {
		t.Fatalf("path %q, want %q: the case no longer reaches its hand-over", taken, path)
	}
	if err != nil || got.Status != Found || got.Cost != want.Cost || !slices.Equal(got.Plan, want.Plan) {
		t.Fatalf("after a hand-over: %v at %v, %v (%v); want %v at %v", got.Status, got.Cost, got.Plan, err, want.Plan, want.Cost)
	}
	if b := fastBytes(whole, strings.HasSuffix(path, "word")); b != 0 {
		t.Fatalf("after Plan the fast searches still hold %d bytes", b)
	}
	// What the general search held at its end, for PeakBytes below.
	generalPart := whole.held(len(whole.nodes), nil)
	if strings.HasSuffix(path, "word") {
		generalPart = whole.held(len(whole.word.nodes), nil)
	}
	// The same planner, warm, hands over again where it did (its lowered
	// limit kept) with the same result; and a search of it that ends
	// before its hand-over reports what a new planner's does, nothing of
	// the hand-over before it.
	again, _ := whole.Plan(nil, d.Initial(), goal, opt)
	if taken := SearchPath(whole); taken != path || !reflect.DeepEqual(again, got) {
		t.Fatalf("planned again on %s: %+v; the first time on %s: %+v", taken, again, path, got)
	}
	short := opt
	short.Budget = 1
	fresh := NewPlanner(d)
	lower(fresh)
	want1, _ := fresh.Plan(nil, d.Initial(), goal, short)
	if got1, _ := whole.Plan(nil, d.Initial(), goal, short); !strings.Contains(SearchPath(fresh), " then ") && !reflect.DeepEqual(got1, want1) {
		t.Fatalf("stopped before its hand-over after one: %+v; on a new planner %+v", got1, want1)
	}

	// Sliced, one expansion a slice: every pause after the hand-over
	// finds the fast storage gone.
	p := NewPlanner(d)
	lower(p)
	p.Begin(nil, d.Initial(), goal, opt)
	after, k := 0, 0
	for !p.Continue(1) {
		if p.handedPeak == 0 {
			continue // not handed over yet (a new planner's is 0)
		}
		after++
		k = p.slicer.handed // the fast search's expansions
		if b := fastBytes(p, strings.HasSuffix(path, "word")); b != 0 {
			t.Fatalf("paused after the hand-over, the fast searches still hold %d bytes", b)
		}
	}
	if after == 0 {
		t.Fatalf("no pause after the hand-over (path %s)", SearchPath(p))
	}
	if res, _ := p.Result(); res.Status != Found || !slices.Equal(res.Plan, want.Plan) {
		t.Fatalf("sliced after a hand-over: %v, %v; want %v", res.Status, res.Plan, want.Plan)
	}

	// The fast search's bytes per node and fixed bytes, from the same
	// search stopped by its budget on a planner whose limits leave it be.
	stopped := opt
	stopped.Budget = 1
	ref := NewPlanner(d)
	if res, _ := ref.Plan(nil, d.Initial(), goal, stopped); res.Status != LimitReached || strings.Contains(SearchPath(ref), " then ") {
		t.Fatalf("budget 1 without a lowered limit: %v on %s", res.Status, SearchPath(ref))
	}
	if nodes := int((whole.handedPeak - int64(ref.fixedBytes)) / int64(ref.nodeBytes)); most > 0 && nodes > most {
		t.Fatalf("the fast search made %d nodes before it handed over; its limit is %d", nodes, most)
	}
	if k == 0 {
		return 0 // it handed over before its first expansion: no budget stops it there
	}

	// PeakBytes is the larger of the two searches': the fast one's as it
	// handed over (the same search stopped there by its budget reports
	// it), the general one's at its end.
	stopped.Budget = k
	fast := NewPlanner(d)
	lower(fast)
	fastPart, _ := fast.Plan(nil, d.Initial(), goal, stopped)
	if fastPart.Status != LimitReached || SearchPath(fast) != strings.Split(path, " then ")[0] {
		t.Fatalf("the fast search stopped after %d expansions: %v on %s", k, fastPart.Status, SearchPath(fast))
	}
	if want := max(fastPart.Stats.PeakBytes, generalPart); got.Stats.PeakBytes != want {
		t.Fatalf("PeakBytes %d after a hand-over; the fast search held %d, the general one %d", got.Stats.PeakBytes, fastPart.Stats.PeakBytes, generalPart)
	}
	// Work is the two searches' together: the fast one's as it handed
	// over, and the general one's, as it counts searching alone.
	if strings.HasPrefix(path, "delayed") {
		general := NewPlanner(d)
		general.forceGeneral = true
		alone, _ := general.Plan(nil, d.Initial(), goal, opt)
		if want := fastPart.Stats.Work + alone.Stats.Work; got.Stats.Work != want {
			t.Fatalf("Work %d after a hand-over; the fast search had done %d, the general one does %d", got.Stats.Work, fastPart.Stats.Work, alone.Stats.Work)
		}
	}
	return k
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
// touches: 10 make it a hash32 domain, 30 a hash64 one, 60 one of two
// words (wideLadder).
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

// fan is a domain of n facts, each set by an action with no
// precondition, whose goal Top is every fact set.
func fan(t *testing.T, n int) *Domain {
	spec := Spec{Name: "fan", Goals: []GoalSpec{{Name: "Top", Conditions: map[string]bool{}}}}
	for i := range n {
		f := fmt.Sprintf("f%d", i)
		spec.Facts = append(spec.Facts, f)
		spec.Actions = append(spec.Actions, ActionSpec{Name: "set" + f, Effects: map[string]bool{f: true}, Cost: Const(1)})
		spec.Goals[0].Conditions[f] = true
	}
	d, err := NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
