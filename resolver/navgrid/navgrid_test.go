package navgrid_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/resolver/navgrid"
)

func mustRows(t testing.TB, rows []string, l navgrid.Layout) *navgrid.Grid {
	t.Helper()
	g, err := navgrid.FromRows(rows, l)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// at is the centre of cell (x, y) on a grid of unit cells at the origin.
func at(x, y int) resolver.Point { return resolver.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5} }

func TestPathLengths(t *testing.T) {
	room := []string{
		".....",
		".###.",
		".#...",
		".#.#.",
		"...#.",
	}
	for _, c := range []struct {
		name     string
		conn     navgrid.Connectivity
		cell     float64
		from, to resolver.Point
		want     float64
	}{
		{"across the open top row", navgrid.Eight, 1, at(0, 0), at(4, 0), 4},
		{"same cell", navgrid.Eight, 1, resolver.Point{X: 0.1, Y: 0.1}, resolver.Point{X: 0.9, Y: 0.7}, 0},
		// (2,2) to (0,0) goes round the wall, and every diagonal on the
		// way would cut a wall's corner ((3,2)→(4,1) cuts (3,1), (1,4)→
		// (0,3) cuts (1,3)): 8 either way round, either connectivity.
		{"round the wall, 8-connected", navgrid.Eight, 1, at(2, 2), at(0, 0), 8},
		{"round the wall, 4-connected", navgrid.Four, 1, at(2, 2), at(0, 0), 8},
		// (4,0) to (2,2): (4,0)→(3,0)? then (3,0)→(2,1) cuts (2,0) open
		// and (3,1) wall; by the right: (4,1)→(4,2)→(3,2)→(2,2) is 4; a
		// diagonal (4,1)→(3,2) cuts (3,1): no.
		{"no corner cut", navgrid.Eight, 1, at(4, 0), at(2, 2), 4},
		{"in a wall", navgrid.Eight, 1, at(0, 0), at(1, 1), math.Inf(1)},
		{"off the grid", navgrid.Eight, 1, at(0, 0), at(5, 0), math.Inf(1)},
		{"off the grid, negative", navgrid.Eight, 1, resolver.Point{X: -0.5, Y: 0}, at(0, 0), math.Inf(1)},
	} {
		g := mustRows(t, room, navgrid.Layout{Cell: c.cell, Connect: c.conn})
		p := navgrid.NewPaths(g, 16)
		for _, ends := range [][2]resolver.Point{{c.from, c.to}, {c.to, c.from}} {
			if got := p.Distance(ends[0], ends[1]); got != c.want {
				t.Errorf("%s: %v to %v is %g, want %g", c.name, ends[0], ends[1], got, c.want)
			}
		}
	}
}

func TestDiagonalsInTheOpen(t *testing.T) {
	g, err := navgrid.New(6, 4, navgrid.Layout{Cell: 2, Origin: resolver.Point{X: -4, Y: -4}})
	if err != nil {
		t.Fatal(err)
	}
	// Cell (0,0) to cell (4,2): 2 diagonal steps and 2 side steps, of 2.
	want := 2 * (2 + 2*math.Sqrt2)
	for _, m := range []resolver.DistanceModel{navgrid.NewPaths(g, 0), navgrid.NewFields(g, 1)} {
		if d := m.Distance(resolver.Point{X: -3, Y: -3}, resolver.Point{X: 5, Y: 1}); math.Abs(d-want) > 1e-12 {
			t.Errorf("%T: %g, want %g", m, d, want)
		}
	}
}

func TestRegionsApartAreUnreachable(t *testing.T) {
	g := mustRows(t, []string{
		"..#..",
		"..#..",
		".#...",
	}, navgrid.Layout{})
	p := navgrid.NewPaths(g, 0)
	// (0,2)-(1,1)? (1,2) is a wall and (0,1)→(1,1) is open: the left
	// region is (0,0),(1,0),(0,1),(1,1),(0,2); the diagonal (1,1)→(2,2)
	// would cut the corners of (2,1) and (1,2), both walls.
	if d := p.Distance(at(1, 1), at(2, 2)); !math.IsInf(d, 1) {
		t.Errorf("across the corner: %g, want +Inf", d)
	}
	if d := p.Distance(at(0, 0), at(0, 2)); d != 2 {
		t.Errorf("within the left region: %g, want 2", d)
	}
	if s, _ := p.Stats(); s != 1 {
		t.Errorf("%d searches; the unreachable pair needs none", s)
	}
}

