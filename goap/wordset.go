package goap

// wordSet is a set of one-word states: linear probing at a load of at most
// a half over 8-byte slots holding each key's complement, so that a zero
// slot is empty. The one key whose complement is zero, all ones (a state
// only a 64-fact domain has), is kept aside.
type wordSet struct {
	slots   []uint64
	used    []uint32 // indices of the filled slots
	shift   uint
	allOnes bool
}

func (m *wordSet) reset() {
	if m.slots == nil {
		m.slots = make([]uint64, 1<<10)
		m.shift = 64 - 10
	}
	for _, i := range m.used {
		m.slots[i] = 0
	}
	m.used = m.used[:0]
	m.allOnes = false
}

// add adds key and reports whether it was new.
func (m *wordSet) add(key uint64) bool {
	if ^key == 0 {
		had := m.allOnes
		m.allOnes = true
		return !had
	}
	if 2*(len(m.used)+1) > len(m.slots) {
		m.grow()
	}
	mask := uint64(len(m.slots) - 1)
	for i := wordHash(key) >> m.shift; ; i = (i + 1) & mask {
		switch m.slots[i] {
		case 0:
			m.slots[i] = ^key
			m.used = append(m.used, uint32(i))
			return true
		case ^key:
			return false
		}
	}
}

func (m *wordSet) grow() {
	old := m.slots
	m.slots = make([]uint64, 2*len(old))
	m.shift--
	m.used = m.used[:0]
	mask := uint64(len(m.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := wordHash(^s) >> m.shift
		for m.slots[i] != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
		m.used = append(m.used, uint32(i))
	}
}

// reserve makes room for n keys, touching the memory, and empties the set.
func (m *wordSet) reserve(n int) {
	if m.slots != nil {
		m.reset()
	}
	m.slots, m.shift, m.used = reserveTable(m.slots, m.shift, m.used, n)
}
