package agent_test

import (
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// TestResolverSetProfileWhileWaiting: a profile set while a resolver
// agent's request waits in the queue applies from the next resolve on; the
// waiting one resolves with the profile it was made with (and, under
// -race, without the worker reading what SetProfile writes).
func TestResolverSetProfileWhileWaiting(t *testing.T) {
	chainOf := func(setProfile bool) (first, second string) {
		fc := newFrameCrowd(t, 1, 1)
		a := fc.agents[0]
		d := a.Domain()
		onlyEat, err := d.NewProfile(resolver.ProfileSpec{Capabilities: []string{"Eat"}})
		if err != nil {
			t.Fatal(err)
		}
		fc.submit()
		if setProfile {
			a.SetProfile(onlyEat)
		}
		fc.q.Frame()
		first = d.FormatChain(a.Chain())
		fc.submit()
		fc.q.Frame()
		return first, d.FormatChain(a.Chain())
	}
	wantFirst, _ := chainOf(false)
	first, second := chainOf(true)
	if first != wantFirst {
		t.Errorf("the waiting request resolved to %q, want %q (the profile it was made with)", first, wantFirst)
	}
	if second == wantFirst {
		t.Errorf("the next resolve found %q again: the new profile (only Eat) was not used", second)
	}
}
