package goap

// failTable answers "which actions do the preconditions rule out in state s"
// with one table lookup per byte of the state that some precondition
// reads: entry (k, v) is the set of actions whose preconditions on the
// facts of byte bytes[k] contradict the value v. The union over the bytes is
// the set of inapplicable actions. Four lookups replace 64 precondition
// tests on a 32-fact, 64-action domain, and one replaces the battle mage's
// seven.
type failTable struct {
	bytes []stateByte // each byte some precondition reads
	// fail holds 256 entries per byte of bytes, each actionWords words:
	// entry (k, v) at (k*256+v)*actionWords.
	fail        []uint64
	actionWords int
}

// stateByte locates one byte of a state: bits shift to shift+7 of a word.
type stateByte struct {
	word  int32
	shift uint8
}

// maxFailTable bounds a domain's fail table, in words: 16 384 words
// (128 KiB, well inside a core's L2) cover 64 facts and 128 actions, or 200
// facts and 128 actions when nearly every byte is read. Larger domains test
// each action's preconditions instead.
const maxFailTable = 1 << 14

// newFailTable returns the fail table of n actions whose masks are laid out
// as Domain.masks, over states of W words, or false if it would exceed
// maxFailTable words.
func newFailTable(masks []uint64, W, n int) (failTable, bool) {
	pre := func(ai, w int) (mask, value uint64) { return masks[ai*4*W+w], masks[ai*4*W+W+w] }
	t := failTable{actionWords: (n + 63) / 64}
	for w := 0; w < W; w++ {
		var read uint64
		for ai := 0; ai < n; ai++ {
			m, _ := pre(ai, w)
			read |= m
		}
		for shift := uint8(0); shift < 64; shift += 8 {
			if read>>shift&0xff != 0 {
				t.bytes = append(t.bytes, stateByte{word: int32(w), shift: shift})
			}
		}
	}
	if len(t.bytes)*256*t.actionWords > maxFailTable {
		return failTable{}, false
	}
	t.fail = make([]uint64, len(t.bytes)*256*t.actionWords)
	for k, b := range t.bytes {
		for v := uint64(0); v < 256; v++ {
			entry := t.fail[(k*256+int(v))*t.actionWords:]
			for ai := 0; ai < n; ai++ {
				m, want := pre(ai, int(b.word))
				if (v^want>>b.shift)&(m>>b.shift)&0xff != 0 {
					entry[ai>>6] |= 1 << (uint(ai) & 63)
				}
			}
		}
	}
	return t, true
}

// applicableWord sets app to the actions whose preconditions hold in the
// one-word state s, one bit per action.
func (d *Domain) applicableWord(s uint64, app []uint64) {
	one := d.one
	if t := &d.fails; t.fail != nil {
		if t.actionWords == 1 {
			var fail uint64
			for k, b := range t.bytes {
				fail |= t.fail[k<<8|int(s>>b.shift&0xff)]
			}
			app[0] = ^fail & (1<<uint(len(one)) - 1)
			return
		}
		words := [1]uint64{s}
		t.applicable(words[:], app, len(one))
		return
	}
	// Too many actions for a table: test each action's preconditions into
	// the bitmask without a branch per action (which ones apply is
	// unpredictable).
	clear(app)
	for ai := range one {
		m := &one[ai]
		app[ai>>6] |= isZero(s&m.preMask^m.preValue) << (uint(ai) & 63)
	}
}

// applicable sets app to the n actions whose preconditions hold in s, by
// the table.
func (t *failTable) applicable(s []uint64, app []uint64, n int) {
	for w := range app {
		app[w] = ^uint64(0)
	}
	for k, b := range t.bytes {
		entry := t.fail[(k<<8|int(s[b.word]>>b.shift&0xff))*t.actionWords:][:len(app)]
		for w, f := range entry {
			app[w] &^= f
		}
	}
	if r := uint(n) & 63; r != 0 {
		app[len(app)-1] &= 1<<r - 1
	}
}

// applicableWide is applicableWord for states of several words.
func (d *Domain) applicableWide(s []uint64, app []uint64) {
	if t := &d.fails; t.fail != nil {
		t.applicable(s, app, len(d.actions))
		return
	}
	W := d.words
	clear(app)
	for ai := range d.actions {
		m := d.masks[ai*4*W : ai*4*W+2*W]
		miss := uint64(0)
		for w := 0; w < W; w++ {
			miss |= s[w]&m[w] ^ m[W+w]
		}
		app[ai>>6] |= isZero(miss) << (uint(ai) & 63)
	}
}
