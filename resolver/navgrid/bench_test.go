package navgrid_test

import (
	"testing"

	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/resolver/navgrid"
)

// BenchmarkSearch measures one uncached A* search on a 64 × 64 grid with
// a wall across most of it, from one side of the wall to the other.
func BenchmarkSearch(b *testing.B) {
	g, err := navgrid.New(64, 64, navgrid.Layout{})
	if err != nil {
		b.Fatal(err)
	}
	for x := range 56 {
		g.SetWall(x, 32, true)
	}
	p := navgrid.NewPaths(g, 0)
	from, to := resolver.Point{X: 10.5, Y: 10.5}, resolver.Point{X: 20.5, Y: 50.5}
	want := p.Distance(from, to)
	b.ReportAllocs()
	for b.Loop() {
		if p.Distance(from, to) != want {
			b.Fatal("changed")
		}
	}
	searches, expanded := p.Stats()
	b.ReportMetric(float64(expanded)/float64(searches), "cells/search")
	b.ReportMetric(float64(expanded)/b.Elapsed().Seconds(), "cells/s")
}

// BenchmarkField measures one distance field over the same grid: a
// Dijkstra's search over every open cell.
func BenchmarkField(b *testing.B) {
	g, err := navgrid.New(64, 64, navgrid.Layout{})
	if err != nil {
		b.Fatal(err)
	}
	for x := range 56 {
		g.SetWall(x, 32, true)
	}
	f := navgrid.NewFields(g, 1)
	places := []resolver.Point{{X: 20.5, Y: 50.5}, {X: 40.5, Y: 10.5}} // two, so that each call measures
	from := resolver.Point{X: 10.5, Y: 10.5}
	f.Distance(from, places[0])
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		f.Distance(from, places[n%2])
		n++
	}
	b.ReportMetric(float64(64*64-56)*float64(n)/b.Elapsed().Seconds(), "cells/s")
}