// TestCacheForgetsWhenAWallChanges: a door that closes lengthens the path
// a Paths measured before.
func TestCacheForgetsWhenAWallChanges(t *testing.T) {
	g := mustRows(t, []string{
		"...",
		".#.",
		"...",
	}, navgrid.Layout{Connect: navgrid.Four})
	p := navgrid.NewPaths(g, 64)
	if d := p.Distance(at(0, 1), at(2, 1)); d != 4 {
		t.Fatalf("round the pillar: %g", d)
	}
	if d := p.Distance(at(2, 1), at(0, 1)); d != 4 {
		t.Fatalf("back: %g", d)
	}
	if s, _ := p.Stats(); s != 1 {
		t.Errorf("%d searches; the way back is remembered", s)
	}
	g.SetWall(1, 0, true)
	if d := p.Distance(at(0, 1), at(2, 1)); d != 4 {
		t.Errorf("the top closed, round the bottom: %g", d)
	}
	g.SetWall(1, 2, true)
	if d := p.Distance(at(0, 1), at(2, 1)); !math.IsInf(d, 1) {
		t.Errorf("both ways closed: %g", d)
	}
	g.SetWall(1, 1, false)
	if d := p.Distance(at(0, 1), at(2, 1)); d != 2 {
		t.Errorf("the pillar gone: %g", d)
	}
}

// relaxed is the oracle: every cell's shortest length from src by relaxing
// every step until nothing changes (Bellman-Ford), written from the rules
// (side steps 1, diagonal √2 between open cells with both cells beside it
// open), not from the package's search.
func relaxed(open [][]bool, conn int, sx, sy int) [][]float64 {
	h, w := len(open), len(open[0])
	d := make([][]float64, h)
	for y := range d {
		d[y] = make([]float64, w)
		for x := range d[y] {
			d[y][x] = math.Inf(1)
		}
	}
	d[sy][sx] = 0
	ok := func(x, y int) bool { return x >= 0 && y >= 0 && x < w && y < h && open[y][x] }
	for changed := true; changed; {
		changed = false
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if !ok(x, y) || math.IsInf(d[y][x], 1) {
					continue
				}
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						diag := dx != 0 && dy != 0
						if (dx == 0 && dy == 0) || !ok(x+dx, y+dy) || (diag && (conn == 4 || !ok(x+dx, y) || !ok(x, y+dy))) {
							continue
						}
						step := 1.0
						if diag {
							step = math.Sqrt2
						}
						if l := d[y][x] + step; l < d[y+dy][x+dx]-1e-12 {
							d[y+dy][x+dx] = l
							changed = true
						}
					}
				}
			}
		}
	}
	return d
}

// TestAgainstRelaxation: on random grids, every pair's length is the
// oracle's, the same both ways, and obeys the triangle inequality.
func TestAgainstRelaxation(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 3))
	for round := range 60 {
		w, h := 2+r.IntN(9), 2+r.IntN(9)
		open := make([][]bool, h)
		rows := make([]string, h)
		for y := range open {
			open[y] = make([]bool, w)
			var sb strings.Builder
			for x := range open[y] {
				open[y][x] = r.IntN(10) >= 3
				if open[y][x] {
					sb.WriteByte('.')
				} else {
					sb.WriteByte('#')
				}
			}
			rows[y] = sb.String()
		}
		conn := []navgrid.Connectivity{navgrid.Eight, navgrid.Four}[round%2]
		g := mustRows(t, rows, navgrid.Layout{Connect: conn})
		p := navgrid.NewPaths(g, 8*(round%3)) // no cache, and a small one that evicts
		fields := navgrid.NewFields(g, 1+round%4)
		dist := make([][]float64, w*h)
		for c := range dist {
			dist[c] = make([]float64, w*h)
			want := relaxed(open, int(conn), c%w, c/w)
			for e := range dist[c] {
				got := p.Distance(at(c%w, c/w), at(e%w, e/w))
				dist[c][e] = got
				if !open[c/w][c%w] {
					want[e/w][e%w] = math.Inf(1)
				}
				wt := want[e/w][e%w]
				if got != wt && math.Abs(got-wt) > 1e-9 {
					t.Fatalf("round %d %v:\n%s\n(%d,%d) to (%d,%d): %g, want %g", round, conn, strings.Join(rows, "\n"), c%w, c/w, e%w, e/w, got, wt)
				}
				// Fields asked in another order, so that its few fields
				// are replaced as it goes.
				if f := fields.Distance(at(e%w, e/w), at(c%w, c/w)); f != wt && math.Abs(f-wt) > 1e-9 {
					t.Fatalf("round %d %v:\n%s\nfield to (%d,%d) from (%d,%d): %g, want %g", round, conn, strings.Join(rows, "\n"), c%w, c/w, e%w, e/w, f, wt)
				}
			}
		}
		for a := range dist {
			for b := range dist {
				if dist[a][b] != dist[b][a] {
					t.Fatalf("round %d: %d to %d is %g, back %g", round, a, b, dist[a][b], dist[b][a])
				}
				for c := range dist {
					if dist[a][c] > dist[a][b]+dist[b][c]+1e-12 {
						t.Fatalf("round %d: triangle %d %d %d: %g > %g + %g", round, a, b, c, dist[a][c], dist[a][b], dist[b][c])
					}
				}
			}
		}
	}
}

