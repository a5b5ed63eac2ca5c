package resolver

import (
	"math"
	"slices"
	"testing"
)

// TestEpochWrapAround: the per-action and per-node stamps are valid only
// where they equal the current epoch. When an epoch counter wraps, stamps
// written four billion resolves ago would look current again unless they
// are cleared: a resolve would reuse another snapshot's costs and
// conditions, and another search's dominance lists.
func TestEpochWrapAround(t *testing.T) {
	spec := Spec{
		Name: "wrap",
		Keys: []KeySpec{{Name: "done", Kind: Bool}, {Name: "ready", Kind: Bool}, {Name: "set", Kind: Bool}},
		Actions: []ActionSpec{
			{Name: "Do", Conditions: []Condition{True("ready")}, Effects: []Effect{Sets("done", true)}, Cost: 1},
			{Name: "Prepare", Conditions: []Condition{True("set")}, Effects: []Effect{Sets("ready", true)}, Cost: 1},
			{Name: "Setup", Effects: []Effect{Sets("set", true)}, Cost: 1},
		},
		Goals: []GoalSpec{{Name: "Done", Conditions: []Condition{True("done")}}},
	}
	d, err := NewDomain(spec)
	if err != nil {
		t.Fatal(err)
	}
	notSet, set := d.NewSnapshot(), d.NewSnapshot()
	set.Values[2] = 1
	want := func(s *Snapshot) []ActionID {
		res, _ := NewResolver(d).Resolve(nil, s, d.Goal("Done"), Options{})
		return res.Chain
	}
	r := NewResolver(d)
	// Epoch 1 of each counter: Prepare is priced with set unmet, and the
	// chains through Do and Prepare are listed for dominance.
	r.Resolve(nil, notSet, d.Goal("Done"), Options{})
	r.epoch, r.runEpoch, r.expansion = math.MaxUint32, math.MaxUint32, math.MaxUint32
	// Each counter wraps to 0 and starts again at 1, where epoch 1's
	// stamps must not be taken for this resolve's.
	res, _ := r.Resolve(nil, set, d.Goal("Done"), Options{})
	if w := want(set); !slices.Equal(res.Chain, w) {
		t.Fatalf("after the wrap: %v, want %v", d.FormatChain(res.Chain), d.FormatChain(w))
	}
}
