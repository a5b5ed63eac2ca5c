package resolver_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/ploy-ai/ploy/resolver"
)

// recovered runs f and returns what it panicked with, as text.
func recovered(f func()) (r string) {
	defer func() { r = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}

// A nil or zero Resolver says what to call instead of dereferencing nil.
func TestZeroResolverSaysWhatToCall(t *testing.T) {
	const want = "resolver: Resolver not made by NewResolver: a nil or zero Resolver has no domain; call resolver.NewResolver(domain)"
	var zero resolver.Resolver
	var none *resolver.Resolver
	for name, call := range map[string]func(){
		"zero Resolve": func() { zero.Resolve(nil, &resolver.Snapshot{}, nil, resolver.Options{}) },
		"nil Resolve":  func() { none.Resolve(nil, &resolver.Snapshot{}, nil, resolver.Options{}) },
		"zero Domain":  func() { zero.Domain() },
		"nil Domain":   func() { none.Domain() },
	} {
		if r := recovered(call); r != want {
			t.Errorf("%s: recovered %s, want %q", name, r, want)
		}
	}
}

// Dimensions is Point's number of coordinates, which every reader of a
// position [x, y] checks a list's length against.
func TestDimensionsArePointFields(t *testing.T) {
	if n := reflect.TypeFor[resolver.Point]().NumField(); n != resolver.Dimensions {
		t.Errorf("resolver.Point has %d fields, resolver.Dimensions is %d", n, resolver.Dimensions)
	}
}
