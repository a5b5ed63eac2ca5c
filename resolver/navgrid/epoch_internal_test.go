package navgrid

import (
	"math"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// TestEpochWrapAround: the search stamps are valid only where they equal
// the current epoch; when it wraps, stamps of four billion searches ago
// must not pass for this search's (a cell closed then would be skipped).
func TestEpochWrapAround(t *testing.T) {
	g, err := FromRows([]string{
		".....",
		".###.",
		".....",
	}, Layout{Connect: Four})
	if err != nil {
		t.Fatal(err)
	}
	at := func(x, y int) resolver.Point { return resolver.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5} }
	p, f := NewPaths(g, 0), NewFields(g, 1)
	// Epoch 1: from the top-left corner, closing the cells on the way.
	p.Distance(at(0, 0), at(4, 2))
	f.Distance(at(4, 2), at(0, 0))
	p.epoch, f.epoch = math.MaxUint32, math.MaxUint32
	// The next search is epoch 1 again, from the other corner.
	if d := p.Distance(at(4, 0), at(0, 2)); d != 6 {
		t.Errorf("Paths after the wrap: %g, want 6", d)
	}
	if d := f.Distance(at(0, 2), at(4, 0)); d != 6 {
		t.Errorf("Fields after the wrap: %g, want 6", d)
	}
}
