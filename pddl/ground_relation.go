package pddl

import (
	"encoding/binary"
	"math/bits"
)

// relation holds a predicate's atoms: its true atoms of :init if it is
// static, its reached atoms if it is fluent (of which the first done are
// processed, visible to joins).
type relation struct {
	arity  int
	tuples []int32
	// byArg indexes the arguments some join looks atoms up by: object
	// -> tuple indices, increasing (nil for the others).
	byArg []map[int32][]int32
	// The atoms' tuple indices by their arguments: packed into a number
	// where they fit in 64 bits (shift bits each), else as bytes.
	set   map[uint64]int32
	shift uint
	wide  map[string]int32
	buf   []byte
	n     int32 // atoms
	done  int32
	facts []int32 // fluent: each tuple's fact id
}

func newRelation(arity, objects int) *relation {
	r := &relation{arity: arity, byArg: make([]map[int32][]int32, arity)}
	if r.shift = uint(bits.Len(uint(objects))); r.shift*uint(arity) <= 64 {
		r.set = map[uint64]int32{}
	} else {
		r.wide = map[string]int32{}
	}
	return r
}

func (r *relation) packed(args []int32) uint64 {
	var k uint64
	for _, a := range args {
		k = k<<r.shift | uint64(a)
	}
	return k
}

// find says which tuple the atom of args is, if any.
func (r *relation) find(args []int32) (int32, bool) {
	if r.set != nil {
		i, ok := r.set[r.packed(args)]
		return i, ok
	}
	r.buf = appendKey(r.buf[:0], args)
	i, ok := r.wide[string(r.buf)]
	return i, ok
}

// insert adds the atom of args, if new, and says which tuple it is.
func (r *relation) insert(args []int32) (int32, bool) {
	if i, ok := r.find(args); ok {
		return i, false
	}
	i := r.n
	r.n++
	if r.set != nil {
		r.set[r.packed(args)] = i
	} else {
		r.wide[string(r.buf)] = i // the key find made
	}
	r.tuples = append(r.tuples, args...)
	for k, o := range args {
		if r.byArg[k] != nil {
			r.byArg[k][o] = append(r.byArg[k][o], i)
		}
	}
	return i, true
}

// index makes sure argument k is indexed.
func (r *relation) index(k int) {
	if r.byArg[k] != nil {
		return
	}
	m := map[int32][]int32{}
	for i := range r.n {
		o := r.tuple(i)[k]
		m[o] = append(m[o], i)
	}
	r.byArg[k] = m
}

func (r *relation) tuple(i int32) []int32 {
	return r.tuples[int(i)*r.arity : int(i+1)*r.arity]
}

func appendKey(buf []byte, args []int32) []byte {
	for _, a := range args {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(a))
	}
	return buf
}
