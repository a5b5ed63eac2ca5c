package goap

import "math"

// wordSlot is a one-word state and its cheapest known cost. A slot whose
// cost has all bits zero is empty: costs are positive, and the start state,
// at cost 0, is stored as negZero.
type wordSlot struct {
	key uint64
	g   float64
}

// wordMap maps one-word states to their cheapest known cost, with linear
// probing at a load of at most a half. It is emptied by clearing the slots
// it used, which costs what the search that filled them cost.
type wordMap struct {
	slots []wordSlot
	used  []uint32 // indices of the filled slots
	shift uint
}

func (m *wordMap) reset() {
	if m.slots == nil {
		m.slots = make([]wordSlot, 1<<10)
		m.shift = 64 - 10
	}
	for _, i := range m.used {
		m.slots[i] = wordSlot{}
	}
	m.used = m.used[:0]
}

func (m *wordMap) index(key uint64) uint64 { return wordHash(key) >> m.shift }

// wordHash mixes a one-word state's bits into the top bits, which index
// the tables.
func wordHash(key uint64) uint64 { return (key ^ key>>29) * 0x9e3779b97f4a7c15 }

// find returns key's slot, which must be present.
func (m *wordMap) find(key uint64) *wordSlot {
	mask := uint64(len(m.slots) - 1)
	for i := m.index(key); ; i = (i + 1) & mask {
		if s := &m.slots[i]; s.key == key && math.Float64bits(s.g) != 0 {
			return s
		}
	}
}

// insert returns key's slot, claiming an empty one (g == 0) if key is new.
func (m *wordMap) insert(key uint64) *wordSlot {
	if 2*(len(m.used)+1) > len(m.slots) {
		m.grow()
	}
	mask := uint64(len(m.slots) - 1)
	i := m.index(key)
	for {
		s := &m.slots[i]
		if math.Float64bits(s.g) == 0 {
			s.key = key
			m.used = append(m.used, uint32(i))
			return s
		}
		if s.key == key {
			return s
		}
		i = (i + 1) & mask
	}
}

func (m *wordMap) grow() {
	old := m.slots
	m.slots = make([]wordSlot, 2*len(old))
	m.shift--
	m.used = m.used[:0]
	mask := uint64(len(m.slots) - 1)
	for _, s := range old {
		if math.Float64bits(s.g) == 0 {
			continue
		}
		i := m.index(s.key)
		for math.Float64bits(m.slots[i].g) != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
		m.used = append(m.used, uint32(i))
	}
}

// reserve makes room for n keys, touching the memory, and empties the map.
func (m *wordMap) reserve(n int) {
	if m.slots != nil {
		m.reset()
	}
	m.slots, m.shift, m.used = reserveTable(m.slots, m.shift, m.used, n)
}
