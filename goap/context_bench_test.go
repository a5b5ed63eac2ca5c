package goap_test

import (
	"context"
	"testing"

	"github.com/ploy-ai/ploy/goap"
)

// BenchmarkContext is BenchmarkRandom32Forward and
// BenchmarkRandom32Backward with a live Options.Context: compared with
// them (benchstat), the price of looking at it every few thousand units
// of work.
func BenchmarkContext(b *testing.B) {
	d, s := random32()
	b.Run("Random32Forward", func(b *testing.B) {
		benchPlan(b, d, s, d.Goals()[0], goap.Options{Context: context.Background()})
	})
	b.Run("Random32Backward", func(b *testing.B) {
		ctx, cancel := context.WithCancel(context.Background()) // a cancelable one, as a server's
		defer cancel()
		benchPlan(b, d, s, d.Goals()[0], goap.Options{Search: goap.Backward, Context: ctx})
	})
}
