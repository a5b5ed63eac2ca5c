package domains_test

import (
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// TestSoldierPersonalities checks seed 001 §5's two soldiers against the
// domain they are registered for: their goals exist, their profiles
// compile, and on the start state their KillPlayer plans differ as the
// seed means them to (the gun at 9, the axe at 10).
func TestSoldierPersonalities(t *testing.T) {
	d, err := goap.NewDomain(domains.Soldier())
	if err != nil {
		t.Fatal(err)
	}
	ps := domains.Personalities(d.Name())
	if len(ps) != 2 || ps[0].Name != "offensive" || ps[1].Name != "defensive" {
		t.Fatalf("soldier personalities: %+v", ps)
	}
	wantFirst := map[string]string{"offensive": "KillPlayer", "defensive": "GetSafe"}
	wantCost := map[string]float64{"offensive": 9, "defensive": 10}
	for _, p := range ps {
		for _, g := range p.Goals {
			if d.Goal(g.Goal) == nil {
				t.Errorf("%s: no goal %q in the soldier", p.Name, g.Goal)
			}
		}
		if first := p.Goals[0]; first.Goal != wantFirst[p.Name] || first.Priority <= p.Goals[1].Priority {
			t.Errorf("%s: goals %+v, want %s first and highest", p.Name, p.Goals, wantFirst[p.Name])
		}
		prof, err := d.NewProfile(p.Profile)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		res, err := goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goal("KillPlayer"), goap.Options{Profile: prof})
		if err != nil || res.Cost != wantCost[p.Name] {
			t.Errorf("%s: KillPlayer cost %g, %v; want %g", p.Name, res.Cost, err, wantCost[p.Name])
		}
	}
	if ps := domains.Personalities("battlemage"); ps != nil {
		t.Errorf("battlemage: %+v, want none", ps)
	}
}
