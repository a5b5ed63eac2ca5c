package navgrid

import (
	"math"

	"github.com/ploy-ai/ploy/internal/pq"
	"github.com/ploy-ai/ploy/resolver"
)

// Fields is a resolver.DistanceModel over a Grid for many agents and a few
// places: for each place it is asked the way to (the to of Distance), it
// measures once, by Dijkstra's search over the whole grid, a shortest
// path's length from every cell, a distance field; every later distance to
// that place, from anywhere, is a look-up. The resolver always asks the
// way to a target (the next target of a chain), never to the agent, so a
// crowd resolving over the same wells and wood piles pays for one search
// per target until a wall changes, where Paths pays one per query.
//
// Distances are those of Paths (to rounding: a field sums each path from
// its place outwards), +Inf included. It keeps at most the fields it was
// made for, each 8 bytes per cell, and when asked the way to one more
// place it forgets the oldest. Like Paths, it is not safe for concurrent
// use, and a warm Fields allocates nothing.
type Fields struct {
	g       *Grid
	version uint64
	fresh   bool
	places  []int32     // the cell each field measures the way to; -1: none
	fields  [][]float64 // per field, per cell
	oldest  int         // the field to replace next
	closed  []uint32
	epoch   uint32
	open    pq.Queue
	built   int
}

// NewFields returns a distance model over g that keeps up to fields
// distance fields: at least 1, and no more than g has cells.
func NewFields(g *Grid, fields int) *Fields {
	fields = max(1, min(fields, g.width*g.height))
	f := &Fields{g: g, places: make([]int32, fields), closed: make([]uint32, len(g.blocked))}
	f.fields = make([][]float64, len(f.places))
	for i := range f.places {
		f.places[i] = -1
	}
	return f
}

// Built returns how many fields the Fields has measured, for benchmarks.
func (f *Fields) Built() int { return f.built }

// Distance returns the length of a shortest path from from to to, or +Inf.
func (f *Fields) Distance(from, to resolver.Point) float64 {
	g := f.g
	fx, fy, ok1 := g.Cell(from)
	tx, ty, ok2 := g.Cell(to)
	if !ok1 || !ok2 {
		return math.Inf(1)
	}
	a, b := g.index(fx, fy), g.index(tx, ty)
	if g.blocked[a] || g.blocked[b] {
		return math.Inf(1)
	}
	if !f.fresh || f.version != g.version {
		f.version, f.fresh = g.version, true
		for i := range f.places {
			f.places[i] = -1
		}
	}
	for i, p := range f.places {
		if p == b {
			return f.fields[i][a]
		}
	}
	i := f.oldest
	f.oldest = (f.oldest + 1) % len(f.places)
	if f.fields[i] == nil {
		f.fields[i] = make([]float64, len(g.blocked))
	}
	f.places[i] = b
	f.measure(f.fields[i], b)
	return f.fields[i][a]
}

// measure fills field with every cell's path length to cell b, in world
// units: +Inf for walls and cells no path joins.
func (f *Fields) measure(field []float64, b int32) {
	g := f.g
	w := int32(g.stride)
	f.built++
	f.epoch++
	if f.epoch == 0 {
		clear(f.closed)
		f.epoch = 1
	}
	for i := range field {
		field[i] = math.Inf(1)
	}
	moves := int(g.layout.Connect)
	f.open.Reset()
	field[b] = 0
	f.open.Push(pq.Entry{Node: b})
	for f.open.Len() > 0 {
		c := f.open.Pop().Node
		if f.closed[c] == f.epoch {
			continue
		}
		f.closed[c] = f.epoch
		for k, s := range steps[:moves] {
			n := c + g.step[k]
			if g.blocked[n] || (k >= 4 && (g.blocked[c+int32(s.dx)] || g.blocked[c+int32(s.dy)*w])) {
				continue // a wall, or a diagonal that would cut a wall's corner
			}
			if l := field[c] + s.length*g.layout.Cell; l < field[n] {
				field[n] = l
				f.open.Push(pq.Entry{F: l, Node: n})
			}
		}
	}
}