func TestFieldsForgetWhenAWallChanges(t *testing.T) {
	g := mustRows(t, []string{
		"...",
		".#.",
		"...",
	}, navgrid.Layout{Connect: navgrid.Four})
	f := navgrid.NewFields(g, 2)
	for _, c := range []struct {
		wall      [2]int
		set       bool
		want      float64
		wantBuilt int
	}{
		{[2]int{1, 1}, true, 4, 1}, // unchanged: the pillar is there
		{[2]int{1, 1}, true, 4, 1}, // asked again: a look-up
		{[2]int{1, 0}, true, 4, 2}, // the top closed: round the bottom
		{[2]int{1, 2}, true, math.Inf(1), 3},
		{[2]int{1, 1}, false, 2, 4},
	} {
		g.SetWall(c.wall[0], c.wall[1], c.set)
		if d := f.Distance(at(0, 1), at(2, 1)); d != c.want || f.Built() != c.wantBuilt {
			t.Errorf("wall %v %v: %g after %d fields, want %g after %d", c.wall, c.set, d, f.Built(), c.want, c.wantBuilt)
		}
	}
}

func TestWarmPathsAllocateNothing(t *testing.T) {
	g, err := navgrid.New(32, 32, navgrid.Layout{})
	if err != nil {
		t.Fatal(err)
	}
	for y := 2; y < 30; y++ {
		g.SetWall(16, y, true)
	}
	p := navgrid.NewPaths(g, 0) // every call searches
	run := func() {
		p.Distance(at(1, 1), at(30, 30))
		p.Distance(at(30, 1), at(1, 30))
	}
	run()
	if n := testing.AllocsPerRun(50, run); n != 0 {
		t.Fatalf("%v allocations per pair of searches", n)
	}
	f := navgrid.NewFields(g, 1) // every call measures a field
	run = func() {
		f.Distance(at(1, 1), at(30, 30))
		f.Distance(at(30, 1), at(1, 30))
	}
	run()
	if n := testing.AllocsPerRun(50, run); n != 0 {
		t.Fatalf("%v allocations per pair of fields", n)
	}
}

func TestBadGrids(t *testing.T) {
	for _, c := range []struct {
		rows []string
		l    navgrid.Layout
		want string
	}{
		{nil, navgrid.Layout{}, "navgrid: 0 rows; want 1 to 4194304"},
		{[]string{""}, navgrid.Layout{}, "navgrid: a grid of 0 × 1 cells"},
		{[]string{"..", "."}, navgrid.Layout{}, "navgrid: row 1 is 1 cells long; row 0 is 2"},
		{[]string{"..", ".x"}, navgrid.Layout{}, `navgrid: row 1, column 1: 'x' is neither a wall '#' nor open`},
		{[]string{"."}, navgrid.Layout{Cell: -1}, "navgrid: cell size -1"},
		{[]string{"."}, navgrid.Layout{Cell: math.NaN()}, "navgrid: cell size NaN"},
		{[]string{"."}, navgrid.Layout{Origin: resolver.Point{X: math.Inf(1)}}, "navgrid: origin"},
		{[]string{"."}, navgrid.Layout{Connect: 6}, "navgrid: connectivity(6); want 8 or 4"},
	} {
		if _, err := navgrid.FromRows(c.rows, c.l); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q %+v: %v, want %q", c.rows, c.l, err, c.want)
		}
	}
	if _, err := navgrid.New(1<<12, 1<<11, navgrid.Layout{}); err == nil {
		t.Error("a grid of 8 M cells was made")
	}
}

