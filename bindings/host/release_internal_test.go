package host

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/ploy-ai/ploy/domains"
)

// TestReleasedBetweenLookupAndLock releases a world just after a call
// found it (or one of its agents) and before the call locks it, as
// another thread can: the call must say the handle is gone, and add
// nothing to the world.
func TestReleasedBetweenLookupAndLock(t *testing.T) {
	src, err := fs.ReadFile(domains.Files, "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Load(src, "battlemage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer Release(d)
	defer func() { betweenLookupAndLock = nil }()
	calls := map[string]func(w, a Handle) error{
		"NewAgent": func(w, _ Handle) error { _, err := NewAgent(w, "goap", ""); return err },
		"Frame":    func(w, _ Handle) error { _, err := Frame(w); return err },
		"Record":   func(w, _ Handle) error { return Record(w, 0, 0) },
		"Set":      func(_, a Handle) error { return Set(a, "in_range", 1) },
		"Report":   func(_, a Handle) error { return Report(a, Success) },
	}
	before := Held()
	for name, call := range calls {
		w, _ := NewWorld(d, 1)
		a, _ := NewAgent(w, "goap", "")
		betweenLookupAndLock = func() {
			betweenLookupAndLock = nil
			Release(w)
		}
		if err := call(w, a); !errors.Is(err, ErrNoHandle) {
			t.Errorf("%s on a world released as it was called: %v, want no such handle", name, err)
		}
	}
	if got := Held() - before; got != 0 {
		t.Fatalf("%d handles held in worlds released", got)
	}
}
