package goap

// failTable answers "which actions do the preconditions rule out in state s"
// for a one-word domain with one table lookup per byte of the state that
// some precondition reads: fail[k][v] is the set of actions whose
// preconditions on the facts of byte shifts[k] contradict the value v. The
// union over the bytes is the set of inapplicable actions. Four lookups
// replace 64 precondition tests on a 32-fact, 64-action domain, and one
// replaces the battle mage's seven.
type failTable struct {
	shifts []uint8 // bit offset of each byte some precondition reads
	// fail holds 256 entries per byte of shifts, each actionWords words:
	// entry (k, v) at (k*256+v)*actionWords.
	fail        []uint64
	actionWords int
}

// maxFailTable bounds a domain's fail table, in words: 8 192 words (64 KiB)
// covers 64 facts and 64 actions, or 32 facts and 128. Larger domains test
// each action's preconditions instead.
const maxFailTable = 1 << 13

// newFailTable returns the fail table of one-word actions, or false if it
// would exceed maxFailTable words.
func newFailTable(actions []oneWordAction) (failTable, bool) {
	var read uint64
	for _, a := range actions {
		read |= a.preMask
	}
	t := failTable{actionWords: (len(actions) + 63) / 64}
	for shift := uint8(0); shift < 64; shift += 8 {
		if read>>shift&0xff != 0 {
			t.shifts = append(t.shifts, shift)
		}
	}
	if len(t.shifts)*256*t.actionWords > maxFailTable {
		return failTable{}, false
	}
	t.fail = make([]uint64, len(t.shifts)*256*t.actionWords)
	for k, shift := range t.shifts {
		for v := uint64(0); v < 256; v++ {
			entry := t.fail[(k*256+int(v))*t.actionWords:]
			for ai, a := range actions {
				mask, want := a.preMask>>shift&0xff, a.preValue>>shift&0xff
				if (v^want)&mask != 0 {
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
			for k, shift := range t.shifts {
				fail |= t.fail[k<<8|int(s>>shift&0xff)]
			}
			app[0] = ^fail & (1<<uint(len(one)) - 1)
			return
		}
		for w := range app {
			app[w] = ^uint64(0)
		}
		for k, shift := range t.shifts {
			entry := t.fail[(k<<8|int(s>>shift&0xff))*t.actionWords:][:len(app)]
			for w, f := range entry {
				app[w] &^= f
			}
		}
		if r := uint(len(one)) & 63; r != 0 {
			app[len(app)-1] &= 1<<r - 1
		}
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