// FuzzFromRows: any text makes a grid or an error, never a panic, and a
// grid measures its own cells without one.
func FuzzFromRows(f *testing.F) {
	f.Add("..#\n#..\n...", 1.0)
	f.Add("#", 0.5)
	f.Fuzz(func(t *testing.T, text string, cell float64) {
		if len(text) > 1<<12 {
			return
		}
		g, err := navgrid.FromRows(strings.Split(text, "\n"), navgrid.Layout{Cell: cell})
		if err != nil {
			return
		}
		p := navgrid.NewPaths(g, 4)
		c := g.Layout().Cell
		far := resolver.Point{X: float64(g.Width()) * c * 0.99, Y: float64(g.Height()) * c * 0.99}
		if d := p.Distance(resolver.Point{}, far); d < 0 || math.IsNaN(d) {
			t.Fatalf("distance %g", d)
		}
	})
}

// TestConcurrentResolves: workers share one Domain and one Grid, each with
// its own Resolver and distance model, and agree with one worker alone
// (run with -race).
func TestConcurrentResolves(t *testing.T) {
	d, err := resolver.NewDomain(domains.Survivor())
	if err != nil {
		t.Fatal(err)
	}
	g := mustRows(t, []string{
		"..........",
		"..........",
		"..####....",
		"..........",
		"..........",
		".....#....",
		"..........",
		"..........",
	}, navgrid.Layout{Origin: resolver.Point{X: -5, Y: -5}})
	snap := func(i int) *resolver.Snapshot {
		s, err := d.SnapshotOf(map[string]int64{"warmth": 20, "hunger": 70}, resolver.Point{X: float64(i%9) - 4.5, Y: float64(i%7) - 4.5}, map[string]resolver.Point{
			"fireplace": {X: 0.5, Y: 0.5}, "wood_north": {X: 0.5, Y: 2.5}, "wood_south": {X: -2.5, Y: -4.5},
			"berries": {X: 4.5, Y: -3.5}, "deer": {X: -4.5, Y: 1.5},
		})
		if err != nil {
			panic(err)
		}
		return s
	}
	type answer struct {
		chain string
		cost  float64
	}
	run := func(worker int, model resolver.DistanceModel, out []answer) {
		r := resolver.NewResolver(d)
		for i := worker; i < len(out); i += 4 {
			res, _ := r.Resolve(nil, snap(i), d.Goals()[i%2], resolver.Options{Distance: model})
			out[i] = answer{d.FormatChain(res.Chain), res.Cost}
		}
	}
	want := make([]answer, 200)
	for w := range 4 {
		run(w, navgrid.NewPaths(g, 0), want)
	}
	got := make([]answer, 200)
	var wg sync.WaitGroup
	for w := range 4 {
		var model resolver.DistanceModel = navgrid.NewPaths(g, 64)
		if w%2 == 1 {
			model = navgrid.NewFields(g, 3)
		}
		wg.Go(func() { run(w, model, got) })
	}
	wg.Wait()
	for i := range want {
		if got[i].chain != want[i].chain || math.Abs(got[i].cost-want[i].cost) > 1e-9 {
			t.Fatalf("resolve %d: %v, alone %v", i, got[i], want[i])
		}
	}
}

// TestModelsAreSizedByTheGrid: asking for more fields or cached lengths
// than a grid has places or pairs of places allocates no more than it
// has.
func TestModelsAreSizedByTheGrid(t *testing.T) {
	g, err := navgrid.New(4, 4, navgrid.Layout{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p := navgrid.NewPaths(g, 1<<22)
	f := navgrid.NewFields(g, 1<<22)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("a Paths and a Fields over 16 cells took %d bytes", n)
	}
	for _, m := range []resolver.DistanceModel{p, f} {
		if d := m.Distance(at(0, 0), at(3, 3)); math.Abs(d-3*math.Sqrt2) > 1e-12 {
			t.Errorf("%T: %g, want 3√2", m, d)
		}
	}
}
