package resolver

import (
	"math"
	"testing"
)

// TestFreshResolverWrapsEachCounter: on a resolver that has never
// resolved, every stamp is 0. A counter that wraps to 0 must clear its
// stamps and move on to 1, or each of those zero stamps reads as current
// and the search skips every action it has not met. Each counter is
// taken to the edge on its own.
func TestFreshResolverWrapsEachCounter(t *testing.T) {
	d, err := NewDomain(Spec{
		Keys:    []KeySpec{{Name: "done", Kind: Bool}, {Name: "ready", Kind: Bool}},
		Actions: []ActionSpec{{Name: "Do", Conditions: []Condition{True("ready")}, Effects: []Effect{Sets("done", true)}, Cost: 1}, {Name: "Prepare", Effects: []Effect{Sets("ready", true)}, Cost: 1}},
		Goals:   []GoalSpec{{Name: "Done", Conditions: []Condition{True("done")}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, edge := range []func(*Resolver){
		func(r *Resolver) { r.epoch = math.MaxUint32 },
		func(r *Resolver) { r.runEpoch = math.MaxUint32 },
		func(r *Resolver) { r.expansion = math.MaxUint32 },
	} {
		r := NewResolver(d)
		edge(r)
		res, err := r.Resolve(nil, d.NewSnapshot(), d.Goal("Done"), Options{})
		if err != nil || len(res.Chain) != 2 || r.epoch == 0 || r.runEpoch == 0 || r.expansion == 0 {
			t.Errorf("%+v, %v (epochs %d, %d, %d); want Prepare → Do", res, err, r.epoch, r.runEpoch, r.expansion)
		}
	}
}
