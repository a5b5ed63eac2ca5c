package resolver_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/resolver"
	"github.com/ploy-ai/ploy/search"
)

// TestContextStopsAResolve: a resolve given a context already canceled,
// or past its deadline, stops before its first expansion, with Status
// Canceled and an error wrapping the context's; one given a live context
// finds the same chain as without one.
func TestContextStopsAResolve(t *testing.T) {
	d := mustDomain(t, domains.Survivor())
	s := mustSnapshot(t, d, map[string]int64{"warmth": 20, "hunger": 10}, resolver.Point{}, camp())
	want, err := resolve(t, d, s, "Warm", resolver.Options{})
	if err != nil || want.Status != resolver.Found {
		t.Fatalf("without a context: %+v, %v", want, err)
	}
	res, err := resolve(t, d, s, "Warm", resolver.Options{Context: context.Background()})
	if err != nil || res.Status != resolver.Found || !slices.Equal(res.Chain, want.Chain) || res.Expanded != want.Expanded {
		t.Fatalf("with a live context: %+v, %v; want %+v", res, err, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = resolve(t, d, s, "Warm", resolver.Options{Context: ctx})
	if res.Status != resolver.LimitReached || res.Bound != search.Canceled || !errors.Is(err, context.Canceled) || !errors.Is(err, search.ErrLimit) || res.Expanded != 0 || resolver.StatusName(res.Status, res.Bound) != "canceled" {
		t.Fatalf("canceled: %+v, %v; want Canceled before the first expansion", res, err)
	}
	if msg := err.Error(); msg != `resolver: goal "Warm": stopped: context canceled` {
		t.Errorf("message %q", msg)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), -time.Second)
	defer dcancel()
	res, err = resolve(t, d, s, "Warm", resolver.Options{Context: dctx})
	if res.Status != resolver.LimitReached || res.Bound != search.Deadline || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("past its deadline: %+v, %v; want Canceled", res, err)
	}
}
