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
	// Under its key, an operator is filed in a group by its second key,
	// the next rarest precondition (none: -1, the group tested first):
	// fact f's groups are groups[start[f]:start[f+1]], and group i's
	// operators ops[groups[i].from:groups[i+1].from]. A state tests only
	// the groups whose second key it holds, so in snake, where hundreds of
	// moves share the head's cell, it tests those into free cells only.
	start  []int32
	groups []group
	ops    []int32
	free   []int32 // operators with no positive precondition
	// Preconditions, flattened: operator o's are pre[preStart[o]:preStart[o+1]],
	// its negative ones not[notStart[o]:notStart[o+1]].
	preStart, notStart []int32
	pre, not           []Fact
}

// group is a run of operators sharing a key and a second key.
type group struct {
	second Fact // -1: none
	from   int32
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
	type filed struct {
		key, second Fact
		op          int32
	}
	var all []filed
	for i := range t.Ops {
		key, second := Fact(-1), Fact(-1)
		for _, f := range t.Ops[i].Pre {
			switch {
			case key < 0 || freq[f] < freq[key]:
				key, second = f, key
			case second < 0 || freq[f] < freq[second]:
				second = f
			}
		}
		if key < 0 {
			sc.free = append(sc.free, int32(i))
			continue
		}
		all = append(all, filed{key, second, int32(i)})
		sc.keyMask[key/64] |= 1 << (key % 64)
	}
	// By key, second key and index: the order operators are tested in,
	// which decides the order of successors, is fixed by the task.
	slices.SortFunc(all, func(a, b filed) int {
		if a.key != b.key {
			return int(a.key - b.key)
		}
		if a.second != b.second {
			return int(a.second - b.second)
		}
		return int(a.op - b.op)
	})
	sc.start = make([]int32, nf+1)
	for i, x := range all {
		if i == 0 || x.key != all[i-1].key || x.second != all[i-1].second {
			sc.groups = append(sc.groups, group{second: x.second, from: int32(i)})
			sc.start[x.key+1]++
		}
		sc.ops = append(sc.ops, x.op)
	}
	sc.groups = append(sc.groups, group{second: -1, from: int32(len(all))})
	for f := range nf {
		sc.start[f+1] += sc.start[f]
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
	d := newDeriver(t)
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
			if o := &t.Ops[app[rng.IntN(len(app))]]; len(o.Effects) == 0 {
				o.Apply(s)
			} else {
				next := make([]uint64, len(s))
				o.ApplyTo(next, s)
				s = next
			}
			if d != nil {
				d.derive(s)
			}
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
// order of their keys, second keys and indices: a fixed order, so that
// searches are deterministic.
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
			for gi := sc.start[f]; gi < sc.start[f+1]; gi++ {
				g := sc.groups[gi]
				if g.second >= 0 && s[g.second>>6]&(1<<(g.second&63)) == 0 {
					continue
				}
				for _, o := range sc.ops[g.from:sc.groups[gi+1].from] {
					if sc.applies(o, s) {
						dst = append(dst, o)
					}
				}
			}
		}
	}
	return dst
}
