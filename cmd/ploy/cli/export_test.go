package cli

import (
	"context"

	"github.com/ploy-ai/ploy/internal/buildinfo"
)

// VersionOf is buildinfo.Of, for the tests of the version's fallbacks.
var VersionOf = buildinfo.Of

// ErrorText is errorText, for the tests of the prefixes it strips.
var ErrorText = errorText

// StopServeWith makes ploy serve run until ctx is done rather than until
// a signal, for the tests that start it; the returned func undoes it.
func StopServeWith(ctx context.Context) (undo func()) {
	was := stopSignals
	stopSignals = func() (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }
	return func() { stopSignals = was }
}

// UseGoCommand makes ploy site build with the go toolchain named, one
// that may not be there; the returned func undoes it.
func UseGoCommand(name string) (undo func()) {
	was := goCommand
	goCommand = name
	return func() { goCommand = was }
}
