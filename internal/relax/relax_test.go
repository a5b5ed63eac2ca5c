package relax

import (
	"testing"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

func TestWhyMatchesLessonWording(t *testing.T) {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		t.Fatal(err)
	}
	s := d.Initial()
	healthy, _ := d.Fact("healthy")
	shrine, _ := d.Fact("potion_at_shrine")
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
