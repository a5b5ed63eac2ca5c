package strips

import (
	"math/rand/v2"
	"slices"
)

// successors finds the operators applicable in a state. Each operator with
// a positive precondition is filed under one of them, its key, and a state
// only tests the operators filed under the facts it holds. The key is the
// precondition fact least often true in states sampled by random walks
// from the start: in gripper, (at ball1 rooma) rather than (at-robby
// rooma), which every state with the robot there shares with every ball.
type successors struct {
	keyMask []uint64 // facts with operators filed under them
	start   []int32  // operators filed under fact f: ops[start[f]:start[f+1]]
	ops     []int32
	free    []int32 // operators with no positive precondition
	// Preconditions, flattened: operator o's are pre[preStart[o]:preStart[o+1]],
	// its negative ones not[notStart[o]:notStart[o+1]].
	preStart, notStart []int32
	pre, not           []Fact
}

// sampleWalks and sampleSteps size the random walks that estimate how
// often each fact is true: a few hundred states, a few milliseconds on
// the largest competition instances.
const (
	sampleWalks = 16
	sampleSteps = 32
)

func newSuccessors(t *Task) successors {
	nf := len(t.Facts)
	var sc successors
	sc.keyMask = make([]uint64, max(t.Words(), 1))
	sc.preStart = make([]int32, len(t.Ops)+1)
	sc.notStart = make([]int32, len(t.Ops)+1)
	for i := range t.Ops {
		sc.pre = append(sc.pre, t.Ops[i].Pre...)
		sc.not = append(sc.not, t.Ops[i].PreNot...)
		sc.preStart[i+1], sc.notStart[i+1] = int32(len(sc.pre)), int32(len(sc.not))
	}
	freq := sampleFrequencies(t, &sc)
	key := make([]Fact, len(t.Ops))
	count := make([]int32, nf+1)
	for i := range t.Ops {
		key[i] = -1
		for _, f := range t.Ops[i].Pre {
			if key[i] < 0 || freq[f] < freq[key[i]] {
				key[i] = f
			}
		}
		if key[i] < 0 {
			sc.free = append(sc.free, int32(i))
			continue
		}
		count[key[i]+1]++
		sc.keyMask[key[i]/64] |= 1 << (key[i] % 64)
	}
	for f := range nf {
		count[f+1] += count[f]
	}
	sc.start = slices.Clone(count)
	sc.ops = make([]int32, len(t.Ops)-len(sc.free))
	for i := range t.Ops {
		if k := key[i]; k >= 0 {
			sc.ops[count[k]] = int32(i)
			count[k]++
		}
	}
	return sc
}

// sampleFrequencies counts how often each fact holds in the states of
// seeded random walks from the start, testing every operator at each step
// (the generator is not built yet).
func sampleFrequencies(t *Task, sc *successors) []int32 {
	freq := make([]int32, len(t.Facts))
	rng := rand.New(rand.NewPCG(1, 2))
	s := make([]uint64, max(t.Words(), 1))
	var app []int32
	for range sampleWalks {
		clear(s)
		copy(s, t.InitialState())
		for range sampleSteps {
			for w, x := range s {
				for x != 0 {
					b := x & -x
					freq[w*64+trailingZeros(b)]++
					x ^= b
				}
			}
			app = app[:0]
			for i := range t.Ops {
				if sc.applies(int32(i), s) {
					app = append(app, int32(i))
				}
			}
			if len(app) == 0 {
				break
			}
			t.Ops[app[rng.IntN(len(app))]].Apply(s)
		}
	}
	return freq
}

// applies tests operator o's preconditions in s.
func (sc *successors) applies(o int32, s []uint64) bool {
	for _, f := range sc.pre[sc.preStart[o]:sc.preStart[o+1]] {
		if s[f>>6]&(1<<(f&63)) == 0 {
			return false
		}
	}
	for _, f := range sc.not[sc.notStart[o]:sc.notStart[o+1]] {
		if s[f>>6]&(1<<(f&63)) != 0 {
			return false
		}
	}
	return true
}

// applicable appends the operators applicable in s to dst, in increasing
// order of the facts they are filed under and then of index: a fixed
// order, so that searches are deterministic.
func (sc *successors) applicable(s []uint64, dst []int32) []int32 {
	for _, o := range sc.free {
		if sc.applies(o, s) {
			dst = append(dst, o)
		}
	}
	for w, x := range s {
		x &= sc.keyMask[w]
		for x != 0 {
			b := x & -x
			x ^= b
			f := w*64 + trailingZeros(b)
			for _, o := range sc.ops[sc.start[f]:sc.start[f+1]] {
				if sc.applies(o, s) {
					dst = append(dst, o)
				}
			}
		}
	}
	return dst
}
