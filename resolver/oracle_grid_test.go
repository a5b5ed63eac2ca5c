package resolver_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/resolver/navgrid"
)

// TestAgainstEnumerationOnAGrid is the oracle test with path lengths: each
// case's targets stand on a random 10 × 10 grid with walls, measured by
// navgrid's A* (Paths) or distance fields (Fields), and the oracle prices
// chains with its own Dijkstra over the same walls. Targets in a wall or cut off by one are +Inf away, so many
// chains walk where there is no way: the resolver must find the least-cost
// chain among the others, and no chain when there is none.
func TestAgainstEnumerationOnAGrid(t *testing.T) {
	rounds := 1500
	if testing.Short() {
		// A planted bug (a target not found taken as found) was first
		// caught at round 298: -short keeps more than twice that.
		rounds = 800
	}
	againstEnumeration(t, rand.New(rand.NewPCG(10, 3)), rounds, randomGrid)
}

const gridSide = 10

// randomGrid makes a grid of unit cells with walls on about one cell in
// five, 8- or 4-connected, and the oracle's distance over it.
func randomGrid(r *rand.Rand) (resolver.DistanceModel, func(from, to resolver.Point) float64) {
	var open [gridSide * gridSide]bool
	rows := make([]string, gridSide)
	for y := range gridSide {
		row := make([]byte, gridSide)
		for x := range gridSide {
			open[y*gridSide+x] = r.IntN(5) > 0
			row[x] = "#."[b2i(open[y*gridSide+x])]
		}
		rows[y] = string(row)
	}
	conn := navgrid.Eight
	if r.IntN(2) == 0 {
		conn = navgrid.Four
	}
	g, err := navgrid.FromRows(rows, navgrid.Layout{Connect: conn})
	if err != nil {
		panic(err)
	}
	memo := map[int][]float64{}
	dist := func(from, to resolver.Point) float64 {
		a, b := cellOf(from), cellOf(to)
		if a < 0 || b < 0 || !open[a] || !open[b] {
			return math.Inf(1)
		}
		if memo[a] == nil {
			memo[a] = dijkstra(open[:], conn == navgrid.Eight, a)
		}
		return memo[a][b]
	}
	if r.IntN(2) == 0 {
		return navgrid.NewFields(g, 2), dist
	}
	return navgrid.NewPaths(g, 64), dist
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cellOf(p resolver.Point) int {
	x, y := int(math.Floor(p.X)), int(math.Floor(p.Y))
	if x < 0 || y < 0 || x >= gridSide || y >= gridSide {
		return -1
	}
	return y*gridSide + x
}

// dijkstra is the textbook O(n²) form, written from the rules: side steps
// of 1, and with diagonals, steps of √2 whose two side cells are open.
func dijkstra(open []bool, diagonals bool, src int) []float64 {
	n := len(open)
	d := make([]float64, n)
	done := make([]bool, n)
	for i := range d {
		d[i] = math.Inf(1)
	}
	d[src] = 0
	isOpen := func(x, y int) bool { return x >= 0 && y >= 0 && x < gridSide && y < gridSide && open[y*gridSide+x] }
	for {
		u := -1
		for i := range d {
			if !done[i] && !math.IsInf(d[i], 1) && (u < 0 || d[i] < d[u]) {
				u = i
			}
		}
		if u < 0 {
			return d
		}
		done[u] = true
		ux, uy := u%gridSide, u/gridSide
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				diag := dx != 0 && dy != 0
				if (dx == 0 && dy == 0) || !isOpen(ux+dx, uy+dy) || (diag && (!diagonals || !isOpen(ux+dx, uy) || !isOpen(ux, uy+dy))) {
					continue
				}
				step := 1.0
				if diag {
					step = math.Sqrt2
				}
				v := (uy+dy)*gridSide + ux + dx
				d[v] = min(d[v], d[u]+step)
			}
		}
	}
}
