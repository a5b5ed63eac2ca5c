package attack

import (
	"context"
	"os/exec"
	"strconv"
	"testing"
)

// childCommand is the command that runs ploy with a's arguments: ploy
// itself, or, when a.addressSpace is set, ploy under util-linux's prlimit
// with that RLIMIT_AS (prlimit sets the limit and execs ploy, so the
// watchdog still watches ploy's own process). Without prlimit the test is
// skipped.
func childCommand(ctx context.Context, t *testing.T, a attack) *exec.Cmd {
	if a.addressSpace == 0 {
		return exec.CommandContext(ctx, ploy, a.args...)
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit (util-linux) to set the child's RLIMIT_AS")
	}
	args := append([]string{"--as=" + strconv.FormatInt(a.addressSpace, 10), ploy}, a.args...)
	return exec.CommandContext(ctx, prlimit, args...)
}
