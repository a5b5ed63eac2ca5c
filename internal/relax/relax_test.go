package relax

import (
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

// battleMage returns the battle mage and the facts of the given names.
func battleMage(t *testing.T, names ...string) (*goap.Domain, []goap.Fact) {
	t.Helper()
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	facts := make([]goap.Fact, len(names))
	for i, name := range names {
		var ok bool
		if facts[i], ok = d.Fact(name); !ok {
			t.Fatalf("no fact %q", name)
		}
	}
	return d, facts
}

func TestWhyMatchesLessonWording(t *testing.T) {
	d, f := battleMage(t, "healthy", "potion_at_shrine")
	healthy, shrine := f[0], f[1]
	s := d.Initial()
	s.Set(healthy, false)
	s.Set(shrine, false)
	r := From(d, s, nil)
	l := Literal{healthy, true}
	if r.Has(l) {
		t.Fatal("healthy reachable without a potion")
	}
	want := "healthy: only DrinkPotion makes it true; it needs carrying_potion, which only FetchPotion makes true; FetchPotion needs potion_at_shrine, which is false and which no action makes true"
	if got := r.Why(l); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if enemy, _ := d.Fact("enemy_dead"); !r.Has(Literal{enemy, true}) {
		t.Error("enemy_dead should stay reachable")
	}
}

// TestFreeFactsTakeBothValues checks that a free fact (one the world
// changes) is reachable either way, and what it unlocks with it.
func TestFreeFactsTakeBothValues(t *testing.T) {
	d, f := battleMage(t, "healthy", "potion_at_shrine", "carrying_potion")
	healthy, shrine, carrying := f[0], f[1], f[2]
	s := d.Initial()
	s.Set(shrine, false)
	if r := From(d, s, nil); r.Has(Literal{healthy, false}) || r.Has(Literal{carrying, true}) {
		t.Fatal("without free facts: not healthy and a carried potion should be out of reach")
	}
	r := From(d, s, nil, healthy, shrine)
	for _, l := range []Literal{{healthy, false}, {healthy, true}, {shrine, true}, {carrying, true}} {
		if !r.Has(l) {
			t.Errorf("%s should be reachable with healthy and potion_at_shrine free", Format(d, l))
		}
	}
}
