// Package navgrid measures path lengths on a grid of square cells with
// walls, for the resolver: [Paths] is a [resolver.DistanceModel] whose
// distance between two points is the length of a shortest path between
// their cells, found by A*, instead of the straight line.
//
// That costs a navigation query per action per resolve, affordable at a
// few dozen agents and not for a crowd. A Paths
// remembers the lengths it has measured until a wall changes, and knows
// without a search when two cells are not connected at all, so that a
// resolve over a fixed set of targets mostly pays for the paths from the
// agent; docs/performance.md has the figures.
//
// No dependency: the Go path-finding modules we know of allocate per
// query, and a grid A* over an epoch-stamped array is small.
package navgrid

import (
	"fmt"
	"math"

	"github.com/ploy-ai/ploy/resolver"
)

// Connectivity is how a path may step from a cell.
type Connectivity uint8

const (
	// Eight: to the 8 neighbouring cells; a diagonal step is √2 cells long
	// and never cuts a wall's corner (both cells beside it must be open).
	Eight Connectivity = 8
	// Four: to the 4 cells sharing a side, one cell long each.
	Four Connectivity = 4
)

func (c Connectivity) String() string {
	switch c {
	case Eight:
		return "8-connected"
	case Four:
		return "4-connected"
	}
	return fmt.Sprintf("connectivity(%d)", uint8(c))
}

// MaxCells bounds a grid's cells (2048 × 2048): a search may visit every
// cell, and a Paths holds 20 bytes per cell.
const MaxCells = 1 << 22

// Layout places a grid in the world.
type Layout struct {
	// Cell is a cell's side in world units; 0 means 1.
	Cell float64
	// Origin is the corner of cell (0, 0): cell (x, y) covers
	// [Origin.X + x·Cell, Origin.X + (x+1)·Cell) by the same in Y.
	Origin resolver.Point
	// Connect is Eight or Four; 0 means Eight.
	Connect Connectivity
}

// Grid is a map of open cells and walls. Many Paths may read one Grid at
// once; change its walls only while none is measuring (between frames,
// say): every Paths notices the change and forgets what it measured.
type Grid struct {
	width, height int
	layout        Layout
	// blocked is the grid inside a border of walls, row by row, stride
	// cells a row: a search steps by adding an offset, with no bounds test.
	blocked []bool
	stride  int
	step    [8]int32 // the offset of each of steps
	version uint64
}

// New returns a grid of width × height open cells.
func New(width, height int, layout Layout) (*Grid, error) {
	if layout.Cell == 0 {
		layout.Cell = 1
	}
	if layout.Connect == 0 {
		layout.Connect = Eight
	}
	switch {
	case width < 1 || height < 1 || width > MaxCells/height:
		return nil, fmt.Errorf("navgrid: a grid of %d × %d cells; want at least 1 × 1 and at most %d cells", width, height, MaxCells)
	case !(layout.Cell > 0) || math.IsInf(layout.Cell, 1):
		return nil, fmt.Errorf("navgrid: cell size %g; want a positive, finite size", layout.Cell)
	case math.IsNaN(layout.Origin.X) || math.IsInf(layout.Origin.X, 0) || math.IsNaN(layout.Origin.Y) || math.IsInf(layout.Origin.Y, 0):
		return nil, fmt.Errorf("navgrid: origin %v is not finite", layout.Origin)
	case layout.Connect != Eight && layout.Connect != Four:
		return nil, fmt.Errorf("navgrid: %v; want 8 or 4", layout.Connect)
	}
	g := &Grid{width: width, height: height, layout: layout, stride: width + 2, blocked: make([]bool, (width+2)*(height+2))}
	for i := range g.blocked {
		x, y := i%g.stride, i/g.stride
		g.blocked[i] = x == 0 || y == 0 || x == width+1 || y == height+1
	}
	for k, s := range steps {
		g.step[k] = int32(s.dy*g.stride + s.dx)
	}
	return g, nil
}

// index is cell (x, y)'s place in blocked.
func (g *Grid) index(x, y int) int32 { return int32((y+1)*g.stride + x + 1) }

// FromRows returns a grid drawn as text: one string per row, row i being
// y = i, '#' a wall and '.' or ' ' an open cell. Every row has the same
// length.
func FromRows(rows []string, layout Layout) (*Grid, error) {
	if len(rows) == 0 || len(rows) > MaxCells {
		return nil, fmt.Errorf("navgrid: %d rows; want 1 to %d", len(rows), MaxCells)
	}
	g, err := New(len(rows[0]), len(rows), layout)
	if err != nil {
		return nil, err
	}
	for y, row := range rows {
		if len(row) != g.width {
			return nil, fmt.Errorf("navgrid: row %d is %d cells long; row 0 is %d", y, len(row), g.width)
		}
		for x := 0; x < len(row); x++ {
			switch row[x] {
			case '#':
				g.blocked[g.index(x, y)] = true
			case '.', ' ':
			default:
				return nil, fmt.Errorf("navgrid: row %d, column %d: %q is neither a wall '#' nor open ('.' or ' ')", y, x, row[x])
			}
		}
	}
	return g, nil
}

// Width returns the number of cells across.
func (g *Grid) Width() int { return g.width }

// Height returns the number of rows of cells.
func (g *Grid) Height() int { return g.height }

// Layout returns where the grid lies in the world.
func (g *Grid) Layout() Layout { return g.layout }

// Wall reports whether cell (x, y) is a wall; cells off the grid are.
func (g *Grid) Wall(x, y int) bool {
	return x < 0 || y < 0 || x >= g.width || y >= g.height || g.blocked[g.index(x, y)]
}

// SetWall makes cell (x, y) a wall or open. It panics off the grid.
func (g *Grid) SetWall(x, y int, wall bool) {
	if x < 0 || y < 0 || x >= g.width || y >= g.height {
		panic(fmt.Sprintf("navgrid: cell (%d, %d) is off the %d × %d grid", x, y, g.width, g.height))
	}
	if i := g.index(x, y); g.blocked[i] != wall {
		g.blocked[i] = wall
		g.version++
	}
}

// Cell returns the cell p is in, and false if that is off the grid.
func (g *Grid) Cell(p resolver.Point) (x, y int, ok bool) {
	fx := math.Floor((p.X - g.layout.Origin.X) / g.layout.Cell)
	fy := math.Floor((p.Y - g.layout.Origin.Y) / g.layout.Cell)
	// Compared as floats first: a NaN or a point far off the grid must not
	// reach the int conversion.
	if !(fx >= 0 && fy >= 0 && fx < float64(g.width) && fy < float64(g.height)) {
		return 0, 0, false
	}
	return int(fx), int(fy), true
}
