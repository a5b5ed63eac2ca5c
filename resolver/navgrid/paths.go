package navgrid

import (
	"math"

	"github.com/ploy-ai/ploy/internal/pq"
	"github.com/ploy-ai/ploy/resolver"
)

// DefaultCache is a cache size for NewPaths that suits a few dozen targets
// and many agents (64 KiB).
const DefaultCache = 4096

// MaxCache is the most path lengths a Paths remembers (16 MiB).
const MaxCache = 1 << 20

// Paths is a resolver.DistanceModel over a Grid: the distance between two
// points is the length, in world units, of a shortest path between the
// centres of their cells, through open cells by the grid's connectivity.
// Two points in one cell are 0 apart. A point off the grid or in a wall,
// or two cells no path joins, are +Inf apart: the resolver then makes no
// chain that would walk it (resolver.Unreachable). Shortest path lengths
// obey the triangle inequality, with +Inf between cells of different
// regions too, so the resolver's chain stays least-cost.
//
// A Paths owns its search's arrays and a cache of measured lengths and
// reuses them: once warm, a Distance allocates nothing. It is not safe for
// concurrent use; give each worker its own, sharing the Grid, as with
// resolver.Resolver.
type Paths struct {
	g        *Grid
	version  uint64 // the grid's version that region and cache describe
	fresh    bool   // region and cache have been computed once
	region   []int32
	cost     []float64 // per cell: the best path length found, where seen is current
	seen     []uint32
	closed   []uint32
	epoch    uint32
	open     pq.Queue
	cache    []cached
	queue    []int32 // scratch for labelling regions
	searches int
	expanded int
}

type cached struct {
	key  uint64 // lower cell << 32 | higher cell, +1; 0: empty
	dist float64
}

// NewPaths returns a distance model over g that remembers up to cache path
// lengths (rounded up to a power of two; 0 remembers none; at most
// MaxCache, and no more than g has pairs of cells) until g changes. It
// holds 20 bytes per cell of g and 16 per cache entry.
func NewPaths(g *Grid, cache int) *Paths {
	n := len(g.blocked)
	p := &Paths{g: g, region: make([]int32, n), cost: make([]float64, n), seen: make([]uint32, n), closed: make([]uint32, n)}
	cells := g.width * g.height
	if cache = min(cache, MaxCache, cells*(cells-1)/2); cache > 0 {
		size := 1
		for size < cache {
			size *= 2
		}
		p.cache = make([]cached, size)
	}
	return p
}

// Stats returns how many A* searches the Paths has run and how many cells
// they expanded, for benchmarks.
func (p *Paths) Stats() (searches, expanded int) { return p.searches, p.expanded }

// Distance returns the length of a shortest path from from to to, or +Inf.
func (p *Paths) Distance(from, to resolver.Point) float64 {
	g := p.g
	fx, fy, ok1 := g.Cell(from)
	tx, ty, ok2 := g.Cell(to)
	if !ok1 || !ok2 {
		return math.Inf(1)
	}
	a, b := g.index(fx, fy), g.index(tx, ty)
	if g.blocked[a] || g.blocked[b] {
		return math.Inf(1)
	}
	if a == b {
		return 0
	}
	if !p.fresh || p.version != g.version {
		p.relabel()
	}
	if p.region[a] != p.region[b] {
		return math.Inf(1)
	}
	// Measured from the lower cell, so that the answer is the same both
	// ways to the last bit.
	if a > b {
		a, b = b, a
	}
	key := uint64(a)<<32 | uint64(b) + 1
	var slot *cached
	if len(p.cache) > 0 {
		h := key * 0x9E3779B97F4A7C15 // Fibonacci hashing spreads neighbouring cells
		slot = &p.cache[h>>32&uint64(len(p.cache)-1)]
		if slot.key == key {
			return slot.dist
		}
	}
	d := p.search(a, b) * g.layout.Cell
	if slot != nil {
		*slot = cached{key: key, dist: d}
	}
	return d
}

// relabel numbers the grid's regions (cells joined by paths) and forgets
// the cache. A diagonal step never cuts a corner, so it can always be made
// as two side steps: regions are the same for either connectivity.
func (p *Paths) relabel() {
	g := p.g
	p.version, p.fresh = g.version, true
	clear(p.cache)
	for i := range p.region {
		p.region[i] = -1
	}
	next := int32(0)
	for start := range p.region {
		if g.blocked[start] || p.region[start] >= 0 {
			continue
		}
		p.region[start] = next
		p.queue = append(p.queue[:0], int32(start))
		for len(p.queue) > 0 {
			c := p.queue[len(p.queue)-1]
			p.queue = p.queue[:len(p.queue)-1]
			for _, off := range g.step[:4] {
				if n := c + off; !g.blocked[n] && p.region[n] < 0 {
					p.region[n] = next
					p.queue = append(p.queue, n)
				}
			}
		}
		next++
	}
}

// steps are the moves from a cell: the 4 side steps first, then the
// diagonals, with their lengths in cells. Grid.step holds their offsets.
var steps = [8]struct {
	dx, dy int
	length float64
}{
	{1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, -1, 1},
	{1, 1, math.Sqrt2}, {-1, 1, math.Sqrt2}, {1, -1, math.Sqrt2}, {-1, -1, math.Sqrt2},
}

// search is A* from cell a to cell b, in the same region, in cells. The
// estimate (the octile distance on 8 neighbours, Manhattan on 4) is
// consistent, so the first time b is taken from the open list its length
// is least.
func (p *Paths) search(a, b int32) float64 {
	g := p.g
	w := int32(g.stride)
	p.searches++
	p.epoch++
	if p.epoch == 0 {
		clear(p.seen)
		clear(p.closed)
		p.epoch = 1
	}
	bx, by := b%w, b/w
	moves := int(g.layout.Connect)
	estimate := func(x, y int32) float64 {
		dx, dy := x-bx, y-by
		dx, dy = max(dx, -dx), max(dy, -dy)
		if moves == 4 {
			return float64(dx + dy)
		}
		lo, hi := min(dx, dy), max(dx, dy)
		return float64(hi-lo) + math.Sqrt2*float64(lo)
	}
	p.open.Reset()
	p.seen[a], p.cost[a] = p.epoch, 0
	h := estimate(a%w, a/w)
	p.open.Push(pq.Entry{F: h, H: h, Node: a})
	for p.open.Len() > 0 {
		c := p.open.Pop().Node
		if p.closed[c] == p.epoch {
			continue // taken before at a lesser length
		}
		p.closed[c] = p.epoch
		if c == b {
			return p.cost[c]
		}
		p.expanded++
		x, y := c%w, c/w
		for k, s := range steps[:moves] {
			n := c + g.step[k]
			if g.blocked[n] || (k >= 4 && (g.blocked[c+int32(s.dx)] || g.blocked[c+int32(s.dy)*w])) {
				continue // a wall, or a diagonal that would cut a wall's corner
			}
			if p.closed[n] == p.epoch {
				continue
			}
			if l := p.cost[c] + s.length; p.seen[n] != p.epoch || l < p.cost[n] {
				p.seen[n], p.cost[n] = p.epoch, l
				h := estimate(x+int32(s.dx), y+int32(s.dy))
				p.open.Push(pq.Entry{F: l + h, H: h, Node: n})
			}
		}
	}
	return math.Inf(1) // not reached: a and b share a region
}
